//! Every explore document as numbers into one vocabulary.
//!
//! A million documents of forty words each are forty million words: as separate
//! strings that is gigabytes, as `u32` ids into a shared vocabulary 160 MB. BM25 and
//! the dense vectors both read documents this way.

use std::collections::HashMap;

use rayon::prelude::*;

use super::document::document_parts;
use method::index::Index;

/// Documents are made in parallel this many at a time, then numbered, so that only one
/// batch of them is ever held as strings.
const BATCH: usize = 16_384;

#[derive(Debug, Clone, Default)]
pub struct Corpus {
    /// Word id to word, in order of first appearance.
    pub vocabulary: Vec<String>,
    /// Every document's words, one after another.
    words: Vec<u32>,
    /// Document `i` is `words[starts[i]..starts[i + 1]]`.
    starts: Vec<usize>,
    /// How many of document `i`'s first words are a withheld description's, which the
    /// dense side does not read ([`Corpus::meaning`]).
    withheld: Vec<u32>,
}

impl Corpus {
    /// The documents of every entry of `index`, in id order.
    pub fn of_index(index: &Index) -> Corpus {
        let mut corpus = Corpus::new();
        let mut ids = HashMap::new();
        for batch in index.entries.chunks(BATCH) {
            let documents: Vec<(Vec<String>, usize)> = batch.par_iter().map(document_parts).collect();
            corpus.extend(&mut ids, documents);
        }
        corpus.vocabulary.shrink_to_fit();
        corpus.words.shrink_to_fit();
        corpus
    }

    /// A corpus of the given word lists (document `i` gets id `i`), for tests.
    #[cfg(test)]
    pub(crate) fn from_documents(documents: Vec<Vec<String>>) -> Corpus {
        let mut corpus = Corpus::new();
        corpus.extend(&mut HashMap::new(), documents.into_iter().map(|d| (d, 0)).collect());
        corpus
    }

    fn new() -> Corpus {
        Corpus { vocabulary: Vec::new(), words: Vec::new(), starts: vec![0], withheld: Vec::new() }
    }

    /// Adds `documents`; `ids` numbers the vocabulary so far.
    fn extend(&mut self, ids: &mut HashMap<String, u32>, documents: Vec<(Vec<String>, usize)>) {
        for (words, withheld) in documents {
            self.withheld.push(withheld as u32);
            for w in words {
                let next = self.vocabulary.len() as u32;
                let id = *ids.entry(w).or_insert_with_key(|w| {
                    self.vocabulary.push(w.clone());
                    next
                });
                self.words.push(id);
            }
            self.starts.push(self.words.len());
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The word ids of document `i`, in order, repeats kept.
    pub fn document(&self, i: usize) -> &[u32] {
        &self.words[self.starts[i]..self.starts[i + 1]]
    }

    /// The words of document `i` the dense side reads: all but a withheld description's.
    pub fn meaning(&self, i: usize) -> &[u32] {
        &self.document(i)[self.withheld[i] as usize..]
    }

    /// All words of all documents (repeats counted).
    pub(crate) fn total_words(&self) -> usize {
        self.words.len()
    }

    /// The vocabulary, the documents let go.
    pub(crate) fn into_vocabulary(self) -> Vec<String> {
        self.vocabulary
    }

    /// How many documents contain each word, by word id.
    pub(crate) fn document_frequency(&self) -> Vec<u32> {
        let mut df = vec![0u32; self.vocabulary.len()];
        let mut seen: Vec<u32> = Vec::new();
        for i in 0..self.len() {
            seen.clear();
            seen.extend_from_slice(self.document(i));
            seen.sort_unstable();
            seen.dedup();
            for &w in &seen {
                df[w as usize] += 1;
            }
        }
        df
    }

    /// Document `i`'s distinct word ids with how often each occurs, by ascending id.
    pub(crate) fn term_frequencies(&self, i: usize) -> Vec<(u32, u32)> {
        let mut ids = self.document(i).to_vec();
        ids.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::new();
        for id in ids {
            match out.last_mut() {
                Some((last, n)) if *last == id => *n += 1,
                _ => out.push((id, 1)),
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documents_read_back_as_given() {
        let docs = vec![vec!["a".to_owned(), "b".into(), "a".into()], vec![], vec!["c".into(), "b".into()]];
        let corpus = Corpus::from_documents(docs.clone());
        assert_eq!(corpus.len(), 3);
        for (i, doc) in docs.iter().enumerate() {
            let back: Vec<&str> = corpus.document(i).iter().map(|&w| corpus.vocabulary[w as usize].as_str()).collect();
            assert_eq!(&back, doc);
        }
        let df = corpus.document_frequency();
        let of = |w: &str| df[corpus.vocabulary.iter().position(|v| v == w).unwrap()];
        assert_eq!((of("a"), of("b"), of("c")), (1, 2, 1));
        assert_eq!(corpus.term_frequencies(0).iter().map(|&(_, n)| n).collect::<Vec<_>>(), [2, 1]);
        assert_eq!(corpus.total_words(), 5);
    }
}
