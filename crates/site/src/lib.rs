//! The static site: every snapshot becomes a dated, self-contained folder of pages,
//! JSON and assets; the root lists the dates and points `latest/` at the newest.
//!
//! Here, one snapshot's folder, handed over in batches to a sink (the publish crate
//! stages, checks and swaps it in). Its writers share a [`context::SnapshotContext`]: the
//! JSON APIs ([`api`]), the pages ([`pages`]), the feed and the sitemaps ([`agents`]).
//! [`facets`] says what can be browsed, `method::names` where each page and file lives, and
//! [`history`] what the snapshots before said.

pub(crate) mod agents;
pub mod api;
pub(crate) mod chrome;
pub(crate) mod context;
mod escape;
pub(crate) mod facets;
pub(crate) mod feed;
pub mod history;
pub mod output;
pub mod pages;
pub(crate) mod paths;

use catalogue::timings::phase;
use catalogue::Error;
use explore::eval;
use explore::vectors::VectorTable;
use explore::Explore;
use method::index::Index;
use method::Method;

use api::Sink;
use context::SnapshotContext;
use history::Timeline;
use pages::evaluation::Measured;

/// Makes every file of one snapshot's folder and hands them to `sink` in batches.
pub fn write_snapshot(index: &Index, method: &Method, timeline: &Timeline, sink: Sink) -> Result<(), Error> {
    let cx = SnapshotContext::new(index, method, timeline, sink)?;
    if cx.golden.is_some() || index.entries.len() > SIDE_BY_SIDE_MAX_ENTRIES {
        // The golden snapshot's pages show explore's evaluation; a large snapshot's
        // explore index is let go before the pages take their memory.
        let measured = write_explore(&cx)?;
        return write_pages_and_method_api(&cx, measured.as_ref());
    }
    // Explore leaves a core idle in places (`--timings` at 15,000 listings: its index
    // 0.28 s of wall time for 0.42 s of CPU): made beside the pages, that time is theirs.
    catalogue::timings::note("explore is made beside the pages: their phases overlap, and cpu counts every thread");
    let (explored, written) = rayon::join(|| write_explore(&cx), || write_pages_and_method_api(&cx, None));
    explored.and(written)
}

/// Above this many listings explore is made before the pages rather than beside them:
/// its index (half a gigabyte at a million) would add to theirs.
const SIDE_BY_SIDE_MAX_ENTRIES: usize = 250_000;

/// Everything but explore: the feed, the pages, the sitemaps, the method's API, the assets.
fn write_pages_and_method_api(cx: &SnapshotContext, measured: Option<&Measured>) -> Result<(), Error> {
    let (index, method, sink) = (cx.index, cx.method, cx.sink);
    phase("feed", || feed::write_feed(cx))?;
    let pages = pages::snapshot_pages(cx, measured);
    phase("render and write pages", || pages::write_pages(cx, &pages))?;
    phase("sitemaps", || {
        sink(agents::snapshot_sitemaps(&method.site.base_url, cx.date, pages.iter().map(|page| page.file(cx))))
    })?;
    phase("method API files", || api::method::write_api_files(index, method, sink))?;
    phase("assets", || pages::write_assets(cx))
}

/// Builds the explore index, evaluates the golden set on it when this is its snapshot,
/// and writes the explore API. The index goes out first and is then let go: at a
/// million listings it is half a gigabyte that the pages and the method API do not need.
fn write_explore(cx: &SnapshotContext) -> Result<Option<Measured>, Error> {
    let (index, method) = (cx.index, cx.method);
    let table = VectorTable::embedded();
    let explore = phase("explore index", || Explore::build(index, table));
    let measured = match &cx.golden {
        Some(golden) => Some(Measured {
            evaluation: eval::evaluate_with(golden, index, method, table, &explore)?,
            nprobe: explore.dense.ivf.nprobe,
            lists: explore.dense.ivf.lists.len(),
        }),
        None => None,
    };
    phase("explore API files", || api::explore::write_api_files(&explore, index, method, table, cx.sink))?;
    if let Some(m) = &measured {
        (cx.sink)(vec![api::explore::evaluation_file(&m.evaluation)])?;
    }
    Ok(measured)
}
