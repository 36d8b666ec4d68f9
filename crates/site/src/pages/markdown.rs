//! Pages made from the project's own Markdown: the method (content/method.md), the
//! static JSON API's format (docs/static-api.md), the corrections log's introduction
//! (content/corrections.md) and explore's method (content/explore.md).

use askama::Template;

use super::Chrome;
use explore::vectors::PROVENANCE;
use explore::EXPLORE_VERSION;
use method::corrections::Correction;
use method::{Method, DISCOVERY_METHOD_VERSION};

const METHOD_MD: &str = include_str!("../../../../content/method.md");
const CORRECTIONS_MD: &str = include_str!("../../../../content/corrections.md");
const EXPLORE_MD: &str = include_str!("../../../../content/explore.md");
/// The static API's format, for programs (the page a client is written from).
pub(crate) const STATIC_API_MD: &str = include_str!("../../../../docs/static-api.md");

#[derive(Template)]
#[template(path = "markdown.html")]
pub(crate) struct MarkdownPage<'a> {
    pub(crate) c: &'a Chrome,
    pub(crate) heading: String,
    pub(crate) html: String,
}

/// Markdown of the project's own content to HTML.
pub(crate) fn markdown(md: &str) -> String {
    use pulldown_cmark::{html, Options, Parser};
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(md, Options::ENABLE_TABLES | Options::ENABLE_HEADING_ATTRIBUTES));
    // Tables scroll sideways on a phone, in a region the keyboard can reach (as the
    // templates' tables do), named by the heading they come under.
    let mut wrapped = String::with_capacity(out.len());
    let mut heading = String::from("Table");
    let mut named: Vec<String> = Vec::new();
    for (k, piece) in out.split("<table>").enumerate() {
        if k > 0 {
            // Landmarks want distinct names: a second table under one heading is "(2)".
            let same = named.iter().filter(|h| **h == heading).count();
            let name = if same == 0 { heading.clone() } else { format!("{heading} ({})", same + 1) };
            named.push(heading.clone());
            wrapped.push_str(&format!(
                "<div class=\"table-wrap\" tabindex=\"0\" role=\"region\" aria-label=\"Table: {name}\"><table>"
            ));
        }
        wrapped.push_str(piece);
        if let Some(h) = last_heading_text(piece) {
            heading = h;
        }
    }
    wrapped.replace("</table>", "</table></div>")
}

/// The text of the last heading in a piece of rendered HTML (already escaped).
fn last_heading_text(html: &str) -> Option<String> {
    let start = ["<h2", "<h3", "<h4"].iter().filter_map(|tag| html.rfind(tag)).max()?;
    let open_end = start + html[start..].find('>')? + 1;
    let close = open_end + html[open_end..].find("</h")?;
    let mut text = String::new();
    let mut in_tag = false;
    for c in html[open_end..close].chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    Some(text.replace('"', "&quot;"))
}

/// The method's page: its text, with, under its title, the date this version was
/// published and a table of contents of its sections (a phone scrolls 22,000 px).
pub(crate) fn method_page(c: &Chrome) -> MarkdownPage<'_> {
    let published = published_date(METHOD_MD, DISCOVERY_METHOD_VERSION)
        .map(|d| format!("Version {DISCOVERY_METHOD_VERSION}, published {d}. "))
        .unwrap_or_default();
    let html = with_contents(
        &markdown(METHOD_MD),
        &format!("{published}<a href=\"#versions\">Every version and what it changed</a>."),
    );
    MarkdownPage { c, heading: format!("Method {DISCOVERY_METHOD_VERSION}"), html }
}

/// The static API's format page for layout `api_version`: the text of docs/static-api.md,
/// under its title the layout and method it describes, and its contents.
pub(crate) fn static_api_page(c: &Chrome, api_version: u32) -> MarkdownPage<'_> {
    let html = with_contents(
        &markdown(STATIC_API_MD),
        &format!(
            "API layout {api_version}, method {DISCOVERY_METHOD_VERSION}. The rule itself: \
             <a href=\"{}\">the directory method</a>.",
            method::names::method_page()
        ),
    );
    MarkdownPage { c, heading: format!("Static JSON API, layout {api_version}"), html }
}

