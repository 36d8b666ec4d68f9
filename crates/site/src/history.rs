//! What the snapshots before this one said: each resource page's history of payers and
//! calls, and each snapshot's list of resources that are new since the previous one.
//!
//! A snapshot's folder only ever looks back (an older dated build never changes), so
//! the history of a snapshot is the snapshots dated before it, judged by the method of
//! this build. Snapshots are built oldest first and each is remembered for the next;
//! those dated before the first one built are read for the purpose.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};

use catalogue::error::Error;
use catalogue::snapshot::Stored;
use method::index::{Entry, Index};
use method::names::resource_page;
use method::ownership::RunningLedger;
use method::probe::Probe;
use method::{Method, DISCOVERY_METHOD_VERSION};

/// Snapshots a resource page's history shows, this one included: a year of monthly
/// snapshots, or a quarter of weekly ones, and a page that stays small.
pub const HISTORY_SNAPSHOTS: usize = 12;

/// A resource's two counts in one snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Counts {
    pub(crate) unique_payers_30d: Option<u64>,
    pub(crate) calls_30d: Option<u64>,
}

impl Counts {
    pub(crate) fn of(e: &Entry) -> Counts {
        Counts { unique_payers_30d: e.figures.unique_payers_30d, calls_30d: e.figures.calls_30d }
    }
}

/// An earlier snapshot, as later ones look back on it.
#[derive(Debug)]
pub struct Past {
    /// Its stored file, as found beside the snapshot being built (canonical when it
    /// can be): a history is the snapshots stored in the same folder, however named.
    path: PathBuf,
    pub(crate) date: String,
    /// Whether it captured every item its source reported: a resource missing from an
    /// incomplete snapshot may have been listed all the same.
    pub(crate) complete: bool,
    /// The method version it was judged by: "new since" compares only under one version.
    pub(crate) method_version: String,
    /// Ranked resources by URL.
    resources: HashMap<String, Counts>,
    /// Whether each resource its probe reached answered 402; `None` when that snapshot
    /// was not probed (content/method.md#probe).
    answered_402: Option<HashMap<String, bool>>,
}

impl Past {
    pub fn of(stored: &Stored, index: &Index) -> Past {
        Past {
            path: canonical(stored.path()),
            date: stored.date().to_owned(),
            complete: index.header.complete,
            method_version: DISCOVERY_METHOD_VERSION.to_owned(),
            resources: index.entries.iter().map(|e| (e.resource.url.clone(), Counts::of(e))).collect(),
            answered_402: index.probe.as_ref().map(|p| {
                p.results.iter().filter(|r| r.asked()).map(|r| (r.resource.clone(), r.answered_402())).collect()
            }),
        }
    }

    /// The resource's counts, `None` when it was not among this snapshot's resources.
    pub(crate) fn counts(&self, url: &str) -> Option<Counts> {
        self.resources.get(url).copied()
    }
}

/// The snapshots dated before the one being built, oldest first, as many as a history
/// shows ([`HISTORY_SNAPSHOTS`] less this one).
#[derive(Debug, Default)]
pub struct Timeline {
    pasts: Vec<Past>,
}

/// Whether resources can be called new since the previous snapshot, and if not why.
#[derive(Debug)]
pub(crate) enum Comparison<'a> {
    /// Compared with this snapshot.
    With(&'a Past),
    /// The first snapshot: nothing before it.
    First,
    /// The previous snapshot was judged by another method version: its resources and
    /// these are not comparable (content/method.md#versions).
    OtherVersion(&'a Past),
}

impl Timeline {
    /// The timeline of a snapshot whose `history` (the snapshots stored before it,
    /// oldest first) is given: the last [`HISTORY_SNAPSHOTS`] less one of them, taken from
    /// what the timeline holds or read now. Read before the snapshot itself, so two
    /// indexes are never held at once.
    ///
    /// `ledger` is the run's: the snapshots read here extend it oldest first, each adding
    /// its claims for the next, so the files before them are read once, not once per
    /// snapshot read (at 12 weekly snapshots of 15,000 listings, 30 of a 39 s build), and
    /// the snapshot itself, read next, finds its ledger made (at 52 weekly snapshots of
    /// 2,000, a second read of every claim: a third of the build).
    pub fn before(
        mut self,
        history: &[Stored],
        method: &Method,
        ledger: &mut RunningLedger,
    ) -> Result<Timeline, Error> {
        let first = history.len().saturating_sub(HISTORY_SNAPSHOTS - 1);
        let wanted: Vec<PathBuf> = history[first..].iter().map(|s| canonical(s.path())).collect();
        self.pasts.retain(|p| wanted.contains(&p.path));
        for (k, older) in history.iter().enumerate().skip(first) {
            if !self.pasts.iter().any(|p| p.path == wanted[k - first]) {
                // Judged with its own history: the snapshots stored before it.
                let index = Index::read_running(older, &history[..k], method, ledger, true)?;
                self.pasts.push(Past::of(older, &index));
            }
        }
        self.pasts.sort_by(|a, b| a.date.cmp(&b.date));
        Ok(self)
    }

    /// Remembers a snapshot just built, for the snapshots after it.
    pub fn push(&mut self, past: Past) {
        self.pasts.push(past);
    }

    /// What "new" means for the snapshot after this timeline.
    pub(crate) fn comparison(&self) -> Comparison<'_> {
        match self.pasts.last() {
            None => Comparison::First,
            Some(p) if p.method_version == DISCOVERY_METHOD_VERSION => Comparison::With(p),
            Some(p) => Comparison::OtherVersion(p),
        }
    }

    /// Ids of `index`'s entries that the previous snapshot did not rank, in browse
    /// order; `None` when there is no comparable previous snapshot.
    pub(crate) fn new_ids(&self, index: &Index) -> Option<Vec<usize>> {
        let Comparison::With(previous) = self.comparison() else { return None };
        Some((0..index.entries.len()).filter(|&i| previous.counts(&index.entries[i].resource.url).is_none()).collect())
    }
}

