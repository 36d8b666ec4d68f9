//! A snapshot's build report: what was held out, collapsed, rejected, overruled, or
//! read with fields dropped (content/method.md#duplicates).

use askama::Template;
use method::probe::Probe;

use super::probe::{probe_counts, ProbeCounts};

use super::Chrome;
use catalogue::model::Drop;
use method::index::{Index, Rejected};
use method::names;

pub(crate) struct ClaimView {
    pub(crate) date: String,
    pub(crate) position: usize,
    pub(crate) pay_to: String,
    pub(crate) last_updated: Option<String>,
}

pub(crate) struct ConflictView {
    pub(crate) resource: String,
    pub(crate) claims: Vec<ClaimView>,
}

pub(crate) struct CollapsedView {
    pub(crate) resource: String,
    pub(crate) kept: usize,
    pub(crate) dropped: String,
}

pub(crate) struct DropsView {
    pub(crate) resource: String,
    pub(crate) page: String,
    pub(crate) fields: Vec<Drop>,
}

#[derive(Template)]
#[template(path = "report.html")]
pub(crate) struct ReportPage<'a> {
    pub(crate) c: &'a Chrome,
    pub(crate) items: usize,
    pub(crate) entries: usize,
    pub(crate) withheld: usize,
    pub(crate) conflicts: Vec<ConflictView>,
    pub(crate) collapsed: Vec<CollapsedView>,
    pub(crate) rejected: Vec<Rejected>,
    pub(crate) overruled: Vec<OverruledView>,
    pub(crate) drops: Vec<DropsView>,
    pub(crate) probe: ProbeCounts,
}

pub(crate) struct OverruledView {
    pub(crate) resource: String,
    pub(crate) position: usize,
    pub(crate) pay_to: String,
    pub(crate) owner: String,
    pub(crate) correction_date: String,
}

pub(crate) fn report_page<'a>(c: &'a Chrome, index: &Index, probe: Option<&Probe>) -> ReportPage<'a> {
    let r = &index.report;
    ReportPage {
        c,
        items: index.header.item_count,
        entries: index.entries.len(),
        withheld: index.entries.iter().filter(|e| e.withheld.is_some()).count(),
        conflicts: r
            .quarantined
            .iter()
            .map(|q| ConflictView {
                resource: q.resource.clone(),
                claims: q
                    .claims
                    .iter()
                    .map(|cl| ClaimView {
                        date: cl.date.clone(),
                        position: cl.position,
                        pay_to: if cl.pay_to.is_empty() { "(none)".into() } else { cl.pay_to.join(", ") },
                        last_updated: cl.last_updated.clone(),
                    })
                    .collect(),
            })
            .collect(),
        collapsed: r
            .collapsed
            .iter()
            .map(|k| CollapsedView {
                resource: k.resource.clone(),
                kept: k.kept_position,
                dropped: k.dropped_positions.iter().map(|p| format!("item {p}")).collect::<Vec<_>>().join(", "),
            })
            .collect(),
        rejected: r.rejected.clone(),
        overruled: r
            .overruled
            .iter()
            .map(|o| OverruledView {
                resource: o.resource.clone(),
                position: o.position,
                pay_to: o.pay_to.join(", "),
                owner: o.owner.join(", "),
                correction_date: o.correction_date.clone(),
            })
            .collect(),
        drops: index
            .entries
            .iter()
            .filter(|e| !e.resource.drops.is_empty())
            .map(|e| DropsView {
                resource: e.resource.url.clone(),
                page: names::resource_page(&index.header.date, &e.slug()),
                fields: e.resource.drops.clone(),
            })
            .collect(),
        probe: probe_counts(probe),
    }
}
