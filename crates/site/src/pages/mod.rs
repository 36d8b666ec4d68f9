//! The HTML pages of one snapshot, a module for each kind of page with its template's
//! struct and the function that fills it; here, what they share: the chrome around every
//! page, the rows of a resource table, and the list of pages a snapshot's folder holds.
//!
//! Templates escape every value; the only unescaped HTML is what pulldown-cmark makes
//! of the project's own Markdown (content/method.md, content/corrections.md).

pub(crate) mod call;
pub(crate) mod evaluation;
pub(crate) mod explore;
pub(crate) mod folder;
pub(crate) mod home;
pub(crate) mod list;
pub(crate) mod markdown;
pub(crate) mod pay;
pub(crate) mod probe;
pub(crate) mod report;
pub(crate) mod resource;
pub mod root;
pub(crate) mod search;

use askama::Template;
use rayon::prelude::*;

use catalogue::error::Error;
use method::assets::Decimal;
use method::index::Entry;
use method::names;
use method::view::clip;

pub(crate) use crate::chrome::Chrome;
use crate::context::SnapshotContext;
use crate::facets::BrowseList;
use evaluation::Measured;

/// Rows per browse page.
pub(crate) const PAGE_SIZE: usize = 50;

/// Pages rendered and written at a time: enough to keep both cores busy.
const PAGE_BATCH: usize = 1024;

/// Files every snapshot folder carries under `static/`.
const ASSETS: &[(&str, &str)] = &[
    (names::COMPOSER_SCRIPT, include_str!("../../../../static/composer.js")),
    ("chars.js", include_str!("../../../../static/chars.js")),
    ("rules.js", include_str!("../../../../static/rules.js")),
    (names::SEARCH_SCRIPT, include_str!("../../../../static/search.js")),
    ("scroll.js", include_str!("../../../../static/scroll.js")),
    ("explore.js", include_str!("../../../../static/explore.js")),
    ("function-words.js", include_str!("../../../../static/function-words.js")),
    (names::EXPLORE_PAGE_SCRIPT, include_str!("../../../../static/explore-page.js")),
    (names::SNAPSHOT_SCRIPT, include_str!("../../../../static/snapshot.js")),
    (names::COPY_SCRIPT, include_str!("../../../../static/copy.js")),
    (names::STYLE_FILE, include_str!("../../../../static/style.css")),
    (names::ICON_FILE, include_str!("../../../../static/favicon.svg")),
];

/// One line of a resource table, as people scan it: a title, the description's first
/// line, chips that lead to the segments, then the figures (static/composer.js draws the
/// search's rows the same way: `resultRow`).
pub(crate) struct TableRow {
    pub(crate) rank: usize,
    pub(crate) page: String,
    /// The service's name, or the URL's host and last path part ([`short_title`]).
    pub(crate) title: String,
    pub(crate) resource: String,
    /// The first line of the published description, clipped.
    pub(crate) description: Option<String>,
    pub(crate) withheld: bool,
    pub(crate) segments: Vec<Chip>,
    pub(crate) operator_listing: bool,
    /// False when the catalogue gave no payers, calls or last call: the row then says
    /// "no usage counted" once instead of four empty figures.
    pub(crate) usage: bool,
    pub(crate) payers: String,
    pub(crate) calls: String,
    /// The ratio, and beside it the two counts it comes from (`(670 calls / 668 payers)`).
    pub(crate) calls_per_payer: String,
    pub(crate) ratio_counts: String,
    pub(crate) days: String,
    pub(crate) price: String,
    pub(crate) networks: Vec<NetworkName>,
}

/// A segment label that leads to the segment's listing.
pub(crate) struct Chip {
    pub(crate) label: String,
    pub(crate) href: String,
}

