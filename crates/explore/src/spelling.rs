//! Near spellings: a query word no document contains is read as the document word the
//! fewest edits from it, of those that open as it does and share enough of its letter
//! triples; of words as near, the one most documents contain (content/explore.md#spelling).
//! So "wether" finds "weather", "generaton" "generation", and "génération" "generation".
//!
//! Words are compared after folding accents ([`FOLD`]): first by their sets of letter
//! triples, each word padded with `^` and `$` (`^we`, `wet`, …, `er$`), which choose the
//! candidates, then by [`edits`]. All of it is whole-number arithmetic, so the browser
//! (static/explore.js, which reads the triples' word lists, each word with its document
//! count, from `api/explore/spelling/`) picks the very same word.

use std::collections::{BTreeMap, BTreeSet, HashMap};

use super::vocabulary::worth_a_vector;

/// A query word shorter than this is never re-read (too few triples to tell words apart).
pub const MIN_CHARS: usize = 4;
/// Document words shorter than this are never offered.
pub(crate) const MIN_CANDIDATE_CHARS: usize = 3;
/// The Dice coefficient a near spelling needs, as a fraction: at least 1/2.
pub const MIN_DICE: (u64, u64) = (1, 2);
/// A word at most this many edits away is offered whatever its Dice coefficient (since
/// explore 2.4.0): a swap or a slip in a short word ("phnoe", "emial", "domian") breaks
/// most of its triples, though it is one edit from the word meant.
pub const ANY_DICE_EDITS: usize = 1;
/// ... for a query word of at least this many characters: a short word one edit from
/// another is as often a word of another language ("algo", "pero") as a slip.
pub const ANY_DICE_MIN_CHARS: usize = 5;
/// What an edit costs against word frequency: a candidate one edit further needs this many
/// times the documents to win (since explore 2.4.0).
pub const EDIT_COST: u32 = 10;
/// Edits beyond this many weigh no more (the products stay within 128 bits).
pub const MAX_WEIGHED_EDITS: usize = 12;

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
pub fn fold(word: &str) -> String {
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
    /// The offered words, in byte order.
    pub words: Vec<Offered>,
}

/// A word offered as a near spelling.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Offered {
    pub word: String,
    /// How many documents of the snapshot contain it (its BM25 posting count), published
    /// beside it in the spelling files: the more common of two equally near words wins.
    pub documents: u32,
}

impl Spelling {
    /// Offers the words of `vocabulary` (word, documents containing it) that [`offered`]
    /// allows.
    pub(crate) fn build<'a>(vocabulary: impl IntoIterator<Item = (&'a str, u32)>) -> Spelling {
        let mut words: Vec<(&str, u32)> = vocabulary.into_iter().filter(|(w, _)| offered(w)).collect();
        words.sort_unstable();
        words.dedup_by(|a, b| a.0 == b.0);
        let mut triples: BTreeMap<String, Vec<u32>> = BTreeMap::new();
        let mut out = Vec::with_capacity(words.len());
        for (id, (w, documents)) in words.iter().enumerate() {
            out.push(Offered { word: (*w).to_owned(), documents: *documents });
            for triple in self::triples(w) {
                triples.entry(triple).or_default().push(id as u32);
            }
        }
        Spelling { triples, words: out }
    }

    /// The near spelling of `word`, if one is near enough; see [`nearest`].
    pub fn nearest(&self, word: &str) -> Option<&str> {
        nearest(word, |t| {
            self.triples.get(t).map(|ids| {
                ids.iter()
                    .map(|&id| {
                        let o = &self.words[id as usize];
                        (o.word.as_str(), o.documents)
                    })
                    .collect()
            })
        })
    }
}

/// The number of edits (a letter inserted, deleted or replaced, or two neighbours swapped)
/// that make `a` into `b`, each edited once at most: the restricted Damerau-Levenshtein
/// distance ("optimal string alignment"), over characters.
pub(crate) fn edits(a: &[char], b: &[char]) -> usize {
    let w = b.len() + 1;
    // Rows i-2, i-1 and i of the table, each of b.len() + 1 cells.
    let mut rows = vec![vec![0usize; w]; 3];
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        let (cur, prev, prev2) = (i % 3, (i + 2) % 3, (i + 1) % 3);
        rows[cur][0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[prev][j] + 1).min(rows[cur][j - 1] + 1).min(rows[prev][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[prev2][j - 2] + 1);
            }
            rows[cur][j] = d;
        }
    }
    rows[a.len() % 3][b.len()]
}

/// The offered word nearest `word`. The candidates are the offered words that open as it
/// does ([`opening`]) and share enough of its triples (a Dice coefficient of at least
/// [`MIN_DICE`]); of those, the fewest [`edits`] between the folded words, then the most
/// documents, then the greatest Dice coefficient, then byte order. `None` for a word under
/// [`MIN_CHARS`]. `words_with(triple)` lists the offered words that have a triple, each
/// with the number of documents that contain it.
pub(crate) fn nearest<'a>(word: &str, words_with: impl Fn(&str) -> Option<Vec<(&'a str, u32)>>) -> Option<&'a str> {
    if word.chars().count() < MIN_CHARS {
        return None;
    }
    let mine = triples(word);
    let folded: Vec<char> = fold(word).chars().collect();
    // Only words that open as this one does (its first triple): people rarely mistype
    // the first two letters, and a shared ending ("printable", "mintable") is no kinship.
    let opening = opening(word);
    let mut shared: HashMap<&str, (u64, u32)> = HashMap::new();
    for (w, documents) in words_with(&opening).unwrap_or_default() {
        shared.insert(w, (0, documents));
    }
    for t in &mine {
        for (w, _) in words_with(t).unwrap_or_default() {
            if let Some((n, _)) = shared.get_mut(w) {
                *n += 1;
            }
        }
    }
    let a = mine.len() as u64;
    let mut best: Option<Candidate<'a>> = None;
    for (w, (c, documents)) in shared {
        let b = triples(w).len() as u64;
        let (num, den) = (2 * c, a + b);
        let edits = edits(&folded, &fold(w).chars().collect::<Vec<_>>());
        // num / den >= MIN_DICE, or at most ANY_DICE_EDITS away
        if num * MIN_DICE.1 < den * MIN_DICE.0 && (edits > ANY_DICE_EDITS || folded.len() < ANY_DICE_MIN_CHARS) {
            continue;
        }
        let candidate = Candidate { word: w, edits, documents, num, den };
        if best.as_ref().is_none_or(|b| candidate.before(b)) {
            best = Some(candidate);
        }
    }
    best.map(|c| c.word)
}

