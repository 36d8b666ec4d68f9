//! Words of other languages read as English listing words (content/explore.md#translations).
//!
//! `tools/vectors/translations.sh` embeds the whole words of multilingual-e5-small's own
//! vocabulary that the vector table lacks ("clima", "noticias", "suche"), each alone, and
//! pairs each with the word of the vector table whose embedding is nearest, when their
//! cosine is high enough. The pairs are committed as `content/explore/vectors/translations.tsv`
//! (word, read as, cosine); explore looks a query word up there when no document
//! contains it and the table has no row for it. It is a table, not a model: the browser
//! reads the same pairs from `api/explore/translations/`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use catalogue::Error;

static TSV: &str = include_str!("../../../content/explore/vectors/translations.tsv");
/// What model, package and files the pairs were made from (checksums included).
pub static PROVENANCE: &str = include_str!("../../../content/explore/vectors/translations.json");

#[derive(Debug, Clone, Default)]
pub struct Translations {
    /// Word → the vector-table word it is read as.
    pairs: BTreeMap<String, String>,
}

impl Translations {
    /// The pairs compiled into this binary.
    pub fn embedded() -> &'static Translations {
        static TABLE: OnceLock<Translations> = OnceLock::new();
        TABLE.get_or_init(|| Translations::parse(TSV).expect("the embedded translations are well formed"))
    }

    /// Reads `word<TAB>read as<TAB>cosine` lines, sorted by word (UTF-8 bytes), unique;
    /// each word is kept case-folded.
    pub(crate) fn parse(tsv: &str) -> Result<Translations, Error> {
        let mut pairs = BTreeMap::new();
        let mut last: Option<&str> = None;
        for (n, line) in tsv.lines().enumerate() {
            let bad = |why: &str| Error::content("content/explore/vectors/translations.tsv", n + 1, why);
            let mut cols = line.split('\t');
            let (Some(word), Some(read_as), Some(_cosine), None) = (cols.next(), cols.next(), cols.next(), cols.next())
            else {
                return Err(bad("expected three tab-separated columns"));
            };
            if word.is_empty() || read_as.is_empty() {
                return Err(bad("an empty word"));
            }
            if last.is_some_and(|l| l.as_bytes() >= word.as_bytes()) {
                return Err(bad("words not sorted and unique"));
            }
            last = Some(word);
            // Keyed as explore cuts a query: case-folded (content/method.md#words), so
            // "große" is looked up as "grosse". A folded key met twice keeps its first pair.
            pairs.entry(method::normalise::fold(word).into_owned()).or_insert_with(|| read_as.to_owned());
        }
        Ok(Translations { pairs })
    }

    pub fn get(&self, word: &str) -> Option<&str> {
        self.pairs.get(word).map(String::as_str)
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(a, b)| (a.as_str(), b.as_str()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_must_be_sorted_unique_and_complete() {
        let t = Translations::parse("clima\tweather\t0.9500\nnoticias\tnews\t0.9600\n").unwrap();
        assert_eq!(t.get("clima"), Some("weather"));
        assert_eq!(t.get("weather"), None);
        assert!(Translations::parse("noticias\tnews\t0.96\nclima\tweather\t0.95\n").is_err());
        assert!(Translations::parse("clima\tweather\t0.95\nclima\tclimate\t0.94\n").is_err());
        assert!(Translations::parse("clima\tweather\n").is_err());
    }
}
