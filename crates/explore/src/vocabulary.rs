//! The corpus half of the vector table's vocabulary: every word of the stored snapshots'
//! explore documents that is worth a vector (`x402dir vocabulary`).
//!
//! `tools/vectors/regenerate.sh` embeds these words beside the model's own vocabulary
//! (tools/vectors/README.md); CI checks that the list printed today is the committed
//! `content/explore/vectors/corpus-words.txt`, so a table is never built from a corpus
//! the code no longer produces.

use std::collections::{BTreeMap, BTreeSet};

use super::document::document_parts;
use method::index::Index;

/// A corpus word worth a vector: has a letter and is not an id (long, or hex-like).
pub(crate) fn worth_a_vector(word: &str) -> bool {
    let chars = word.chars().count();
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    let hex_like = chars >= 12 && word.chars().all(|c| c.is_ascii_hexdigit());
    letters > 0 && chars <= 24 && !hex_like && letters * 2 >= chars
}

/// The words of every entry's explore document that are worth a vector, sorted and
/// unique, one a line.
pub fn corpus_words(indexes: &[Index]) -> String {
    corpus_documents(indexes).into_keys().map(|word| word + "\n").collect()
}

/// [`corpus_words`] with, after a tab, how many documents of the stored snapshots
/// contain each word (a listing stored in two snapshots counts twice): the translation
/// table prefers, among a word's nearly nearest targets, the one most listings use
/// (content/explore.md#translations, since 2.9.0).
pub fn corpus_word_documents(indexes: &[Index]) -> String {
    corpus_documents(indexes).into_iter().map(|(word, n)| format!("{word}\t{n}\n")).collect()
}

/// Each word worth a vector of every entry's explore document, with the number of
/// documents that contain it.
fn corpus_documents(indexes: &[Index]) -> BTreeMap<String, u32> {
    let mut words: BTreeMap<String, u32> = BTreeMap::new();
    for entry in indexes.iter().flat_map(|index| &index.entries) {
        // The words the dense side reads (a withheld description's are not).
        let (document, withheld) = document_parts(entry);
        let distinct: BTreeSet<String> = document.into_iter().skip(withheld).filter(|w| worth_a_vector(w)).collect();
        for word in distinct {
            *words.entry(word).or_default() += 1;
        }
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_numbers_get_no_vector() {
        assert!(worth_a_vector("weather"));
        assert!(worth_a_vector("gpt4"));
        assert!(!worth_a_vector("2025"));
        assert!(!worth_a_vector("deadbeefcafe"), "hex-like ids");
        assert!(!worth_a_vector("v12345"), "more digits than letters");
        assert!(!worth_a_vector("abcdefghijklmnopqrstuvwxyz"), "longer than 24 characters");
    }
}
