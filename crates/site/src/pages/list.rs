//! The pages of a listing (every resource, the new ones, a facet value), paged
//! [`PAGE_SIZE`] rows at a time.

use askama::Template;

use super::{table_rows, Chrome, TableRow, PAGE_SIZE};
use crate::context::SnapshotContext;
use crate::facets::{BrowseList, Facets};
use method::names;

pub(crate) struct Pager {
    pub(crate) page: usize,
    pub(crate) pages: usize,
    pub(crate) prev: Option<String>,
    pub(crate) next: Option<String>,
}

#[derive(Template)]
#[template(path = "list.html")]
pub(crate) struct ListPage<'a> {
    pub(crate) c: &'a Chrome,
    pub(crate) heading: String,
    pub(crate) intro: String,
    pub(crate) caption: String,
    pub(crate) rows: Vec<TableRow>,
    pub(crate) pager: Pager,
    pub(crate) facets: &'a Facets,
}

/// How many pages a listing takes: one at least, so an empty listing still has a page.
pub(crate) fn page_count(listing: &BrowseList) -> usize {
    listing.ids.len().div_ceil(PAGE_SIZE).max(1)
}

/// Page `page` (from 1) of `listing`.
pub(crate) fn list_page<'a>(cx: &'a SnapshotContext, listing: &BrowseList, page: usize) -> ListPage<'a> {
    let pages = page_count(listing);
    let href = |n: usize| cx.href(&names::listing_page_dir(&listing.dir, n));
    let total = listing.ids.len();
    let start = (page - 1) * PAGE_SIZE;
    let ids = &listing.ids[start.min(total)..(start + PAGE_SIZE).min(total)];
    ListPage {
        c: &cx.chrome,
        heading: listing.heading.clone(),
        intro: format!("{} {total} resources.", listing.intro),
        caption: format!("{} to {} of {total}", start + 1.min(ids.len()), start + ids.len()),
        rows: table_rows(cx, ids),
        pager: Pager {
            page,
            pages,
            prev: (page > 1).then(|| href(page - 1)),
            next: (page < pages).then(|| href(page + 1)),
        },
        facets: &cx.facets,
    }
}
