//! How explore reads a need: the method's words, less stopwords (explore §2).

use std::collections::HashSet;
use std::sync::OnceLock;

use serde::Serialize;

use crate::method::normalise::for_each_word;
use crate::method::query::{MAX_TOKENS, MIN_TOKEN_CHARS};

static STOPWORDS_TXT: &str = include_str!("../../content/explore/stopwords.txt");

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
    pub dropped_short: Vec<String>,
    pub dropped_stopwords: Vec<String>,
    pub dropped_over_limit: Vec<String>,
}

/// Cuts and lower-cases words by the method's rule; keeps the first occurrence of each;
/// drops words under two characters and stopwords; keeps the first eight.
pub fn explore_words(text: &str) -> Words {
    let mut out = Words {
        words: Vec::new(),
        dropped_short: Vec::new(),
        dropped_stopwords: Vec::new(),
        dropped_over_limit: Vec::new(),
    };
    let mut seen: HashSet<String> = HashSet::new();
    for_each_word(text, |w| {
        if !seen.insert(w.to_owned()) {
            return;
        }
        if w.chars().count() < MIN_TOKEN_CHARS {
            out.dropped_short.push(w.to_owned());
        } else if is_stopword(w) {
            out.dropped_stopwords.push(w.to_owned());
        } else if out.words.len() >= MAX_TOKENS {
            out.dropped_over_limit.push(w.to_owned());
        } else {
            out.words.push(w.to_owned());
        }
    });
    out
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