/// A word offered for another, with what decides between them.
struct Candidate<'a> {
    word: &'a str,
    edits: usize,
    documents: u32,
    /// The Dice coefficient of triples, `num / den`.
    num: u64,
    den: u64,
}

impl Candidate<'_> {
    /// Whether this candidate comes before `other` (since 2.4.0): the greater
    /// `documents / EDIT_COST^edits` (compared by cross-multiplying, as whole numbers),
    /// then fewer edits, then a greater Dice coefficient (cross-multiplied), then byte
    /// order. An edit costs a factor of ten in documents: a word two edits away wins over
    /// one a single edit away only if ten times as many documents contain it.
    fn before(&self, other: &Candidate) -> bool {
        let (x, y) = (self.num * other.den, other.num * self.den);
        let weighed = |documents: u32, edits: usize| {
            u128::from(documents) * u128::from(EDIT_COST).pow(edits.min(MAX_WEIGHED_EDITS) as u32)
        };
        let (p, q) = (weighed(self.documents, other.edits), weighed(other.documents, self.edits));
        (p, other.edits, x, other.word.as_bytes()) > (q, self.edits, y, self.word.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Offers `words`, each in as many documents as given.
    fn spelling(words: &[(&str, u32)]) -> Spelling {
        Spelling::build(words.iter().copied())
    }

    fn distance(a: &str, b: &str) -> usize {
        edits(&a.chars().collect::<Vec<_>>(), &b.chars().collect::<Vec<_>>())
    }

    #[test]
    fn typos_and_accents_find_their_words() {
        let s = spelling(&[
            ("weather", 40),
            ("whether", 3),
            ("current", 12),
            ("generation", 90),
            ("generator", 30),
            ("prediction", 25),
            ("predict", 9),
            ("markets", 20),
            ("search", 70),
            ("server", 50),
            ("security", 10),
        ]);
        assert_eq!(s.nearest("curent"), Some("current"));
        // "whether" opens another way ("^wh"), so it is never offered for "wether".
        assert_eq!(s.nearest("wether"), Some("weather"));
        assert_eq!(s.nearest("génération"), Some("generation"));
        // One edit from both (an "i" left out, an "r" for an "n"): the commoner wins,
        // where triples preferred "generator".
        assert_eq!(s.nearest("generaton"), Some("generation"));
        // One edit against two, though "predict" shares the opening too.
        assert_eq!(s.nearest("predicton"), Some("prediction"));
        assert_eq!(s.nearest("serch"), Some("search"));
        // Two letters swapped are one edit.
        assert_eq!(s.nearest("secruity"), Some("security"));
        assert_eq!(s.nearest("con"), None, "too short to re-read");
        assert_eq!(s.nearest("zzzzzz"), None);
        let s = spelling(&[("mintable", 5)]);
        assert_eq!(s.nearest("printable"), None, "another opening");
    }

    #[test]
    fn an_edit_weighs_ten_times_the_documents() {
        // "generator" is commoner here, and "generaton" is one edit from both: the
        // documents decide; "generations", two edits away, needs ten times the documents
        // of the best word one edit away.
        let s = spelling(&[("generation", 5), ("generator", 30), ("generations", 299)]);
        assert_eq!(s.nearest("generaton"), Some("generator"));
        let s = spelling(&[("generation", 5), ("generator", 30), ("generations", 301)]);
        assert_eq!(s.nearest("generaton"), Some("generations"));
        // Exactly ten times: a tie in weight, so the fewer edits.
        let s = spelling(&[("generation", 5), ("generations", 50)]);
        assert_eq!(s.nearest("generaton"), Some("generation"));
        // Equal in edits and documents: the greater Dice coefficient, then byte order.
        // ("weather" shares four of the six triples of "wether", "wetter" three.)
        let s = spelling(&[("wetter", 4), ("weather", 4)]);
        assert_eq!(s.nearest("wether"), Some("weather"));
        let s = spelling(&[("abcf", 4), ("abce", 4)]);
        assert_eq!(s.nearest("abcd"), Some("abce"));
    }

    #[test]
    fn edits_count_insertions_deletions_replacements_and_swaps() {
        assert_eq!(distance("", ""), 0);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("abc", ""), 3);
        assert_eq!(distance("wether", "weather"), 1);
        assert_eq!(distance("generaton", "generator"), 1);
        assert_eq!(distance("secruity", "security"), 1);
        assert_eq!(distance("ca", "abc"), 3, "restricted: a swapped pair is not edited again");
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("geocodng", "geocode"), 2);
    }

    #[test]
    fn triples_are_padded_folded_and_distinct() {
        assert_eq!(triples("añoaño"), ["^an", "ano", "no$", "noa", "oan"]);
        assert_eq!(fold("Straße"), "Strasse");
    }
}