/// A network as a row shows it: its name, badged when it is a test network.
pub(crate) struct NetworkName {
    pub(crate) name: String,
    pub(crate) testnet: bool,
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

/// A row's title when the listing names no service: the URL's host, and its last path
/// part after ` › ` (`api.example.com › weather`); the URL itself when it has no host.
pub(crate) fn short_title(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = &rest[..rest.find(['?', '#']).unwrap_or(rest.len())];
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    match path.split('/').rfind(|p| !p.is_empty()) {
        _ if host.is_empty() => url.to_owned(),
        Some(last) => format!("{host} › {last}"),
        None => host.to_owned(),
    }
}

/// What a listing is called on pages: its service name, else [`short_title`].
pub(crate) fn title(e: &Entry) -> String {
    match e.resource.service_name.as_deref() {
        Some(name) if !name.is_empty() => name.to_owned(),
        _ => short_title(&e.resource.url),
    }
}

/// The first line of a description with more than spaces and tabs on it, clipped.
fn first_line(description: &str) -> Option<String> {
    description.split(['\n', '\r']).find(|l| l.chars().any(|c| c != ' ' && c != '\t')).map(|l| clip(l, 200))
}

pub(crate) fn table_row(rank: usize, e: &Entry, cx: &SnapshotContext) -> TableRow {
    let (calls_per_payer, ratio_counts) = ratio_and_counts(e);
    let f = &e.figures;
    let labels = &cx.method.segments.segments;
    TableRow {
        rank,
        page: names::resource_page(cx.date, &e.slug()),
        title: title(e),
        resource: e.resource.url.clone(),
        description: e.public_description().and_then(first_line),
        withheld: e.withheld.is_some(),
        segments: e
            .segments
            .iter()
            .map(|id| Chip {
                label: labels.iter().find(|s| &s.id == id).map_or_else(|| id.clone(), |s| s.label.clone()),
                href: cx.href(&names::segment_dir(id)),
            })
            .collect(),
        operator_listing: e.operator_listing,
        usage: f.unique_payers_30d.is_some() || f.calls_30d.is_some() || f.days_since_last_call.is_some(),
        payers: count(f.unique_payers_30d),
        calls: count(f.calls_30d),
        calls_per_payer,
        ratio_counts,
        days: count(f.days_since_last_call),
        price: usd(e.min_price_usd),
        networks: e
            .networks
            .iter()
            .map(|id| {
                let (name, testnet) = cx.network(id);
                NetworkName { name: name.to_owned(), testnet }
            })
            .collect(),
    }
}

/// The table rows of entries `ids`, ranked by their place in browse order.
fn table_rows(cx: &SnapshotContext, ids: &[usize]) -> Vec<TableRow> {
    ids.iter().map(|&i| table_row(i + 1, &cx.index.entries[i], cx)).collect()
}

/// The HTML of a rendered template. The templates are written compact (one tag to a
/// line, no indentation), so pages go out as rendered: minifying them (minify-html)
/// saved 6 % of a resource page's compressed bytes and was 40 % of the build's time.
///
/// Each thread renders into one buffer it keeps, and the page is copied out at its size:
/// a page rendered into a new string grew it two or three times, and those copies and
/// the fresh memory they touched were a tenth of a build (BENCHMARKS.md, "Against Hugo").
fn html(page: &impl Template) -> Result<Vec<u8>, Error> {
    thread_local! {
        static BUFFER: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    let render = |buffer: &mut String| {
        buffer.clear();
        page.render_into(buffer).map(|()| buffer.as_bytes().to_vec())
    };
    BUFFER
        .with(|cell| match cell.try_borrow_mut() {
            Ok(mut buffer) => render(&mut buffer),
            // A page rendered while another is (none is today) takes a buffer of its own.
            Err(_) => render(&mut String::new()),
        })
        .map_err(|e| Error::Template(e.to_string()))
}

/// A page of a snapshot's folder, kept as data so that pages render in parallel.
pub(crate) enum Page<'a> {
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
    pub(crate) fn file(&self, cx: &SnapshotContext) -> String {
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
            Page::Report => html(&report::report_page(c, cx.index, cx.probe)),
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
pub(crate) fn snapshot_pages<'a>(cx: &'a SnapshotContext, measured: Option<&'a Measured>) -> Vec<Page<'a>> {
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
pub(crate) fn write_pages(cx: &SnapshotContext, pages: &[Page]) -> Result<(), Error> {
    pages.chunks(PAGE_BATCH).try_for_each(|chunk| {
        let rendered = chunk.par_iter().map(|page| Ok((page.file(cx), page.render(cx)?)));
        (cx.sink)(rendered.collect::<Result<_, Error>>()?)
    })
}

/// The stylesheet, scripts and icon the pages link to, under `static/`.
pub(crate) fn write_assets(cx: &SnapshotContext) -> Result<(), Error> {
    (cx.sink)(
        ASSETS.iter().map(|(name, text)| (format!("{}{name}", names::STATIC_DIR), text.as_bytes().to_vec())).collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_without_a_service_name_are_titled_by_host_and_last_path_part() {
        assert_eq!(short_title("https://api.example.com/v1/weather?city=x#a"), "api.example.com › weather");
        assert_eq!(short_title("https://api.example.com/v1/weather/"), "api.example.com › weather");
        assert_eq!(short_title("https://api.example.com"), "api.example.com");
        assert_eq!(short_title("https://api.example.com/?q=1"), "api.example.com");
        assert_eq!(short_title("api.example.com:8080/x"), "api.example.com:8080 › x");
        assert_eq!(short_title("https:///nohost"), "https:///nohost");
    }

    #[test]
    fn a_row_shows_the_first_line_with_words_on_it() {
        assert_eq!(first_line("\n \t\nWeather now.\nMore."), Some("Weather now.".into()));
        assert_eq!(first_line(" \n\t"), None);
    }
}
