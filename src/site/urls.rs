//! Where each page and file lives in the built site: one function or constant for each,
//! so that the address a page is linked by and the file it is written to cannot drift
//! apart.
//!
//! A snapshot's pages are folders inside its dated folder (`dir`, ending in `/`): a
//! page's file is `{dir}index.html` and its address `/{date}/{dir}`; the JSON is under
//! `api/` (content/method.md#json, docs/static-api.md). The method layer makes
//! the absolute address of a resource page for its answers (`method::answer::page_url`);
//! [`resource_dir`] is this side of the same fact.

use crate::explore::EXPLORE_VERSION;
use crate::method::DISCOVERY_METHOD_VERSION;

/// The snapshot's home page.
pub const HOME_DIR: &str = "";
pub const SEARCH_DIR: &str = "search/";
pub const EXPLORE_DIR: &str = "explore/";
pub const METHOD_DIR: &str = "method/";
pub const CORRECTIONS_DIR: &str = "corrections/";
pub const REPORT_DIR: &str = "report/";
/// The golden-set evaluation, in the folder of the snapshot it was labelled on.
pub const EVALUATION_DIR: &str = "explore/evaluation/";
/// Every resource, in browse order.
pub const BROWSE_DIR: &str = "browse/";
/// The resources new since the previous snapshot (also its Atom feed, `feed.xml`).
pub const NEW_DIR: &str = "new/";
/// Resources with no readable USD price: the price facet past the bands.
pub const NO_USD_PRICE_DIR: &str = "price/no-usd-price/";
/// The JSON APIs' folder (docs/static-api.md).
pub const API_DIR: &str = "api/";
/// The method API's manifest: a folder holding it is a finished build of its date.
pub const MANIFEST_FILE: &str = "api/manifest.json";
/// The assets every page links to (stylesheet, scripts, icon).
pub const STATIC_DIR: &str = "static/";

/// The address of the folder `dir` of snapshot `date`: `/{date}/{dir}`.
pub fn in_snapshot(date: &str, dir: &str) -> String {
    format!("/{date}/{dir}")
}

/// The file of the page whose folder is `dir` (relative to the folder it is in).
pub fn page_file(dir: &str) -> String {
    format!("{dir}index.html")
}

/// A resource's page: `r/{slug}/`.
pub fn resource_dir(slug: &str) -> String {
    format!("r/{slug}/")
}

/// The address of a resource's page in snapshot `date`.
pub fn resource_page(date: &str, slug: &str) -> String {
    in_snapshot(date, &resource_dir(slug))
}

/// A network's facet, by its folder-safe slug (`facets::network_slug`).
pub fn network_dir(slug: &str) -> String {
    format!("network/{slug}/")
}

/// A price band's facet.
pub fn price_dir(band: &str) -> String {
    format!("price/{band}/")
}

/// A segment's facet.
pub fn segment_dir(id: &str) -> String {
    format!("segment/{id}/")
}

/// Page `page` (from 1) of the listing in folder `dir`: the first page is the folder
/// itself, the others `page/{n}/` inside it.
pub fn listing_page_dir(dir: &str, page: usize) -> String {
    if page == 1 {
        dir.to_owned()
    } else {
        format!("{dir}page/{page}/")
    }
}

/// Record block `block` of the method API (docs/static-api.md, records).
pub fn record_block_file(block: usize) -> String {
    format!("api/records/{block}.json")
}

/// The method's page outside any snapshot, one per method version.
pub fn method_page() -> String {
    format!("/method/{DISCOVERY_METHOD_VERSION}/")
}

/// Explore's method page outside any snapshot, one per explore version.
pub fn explore_method_page() -> String {
    format!("/explore/{EXPLORE_VERSION}/")
}

/// The golden set's labelling rules, in explore's method page's folder.
pub const GOLDEN_RULES_FILE: &str = "golden/RULES.md";
/// The golden set's queries and labels, in explore's method page's folder.
pub const GOLDEN_SET_FILE: &str = "golden/golden.json";

/// A site-wide address (`/…/`) as a folder relative to the site's root.
pub fn root_dir(address: &str) -> &str {
    address.trim_start_matches('/')
}
