//! Near spellings: a query word no document contains is read as the document word that
//! shares the most of its letter triples, when they share enough (content/explore.md#spelling).
//! So "wether" finds "weather", "predicton" "prediction", and "génération" "generation".
//!
//! Words are compared after folding accents ([`FOLD`]), by the Dice coefficient of their
//! sets of letter triples, each word padded with `^` and `$` (`^we`, `wet`, …, `er$`).
//! All of it is whole-number arithmetic, so the browser (static/explore.js, which reads
//! the triples' word lists from `api/explore/spelling/`) picks the very same word.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::vocabulary::worth_a_vector;

/// A query word shorter than this is never re-read (too few triples to tell words apart).
pub const MIN_CHARS: usize = 4;
/// Document words shorter than this are never offered.
pub(crate) const MIN_CANDIDATE_CHARS: usize = 3;
/// The Dice coefficient a near spelling needs, as a fraction: at least 1/2.
pub const MIN_DICE: (u64, u64) = (1, 2);

/// Accented Latin letters folded to their base letters before comparing.
pub const FOLD: &[(char, &str)] = &[
    ('à', "a"),
    ('á', "a"),
    ('â', "a"),
    ('ã', "a"),
    ('ä', "a"),
    ('å', "a"),
    ('ā', "a"),
    ('ă', "a"),
    ('ą', "a"),
    ('æ', "ae"),
    ('ç', "c"),
    ('ć', "c"),
    ('č', "c"),
    ('ď', "d"),
    ('đ', "d"),
    ('è', "e"),
    ('é', "e"),
    ('ê', "e"),
    ('ë', "e"),
    ('ē', "e"),
    ('ė', "e"),
    ('ę', "e"),
    ('ě', "e"),
    ('ğ', "g"),
    ('ì', "i"),
    ('í', "i"),
    ('î', "i"),
    ('ï', "i"),
    ('ī', "i"),
    ('į', "i"),
    ('ı', "i"),
    ('ł', "l"),
    ('ñ', "n"),
    ('ń', "n"),
    ('ň', "n"),
    ('ò', "o"),
    ('ó', "o"),
    ('ô', "o"),
    ('õ', "o"),
    ('ö', "o"),
    ('ø', "o"),
    ('ō', "o"),
    ('ő', "o"),
    ('œ', "oe"),
    ('ř', "r"),
    ('ß', "ss"),
    ('ś', "s"),
    ('š', "s"),
    ('ş', "s"),
    ('ť', "t"),
    ('ţ', "t"),
    ('ù', "u"),
    ('ú', "u"),
    ('û', "u"),
    ('ü', "u"),
    ('ū', "u"),
    ('ů', "u"),
    ('ű', "u"),
    ('ų', "u"),
    ('ý', "y"),
    ('ÿ', "y"),
    ('ź', "z"),
    ('ż', "z"),
    ('ž', "z"),
];

/// `word` with accents folded ([`FOLD`]).
pub(crate) fn fold(word: &str) -> String {
    let mut out = String::with_capacity(word.len());
    for c in word.chars() {
        match FOLD.iter().find(|(f, _)| *f == c) {
            Some((_, to)) => out.push_str(to),
            None => out.push(c),
        }
    }
    out
}

/// The distinct letter triples of `word` folded and padded, in byte order.
pub(crate) fn triples(word: &str) -> Vec<String> {
    let padded: Vec<char> = std::iter::once('^').chain(fold(word).chars()).chain(std::iter::once('$')).collect();
    let set: BTreeSet<String> = padded.windows(3).map(|w| w.iter().collect()).collect();
    set.into_iter().collect()
}

/// The first triple of `word` folded and padded (`^` and its first two letters).
pub(crate) fn opening(word: &str) -> String {
    std::iter::once('^').chain(fold(word).chars()).chain(std::iter::once('$')).take(3).collect()
}

/// Whether a document word may be offered as a near spelling.
pub(crate) fn offered(word: &str) -> bool {
    word.chars().count() >= MIN_CANDIDATE_CHARS && worth_a_vector(word)
}

/// The document words offered, by letter triple.
#[derive(Debug, Clone, Default)]
pub struct Spelling {
    /// Triple -> ids of the words that have it, ascending.
    pub triples: BTreeMap<String, Vec<u32>>,
    /// The offered words, in byte order, with their triple counts.
    pub words: Vec<(String, u32)>,
}