/// `html` with, under its `<h1>`, the line `lead` and a list of its sections (a phone
/// scrolls 22,000 px of the method).
fn with_contents(html: &str, lead: &str) -> String {
    let contents: String =
        sections(html).iter().map(|(id, text)| format!("<li><a href=\"#{id}\">{text}</a></li>")).collect();
    let head = format!(
        "<p class=\"published\">{lead}</p>\n\
         <nav class=\"toc\" aria-label=\"Contents\"><h2 id=\"contents\">Contents</h2><ol>{contents}</ol></nav>\n"
    );
    match html.find("</h1>") {
        Some(at) => format!("{}{head}{}", &html[..at + 5], &html[at + 5..]),
        None => format!("{head}{html}"),
    }
}

/// The versions a page's history names, as written: the first cell of each table row
/// under its `## Versions` heading that is a version number (`| 1.2.0 | … |`).
fn versions_listed(md: &str) -> Vec<&str> {
    let is_version = |cell: &str| {
        let parts: Vec<&str> = cell.split('.').collect();
        parts.len() == 3 && parts.iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
    };
    md.lines()
        .skip_while(|line| !line.starts_with("## Versions"))
        .skip(1)
        .take_while(|line| !line.starts_with("## "))
        .filter_map(|line| cells(line)?.next())
        .filter(|cell| is_version(cell))
        .collect()
}

/// A markdown table row's cells, trimmed (`| 1.2.0 | 2026-12-01 | … |`); `None` for a
/// line that is no row.
fn cells(line: &str) -> Option<impl Iterator<Item = &str>> {
    Some(line.strip_prefix('|')?.split('|').map(str::trim))
}

/// The method's versions before the current one, newest first (content/method.md#versions).
pub(crate) fn superseded_method_versions() -> Vec<&'static str> {
    versions_listed(METHOD_MD).into_iter().filter(|v| *v != DISCOVERY_METHOD_VERSION).collect()
}

/// Explore's versions before the current one, newest first (content/explore.md#versions).
pub(crate) fn superseded_explore_versions() -> Vec<&'static str> {
    versions_listed(EXPLORE_MD).into_iter().filter(|v| *v != EXPLORE_VERSION).collect()
}

/// The date of `version`'s row in the version history table of content/method.md
/// (`| 1.2.0 | 2026-12-01 | … |`).
pub(crate) fn published_date<'a>(md: &'a str, version: &str) -> Option<&'a str> {
    md.lines().find_map(|line| {
        let mut cells = cells(line)?;
        (cells.next()? == version).then_some(())?;
        cells.next().filter(|d| catalogue::snapshot::parse_date(d).is_ok())
    })
}

/// The page's sections: each `<h2>` with an id, as (id, its text as rendered).
fn sections(html: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find("<h2 id=\"") {
        rest = &rest[at + 8..];
        let Some(id_end) = rest.find('"') else { break };
        let id = rest[..id_end].to_owned();
        let Some(open_end) = rest.find('>') else { break };
        let Some(close) = rest.find("</h2>") else { break };
        out.push((id, rest[open_end + 1..close].to_owned()));
        rest = &rest[close..];
    }
    out
}

#[derive(Template)]
#[template(path = "corrections.html")]
pub(crate) struct CorrectionsPage<'a> {
    pub(crate) c: &'a Chrome,
    pub(crate) intro: String,
    pub(crate) entries: Vec<Correction>,
}

pub(crate) fn corrections_page<'a>(c: &'a Chrome, method: &Method) -> CorrectionsPage<'a> {
    CorrectionsPage { c, intro: markdown(CORRECTIONS_MD), entries: method.corrections.newest_first() }
}

