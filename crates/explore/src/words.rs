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

/// Scripts written without spaces between words (Chinese, Japanese kana, Korean Hangul,
/// half-width kana, Han extensions), as inclusive ranges of code points.
pub const UNSPACED_SCRIPTS: &[(u32, u32)] = &[
    (0x1100, 0x11FF),
    (0x3005, 0x3007),
    (0x3040, 0x30FF),
    (0x3130, 0x318F),
    (0x31F0, 0x31FF),
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xAC00, 0xD7AF),
    (0xF900, 0xFAFF),
    (0xFF66, 0xFF9F),
    (0x20000, 0x2FFFF),
];

fn unspaced(c: char) -> bool {
    let c = u32::from(c);
    UNSPACED_SCRIPTS.iter().any(|&(lo, hi)| (lo..=hi).contains(&c))
}

/// `text` with a space wherever a character of a script written without spaces meets
/// one of another script ("QRコード作成" → "QR コード作成", "bananaで" → "banana で"), so
/// the Latin word beside it is a word of its own (since explore 2.4.0).
pub fn cut_scripts(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut last: Option<bool> = None;
    for c in text.chars() {
        let now = unspaced(c);
        if last.is_some_and(|l| l != now) {
            out.push(' ');
        }
        last = Some(now);
        out.push(c);
    }
    out
}

/// The words explore uses from a query, and what it left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Words {
    pub words: Vec<String>,
    pub(crate) dropped_short: Vec<String>,
    pub dropped_stopwords: Vec<String>,
    pub(crate) dropped_over_limit: Vec<String>,
}

/// Cuts scripts apart ([`cut_scripts`]), then cuts and case-folds words by the method's
/// rule; keeps the first occurrence of each; drops words under two characters and
/// stopwords; keeps the first eight.
pub fn explore_words(text: &str) -> Words {
    let (tokens, dropped_stopwords) = tokenise_except(&cut_scripts(text), is_stopword);
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

    #[test]
    fn scripts_written_without_spaces_are_cut_from_the_others() {
        assert_eq!(cut_scripts("QRコード作成"), "QR コード作成");
        assert_eq!(cut_scripts("Nano Bananaで画像を生成する"), "Nano Banana で画像を生成する");
        assert_eq!(cut_scripts("GPT이미지 생성"), "GPT 이미지   생성");
        assert_eq!(cut_scripts("api铸造2"), "api 铸造 2");
        assert_eq!(cut_scripts("weather forecast"), "weather forecast");
        assert_eq!(explore_words("QRコード作成").words, ["qr", "コード作成"]);
    }
}
