//! Pages made from the project's own Markdown: the method (content/method.md), the
//! corrections log's introduction (content/corrections.md) and explore's method
//! (content/explore.md).

use askama::Template;

use super::Chrome;
use crate::explore::vectors::PROVENANCE;
use crate::explore::EXPLORE_VERSION;
use crate::method::corrections::Correction;
use crate::method::{Method, DISCOVERY_METHOD_VERSION};

const METHOD_MD: &str = include_str!("../../../content/method.md");
const CORRECTIONS_MD: &str = include_str!("../../../content/corrections.md");
const EXPLORE_MD: &str = include_str!("../../../content/explore.md");

#[derive(Template)]
#[template(path = "markdown.html")]
pub struct MarkdownPage<'a> {
    pub c: &'a Chrome,
    pub heading: String,
    pub html: String,
}

/// Markdown of the project's own content to HTML.
pub fn markdown(md: &str) -> String {
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

pub fn method_page(c: &Chrome) -> MarkdownPage<'_> {
    MarkdownPage { c, heading: format!("Method {DISCOVERY_METHOD_VERSION}"), html: markdown(METHOD_MD) }
}

#[derive(Template)]
#[template(path = "corrections.html")]
pub struct CorrectionsPage<'a> {
    pub c: &'a Chrome,
    pub intro: String,
    pub entries: Vec<Correction>,
}

pub fn corrections_page<'a>(c: &'a Chrome, method: &Method) -> CorrectionsPage<'a> {
    CorrectionsPage { c, intro: markdown(CORRECTIONS_MD), entries: method.corrections.newest_first() }
}

#[derive(Template)]
#[template(path = "explore_method.html")]
pub struct ExploreMethodPage<'a> {
    pub c: &'a Chrome,
    pub version: &'static str,
    pub html: String,
    pub provenance: Vec<(String, String)>,
}

pub fn explore_method_page(c: &Chrome) -> ExploreMethodPage<'_> {
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
