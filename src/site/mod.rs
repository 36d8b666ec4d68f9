//! The static site: every snapshot becomes a dated, self-contained folder of pages,
//! JSON and assets; the root lists the dates and points `latest/` at the newest.

pub mod agents;
pub mod api;
pub mod chars;
pub mod facets;
pub mod feed;
pub mod history;
pub mod output;
pub mod pages;
pub mod paths;
pub mod urls;

/// The method API's former name, kept only because src/catalogue/synth.rs still hashes
/// with `site::shards::fnv1a32` (the catalogue reaching up at the site; not ours to edit).
#[doc(hidden)]
pub use api::method as shards;

use std::fs;
use std::path::{Path, PathBuf};

use askama::Template;
use rayon::prelude::*;

use crate::catalogue::snapshot::parse_date;
use crate::error::Error;
use crate::explore::eval::{self, GoldenSet};
use crate::explore::vectors::VectorTable;
use crate::explore::{Explore, EXPLORE_VERSION};
use crate::method::index::Index;
use crate::method::Method;
use crate::timings::phase;
use api::Sink;
use facets::{listings, Listing};
use history::{Past, Timeline};
use output::Output;
use pages::{Chrome, Pager, PAGE_SIZE};

/// Files every snapshot folder carries under `static/`.
const ASSETS: &[(&str, &str)] = &[
    ("composer.js", include_str!("../../static/composer.js")),
    ("chars.js", include_str!("../../static/chars.js")),
    ("search.js", include_str!("../../static/search.js")),
    ("explore.js", include_str!("../../static/explore.js")),
    ("explore-page.js", include_str!("../../static/explore-page.js")),
    ("style.css", include_str!("../../static/style.css")),
    ("favicon.svg", include_str!("../../static/favicon.svg")),
];

/// Published at the site root, under `schema/`.
const SCHEMAS: &[(&str, &str)] = &[
    ("answer.schema.json", include_str!("../../content/schema/answer.schema.json")),
    ("explore-answer.schema.json", include_str!("../../content/schema/explore-answer.schema.json")),
    ("manifest.schema.json", include_str!("../../content/schema/manifest.schema.json")),
    ("record.schema.json", include_str!("../../content/schema/record.schema.json")),
    ("record-block.schema.json", include_str!("../../content/schema/record-block.schema.json")),
];

/// The golden snapshot's evaluation page, in its folder.
const EVALUATION_PAGE: &str = "explore/evaluation/index.html";

/// Pages rendered and written at a time: enough to keep both cores busy.
const PAGE_BATCH: usize = 1024;

#[derive(Debug, Clone)]
pub struct BuiltSnapshot {
    pub date: String,
    pub entries: usize,
    pub files: usize,
}

/// Builds the site for `snapshots` into `out`. Each snapshot's folder is written to a
/// staging folder first and swapped in whole, so a failed build leaves the previous
/// one in place.
pub fn build(snapshots: &[PathBuf], out: &Path, method: &Method) -> Result<Vec<BuiltSnapshot>, Error> {
    build_limited(snapshots, out, method, None)
}

/// [`build`], refusing any snapshot whose folder would hold more than `max_files` files
/// (a host's cap on files per deployment: docs/deploy.md). The refusal comes as soon
/// as the count passes the cap, and leaves the previous build of that date in place.
pub fn build_limited(
    snapshots: &[PathBuf],
    out: &Path,
    method: &Method,
    max_files: Option<usize>,
) -> Result<Vec<BuiltSnapshot>, Error> {
    check_out_dir(out)?;
    let output = Output::new(out);
    let mut built = Vec::new();
    // Oldest first, so each snapshot is remembered as history for the ones after it.
    let mut snapshots = snapshots.to_vec();
    snapshots.sort_by(|a, b| a.file_name().cmp(&b.file_name()));
    let mut timeline = Timeline::default();
    // One snapshot at a time: its listings are the bulk of the build's memory.
    for (k, path) in snapshots.iter().enumerate() {
        timeline = phase("history", || timeline.before(path, method))?;
        let index = phase("read and index snapshot", || Index::read(path, method))?;
        let files =
            swap_in(&output, &index.header.date, max_files, |sink| write_snapshot(&index, method, &timeline, sink))?;
        built.push(BuiltSnapshot { date: index.header.date.clone(), entries: index.entries.len(), files });
        if k + 1 < snapshots.len() {
            timeline.push(Past::of(path, &index));
        }
    }
    write_root(&output, method)?;
    Ok(built)
}

