//! An index page for every folder a visitor can reach by trimming a URL: the facet
//! folders (`network/`, `price/`, `segment/`), a listing's `page/`, `r/` and `api/` in a
//! snapshot, and `method/`, `explore/`, `schema/` at the root. Each says what lives
//! below it and links there, instead of a bare "Not Found".

use askama::Template;

use super::{list, Chrome};
use crate::context::SnapshotContext;
use crate::facets::{BrowseList, Facet};
use method::names;

pub(crate) struct FolderItem {
    pub(crate) label: String,
    /// `None` for an entry with nothing behind it (a facet value no resource has).
    pub(crate) href: Option<String>,
    pub(crate) note: Option<String>,
}

#[derive(Template)]
#[template(path = "folder.html")]
pub(crate) struct FolderPage<'a> {
    pub(crate) c: &'a Chrome,
    pub(crate) heading: String,
    pub(crate) intro: String,
    pub(crate) items: Vec<FolderItem>,
    /// The page for a missing address, where a resource missing from one snapshot is
    /// looked for in the others (static/snapshot.js).
    pub(crate) not_found: bool,
}

/// Facet values as items; a value with no resource is not a link to an empty table.
pub(crate) fn facet_items(facets: &[Facet]) -> Vec<FolderItem> {
    facets
        .iter()
        .map(|f| FolderItem {
            label: f.label.clone(),
            href: (f.count > 0).then(|| f.href.clone()),
            note: Some(f.count.to_string()),
        })
        .collect()
}

/// Which folder of a snapshot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Folder {
    Networks,
    Prices,
    Segments,
    Resources,
    Api,
    Static,
}

impl Folder {
    pub(crate) const ALL: [Folder; 6] =
        [Folder::Networks, Folder::Prices, Folder::Segments, Folder::Resources, Folder::Api, Folder::Static];

    pub(crate) fn dir(self) -> &'static str {
        match self {
            Folder::Networks => names::NETWORKS_DIR,
            Folder::Prices => names::PRICES_DIR,
            Folder::Segments => names::SEGMENTS_DIR,
            Folder::Resources => "r/",
            Folder::Api => names::API_DIR,
            Folder::Static => names::STATIC_DIR,
        }
    }
}

pub(crate) fn folder_page<'a>(cx: &'a SnapshotContext, folder: Folder) -> FolderPage<'a> {
    let links = &cx.chrome.links;
    let in_folder = |rel: &str| Some(names::in_snapshot(&cx.chrome.date, rel));
    let (heading, intro, items) = match folder {
        Folder::Networks => (
            "Resources by network".to_owned(),
            "Each network the listings accept payment on, with how many resources accept it.".to_owned(),
            facet_items(&cx.facets.networks),
        ),
        Folder::Prices => (
            "Resources by lowest USD price per call".to_owned(),
            "Price bands of the lowest price in a known USD stablecoin, with how many resources fall in each."
                .to_owned(),
            facet_items(&cx.facets.prices),
        ),
        Folder::Segments => (
            format!("Resources by segment (rules {})", cx.facets.segment_version),
            "Topic labels from the segment rules; labels never affect matching or order.".to_owned(),
            facet_items(&cx.facets.segments),
        ),
        Folder::Resources => (
            "Resource pages".to_owned(),
            format!(
                "Each of the {} resources of this snapshot has a page here. Find them by searching, or browse them \
                 in the method's order.",
                cx.index.entries.len()
            ),
            vec![
                FolderItem { label: "Search".into(), href: Some(links.search.clone()), note: None },
                FolderItem { label: "Browse all".into(), href: Some(links.browse.clone()), note: None },
            ],
        ),
        Folder::Api => (
            "This snapshot's JSON API".to_owned(),
            "Static JSON files that answer queries without a server; the manifest says where everything is, and \
             the method page how to read them."
                .to_owned(),
            vec![
                FolderItem { label: "manifest.json".into(), href: in_folder(&names::MANIFEST.file(&[])), note: None },
                FolderItem { label: "report.json".into(), href: Some(links.report_json.clone()), note: None },
                FolderItem { label: "prices.json".into(), href: in_folder(&names::PRICES.file(&[])), note: None },
                FolderItem {
                    label: "How to read them (the method's JSON surfaces)".into(),
                    href: Some(format!("{}#json", cx.chrome.method_path)),
                    note: None,
                },
            ],
        ),
        Folder::Static => (
            "The pages' stylesheet and scripts".to_owned(),
            "Served from this folder only; no third party. composer.js answers queries from the JSON API by the \
             method's rule, in the browser."
                .to_owned(),
            super::ASSETS
                .iter()
                .map(|(name, _)| FolderItem {
                    label: (*name).to_owned(),
                    href: in_folder(&format!("{}{name}", names::STATIC_DIR)),
                    note: None,
                })
                .collect(),
        ),
    };
    FolderPage { c: &cx.chrome, heading, intro, items, not_found: false }
}

/// The `page/` folder of a listing that takes more than one page: a link to each.
pub(crate) fn pages_page<'a>(cx: &'a SnapshotContext, listing: &BrowseList) -> FolderPage<'a> {
    let pages = list::page_count(listing);
    let items = (1..=pages)
        .map(|page| FolderItem {
            label: format!("Page {page}"),
            href: Some(names::in_snapshot(&cx.index.header.date, &names::listing_page_dir(&listing.dir, page))),
            note: None,
        })
        .collect();
    FolderPage {
        c: &cx.chrome,
        heading: format!("{}: pages", listing.heading),
        intro: format!("{} resources, {} to a page.", listing.ids.len(), super::PAGE_SIZE),
        items,
        not_found: false,
    }
}
