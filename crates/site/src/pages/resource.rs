//! A resource's page: its listing as read, each figure beside the counts it comes from
//! (content/method.md#figures), its prices, and its history across snapshots.

use super::probe::{probe_view, ProbeView};
use askama::Template;

use super::call::{call_view, CallView};
use super::{count, Chrome};
use crate::api::method::RECORD_BLOCK;
use crate::context::SnapshotContext;
use crate::facets::Facet;
use crate::history::{history_view, HistoryView};
use crate::paths::link_target;
use catalogue::model::Drop;
use method::index::{Entry, Index};
use method::names;
use method::Method;

pub(crate) struct FigureRow {
    /// What people call it; the field name (`name`) stays beside its definition.
    pub(crate) label: &'static str,
    pub(crate) name: &'static str,
    pub(crate) value: String,
    pub(crate) inputs: String,
    pub(crate) definition: &'static str,
    pub(crate) not_shown: &'static str,
}

pub(crate) struct WithheldView {
    pub(crate) count: usize,
    pub(crate) ids: String,
    pub(crate) version: String,
}

pub(crate) struct ResourceView {
    pub(crate) resource: String,
    /// A link target only for http(s) URLs; anything else is shown as text.
    pub(crate) href: Option<String>,
    pub(crate) description: Option<String>,
    pub(crate) withheld: Option<WithheldView>,
    pub(crate) figures: Vec<FigureRow>,
    pub(crate) segments: Vec<Facet>,
    pub(crate) segment_version: String,
    pub(crate) operator_listing: bool,
    pub(crate) drops: Vec<Drop>,
    pub(crate) record: String,
    pub(crate) record_id: usize,
    pub(crate) record_block: usize,
}

#[derive(Template)]
#[template(path = "resource.html")]
pub(crate) struct ResourcePage<'a> {
    pub(crate) c: &'a Chrome,
    /// The heading: the service name, or the URL's host and last path part.
    pub(crate) title: String,
    pub(crate) r: ResourceView,
    /// How to call it, from the listing alone: at the top of the page.
    pub(crate) call: CallView,
    /// Payers and calls in this and earlier snapshots; `None` with a single snapshot.
    pub(crate) history: Option<HistoryView>,
    /// What the probe's unpaid request found, or that there was none.
    pub(crate) probe: ProbeView,
}

/// The page of entry `id`.
pub(crate) fn resource_page<'a>(cx: &'a SnapshotContext, id: usize) -> ResourcePage<'a> {
    let e = &cx.index.entries[id];
    ResourcePage {
        c: &cx.chrome,
        title: super::title(e),
        r: resource_view(id, e, cx.index, cx.method),
        call: call_view(e, cx.method),
        history: history_view(cx.timeline, cx.index, cx.probe, e),
        probe: probe_view(cx.probe, &e.resource.url),
    }
}

pub(crate) fn resource_view(id: usize, e: &Entry, index: &Index, method: &Method) -> ResourceView {
    ResourceView {
        resource: e.resource.url.clone(),
        href: link_target(&e.resource.url),
        description: e.public_description().map(str::to_owned),
        withheld: e.withheld.as_ref().map(|w| WithheldView {
            count: w.patterns_matched,
            ids: w.pattern_ids.join(", "),
            version: w.pattern_list_version.clone(),
        }),
        figures: figure_rows(e, index),
        segments: segment_links(e, index, method),
        segment_version: method.segments.version.clone(),
        operator_listing: e.operator_listing,
        drops: e.resource.drops.clone(),
        record: names::in_snapshot(&index.header.date, &names::record_block_file(id / RECORD_BLOCK)),
        record_id: id,
        record_block: RECORD_BLOCK,
    }
}

/// Each figure beside the counts it comes from, what it is and what it does not show
/// (content/method.md#figures).
fn figure_rows(e: &Entry, index: &Index) -> Vec<FigureRow> {
    let f = &e.figures;
    vec![
        FigureRow {
            label: "Distinct paying addresses, 30 days",
            name: "unique_payers_30d",
            value: count(f.unique_payers_30d),
            inputs: "the catalogue's l30DaysUniquePayers, unmodified".into(),
            definition: "Distinct addresses that paid for this resource through the catalogue in the last 30 days.",
            not_shown: "Payments through other facilitators or direct agreements; who the payers are.",
        },
        FigureRow {
            label: "Paid calls, 30 days",
            name: "calls_30d",
            value: count(f.calls_30d),
            inputs: "the catalogue's l30DaysTotalCalls, unmodified".into(),
            definition: "Paid calls settled through the catalogue in the last 30 days.",
            not_shown: "Unpaid or off-catalogue use; whether the calls succeeded.",
        },
        FigureRow {
            label: "Calls per paying address",
            name: "calls_per_payer",
            value: f.calls_per_payer.map_or_else(|| "—".to_owned(), |r| r.fixed()),
            inputs: format!("{} calls / {} payers", count(f.calls_30d), count(f.unique_payers_30d)),
            definition: "calls_30d divided by unique_payers_30d, rounded half-up to three decimals; empty when no address paid.",
            not_shown: "Why: near 1 can be a campaign, a tool people try once, an onboarding step, or callers who each need one answer; the data cannot tell them apart.",
        },
        FigureRow {
            label: "Days since the last paid call",
            name: "days_since_last_call",
            value: count(f.days_since_last_call),
            inputs: format!(
                "lastCalledAt {} and the snapshot date {}",
                e.resource.quality.last_called_at_ms.map_or("(absent)".to_owned(), format_ms),
                index.header.date
            ),
            definition: "Whole calendar days (UTC) from the last paid call to the snapshot date; never negative.",
            not_shown: "Whether the service is up now, or used outside this catalogue.",
        },
        FigureRow {
            label: "Words matched in the description",
            name: "match_score",
            value: "per query".into(),
            inputs: "the query's tokens and this description".into(),
            definition: "How many of a query's tokens occur as whole words in the description. A word count.",
            not_shown: "Relevance or quality: it is only a count of words.",
        },
    ]
}

/// The resource's segments, each a link to its facet's listing.
fn segment_links(e: &Entry, index: &Index, method: &Method) -> Vec<Facet> {
    e.segments
        .iter()
        .map(|id| Facet {
            href: names::in_snapshot(&index.header.date, &names::segment_dir(id)),
            label: method.segments.segments.iter().find(|s| &s.id == id).map_or(id.clone(), |s| s.label.clone()),
            count: 0,
        })
        .collect()
}

fn format_ms(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000)
        .ok()
        .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
        .unwrap_or_else(|| ms.to_string())
}