/// Indexes `snapshots`, each judged with the snapshots stored before it as history
/// (ownership is decided across snapshots, SPEC §4).
pub fn indexes_with_history(snapshots: &[PathBuf], method: &Method) -> Result<Vec<Index>, Error> {
    snapshots.iter().map(|path| Index::read(path, method)).collect()
}

fn check_out_dir(out: &Path) -> Result<(), Error> {
    if out.as_os_str().is_empty() || out.parent().is_none() {
        return Err(Error::Refused(format!(
            "refusing to build into {:?}: name a folder such as public",
            out.display()
        )));
    }
    if out.is_file() {
        return Err(Error::Refused(format!("{} is a file, not a folder", out.display())));
    }
    fs::create_dir_all(out).map_err(|e| Error::io(out, e))
}

/// Writes a snapshot's files into a staging folder as `make` hands them over, batch by
/// batch, then replaces `<out>/<date>` with it. Returns how many files were written.
fn swap_in(
    output: &Output,
    date: &str,
    max_files: Option<usize>,
    make: impl FnOnce(Sink) -> Result<(), Error>,
) -> Result<usize, Error> {
    let staging_name = format!("staging-{date}-{}", std::process::id());
    let staging = output.root().join(format!(".{staging_name}"));
    let _ = fs::remove_dir_all(&staging);
    let stage = Output::new(&staging);
    let written = std::sync::atomic::AtomicUsize::new(0);
    let sink = |batch: Vec<(String, Vec<u8>)>| {
        let so_far = written.fetch_add(batch.len(), std::sync::atomic::Ordering::Relaxed) + batch.len();
        if let Some(max) = max_files.filter(|&max| so_far > max) {
            return Err(Error::Refused(format!(
                "the folder of {date} would hold more than {max} files (--max-files): a snapshot of n listings \
                 makes about 1.2 n files (a page per listing, a record block per 16, shards, answers); \
                 publish to a host without a file cap or raise the cap (docs/deploy.md). The previous build \
                 of {date}, if any, is untouched"
            )));
        }
        stage.write_all(&batch)
    };
    if let Err(e) = make(&sink) {
        let _ = fs::remove_dir_all(&staging);
        return Err(e);
    }
    let target = output.path(date)?;
    if target.exists() {
        let old = output.root().join(format!(".old-{date}-{}", std::process::id()));
        fs::rename(&target, &old).map_err(|e| Error::io(&target, e))?;
        fs::rename(&staging, &target).map_err(|e| Error::io(&target, e))?;
        phase("remove the previous build", || fs::remove_dir_all(&old)).map_err(|e| Error::io(&old, e))?;
    } else {
        fs::rename(&staging, &target).map_err(|e| Error::io(&target, e))?;
    }
    Ok(written.into_inner())
}

/// The HTML of a rendered template. The templates are written compact (one tag to a
/// line, no indentation), so pages go out as rendered: minifying them (minify-html)
/// saved 6 % of a resource page's compressed bytes and was 40 % of the build's time.
fn html(page: &impl Template) -> Result<Vec<u8>, Error> {
    page.render().map(String::into_bytes).map_err(|e| Error::Refused(format!("template failed: {e}")))
}

const GOLDEN_RULES: &str = include_str!("../../content/explore/golden/RULES.md");

/// A page to render: kept as data so that pages render in parallel.
enum Job<'a> {
    Home,
    Search,
    Explore,
    ListPage { listing: &'a Listing, page: usize },
    Resource(usize),
    Method,
    Corrections,
    Report,
}

impl Job<'_> {
    /// The page's file, relative to the snapshot's folder.
    fn path(&self, index: &Index) -> String {
        match self {
            Job::Home => "index.html".into(),
            Job::Search => "search/index.html".into(),
            Job::Explore => "explore/index.html".into(),
            Job::ListPage { listing, page } => urls::page_file(&urls::listing_page_dir(&listing.dir, *page)),
            Job::Resource(id) => format!("r/{}/index.html", index.entries[*id].slug()),
            Job::Method => "method/index.html".into(),
            Job::Corrections => "corrections/index.html".into(),
            Job::Report => "report/index.html".into(),
        }
    }
}