/// How many resources are new since the previous snapshot (same method version), as
/// the snapshot's home page says it.
pub(crate) struct NewSince {
    pub(crate) previous: String,
    pub(crate) previous_complete: bool,
    pub(crate) count: usize,
}

impl NewSince {
    /// `new_ids` new since `previous` ([`Timeline::new_ids`]).
    pub(crate) fn of(previous: &Past, new_ids: &[usize]) -> NewSince {
        NewSince { previous: previous.date.clone(), previous_complete: previous.complete, count: new_ids.len() }
    }
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().unwrap_or_else(|_| path.to_path_buf())
}

/// One snapshot's line of a resource's history.
pub(crate) struct HistoryRow {
    pub(crate) date: String,
    /// The resource's page in that snapshot, when it was listed there.
    pub(crate) page: Option<String>,
    /// `None`: not among that snapshot's resources.
    pub(crate) counts: Option<Counts>,
    pub(crate) complete: bool,
    pub(crate) current: bool,
}

/// A resource's history as a page shows it: a row per snapshot, and two bar charts
/// when two snapshots or more gave counts (crawler dumps carry none).
pub(crate) struct HistoryView {
    pub(crate) rows: Vec<HistoryRow>,
    pub(crate) charts: Option<(String, String)>,
    /// Of the probes of these snapshots that reached the resource, how many it answered
    /// with a 402, and how many there were; `None` when none reached it.
    pub(crate) probes: Option<(usize, usize)>,
}

/// The history of `e` across the timeline and this snapshot; `None` when this is the
/// only snapshot.
pub(crate) fn history_view(
    timeline: &Timeline,
    index: &Index,
    probe: Option<&Probe>,
    e: &Entry,
) -> Option<HistoryView> {
    if timeline.pasts.is_empty() {
        return None;
    }
    let url = &e.resource.url;
    let slug = e.slug();
    let mut rows: Vec<HistoryRow> = timeline
        .pasts
        .iter()
        .map(|p| {
            let counts = p.counts(url);
            HistoryRow {
                date: p.date.clone(),
                page: counts.map(|_| resource_page(&p.date, &slug)),
                counts,
                complete: p.complete,
                current: false,
            }
        })
        .collect();
    rows.push(HistoryRow {
        date: index.header.date.clone(),
        page: None,
        counts: Some(Counts::of(e)),
        complete: index.header.complete,
        current: true,
    });
    let payers: Vec<Option<u64>> = rows.iter().map(|r| r.counts.and_then(|c| c.unique_payers_30d)).collect();
    let calls: Vec<Option<u64>> = rows.iter().map(|r| r.counts.and_then(|c| c.calls_30d)).collect();
    let dates: Vec<&str> = rows.iter().map(|r| r.date.as_str()).collect();
    // A chart of one bar says nothing the table does not: two snapshots with a count at least.
    let counted = payers.iter().zip(&calls).filter(|(p, c)| p.is_some() || c.is_some()).count();
    let reached = timeline
        .pasts
        .iter()
        .filter_map(|p| p.answered_402.as_ref()?.get(url).copied())
        .chain(probe.and_then(|p| p.result(url)).filter(|r| r.asked()).map(|r| r.answered_402()));
    let (answered, probes) = reached.fold((0, 0), |(a, n), yes| (a + usize::from(yes), n + 1));
    Some(HistoryView {
        probes: (probes > 0).then_some((answered, probes)),
        charts: (counted >= 2).then(|| {
            (
                bar_chart("Distinct paying addresses, 30 days, by snapshot", &dates, &payers),
                bar_chart("Paid calls, 30 days, by snapshot", &dates, &calls),
            )
        }),
        rows,
    })
}

