//! Text normalisation shared by the index, the query parser and the segment rules.
//!
//! The rule (content/method.md#indexed-text), applied one character at a time so that the JavaScript
//! composer can mirror it exactly:
//! 1. each character is replaced by its full Unicode case folding ([`fold`]: CaseFolding.txt
//!    statuses C and F, never T; no context rules), so `Σ` and `ς` both become `σ`, `ß`
//!    becomes `ss`, `ﬁ` becomes `fi` and `İ` becomes `i` followed by U+0307;
//! 2. a character of that folding is *alphanumeric* when `char::is_alphanumeric` says so
//!    (Unicode `Alphabetic` or general category `N*`);
//! 3. every run of other characters becomes a single space, and the result is padded
//!    with one space at each end.
//!
//! A token then matches only as a whole word: the padded string contains `" token "`.

use std::borrow::Cow;

use icu_casemap::CaseMapper;

/// The Unicode version of the case folding [`fold`] applies: the data of `icu_casemap`
/// 2.4.0 (pinned in Cargo.toml). Word characters follow Rust's `char::UNICODE_VERSION`.
pub const FOLD_UNICODE_VERSION: &str = "18.0.0";

/// The full Unicode case folding of `text` (CaseFolding.txt statuses C and F, the
/// default folding; not the Turkic T lines), by ICU4X's `CaseMapper::fold_string`.
///
/// Folding has no context: the folding of a text is the foldings of its characters, one
/// after another. So static/chars.js records this function for each code point
/// (crates/xtask/src/chars.rs), and the composer folds a text character by character.
pub fn fold(text: &str) -> Cow<'_, str> {
    // Case folding maps no ASCII character but A-Z, and then to a-z: most catalogue
    // text is ASCII, and asking ICU for it was 3% of a build's time.
    if text.is_ascii() {
        return if text.bytes().any(|b| b.is_ascii_uppercase()) {
            Cow::Owned(text.to_ascii_lowercase())
        } else {
            Cow::Borrowed(text)
        };
    }
    CaseMapper::new().fold_string(text)
}

/// True when `c` is a word character under the method's rule.
pub fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
}

/// Calls `emit` for each word of `text`, in order, case-folded.
///
/// This is the single place where words are cut out of text; `normalise`, the query
/// tokeniser and the index all go through it. The text is folded first, then cut: a
/// character whose folding is several characters (`ß` to `ss`, `İ` to `i` and U+0307)
/// is cut like those characters written out.
pub fn for_each_word(text: &str, mut emit: impl FnMut(&str)) {
    let mut word = String::new();
    for l in fold(text).chars() {
        if is_word_char(l) {
            word.push(l);
        } else if !word.is_empty() {
            emit(&word);
            word.clear();
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

/// Normalises `text`: case-folded words separated by single spaces, padded with one
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
    fn ascii_text_folds_as_icu_folds_it() {
        let icu = |t: &str| CaseMapper::new().fold_string(t).into_owned();
        for b in 0u8..128 {
            let c = char::from(b).to_string();
            assert_eq!(fold(&c), icu(&c), "{b:#04x}");
        }
        let text = "Weather-API v2: GET /Current?City=PARIS&units=SI\t{\"Key\": [1, 2]}";
        assert_eq!(fold(text), icu(text));
        assert!(matches!(fold("already folded"), Cow::Borrowed(_)));
        // Not ASCII: ICU's folding, K to k and sharp s to ss.
        assert_eq!(fold("\u{212A}elvin Straße"), "kelvin strasse");
    }

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
        assert_eq!(normalise("Ünïcödé→Straße"), " ünïcödé strasse ");
        // Arabic-Indic digits are digits.
        assert_eq!(normalise("x٣y"), " x٣y ");
        // Emoji and arrows separate words.
        assert_eq!(normalise("price🚀feed"), " price feed ");
    }

    #[test]
    fn folding_is_per_character_without_context() {
        // Every sigma folds to σ, the final ς too (CaseFolding.txt: 03A3; C; 03C3 and
        // 03C2; C; 03C3), so a Greek word matches as typed in either case.
        assert_eq!(normalise("ΟΔΟΣ"), " οδοσ ");
        assert_eq!(normalise("ΟΔΌΣ οδός"), " οδόσ οδόσ ");
        assert_eq!(normalise("ΣΊΣΥΦΟΣ"), " σίσυφοσ ");
        assert_eq!(normalise("σίσυφος"), " σίσυφοσ ");
        // Dotted capital I folds to i + COMBINING DOT ABOVE (0130; F; 0069 0307), which is
        // not alphanumeric; the Turkic fold (0130; T; 0069) is not used.
        assert_eq!(normalise("İstanbul"), " i stanbul ");
        assert_eq!(normalise("IRMAK"), " irmak ");
    }

    #[test]
    fn folds_that_lower_casing_does_not_make() {
        // Hand-copied from CaseFolding.txt, each a line whose folding differs from the
        // character's lower case.
        let cases = [
            ("\u{DF}", "ss"),                // 00DF; F; 0073 0073; LATIN SMALL LETTER SHARP S
            ("\u{1E9E}", "ss"),              // 1E9E; F; 0073 0073; LATIN CAPITAL LETTER SHARP S
            ("\u{FB01}", "fi"),              // FB01; F; 0066 0069; LATIN SMALL LIGATURE FI
            ("\u{FB00}", "ff"),              // FB00; F; 0066 0066; LATIN SMALL LIGATURE FF
            ("\u{17F}", "s"),                // 017F; C; 0073; LATIN SMALL LETTER LONG S
            ("\u{B5}", "\u{3BC}"),           // 00B5; C; 03BC; MICRO SIGN
            ("\u{3C2}", "\u{3C3}"),          // 03C2; C; 03C3; GREEK SMALL LETTER FINAL SIGMA
            ("\u{3D0}", "\u{3B2}"),          // 03D0; C; 03B2; GREEK BETA SYMBOL
            ("\u{149}", "\u{2BC}n"),         // 0149; F; 02BC 006E; LATIN SMALL LETTER N PRECEDED BY APOSTROPHE
            ("\u{1F80}", "\u{1F00}\u{3B9}"), // 1F80; F; 1F00 03B9; GREEK SMALL LETTER ALPHA WITH PSILI AND YPOGEGRAMMENI
            ("\u{13F8}", "\u{13F0}"),        // 13F8; C; 13F0; CHEROKEE SMALL LETTER YE: folds to the capital
            ("\u{AB70}", "\u{13A0}"),        // AB70; C; 13A0; CHEROKEE SMALL LETTER A
            ("\u{13A0}", "\u{13A0}"),        // CHEROKEE LETTER A: no line, folds to itself
        ];
        for (text, folded) in cases {
            assert_eq!(fold(text), folded, "{text:?}");
            assert_eq!(normalise(text), format!(" {folded} "), "{text:?}");
        }
        assert_eq!(normalise("Straße STRASSE straße"), " strasse strasse strasse ");
        assert_eq!(normalise("ﬁnance"), " finance ");
    }

    #[test]
    fn folding_a_text_is_folding_each_character() {
        let text = "ΣΊΣΥΦΟΣ İstanbul Straße ﬃ ŉ ᾈ Ꭰꭰ ǅ 天气 🚀 \u{10D50}";
        let each: String = text.chars().map(|c| fold(c.encode_utf8(&mut [0; 4])).into_owned()).collect();
        assert_eq!(fold(text), each);
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