/// Makes every file of one snapshot's folder and hands them to `sink` in batches.
fn write_snapshot(index: &Index, method: &Method, timeline: &Timeline, sink: Sink) -> Result<(), Error> {
    let chrome = Chrome::for_index(index);
    let new_ids = timeline.new_ids(index);
    let new_since = match (timeline.comparison(), &new_ids) {
        (history::Comparison::With(previous), Some(ids)) => Some(pages::NewSince {
            previous: previous.date.clone(),
            previous_complete: previous.complete,
            count: ids.len(),
        }),
        _ => None,
    };
    let feed = feed::atom_feed(index, method, timeline, new_ids.as_deref());
    let (lists, facets) = listings(index, method, new_since.as_ref().map(|n| n.previous.as_str()).zip(new_ids));
    let networks: Vec<String> = facets.networks.iter().map(|f| f.label.clone()).collect();
    let date = &index.header.date;
    let mut jobs = vec![Job::Home, Job::Search, Job::Explore, Job::Method, Job::Corrections, Job::Report];
    for l in &lists {
        let pages = l.ids.len().div_ceil(PAGE_SIZE).max(1);
        jobs.extend((1..=pages).map(|page| Job::ListPage { listing: l, page }));
    }
    jobs.extend((0..index.entries.len()).map(Job::Resource));

    let table = VectorTable::embedded();
    let explore = phase("explore index", || Explore::build(index, table));
    // The golden set is labelled on one snapshot: its folder carries the evaluation.
    let golden = GoldenSet::embedded()?;
    let evaluation = if golden.snapshot == *date {
        Some(eval::evaluate_with(&golden, index, method, table, &explore)?)
    } else {
        None
    };
    let api = format!("/{date}/api/");
    let search_action = format!("/{date}/search/");
    let rows_of = |ids: &[usize]| -> Vec<pages::TableRow> {
        ids.iter().map(|&i| pages::table_row(i + 1, &index.entries[i], index)).collect()
    };
    let render = |job: &Job| -> Result<(String, Vec<u8>), Error> {
        Ok((
            job.path(index),
            match job {
                Job::Home => {
                    let ids: Vec<usize> = (0..index.entries.len().min(PAGE_SIZE)).collect();
                    let page = pages::HomePage {
                        c: &chrome,
                        entries: index.entries.len(),
                        rows: rows_of(&ids),
                        caption: format!(
                            "The first {} of {} resources, in browse order",
                            ids.len(),
                            index.entries.len()
                        ),
                        facets: &facets,
                        api: api.clone(),
                        search_action: search_action.clone(),
                        networks: &networks,
                        new_since: new_since.as_ref(),
                    };
                    html(&page)?
                }
                Job::Search => {
                    let page = pages::SearchPage {
                        c: &chrome,
                        api: api.clone(),
                        search_action: search_action.clone(),
                        networks: &networks,
                    };
                    html(&page)?
                }
                Job::Explore => {
                    let page = pages::ExplorePage {
                        c: &chrome,
                        api: api.clone(),
                        action: format!("/{date}/explore/"),
                        explore_path: pages::explore_path(),
                        explore_version: EXPLORE_VERSION,
                        evaluation: evaluation.as_ref().map(|_| format!("/{date}/explore/evaluation/")),
                    };
                    html(&page)?
                }
                Job::ListPage { listing, page } => {
                    let pages = listing.ids.len().div_ceil(PAGE_SIZE).max(1);
                    let href = |n: usize| urls::in_snapshot(date, &urls::listing_page_dir(&listing.dir, n));
                    let start = (page - 1) * PAGE_SIZE;
                    let ids = &listing.ids[start.min(listing.ids.len())..(start + PAGE_SIZE).min(listing.ids.len())];
                    let p = pages::ListPage {
                        c: &chrome,
                        heading: listing.heading.clone(),
                        intro: format!("{} {} resources.", listing.intro, listing.ids.len()),
                        caption: format!(
                            "{} to {} of {}",
                            start + 1.min(ids.len()),
                            start + ids.len(),
                            listing.ids.len()
                        ),
                        rows: rows_of(ids),
                        pager: Pager {
                            page: *page,
                            pages,
                            prev: (*page > 1).then(|| href(page - 1)),
                            next: (*page < pages).then(|| href(page + 1)),
                        },
                        facets: &facets,
                    };
                    html(&p)?
                }
                Job::Resource(id) => {
                    let e = &index.entries[*id];
                    let page = pages::ResourcePage {
                        c: &chrome,
                        r: pages::resource_view(*id, e, index, method),
                        history: history::history_view(timeline, index, e),
                    };
                    html(&page)?
                }
                Job::Method => html(&pages::method_page(&chrome))?,
                Job::Corrections => html(&pages::corrections_page(&chrome, method))?,
                Job::Report => html(&pages::report_page(&chrome, index))?,
            },
        ))
    };
    // The explore index goes out first and is then let go: at a million listings it is
    // half a gigabyte that the pages and the method API do not need.
    phase("explore API files", || api::explore::write_api_files(&explore, index, method, table, sink))?;
    let mut files = vec![(feed::FEED_FILE.to_owned(), feed.into_bytes())];
    if let Some(e) = &evaluation {
        let ivf = &explore.dense.ivf;
        files.push((EVALUATION_PAGE.into(), html(&pages::evaluation_page(&chrome, e, ivf.nprobe, ivf.lists.len()))?));
        let json = serde_json::to_vec_pretty(e).expect("evaluations serialise");
        files.push(("api/explore/evaluation.json".into(), json));
    }
    sink(files)?;
    drop(explore);
    phase("render and write pages", || {
        jobs.chunks(PAGE_BATCH).try_for_each(|chunk| sink(chunk.par_iter().map(render).collect::<Result<_, _>>()?))
    })?;
    let evaluation_page = evaluation.as_ref().map(|_| EVALUATION_PAGE.to_owned());
    let page_paths = jobs.iter().map(|job| job.path(index)).chain(evaluation_page);
    sink(agents::snapshot_sitemaps(&method.site.base_url, date, page_paths))?;
    phase("method API files", || api::method::write_api_files(index, method, sink))?;
    sink(ASSETS.iter().map(|(name, text)| (format!("static/{name}"), text.as_bytes().to_vec())).collect())
}