const CHART_WIDTH: u64 = 240;
const CHART_HEIGHT: u64 = 64;

/// An inline SVG bar chart, one bar per snapshot, drawn to the largest value; a
/// missing value draws no bar. Heights are whole numbers worked out in integers, so
/// the same counts always draw the same bytes. It holds only numbers and dates (no
/// catalogue text), and its numbers are in the table beside it.
pub(crate) fn bar_chart(title: &str, dates: &[&str], values: &[Option<u64>]) -> String {
    let max = values.iter().flatten().copied().max().unwrap_or(0);
    let slot = CHART_WIDTH / values.len().max(1) as u64;
    let bar = (slot * 3 / 4).max(1);
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg class=\"chart\" viewBox=\"0 0 {CHART_WIDTH} {}\" width=\"{CHART_WIDTH}\" height=\"{}\" role=\"img\" \
         aria-label=\"{title}\"><title>{title}</title>",
        CHART_HEIGHT + 1,
        CHART_HEIGHT + 1
    );
    for (k, (value, date)) in values.iter().zip(dates).enumerate() {
        let Some(v) = value else { continue };
        // Rounded to the nearest pixel; a count above zero is never drawn as nothing.
        let h = if max == 0 {
            0
        } else {
            ((*v as u128 * CHART_HEIGHT as u128 * 2 + max as u128) / (2 * max as u128)) as u64
        };
        let h = if *v > 0 { h.max(1) } else { h };
        let x = k as u64 * slot + (slot - bar) / 2;
        let _ = write!(
            svg,
            "<rect x=\"{x}\" y=\"{}\" width=\"{bar}\" height=\"{h}\"><title>{date}: {v}</title></rect>",
            CHART_HEIGHT - h
        );
    }
    let _ = write!(svg, "<line x1=\"0\" y1=\"{CHART_HEIGHT}\" x2=\"{CHART_WIDTH}\" y2=\"{CHART_HEIGHT}\"/></svg>");
    svg
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heights(svg: &str) -> Vec<u64> {
        svg.split("height=\"").skip(2).map(|s| s[..s.find('"').unwrap()].parse().unwrap()).collect()
    }

    #[test]
    fn bars_are_drawn_to_the_largest_value_and_gaps_stay_empty() {
        let svg = bar_chart(
            "t",
            &["2026-01-01", "2026-02-01", "2026-03-01", "2026-04-01"],
            &[Some(64), None, Some(16), Some(1)],
        );
        // 64 px is the chart's height: 64 fills it, 16 is a quarter, 1 rounds to 1.
        assert_eq!(heights(&svg), vec![64, 16, 1]);
        assert_eq!(svg.matches("<rect").count(), 3, "no bar where the resource was not listed");
        assert!(svg.contains("<title>2026-03-01: 16</title>"));
    }

    fn past(date: &str, method_version: &str) -> Past {
        Past {
            path: PathBuf::from(format!("{date}.json")),
            date: date.into(),
            complete: true,
            method_version: method_version.into(),
            resources: HashMap::new(),
            answered_402: None,
        }
    }

    #[test]
    fn resources_are_new_only_against_a_snapshot_judged_by_the_same_method_version() {
        let mut timeline = Timeline::default();
        assert!(matches!(timeline.comparison(), Comparison::First));
        timeline.push(past("2026-01-01", DISCOVERY_METHOD_VERSION));
        assert!(matches!(timeline.comparison(), Comparison::With(p) if p.date == "2026-01-01"));
        timeline.push(past("2026-01-08", "0.9.0"));
        assert!(matches!(timeline.comparison(), Comparison::OtherVersion(p) if p.method_version == "0.9.0"));
    }

    #[test]
    fn zero_draws_a_zero_bar_and_a_small_count_is_never_invisible() {
        let svg = bar_chart("t", &["a", "b"], &[Some(0), Some(0)]);
        assert_eq!(heights(&svg), vec![0, 0]);
        let svg = bar_chart("t", &["a", "b"], &[Some(1_000_000), Some(3)]);
        assert_eq!(heights(&svg), vec![64, 1]);
    }
}
