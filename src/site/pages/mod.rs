//! The HTML pages of one snapshot, a module for each kind of page with its template's
//! struct and the function that fills it; here, what they share: the chrome around every
//! page, the rows of a resource table, and the list of pages a snapshot's folder holds.
//!
//! Templates escape every value; the only unescaped HTML is what pulldown-cmark makes
//! of the project's own Markdown (content/method.md, content/corrections.md).

pub mod call;
pub mod evaluation;
pub mod explore;
pub mod folder;
pub mod home;
pub mod list;
pub mod markdown;
pub mod report;
pub mod resource;
pub mod root;
pub mod search;

use askama::Template;
use rayon::prelude::*;

use crate::error::Error;
use crate::method::assets::Decimal;
use crate::method::index::{Entry, Index};
use crate::method::names;
use crate::method::view::clip;

pub use crate::site::chrome::Chrome;
use crate::site::context::SnapshotContext;
use crate::site::facets::BrowseList;
use evaluation::Measured;

/// Rows per browse page.
pub const PAGE_SIZE: usize = 50;

/// Pages rendered and written at a time: enough to keep both cores busy.
const PAGE_BATCH: usize = 1024;

/// Files every snapshot folder carries under `static/`.
const ASSETS: &[(&str, &str)] = &[
    ("composer.js", include_str!("../../../static/composer.js")),
    ("chars.js", include_str!("../../../static/chars.js")),
    ("rules.js", include_str!("../../../static/rules.js")),
    ("search.js", include_str!("../../../static/search.js")),
    ("explore.js", include_str!("../../../static/explore.js")),
    ("explore-page.js", include_str!("../../../static/explore-page.js")),
    ("style.css", include_str!("../../../static/style.css")),
    ("favicon.svg", include_str!("../../../static/favicon.svg")),
];

/// One line of a resource table.
pub struct TableRow {
    pub rank: usize,
    pub page: String,
    pub resource: String,
    pub service_name: Option<String>,
    pub description: Option<String>,
    pub withheld: bool,
    pub segments: Vec<String>,
    pub operator_listing: bool,
    pub payers: String,
    pub calls: String,
    /// The ratio, and beside it the two counts it comes from (`(670 calls / 668 payers)`).
    pub calls_per_payer: String,
    pub ratio_counts: String,
    pub days: String,
    pub price: String,
    pub networks: String,
}

/// A count as a table cell: `—` when the catalogue gave none.
fn count(v: Option<u64>) -> String {
    v.map_or_else(|| "—".to_owned(), |n| n.to_string())
}

/// `1.003` and `(670 calls / 668 payers)`: a ratio is never shown without its two
/// counts (empty only when a count is missing).
fn ratio_and_counts(e: &Entry) -> (String, String) {
    let f = &e.figures;
    match (f.calls_per_payer, f.calls_30d, f.unique_payers_30d) {
        (Some(r), Some(c), Some(p)) => (r.fixed(), format!("({c} calls / {p} payers)")),
        (None, Some(c), Some(0)) => ("—".to_owned(), format!("({c} calls / 0 payers)")),
        _ => ("—".to_owned(), String::new()),
    }
}

/// A USD price as a table cell: `—` when none is readable.
fn usd(p: Option<Decimal>) -> String {
    p.map_or_else(|| "—".to_owned(), |d| format!("${d}"))
}

pub fn table_row(rank: usize, e: &Entry, index: &Index) -> TableRow {
    let (calls_per_payer, ratio_counts) = ratio_and_counts(e);
    TableRow {
        rank,
        page: names::resource_page(&index.header.date, &e.slug()),
        resource: e.resource.url.clone(),
        service_name: e.resource.service_name.clone(),
        description: e.public_description().map(|d| clip(d, 200)),
        withheld: e.withheld.is_some(),
        segments: e.segments.clone(),
        operator_listing: e.operator_listing,
        payers: count(e.figures.unique_payers_30d),
        calls: count(e.figures.calls_30d),
        calls_per_payer,
        ratio_counts,
        days: count(e.figures.days_since_last_call),
        price: usd(e.min_price_usd),
        networks: e.networks.join(", "),
    }
}

/// The table rows of entries `ids`, ranked by their place in browse order.
fn table_rows(index: &Index, ids: &[usize]) -> Vec<TableRow> {
    ids.iter().map(|&i| table_row(i + 1, &index.entries[i], index)).collect()
}

