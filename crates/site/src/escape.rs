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
        if !may_hide(string) {
            return Html.write_escaped_str(dest, string);
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

/// Whether `text` may hold a hidden character: false when every byte is printable
/// ASCII, which a scan of bytes in blocks (no early exit inside one, so it vectorises)
/// tells far sooner than decoding each character; most listing text is ASCII, and the
/// escaper was 7% of a build. Anything else (a line break too) is decided exactly.
fn may_hide(text: &str) -> bool {
    let unprintable = |b: u8| b.wrapping_sub(b' ') > b'~' - b' ';
    let odd = text.as_bytes().chunks(32).any(|block| block.iter().fold(false, |seen, &b| seen | unprintable(b)));
    odd && text.chars().any(is_hidden)
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
    fn html_is_escaped_and_hidden_characters_made_visible() {
        assert_eq!(escaped("a<b>&\"'"), "a&#60;b&#62;&#38;&#34;&#39;");
        assert_eq!(escaped("gpj.\u{202e}exe<"), "gpj.[U+202E]exe&#60;");
        assert_eq!(escaped("line\none\u{1b}[31m"), "line\none[U+001B][31m");
        assert_eq!(escaped("tab\tdel\u{7f}"), "tab\tdel[U+007F]");
        assert_eq!(escaped("caf\u{e9} \u{85}"), "caf\u{e9} [U+0085]");
        assert_eq!(escaped("caf\u{e9} <\u{200f}"), "caf\u{e9} &#60;[U+200F]");
    }
}
