//! The synthesised per-resource document that explore retrieves over (content/explore.md#document).
//!
//! One bag of words per entry, in field order: the description as listed (a withheld one
//! too, as in the method: screening decides what is published, never what matches; its
//! words join the bag, its text is never published), service name, tags, the URL's host and
//! path, the MIME types, and the input/output schema field names. URL paths and field
//! names are written by programmers, so `getWeather` and `temperature_c` are first cut
//! at case changes: `get weather`, `temperature c`. Words are then cut and case-folded
//! by the method's own rule (`normalise::for_each_word`), so a query reads the same
//! words the method would.

use super::words::is_stopword;
use method::index::Entry;
use method::normalise::for_each_word;

/// [`document`], and how many of its first words are a withheld description's. BM25
/// reads them all; the dense side starts after them (content/explore.md#document): a
/// withheld description is text addressed to AI agents, and its words would pull the
/// listing's meaning toward its instructions.
pub(crate) fn document_parts(entry: &Entry) -> (Vec<String>, usize) {
    let mut words = Vec::new();
    let r = &entry.resource;
    add_words(&mut words, r.description.as_deref().unwrap_or(""));
    let withheld = if entry.withheld.is_some() { words.len() } else { 0 };
    add_words(&mut words, r.service_name.as_deref().unwrap_or(""));
    for tag in &r.tags {
        add_words(&mut words, tag);
    }
    add_words(&mut words, &split_case(url_host_and_path(&r.url)));
    let mut mimes: Vec<&str> = r.accepts.iter().filter_map(|a| a.mime_type.as_deref()).collect();
    mimes.sort_unstable();
    mimes.dedup();
    for mime in mimes {
        add_words(&mut words, mime);
    }
    for field in &r.schema_fields {
        add_words(&mut words, &split_case(field));
    }
    (words, withheld)
}

/// Appends the words of `text` that are not stopwords.
fn add_words(words: &mut Vec<String>, text: &str) {
    for_each_word(text, |w| {
        if !is_stopword(w) {
            words.push(w.to_owned())
        }
    })
}

/// The URL without its scheme, query string or fragment: host and path carry the
/// structure (`api.example.com/v1/weather/forecast`); a query string carries values.
pub(crate) fn url_host_and_path(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let end = rest.find(['?', '#']).unwrap_or(rest.len());
    &rest[..end]
}

/// Puts a space where a lower-case letter or a digit is followed by an upper-case
/// letter, so camelCase names fall into words.
pub(crate) fn split_case(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    let mut prev: Option<char> = None;
    for c in text.chars() {
        if let Some(p) = prev {
            if (p.is_lowercase() || p.is_numeric()) && c.is_uppercase() {
                out.push(' ');
            }
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case_and_urls_fall_into_words() {
        assert_eq!(split_case("getWeatherForecast"), "get Weather Forecast");
        assert_eq!(split_case("l30DaysTotalCalls"), "l30 Days Total Calls");
        assert_eq!(split_case("already_snake"), "already_snake");
        assert_eq!(url_host_and_path("https://api.x.io/v1/getPrice?token=abc#frag"), "api.x.io/v1/getPrice");
        assert_eq!(url_host_and_path("no-scheme/path"), "no-scheme/path");
    }
}
