//! Characters that change how the text around them is shown without showing
//! themselves: C0 and C1 controls (line breaks and tabs aside) and the bidirectional
//! controls. A U+202E in a listing's name would reverse a page's title; pages show each
//! such character as a visible escape instead (content/method.md#reading).

/// Whether `c` is shown on pages as a visible escape rather than as itself.
pub fn is_hidden(c: char) -> bool {
    matches!(c,
        '\u{0}'..='\u{8}' | '\u{b}' | '\u{c}' | '\u{e}'..='\u{1f}' | '\u{7f}'..='\u{9f}'
        // Bidirectional marks, embeddings, overrides and isolates.
        | '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// How a hidden character is written where it would have been: `[U+202E]`.
pub fn visible_escape(c: char) -> String {
    format!("[U+{:04X}]", c as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_bidi_overrides_are_hidden_but_line_breaks_and_text_are_not() {
        for c in [
            '\u{0}', '\u{1b}', '\u{7f}', '\u{85}', '\u{9f}', '\u{202a}', '\u{202e}', '\u{2066}', '\u{2069}', '\u{200f}',
        ] {
            assert!(is_hidden(c), "U+{:04X}", c as u32);
        }
        for c in ['\t', '\n', '\r', ' ', 'a', 'é', 'ש', '中', '\u{a0}', '\u{2070}'] {
            assert!(!is_hidden(c), "U+{:04X}", c as u32);
        }
        assert_eq!(visible_escape('\u{202e}'), "[U+202E]");
        assert_eq!(visible_escape('\u{1}'), "[U+0001]");
    }
}
