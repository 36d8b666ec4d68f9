//! Plain-text rendering of answers for a terminal.
//!
//! Catalogue text is foreign: control characters (escape sequences could rewrite the
//! screen) are replaced before anything is printed.

use std::fmt::Write;

use explore::answer::ExploreAnswer;
use method::answer::Answer;
use method::view::{clip, Listing};

/// Replaces control characters (C0, DEL, C1) and bidi/zero-width format characters
/// with U+FFFD, so foreign text cannot move the cursor or reorder a line.
pub fn printable(text: &str) -> String {
    text.chars()
        .map(|c| {
            let format_char = matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}' | '\u{E0000}'..='\u{E007F}');
            if c.is_control() || format_char {
                '\u{FFFD}'
            } else {
                c
            }
        })
        .collect()
}

fn opt<T: ToString>(v: &Option<T>) -> String {
    v.as_ref().map_or_else(|| "-".to_owned(), T::to_string)
}

/// The answer as a table with its rule, limits and counts.
pub fn render(answer: &Answer) -> String {
    let m = &answer.meta;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "x402dir method {} · snapshot {}{} · segments {} · screening {}",
        m.method.version,
        m.snapshot.date,
        if m.snapshot.complete { "" } else { " (partial)" },
        m.segments.version,
        m.screening.version
    );
    let tokens = if m.query.token_list_empty { "(empty token list)".to_owned() } else { m.query.tokens.join(" ") };
    let _ = writeln!(out, "tokens: {}", printable(&tokens));
    let _ = writeln!(out, "rule: {}", printable(&m.query.rule));
    let _ = writeln!(out, "matched {}, showing {}", m.total_matched, m.returned);
    out.push('\n');
    if answer.data.is_empty() {
        out.push_str("No resource matches this rule. (An empty answer is an answer: nothing was relaxed.)\n");
    } else {
        let _ = writeln!(
            out,
            "{:>3}  {:>7}  {:>8}  {:>11}  {:>5}  {:>5}  {:>10}  resource",
            "#", "payers", "calls", "calls/payer", "days", "match", "min USD"
        );
        for (i, r) in answer.data.iter().enumerate() {
            let _ = writeln!(
                out,
                "{:>3}  {:>7}  {:>8}  {:>11}  {:>5}  {:>5}  {:>10}  {}",
                i + 1,
                opt(&r.listing.figures.unique_payers_30d),
                opt(&r.listing.figures.calls_30d),
                r.listing.figures.calls_per_payer.map_or("-".to_owned(), |t| t.fixed()),
                opt(&r.listing.figures.days_since_last_call),
                r.match_score,
                opt(&r.listing.min_price_usd),
                printable(r.listing.resource)
            );
            write_description(&mut out, &r.listing);
            write_probe(&mut out, &r.listing);
        }
    }
    write_limits(&mut out, &m.limits);
    out
}

/// What the snapshot's probe saw of the listing, under its description, when it was
/// probed (content/method.md#probe). A live 402's values are foreign text too.
fn write_probe(out: &mut String, listing: &Listing) {
    if let Some(seen) = &listing.probe {
        let _ = writeln!(out, "{:>3}  {}", "", printable(&seen.0.in_words()));
        for difference in seen.0.differences_in_words() {
            let _ = writeln!(out, "{:>3}    {}", "", printable(&difference));
        }
    }
}

/// The listing's description (or why there is none) under its row.
fn write_description(out: &mut String, listing: &Listing) {
    let withheld = listing.description_withheld.map(|w| w.patterns_matched);
    let _ = writeln!(out, "{:>3}  {}", "", description_line(listing.description, withheld));
}

/// The source's limits, after a blank line, closing every answer.
fn write_limits(out: &mut String, limits: &[&str]) {
    out.push('\n');
    for (i, limit) in limits.iter().enumerate() {
        let _ = writeln!(out, "limit {}: {limit}", i + 1);
    }
}

fn description_line(description: Option<&str>, withheld: Option<usize>) -> String {
    match (description, withheld) {
        (_, Some(n)) => format!("[description withheld: matched {n} screening pattern(s)]"),
        (Some(d), None) => clip(&printable(d), 100),
        (None, None) => "[no description]".to_owned(),
    }
}

/// An explore answer as a table: every list's rank beside the figures.
pub fn render_explore(answer: &ExploreAnswer) -> String {
    let m = &answer.meta;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "x402dir explore {} · snapshot {}{} · not the directory's answer (method {} is)",
        m.explore.version,
        m.snapshot.date,
        if m.snapshot.complete { "" } else { " (partial)" },
        m.method.version
    );
    let q = &m.query;
    if !q.read_as.is_empty() {
        let _ = writeln!(
            out,
            "read as: {} (from {})",
            printable(&q.read_as.join("; ")),
            printable(&q.constraint_phrases.iter().map(|p| format!("\"{p}\"")).collect::<Vec<_>>().join(", "))
        );
    }
    let _ = writeln!(out, "words: {}", printable(&m.query.words.join(" ")));
    if !q.near_spellings.is_empty() {
        let near: Vec<String> = q.near_spellings.iter().map(|n| format!("{} -> {}", n.word, n.read_as)).collect();
        let _ = writeln!(out, "read as near spellings: {}", printable(&near.join(", ")));
    }
    if !q.translations.is_empty() {
        let read: Vec<String> = q.translations.iter().map(|n| format!("{} -> {}", n.word, n.read_as)).collect();
        let _ = writeln!(out, "read as translations: {}", printable(&read.join(", ")));
    }
    if !q.not_understood.is_empty() {
        let _ = writeln!(out, "not understood, left out: {}", printable(&q.not_understood.join(" ")));
    }
    if !m.query.words_without_vector.is_empty() {
        let _ = writeln!(out, "no vector for: {}", printable(&m.query.words_without_vector.join(" ")));
    }
    let _ = writeln!(
        out,
        "bm25 list {}, dense list {} ({} of {} inverted-file lists read, {} documents compared), fused {}",
        m.lists.bm25,
        m.lists.dense,
        m.lists.dense_lists_read,
        m.lists.dense_lists,
        m.lists.dense_documents_compared,
        m.lists.fused
    );
    out.push('\n');
    if answer.data.is_empty() {
        if !q.words.is_empty() && q.ranked_words.is_empty() {
            out.push_str("No word of the query was understood, so nothing is shown rather than unrelated listings.\n");
        } else {
            out.push_str("Nothing retrieved.\n");
        }
    } else {
        let _ = writeln!(
            out,
            "{:>3}  {:>5}  {:>5}  {:>5}  {:>7}  {:>5}  {:>10}  resource",
            "#", "bm25", "dense", "fused", "payers", "days", "min USD"
        );
        for r in &answer.data {
            let _ = writeln!(
                out,
                "{:>3}  {:>5}  {:>5}  {:>5}  {:>7}  {:>5}  {:>10}  {}",
                r.position,
                opt(&r.ranks.bm25),
                opt(&r.ranks.dense),
                r.ranks.fused,
                opt(&r.listing.figures.unique_payers_30d),
                opt(&r.listing.figures.days_since_last_call),
                opt(&r.listing.min_price_usd),
                printable(r.listing.resource)
            );
            write_description(&mut out, &r.listing);
        }
    }
    write_limits(&mut out, &m.limits);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_and_format_characters_are_neutralised() {
        assert_eq!(printable("a\u{1b}[2Jb\u{202E}c\u{200B}d\te"), "a\u{FFFD}[2Jb\u{FFFD}c\u{FFFD}d\u{FFFD}e");
        assert_eq!(printable("天气 ✓"), "天气 ✓");
    }
}
