//! How explore reads a need: the method's words, less stopwords (content/explore.md#words).

use std::sync::OnceLock;

use serde::Serialize;

use method::query::tokenise_except;

static STOPWORDS_TXT: &str = include_str!("../../../content/explore/stopwords.txt");

/// English function words explore drops from queries and documents; sorted.
pub fn stopwords() -> &'static [String] {
    static LIST: OnceLock<Vec<String>> = OnceLock::new();
    LIST.get_or_init(|| {
        let mut list: Vec<String> = STOPWORDS_TXT
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
            .map(str::to_owned)
            .collect();
        list.sort();
        list.dedup();
        list
    })
}

pub fn is_stopword(word: &str) -> bool {
    stopwords().binary_search_by(|s| s.as_str().cmp(word)).is_ok()
}

/// The words explore uses from a query, and what it left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Words {
    pub words: Vec<String>,
    pub(crate) dropped_short: Vec<String>,
    pub dropped_stopwords: Vec<String>,
    pub(crate) dropped_over_limit: Vec<String>,
}

/// Cuts and case-folds words by the method's rule; keeps the first occurrence of each;
/// drops words under two characters and stopwords; keeps the first eight.
pub fn explore_words(text: &str) -> Words {
    let (tokens, dropped_stopwords) = tokenise_except(text, is_stopword);
    Words {
        words: tokens.tokens,
        dropped_short: tokens.dropped_short,
        dropped_stopwords,
        dropped_over_limit: tokens.dropped_over_limit,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stopwords_do_not_take_a_place() {
        let w = explore_words("Make ME laugh, me a joke of the day: one two three four five six seven");
        assert_eq!(w.words, ["make", "laugh", "joke", "day", "one", "two", "three", "four"]);
        assert_eq!(w.dropped_stopwords, ["me", "of", "the"]);
        assert_eq!(w.dropped_short, ["a"]);
        assert_eq!(w.dropped_over_limit, ["five", "six", "seven"]);
        assert!(is_stopword("the") && !is_stopword("weather"));
    }
}
