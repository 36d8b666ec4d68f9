//! `clip`, left in the library for `site::pages` while the site is reorganised; the
//! terminal tables that also use it are the command line's (`src/cmd/terminal.rs`).

/// `text` cut to at most `max` characters, the last being `…` when cut.
pub fn clip(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        text.to_owned()
    } else {
        format!("{}…", text.chars().take(max - 1).collect::<String>())
    }
}
