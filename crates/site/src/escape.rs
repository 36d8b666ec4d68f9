//! The escaper of every HTML page (crates/site/askama.toml): HTML's, and besides, each
//! hidden character (a control, a bidirectional override: `catalogue::hidden`) written
//! as a visible escape, so listing text can neither reverse a title nor hide in a link.

use std::fmt::{self, Write};

use askama::filters::{Escaper, Html};
use catalogue::hidden::{is_hidden, visible_escape};

#[derive(Debug, Clone, Copy)]
pub(crate) struct Visible;

impl Escaper for Visible {
    fn write_escaped_str<W: Write>(&self, mut dest: W, string: &str) -> fmt::Result {
        if !hides(string) {
            return write_html_escaped(dest, string);
        }
        for c in string.chars() {
            self.write_escaped_char(&mut dest, c)?;
        }
        Ok(())
    }

    fn write_escaped_char<W: Write>(&self, mut dest: W, c: char) -> fmt::Result {
        if is_hidden(c) {
            dest.write_str(&visible_escape(c))
        } else {
            Html.write_escaped_char(dest, c)
        }
    }
}

/// HTML's entity for a byte that must be escaped (the five askama's `Html` escapes, as
/// it writes them; the test below holds the two to the same output).
fn entity(b: u8) -> Option<&'static str> {
    match b {
        b'"' => Some("&#34;"),
        b'&' => Some("&#38;"),
        b'\'' => Some("&#39;"),
        b'<' => Some("&#60;"),
        b'>' => Some("&#62;"),
        _ => None,
    }
}

/// `text` HTML-escaped as askama's `Html` escapes it, scanned as [`hides`] is: blocks of
/// bytes with nothing to escape are written whole, and only a block with something is
/// read a byte at a time (askama reads every byte so; it was 6% of a build's samples,
/// a resource page's pay programs being mostly quotes and letters).
fn write_html_escaped<W: Write>(mut dest: W, text: &str) -> fmt::Result {
    let mut written = 0;
    for (n, block) in text.as_bytes().chunks(32).enumerate() {
        if !block.iter().fold(false, |seen, &b| seen | entity(b).is_some()) {
            continue;
        }
        for (i, &b) in block.iter().enumerate() {
            if let Some(entity) = entity(b) {
                // An ASCII byte is never inside a character, so `at` is a boundary.
                let at = n * 32 + i;
                dest.write_str(&text[written..at])?;
                dest.write_str(entity)?;
                written = at + 1;
            }
        }
    }
    dest.write_str(&text[written..])
}

/// Whether a byte can begin a hidden character ([`is_hidden`]) in UTF-8: a control
/// other than a tab or line break, DEL, or the first byte of U+0080..U+009F (0xC2),
/// U+061C (0xD8) or the marks from U+200E (0xE2). The test below checks it against
/// every hidden character.
fn may_begin_hidden(b: u8) -> bool {
    (b < b' ' && !matches!(b, b'\t' | b'\n' | b'\r')) || matches!(b, 0x7f | 0xc2 | 0xd8 | 0xe2)
}

/// Whether `text` holds a hidden character. Blocks of bytes are scanned for a byte that
/// can begin one (no early exit inside a block, so it vectorises), and only there is a
/// character decoded: pages are mostly ASCII with the odd "…" or "·", and decoding
/// every character of a text with one of them made the escaper 6% of a build.
fn hides(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.chunks(32).enumerate().any(|(n, block)| {
        block.iter().fold(false, |seen, &b| seen | may_begin_hidden(b))
            && block.iter().enumerate().any(|(i, &b)| {
                // Such a byte is never inside a character, so `at` is a boundary.
                let at = n * 32 + i;
                may_begin_hidden(b) && text[at..].chars().next().is_some_and(is_hidden)
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(text: &str) -> String {
        let mut out = String::new();
        Visible.write_escaped_str(&mut out, text).unwrap();
        out
    }

    #[test]
    fn hidden_characters_are_found_by_their_first_byte() {
        assert!(!hides("plain text,\tlines\r\nand <tags>"));
        assert!(!hides("caf\u{e9} \u{2026} \u{b7} \u{2014} \u{a0} \u{600}"));
        assert!(hides("ansi \u{1b}[31m"));
        assert!(hides("del\u{7f}"));
        assert!(hides("\u{2026}\u{2026}\u{202e}"));
        assert!(!hides(""));
        // At every place of a block of 32 and across blocks.
        for at in 0..70 {
            let text = format!("{}\u{200f}{}", "a".repeat(at), "\u{e9}".repeat(3));
            assert!(hides(&text), "at {at}");
        }
        for c in (0..=0x10ffff).filter_map(char::from_u32) {
            let mut buf = [0; 4];
            let first = c.encode_utf8(&mut buf).as_bytes()[0];
            if is_hidden(c) {
                assert!(may_begin_hidden(first), "U+{:04X}", c as u32);
                assert!(hides(&format!("x{c}y")), "U+{:04X}", c as u32);
            } else {
                assert!(!hides(&format!("x{c}y")), "U+{:04X}", c as u32);
            }
        }
    }

    /// The escaper's HTML is askama's, byte for byte: every character up to U+00FF and
    /// some wider ones, alone and at every place of a block and across blocks.
    #[test]
    fn html_is_escaped_as_askama_escapes_it() {
        let askama = |text: &str| {
            let mut out = String::new();
            Html.write_escaped_str(&mut out, text).unwrap();
            out
        };
        let ours = |text: &str| {
            let mut out = String::new();
            write_html_escaped(&mut out, text).unwrap();
            out
        };
        let wide = ['\u{e9}', '\u{2026}', '\u{1f600}', '\u{4e2d}'];
        for c in (0..=0xffu32).filter_map(char::from_u32).chain(wide) {
            for at in [0, 1, 31, 32, 33, 63, 64, 70] {
                let text = format!("{}{c}{}<&>", "a\u{e9}".repeat(at / 2), "b".repeat(at % 7));
                assert_eq!(ours(&text), askama(&text), "U+{:04X} at {at}", c as u32);
            }
        }
        let program = r#"const r = await fetch("https://x.example/?a=1&b='2'", { method: "POST" }); // <ok>"#.repeat(9);
        assert_eq!(ours(&program), askama(&program));
        assert_eq!(ours(""), "");
    }

    #[test]
    fn html_is_escaped_and_hidden_characters_made_visible() {
        assert_eq!(escaped("a<b>&\"'"), "a&#60;b&#62;&#38;&#34;&#39;");
        assert_eq!(escaped("gpj.\u{202e}exe<"), "gpj.[U+202E]exe&#60;");
        assert_eq!(escaped("line\none\u{1b}[31m"), "line\none[U+001B][31m");
        assert_eq!(escaped("tab\tdel\u{7f}"), "tab\tdel[U+007F]");
        assert_eq!(escaped("caf\u{e9} \u{85}"), "caf\u{e9} [U+0085]");
        assert_eq!(escaped("caf\u{e9} <\u{200f}"), "caf\u{e9} &#60;[U+200F]");
    }
}
