//! Words of other languages read as English listing words (content/explore.md#translations).
//!
//! `tools/vectors/translations.sh` embeds the whole words of multilingual-e5-small's own
//! vocabulary that the vector table lacks ("clima", "noticias", "suche"), each alone, and
//! pairs each with the word of the vector table whose embedding is nearest, when their
//! cosine is high enough, or (since 2.6.0) when cross-domain similarity local scaling
//! rescues it. The pairs are committed as `content/explore/vectors/translations.tsv`
//! (word, read as, cosine, the test that kept it); explore looks a query word up there
//! when no document contains it and the table has no row for it. A rescued pair is a
//! guess, so it yields to a near spelling. It is a table, not a model: the browser reads
//! the same pairs from `api/explore/translations/`.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use catalogue::Error;

static TSV: &str = include_str!("../../../content/explore/vectors/translations.tsv");
/// What model, package and files the pairs were made from (checksums included).
pub static PROVENANCE: &str = include_str!("../../../content/explore/vectors/translations.json");

/// One pair of the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pair {
    /// The vector-table word the word is read as.
    pub read_as: String,
    /// Kept by cross-domain similarity local scaling below its cosine (since 2.6.0): read
    /// only for a word with no near spelling (content/explore.md#translations).
    pub rescued: bool,
}

#[derive(Debug, Clone, Default)]
pub struct Translations {
    /// Word → its pair.
    pairs: BTreeMap<String, Pair>,
}

impl Translations {
    /// The pairs compiled into this binary.
    pub fn embedded() -> &'static Translations {
        static TABLE: OnceLock<Translations> = OnceLock::new();
        TABLE.get_or_init(|| Translations::parse(TSV).expect("the embedded translations are well formed"))
    }

    /// Reads `word<TAB>read as<TAB>cosine<TAB>kept by` lines (`cosine` or `csls`), sorted
    /// by word (UTF-8 bytes), unique; each word is kept case-folded.
    pub(crate) fn parse(tsv: &str) -> Result<Translations, Error> {
        let mut pairs = BTreeMap::new();
        let mut last: Option<&str> = None;
        for (n, line) in tsv.lines().enumerate() {
            let bad = |why: &str| Error::content("content/explore/vectors/translations.tsv", n + 1, why);
            let mut cols = line.split('\t');
            let (Some(word), Some(read_as), Some(_cosine), Some(kept_by), None) =
                (cols.next(), cols.next(), cols.next(), cols.next(), cols.next())
            else {
                return Err(bad("expected four tab-separated columns"));
            };
            let rescued = match kept_by {
                "cosine" => false,
                "csls" => true,
                _ => return Err(bad("the fourth column is neither cosine nor csls")),
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
            pairs
                .entry(method::normalise::fold(word).into_owned())
                .or_insert_with(|| Pair { read_as: read_as.to_owned(), rescued });
        }
        Ok(Translations { pairs })
    }

    /// The word `word` is read as, rescued or not.
    pub fn get(&self, word: &str) -> Option<&str> {
        self.pair(word).map(|p| p.read_as.as_str())
    }

    pub fn pair(&self, word: &str) -> Option<&Pair> {
        self.pairs.get(word)
    }

    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pairs.iter().map(|(a, p)| (a.as_str(), p.read_as.as_str()))
    }

    pub fn pairs(&self) -> impl Iterator<Item = (&str, &Pair)> {
        self.pairs.iter().map(|(a, p)| (a.as_str(), p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_must_be_sorted_unique_and_complete() {
        let t = Translations::parse("clima\tweather\t0.9500\tcosine\nnoticias\tnews\t0.9400\tcsls\n").unwrap();
        assert_eq!(t.get("clima"), Some("weather"));
        assert_eq!(t.pair("clima").map(|p| p.rescued), Some(false));
        assert_eq!(t.pair("noticias").map(|p| p.rescued), Some(true));
        assert_eq!(t.get("weather"), None);
        assert!(Translations::parse("noticias\tnews\t0.96\tcosine\nclima\tweather\t0.95\tcosine\n").is_err());
        assert!(Translations::parse("clima\tweather\t0.95\tcosine\nclima\tclimate\t0.94\tcosine\n").is_err());
        assert!(Translations::parse("clima\tweather\t0.95\n").is_err());
        assert!(Translations::parse("clima\tweather\t0.95\tguess\n").is_err());
    }
}