/// Root files: the list of dates, the versioned method page, JSON Schemas, the
/// `latest/` rewrite for Netlify (`_redirects`, read from the published folder), and
/// what crawlers and agents read first (`robots.txt`, sitemaps, `llms.txt`).
fn write_root(output: &Output, method: &Method) -> Result<(), Error> {
    let mut dates = Vec::new();
    for entry in fs::read_dir(output.root()).map_err(|e| Error::io(output.root(), e))? {
        let entry = entry.map_err(|e| Error::io(output.root(), e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if parse_date(&name).is_ok() && entry.path().join("api/manifest.json").is_file() {
            dates.push(name);
        }
    }
    dates.sort_unstable_by(|a, b| b.cmp(a));
    let Some(latest) = dates.first() else { return Ok(()) };
    let mut links = Vec::new();
    for d in &dates {
        let path = output.path(&format!("{d}/api/manifest.json"))?;
        let manifest: serde_json::Value = serde_json::from_slice(&fs::read(&path).map_err(|e| Error::io(&path, e))?)
            .map_err(|e| Error::input(&path, e.to_string()))?;
        links.push(pages::DateLink {
            date: d.clone(),
            entries: manifest["counts"]["entries"].as_u64().unwrap_or(0) as usize,
            complete: manifest["snapshot"]["complete"].as_bool().unwrap_or(false),
        });
    }
    // The root pages borrow the newest snapshot's stylesheet.
    let chrome = Chrome::outside(latest);
    let golden = GoldenSet::embedded()?.snapshot;
    let evaluation = output
        .path(&format!("{golden}/explore/evaluation/index.html"))?
        .is_file()
        .then(|| format!("/{golden}/explore/evaluation/"));
    output.write("index.html", &html(&pages::RootPage { c: &chrome, dates: links, evaluation })?)?;
    output.write(
        &format!("{}index.html", pages::method_path().trim_start_matches('/')),
        &html(&pages::method_page(&chrome))?,
    )?;
    let explore_dir = pages::explore_path().trim_start_matches('/').to_owned();
    output.write(&format!("{explore_dir}index.html"), &html(&pages::explore_method_page(&chrome))?)?;
    output.write(&format!("{explore_dir}golden/RULES.md"), GOLDEN_RULES.as_bytes())?;
    output.write(&format!("{explore_dir}golden/golden.json"), eval::GOLDEN.as_bytes())?;
    for (name, text) in SCHEMAS {
        output.write(&format!("schema/{name}"), text.as_bytes())?;
    }
    output.write("_redirects", format!("/latest /{latest}/ 302\n/latest/* /{latest}/:splat 200\n").as_bytes())?;
    let base_url = &method.site.base_url;
    let mut sitemaps = Vec::new();
    for d in &dates {
        let folder = output.path(d)?;
        let mut files: Vec<String> = fs::read_dir(&folder)
            .map_err(|e| Error::io(&folder, e))?
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| name.starts_with("sitemap-") && name.ends_with(".xml"))
            .collect();
        // sitemap-2 before sitemap-10.
        files.sort_by_key(|name| (name.len(), name.clone()));
        sitemaps.push((d.clone(), files));
    }
    output.write("sitemap.xml", agents::sitemap_index(base_url, &sitemaps).as_bytes())?;
    output.write("sitemap-site.xml", agents::site_sitemap(base_url).as_bytes())?;
    output.write("robots.txt", agents::robots(base_url).as_bytes())?;
    output.write("llms.txt", agents::llms_txt(base_url, latest, &dates).as_bytes())?;
    Ok(())
}
