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
        if !string.chars().any(is_hidden) {
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
    }
}
