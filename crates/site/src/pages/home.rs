//! A snapshot's home page: its first resources in browse order, the search form and the
//! facet menus.

use askama::Template;

use super::{table_rows, Chrome, TableRow, PAGE_SIZE};
use crate::context::SnapshotContext;
use crate::facets::Facets;
use crate::history::NewSince;
use method::names;

#[derive(Template)]
#[template(path = "home.html")]
pub(crate) struct HomePage<'a> {
    pub(crate) c: &'a Chrome,
    pub(crate) entries: usize,
    pub(crate) rows: Vec<TableRow>,
    pub(crate) caption: String,
    pub(crate) facets: &'a Facets,
    pub(crate) api: String,
    pub(crate) search_action: String,
    pub(crate) networks: &'a [String],
    /// When the snapshot's probe began; `None`: not probed, no `answered_402` box.
    pub(crate) probed: Option<String>,
    pub(crate) new_since: Option<&'a NewSince>,
}

pub(crate) fn home_page<'a>(cx: &'a SnapshotContext) -> HomePage<'a> {
    let entries = cx.index.entries.len();
    let ids: Vec<usize> = (0..entries.min(PAGE_SIZE)).collect();
    HomePage {
        c: &cx.chrome,
        entries,
        rows: table_rows(cx, &ids),
        caption: format!("The first {} of {entries} resources, in browse order", ids.len()),
        facets: &cx.facets,
        api: cx.href(names::API_DIR),
        search_action: cx.href(names::SEARCH_DIR),
        networks: &cx.networks,
        probed: super::probe::probed(cx.probe),
        new_since: cx.new_since.as_ref(),
    }
}