/// The HTML of a rendered template. The templates are written compact (one tag to a
/// line, no indentation), so pages go out as rendered: minifying them (minify-html)
/// saved 6 % of a resource page's compressed bytes and was 40 % of the build's time.
fn html(page: &impl Template) -> Result<Vec<u8>, Error> {
    page.render().map(String::into_bytes).map_err(|e| Error::Template(e.to_string()))
}

/// A page of a snapshot's folder, kept as data so that pages render in parallel.
pub enum Page<'a> {
    Home,
    Search,
    Explore,
    Method,
    Corrections,
    Report,
    List {
        listing: &'a BrowseList,
        page: usize,
    },
    /// A listing's `page/` folder, when it takes more than one page.
    ListPages(&'a BrowseList),
    Folder(folder::Folder),
    Resource(usize),
    Evaluation(&'a Measured),
}

impl Page<'_> {
    /// The page's folder, relative to the snapshot's folder.
    fn dir(&self, cx: &SnapshotContext) -> String {
        match self {
            Page::Home => names::HOME_DIR.into(),
            Page::Search => names::SEARCH_DIR.into(),
            Page::Explore => names::EXPLORE_DIR.into(),
            Page::Method => names::METHOD_DIR.into(),
            Page::Corrections => names::CORRECTIONS_DIR.into(),
            Page::Report => names::REPORT_DIR.into(),
            Page::List { listing, page } => names::listing_page_dir(&listing.dir, *page),
            Page::ListPages(listing) => format!("{}page/", listing.dir),
            Page::Folder(f) => f.dir().to_owned(),
            Page::Resource(id) => names::resource_dir(&cx.index.entries[*id].slug()),
            Page::Evaluation(_) => names::EVALUATION_DIR.into(),
        }
    }

    /// The page's file, relative to the snapshot's folder.
    pub fn file(&self, cx: &SnapshotContext) -> String {
        names::page_file(&self.dir(cx))
    }

    fn render(&self, cx: &SnapshotContext) -> Result<Vec<u8>, Error> {
        let c = &cx.chrome;
        match self {
            Page::Home => html(&home::home_page(cx)),
            Page::Search => html(&search::search_page(cx)),
            Page::Explore => html(&explore::explore_page(cx)),
            Page::Method => html(&markdown::method_page(c)),
            Page::Corrections => html(&markdown::corrections_page(c, cx.method)),
            Page::Report => html(&report::report_page(c, cx.index)),
            Page::List { listing, page } => html(&list::list_page(cx, listing, *page)),
            Page::ListPages(listing) => html(&folder::pages_page(cx, listing)),
            Page::Folder(f) => html(&folder::folder_page(cx, *f)),
            Page::Resource(id) => html(&resource::resource_page(cx, *id)),
            Page::Evaluation(measured) => html(&evaluation::evaluation_page(c, measured)),
        }
    }
}

/// Every page of the snapshot's folder, in the order they are written and listed in its
/// sitemaps; the evaluation page last, when `measured` holds the golden set's figures.
pub fn snapshot_pages<'a>(cx: &'a SnapshotContext, measured: Option<&'a Measured>) -> Vec<Page<'a>> {
    let mut pages = vec![Page::Home, Page::Search, Page::Explore, Page::Method, Page::Corrections, Page::Report];
    for listing in &cx.listings {
        pages.extend((1..=list::page_count(listing)).map(|page| Page::List { listing, page }));
        if list::page_count(listing) > 1 {
            pages.push(Page::ListPages(listing));
        }
    }
    pages.extend(folder::Folder::ALL.map(Page::Folder));
    pages.extend((0..cx.index.entries.len()).map(Page::Resource));
    pages.extend(measured.map(Page::Evaluation));
    pages
}

/// Renders `pages` and hands them to the sink, [`PAGE_BATCH`] at a time.
pub fn write_pages(cx: &SnapshotContext, pages: &[Page]) -> Result<(), Error> {
    pages.chunks(PAGE_BATCH).try_for_each(|chunk| {
        let rendered = chunk.par_iter().map(|page| Ok((page.file(cx), page.render(cx)?)));
        (cx.sink)(rendered.collect::<Result<_, Error>>()?)
    })
}

/// The stylesheet, scripts and icon the pages link to, under `static/`.
pub fn write_assets(cx: &SnapshotContext) -> Result<(), Error> {
    (cx.sink)(
        ASSETS.iter().map(|(name, text)| (format!("{}{name}", names::STATIC_DIR), text.as_bytes().to_vec())).collect(),
    )
}
