//! Each snapshot's Atom feed (RFC 4287) of the resources new since the snapshot before
//! it: ranked now, not ranked then, under the same method version.
//!
//! Descriptions go out as screened for the pages: a withheld one is replaced by the
//! notice, never its text. Every date in the feed is the snapshot's own, so the same
//! snapshot makes the same feed byte for byte.

use std::fmt::Write;

use super::agents::xml_text;
use super::history::{Comparison, Timeline};
use crate::context::SnapshotContext;
use catalogue::error::Error;
use method::index::{Entry, Index};
use method::names::{self, FEED_FILE};
use method::view::page_url;
use method::{Method, DISCOVERY_METHOD_VERSION};

/// Entries a feed carries at most, in browse order: a reader's feed stays small; the
/// snapshot's `new/` pages list them all.
pub(crate) const FEED_ENTRIES: usize = 500;

/// The snapshot's feed, as its folder's [`FEED_FILE`].
pub(crate) fn write_feed(cx: &SnapshotContext) -> Result<(), Error> {
    let feed = atom_feed(cx.index, cx.method, cx.timeline, cx.new_ids());
    (cx.sink)(vec![(FEED_FILE.to_owned(), feed.into_bytes())])
}

/// The feed of `index`'s snapshot; `new_ids` are its new entries (from
/// [`Timeline::new_ids`]) in browse order.
pub(crate) fn atom_feed(index: &Index, method: &Method, timeline: &Timeline, new_ids: Option<&[usize]>) -> String {
    let base = &method.site.base_url;
    let date = &index.header.date;
    let updated = format!("{date}T00:00:00Z");
    let self_url = format!("{base}{}", names::in_snapshot(date, FEED_FILE));
    let new = new_ids.unwrap_or_default();
    let (subtitle, alternate) = subtitle_and_page(base, date, timeline, new.len());
    let mut xml =
        String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\">\n");
    let _ = writeln!(xml, "<id>{}</id>", xml_text(&self_url));
    let _ = writeln!(xml, "<title>x402dir: resources new in the snapshot of {date}</title>");
    let _ = writeln!(xml, "<subtitle>{}</subtitle>", xml_text(&subtitle));
    let _ = writeln!(xml, "<updated>{updated}</updated>");
    let _ = writeln!(xml, "<author><name>x402dir</name><uri>{}/</uri></author>", xml_text(base));
    let _ = writeln!(xml, "<link rel=\"self\" type=\"application/atom+xml\" href=\"{}\"/>", xml_text(&self_url));
    let _ = writeln!(xml, "<link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>", xml_text(&alternate));
    for &id in new.iter().take(FEED_ENTRIES) {
        let e = &index.entries[id];
        let _ = writeln!(
            xml,
            "<entry><id>{page}</id><title>{}</title><link rel=\"alternate\" type=\"text/html\" href=\"{page}\"/>\
             <updated>{updated}</updated><summary type=\"text\">{}</summary></entry>",
            xml_text(&entry_title(e)),
            xml_text(&entry_summary(e)),
            page = xml_text(&page_url(method, index, e)),
        );
    }
    xml.push_str("</feed>\n");
    xml
}

/// What the feed says it holds, and the page it stands for: the snapshot's `new/`
/// listing when there is a comparable snapshot before it, else its home.
fn subtitle_and_page(base: &str, date: &str, timeline: &Timeline, new: usize) -> (String, String) {
    let home = format!("{base}{}", names::in_snapshot(date, names::HOME_DIR));
    match timeline.comparison() {
        Comparison::First => {
            (format!("The snapshot of {date} is the first: there is no earlier snapshot to compare it with."), home)
        }
        Comparison::OtherVersion(previous) => (
            format!(
                "The snapshot of {} was judged by method {}, this one by {DISCOVERY_METHOD_VERSION}: answers are \
                 comparable only under one version, so no resource is called new.",
                previous.date, previous.method_version
            ),
            home,
        ),
        Comparison::With(previous) => {
            let new_page = format!("{base}{}", names::in_snapshot(date, names::NEW_DIR));
            let mut text = format!(
                "{new} resources ranked in the snapshot of {date} that the snapshot of {} did not rank (method \
                 {DISCOVERY_METHOD_VERSION}).",
                previous.date
            );
            if !previous.complete {
                text.push_str(&format!(
                    " The snapshot of {} did not capture every listing its source reported, so some of these may \
                     have been listed then.",
                    previous.date
                ));
            }
            if new > FEED_ENTRIES {
                text.push_str(&format!(" The first {FEED_ENTRIES} in browse order are here; {new_page} lists all."));
            }
            (text, new_page)
        }
    }
}

/// An entry's title: the service's name and the resource, or the resource alone.
fn entry_title(e: &Entry) -> String {
    match &e.resource.service_name {
        Some(name) => format!("{name} ({})", e.resource.url),
        None => e.resource.url.clone(),
    }
}

/// An entry's summary: its description as screened for the pages, then its counts.
fn entry_summary(e: &Entry) -> String {
    let mut summary = match (&e.withheld, e.public_description()) {
        (Some(w), _) => format!(
            "Description withheld: it matched {} pattern{} of the screening list {}, which looks for text \
             addressed to AI agents.",
            w.patterns_matched,
            if w.patterns_matched == 1 { "" } else { "s" },
            w.pattern_list_version
        ),
        (None, Some(d)) => d.to_owned(),
        (None, None) => "The listing has no description.".to_owned(),
    };
    let count = |v: Option<u64>| v.map_or_else(|| "not given".to_owned(), |n| n.to_string());
    let _ = write!(
        summary,
        "\n\nResource: {}\nDistinct paying addresses, 30 days: {}\nPaid calls, 30 days: {}\nLowest USD price: {}",
        e.resource.url,
        count(e.figures.unique_payers_30d),
        count(e.figures.calls_30d),
        e.min_price_usd.map_or_else(|| "none readable".to_owned(), |p| format!("${p}")),
    );
    summary
}