impl Spelling {
    /// Offers the words of `vocabulary` that [`offered`] allows.
    pub(crate) fn build<'a>(vocabulary: impl IntoIterator<Item = &'a str>) -> Spelling {
        let mut words: Vec<&str> = vocabulary.into_iter().filter(|w| offered(w)).collect();
        words.sort_unstable();
        words.dedup();
        let mut triples: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        let mut out = Vec::with_capacity(words.len());
        for (id, w) in words.iter().enumerate() {
            let t = self::triples(w);
            out.push(((*w).to_owned(), t.len() as u32));
            for triple in t {
                triples.entry(triple).or_default().push(id as u32);
            }
        }
        Spelling { triples, words: out }
    }

    /// The near spelling of `word`, if one shares enough triples; see [`nearest`].
    pub(crate) fn nearest(&self, word: &str) -> Option<&str> {
        nearest(word, |t| {
            self.triples.get(t).map(|ids| ids.iter().map(|&id| self.words[id as usize].0.as_str()).collect())
        })
    }
}

/// The offered word nearest `word` among those with the same [`opening`]: the greatest
/// Dice coefficient of triples (at least [`MIN_DICE`]), then the smallest difference in length (in characters), then byte
/// order. `None` for a word under [`MIN_CHARS`]. `words_with(triple)` lists the offered
/// words that have a triple.
pub(crate) fn nearest<'a>(word: &str, words_with: impl Fn(&str) -> Option<Vec<&'a str>>) -> Option<&'a str> {
    let length = word.chars().count();
    if length < MIN_CHARS {
        return None;
    }
    let mine = triples(word);
    // Only words that open as this one does (its first triple): people rarely mistype
    // the first two letters, and a shared ending ("printable", "mintable") is no kinship.
    let opening = opening(word);
    let mut shared: HashMap<&str, u64> = HashMap::new();
    for w in words_with(&opening).unwrap_or_default() {
        shared.insert(w, 0);
    }
    for t in &mine {
        for w in words_with(t).unwrap_or_default() {
            if let Some(n) = shared.get_mut(w) {
                *n += 1;
            }
        }
    }
    let a = mine.len() as u64;
    let mut best: Option<(&str, u64, u64, usize)> = None; // word, 2·shared, a + b, length difference
    for (w, c) in shared {
        let b = triples(w).len() as u64;
        let (num, den) = (2 * c, a + b);
        // num / den >= MIN_DICE
        if num * MIN_DICE.1 < den * MIN_DICE.0 {
            continue;
        }
        let diff = w.chars().count().abs_diff(length);
        let better = match best {
            None => true,
            Some((bw, bn, bd, bdiff)) => {
                let (x, y) = (num * bd, bn * den);
                x > y || (x == y && (diff < bdiff || (diff == bdiff && w.as_bytes() < bw.as_bytes())))
            }
        };
        if better {
            best = Some((w, num, den, diff));
        }
    }
    best.map(|(w, ..)| w)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spelling(words: &[&str]) -> Spelling {
        Spelling::build(words.iter().copied())
    }

    #[test]
    fn typos_and_accents_find_their_words() {
        let s = spelling(&["weather", "whether", "current", "generation", "prediction", "markets", "search", "server"]);
        assert_eq!(s.nearest("curent"), Some("current"));
        // weather and whether tie on triples and length: byte order decides.
        assert_eq!(s.nearest("wether"), Some("weather"));
        assert_eq!(s.nearest("génération"), Some("generation"));
        assert_eq!(s.nearest("predicton"), Some("prediction"));
        assert_eq!(s.nearest("serch"), Some("search"));
        assert_eq!(s.nearest("con"), None, "too short to re-read");
        assert_eq!(s.nearest("zzzzzz"), None);
        let s = spelling(&["mintable"]);
        assert_eq!(s.nearest("printable"), None, "another opening");
    }

    #[test]
    fn triples_are_padded_folded_and_distinct() {
        assert_eq!(triples("añoaño"), ["^an", "ano", "no$", "noa", "oan"]);
        assert_eq!(fold("Straße"), "Strasse");
    }
}
