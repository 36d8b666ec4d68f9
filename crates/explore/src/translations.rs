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

/// The shortest opening of a word [`Translations::by_prefix`] reads, in characters.
pub const PREFIX_MIN_CHARS: usize = 5;
/// The least share of the word's characters that opening holds, as (numerator,
/// denominator): three fifths, so "sinyal" (6) reads "sinyalleri" (10) and "indir" (5)
/// does not read "indirizzo" (9).
pub const PREFIX_SHARE: (usize, usize) = (3, 5);

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
                // Kept below its cosine, by CSLS or (since 2.9.0) as a listing word: a guess.
                "csls" | "listing" => true,
                _ => return Err(bad("the fourth column is none of cosine, csls and listing")),
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

    /// Since 2.7.0, the word's longest opening that the table pairs by its cosine, of at
    /// least [`PREFIX_MIN_CHARS`] characters and [`PREFIX_SHARE`] of the word, as (that
    /// opening, its reading): an inflected word whose stem is a whole word of the model
    /// ("sinyalleri" → "sinyal" → "signal", "pagamentos" → "pagamento" → "payment";
    /// content/explore.md#translations). A rescued pair is a guess, so it is no stem.
    pub fn by_prefix<'w>(&self, word: &'w str) -> Option<(&'w str, &str)> {
        let ends: Vec<usize> = word.char_indices().map(|(i, _)| i).skip(1).collect();
        let chars = ends.len() + 1;
        let (share, of) = PREFIX_SHARE;
        ends.iter()
            .enumerate()
            .rev()
            .map(|(k, &end)| (k + 1, &word[..end]))
            .take_while(|&(n, _)| n >= PREFIX_MIN_CHARS && n * of >= chars * share)
            .find_map(|(_, opening)| self.pair(opening).filter(|p| !p.rescued).map(|p| (opening, p.read_as.as_str())))
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
        let t = Translations::parse(
            "clima\tweather\t0.9500\tcosine\nnoticias\tnews\t0.9400\tcsls\nwetter\tweather\t0.9060\tlisting\n",
        )
        .unwrap();
        assert_eq!(t.get("clima"), Some("weather"));
        assert_eq!(t.pair("clima").map(|p| p.rescued), Some(false));
        assert_eq!(t.pair("noticias").map(|p| p.rescued), Some(true));
        assert_eq!(t.pair("wetter").map(|p| p.rescued), Some(true), "a listing word below the cosine is a guess too");
        assert_eq!(t.get("weather"), None);
        assert!(Translations::parse("noticias\tnews\t0.96\tcosine\nclima\tweather\t0.95\tcosine\n").is_err());
        assert!(Translations::parse("clima\tweather\t0.95\tcosine\nclima\tclimate\t0.94\tcosine\n").is_err());
        assert!(Translations::parse("clima\tweather\t0.95\n").is_err());
        assert!(Translations::parse("clima\tweather\t0.95\tguess\n").is_err());
    }

    #[test]
    fn a_word_is_read_by_its_longest_opening_kept_by_its_cosine() {
        let t = Translations::parse(
            "avalia\tava\t0.93\tcsls\nindir\tindira\t0.96\tcosine\npagam\tpay\t0.95\tcosine\n\
             pagamento\tpayment\t0.96\tcosine\nsinya\tsin\t0.95\tcosine\nsinyal\tsignal\t0.95\tcosine\n\
             адрес\taddress\t0.95\tcosine\n",
        )
        .unwrap();
        // The longest opening the table pairs, not the first found.
        assert_eq!(t.by_prefix("pagamentos"), Some(("pagamento", "payment")));
        assert_eq!(t.by_prefix("sinyalleri"), Some(("sinyal", "signal")));
        // Openings are cut at characters, not bytes (Cyrillic letters are two bytes).
        assert_eq!(t.by_prefix("адресу"), Some(("адрес", "address")));
        // Five characters but under three fifths of nine: no reading.
        assert_eq!(t.by_prefix("indirizzo"), None);
        // Exactly three fifths: 6 of 10.
        assert_eq!(t.by_prefix("indirizzos"), None, "indir is 5 of 10");
        assert_eq!(t.by_prefix("sinyalxxxx"), Some(("sinyal", "signal")));
        assert_eq!(t.by_prefix("sinyalxxxxx"), None, "6 of 11 is under three fifths");
        // A rescued pair is no stem.
        assert_eq!(t.by_prefix("avaliações"), None);
        // The word itself is no opening of itself; fewer than five characters never read.
        assert_eq!(t.by_prefix("sinyal"), Some(("sinya", "sin")));
        assert_eq!(t.by_prefix("pagam"), None);
        assert_eq!(t.by_prefix(""), None);
        let short = Translations::parse("cota\tquote\t0.96\tcosine\n").unwrap();
        assert_eq!(short.by_prefix("cotas"), None);
    }
}
