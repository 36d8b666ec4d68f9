//! Text normalisation shared by the index, the query parser and the segment rules.
//!
//! The rule (content/method.md#indexed-text), applied one character at a time so that the JavaScript
//! composer can mirror it exactly:
//! 1. each character is replaced by its lower-case mapping (`char::to_lowercase`: the
//!    full per-character mapping, with no context rules, so `Σ` always becomes `σ` and
//!    `İ` becomes `i` followed by U+0307);
//! 2. a character of that mapping is *alphanumeric* when `char::is_alphanumeric` says so
//!    (Unicode `Alphabetic` or general category `N*`);
//! 3. every run of other characters becomes a single space, and the result is padded
//!    with one space at each end.
//!
//! A token then matches only as a whole word: the padded string contains `" token "`.

/// True when `c` is a word character under the method's rule.
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
}

/// Calls `emit` for each word of `text`, in order, lower-cased.
///
/// This is the single place where words are cut out of text; `normalise`, the query
/// tokeniser and the index all go through it.
pub fn for_each_word(text: &str, mut emit: impl FnMut(&str)) {
    let mut word = String::new();
    for c in text.chars() {
        for l in c.to_lowercase() {
            if is_word_char(l) {
                word.push(l);
            } else if !word.is_empty() {
                emit(&word);
                word.clear();
            }
        }
    }
    if !word.is_empty() {
        emit(&word);
    }
}

/// The words of `text` under the method's rule, in order, with repeats.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_word(text, |w| out.push(w.to_owned()));
    out
}

/// Normalises `text`: lower-case words separated by single spaces, padded with one
/// space at each end. Empty or word-less text becomes a single space.
pub fn normalise(text: &str) -> String {
    normalise_fields([text])
}

/// Normalises several fields as one text, as if joined with spaces.
pub fn normalise_fields<'a>(fields: impl IntoIterator<Item = &'a str>) -> String {
    let mut out = String::with_capacity(64);
    out.push(' ');
    append_fields(&mut out, fields);
    out
}

/// Appends the normalised words of `fields` to a normalised text, each followed by a space.
pub(crate) fn append_fields<'a>(out: &mut String, fields: impl IntoIterator<Item = &'a str>) {
    for field in fields {
        for_each_word(field, |w| {
            out.push_str(w);
            out.push(' ');
        });
    }
}

/// True when the normalised `haystack` contains `token` as a whole word.
///
/// `token` must itself be a single normalised word (no spaces).
pub fn contains_word(haystack: &str, token: &str) -> bool {
    // Searching for " token " in a space-padded string is exactly a whole-word match.
    let bytes = haystack.as_bytes();
    let t = token.as_bytes();
    if t.is_empty() || bytes.len() < t.len() + 2 {
        return false;
    }
    haystack.match_indices(token).any(|(i, _)| i > 0 && bytes[i - 1] == b' ' && bytes.get(i + t.len()) == Some(&b' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lower_cases_and_collapses_separators() {
        assert_eq!(normalise("Weather-API: Current  Conditions!"), " weather api current conditions ");
    }

    #[test]
    fn empty_and_symbol_only_text_becomes_one_space() {
        assert_eq!(normalise(""), " ");
        assert_eq!(normalise("--- !!! ..."), " ");
    }

    #[test]
    fn url_splits_into_words() {
        assert_eq!(normalise("https://loyalspark.online/api/v1?x=1"), " https loyalspark online api v1 x 1 ");
    }

    #[test]
    fn word_boundary_is_whole_word_only() {
        let h = normalise("https://loyalspark.online/vouchers");
        assert!(!contains_word(&h, "spark"));
        assert!(contains_word(&h, "loyalspark"));
        let h = normalise("Spark lending protocol");
        assert!(contains_word(&h, "spark"));
    }

    #[test]
    fn no_stemming() {
        let h = normalise("Best yields on stablecoins");
        assert!(!contains_word(&h, "yield"));
        assert!(contains_word(&h, "yields"));
    }

    #[test]
    fn unicode_letters_and_digits_are_word_characters() {
        assert_eq!(normalise("天气预报 API"), " 天气预报 api ");
        assert_eq!(normalise("Ünïcödé→Straße"), " ünïcödé straße ");
        // Arabic-Indic digits are digits.
        assert_eq!(normalise("x٣y"), " x٣y ");
        // Emoji and arrows separate words.
        assert_eq!(normalise("price🚀feed"), " price feed ");
    }

    #[test]
    fn lower_casing_is_per_character_without_context() {
        // Final sigma is not applied: every capital sigma becomes σ.
        assert_eq!(normalise("ΟΔΟΣ"), " οδοσ ");
        // Dotted capital I maps to i + COMBINING DOT ABOVE, which is not alphanumeric.
        assert_eq!(normalise("İstanbul"), " i stanbul ");
    }

    #[test]
    fn hidden_characters_are_separators() {
        assert_eq!(normalise("wea\u{200B}ther"), " wea ther ");
    }

    #[test]
    fn normalise_fields_equals_joined_text() {
        assert_eq!(normalise_fields(["Hello", "World-Wide"]), normalise("Hello World-Wide"));
    }
}
