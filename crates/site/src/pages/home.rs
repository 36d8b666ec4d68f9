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
pub struct HomePage<'a> {
    pub c: &'a Chrome,
    pub entries: usize,
    pub rows: Vec<TableRow>,
    pub caption: String,
    pub facets: &'a Facets,
    pub api: String,
    pub search_action: String,
    pub networks: &'a [String],
    pub new_since: Option<&'a NewSince>,
}

pub fn home_page<'a>(cx: &'a SnapshotContext) -> HomePage<'a> {
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
        new_since: cx.new_since.as_ref(),
    }
}