#[derive(Template)]
#[template(path = "explore_method.html")]
pub(crate) struct ExploreMethodPage<'a> {
    pub(crate) c: &'a Chrome,
    pub(crate) version: &'static str,
    pub(crate) html: String,
    pub(crate) provenance: Vec<(String, String)>,
}

pub(crate) fn explore_method_page(c: &Chrome) -> ExploreMethodPage<'_> {
    let provenance = match serde_json::from_str::<serde_json::Value>(PROVENANCE) {
        Ok(serde_json::Value::Object(map)) => {
            map.into_iter().map(|(k, v)| (k, v.as_str().map_or_else(|| v.to_string(), str::to_owned))).collect()
        }
        _ => Vec::new(),
    };
    ExploreMethodPage { c, version: EXPLORE_VERSION, html: markdown(EXPLORE_MD), provenance }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_versions_are_read_from_the_history_under_the_versions_heading_only() {
        let md = "# T\n| 9.9.9 | before |\n## Versions {#versions}\n| Version | What |\n|---|---|\n\
                  | 1.1.0 | second |\n| 1.0.0 | first |\n| 1.0 | not a version |\n## Next\n| 2.0.0 | a figure |\n";
        assert_eq!(versions_listed(md), ["1.1.0", "1.0.0"]);
        // Every history lists the current version and the first one.
        for (md, current, first) in
            [(METHOD_MD, DISCOVERY_METHOD_VERSION, "1.0.0"), (EXPLORE_MD, EXPLORE_VERSION, "1.0.0")]
        {
            let listed = versions_listed(md);
            assert_eq!(listed.first(), Some(&current), "the newest row is the current version");
            assert_eq!(listed.last(), Some(&first));
            assert_eq!(listed.iter().collect::<std::collections::BTreeSet<_>>().len(), listed.len(), "a version twice");
        }
        assert!(superseded_explore_versions().contains(&"2.10.0"));
        assert!(!superseded_method_versions().contains(&DISCOVERY_METHOD_VERSION));
    }

    #[test]
    fn the_current_method_version_has_a_dated_line_in_the_history() {
        // A version bump without its line in content/method.md#versions fails here.
        assert!(
            published_date(METHOD_MD, DISCOVERY_METHOD_VERSION).is_some(),
            "no line for {DISCOVERY_METHOD_VERSION}"
        );
        assert_eq!(published_date("| 1.0.0 | 2026-12-01 | first |", "1.0.0"), Some("2026-12-01"));
        assert_eq!(published_date("| 1.0.0 | soon | first |", "1.0.0"), None);
    }

    #[test]
    fn the_method_page_opens_with_its_date_and_contents() {
        let c = Chrome::outside("2025-12-31");
        let page = method_page(&c);
        let h1 = page.html.find("</h1>").unwrap();
        let toc = page.html.find(r#"<nav class="toc""#).unwrap();
        assert!(h1 < toc && toc < page.html.find("<h2 id=\"versions\"").unwrap());
        for id in ["versions", "limits", "ranking", "published", "corrections"] {
            assert!(page.html.contains(&format!(r##"<li><a href="#{id}">"##)), "{id}");
        }
        assert!(page.html.contains(&format!("Version {DISCOVERY_METHOD_VERSION}, published 2026-12-03.")));
    }

    #[test]
    fn markdown_tables_scroll_in_regions_named_by_their_heading() {
        let md = "## The `max_price` filter\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n| c |\n|---|\n| 3 |\n\n### Next\n\n| d |\n|---|\n| 4 |\n";
        let html = markdown(md);
        let labels: Vec<&str> =
            html.split("aria-label=\"").skip(1).map(|rest| &rest[..rest.find('"').unwrap()]).collect();
        assert_eq!(labels, ["Table: The max_price filter", "Table: The max_price filter (2)", "Table: Next"]);
        assert_eq!(html.matches("<div class=\"table-wrap\" tabindex=\"0\" role=\"region\"").count(), 3);
        assert_eq!(html.matches("</table></div>").count(), 3);
    }
}
