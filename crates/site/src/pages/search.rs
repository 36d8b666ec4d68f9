//! A snapshot's search page: the composer answers in the browser from the static API.

use askama::Template;

use super::Chrome;
use crate::context::SnapshotContext;
use method::names;

#[derive(Template)]
#[template(path = "search.html")]
pub struct SearchPage<'a> {
    pub c: &'a Chrome,
    pub api: String,
    pub search_action: String,
    pub networks: &'a [String],
}

pub fn search_page<'a>(cx: &'a SnapshotContext) -> SearchPage<'a> {
    SearchPage {
        c: &cx.chrome,
        api: cx.href(names::API_DIR),
        search_action: cx.href(names::SEARCH_DIR),
        networks: &cx.networks,
    }
}
