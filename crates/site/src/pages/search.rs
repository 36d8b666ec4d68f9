//! A snapshot's search page: the composer answers in the browser from the static API.

use askama::Template;

use super::Chrome;
use crate::context::SnapshotContext;
use method::names;

#[derive(Template)]
#[template(path = "search.html")]
pub(crate) struct SearchPage<'a> {
    pub(crate) c: &'a Chrome,
    pub(crate) api: String,
    pub(crate) search_action: String,
    pub(crate) networks: &'a [String],
    /// When the snapshot's probe began; `None`: not probed, no `answered_402` box.
    pub(crate) probed: Option<String>,
}

pub(crate) fn search_page<'a>(cx: &'a SnapshotContext) -> SearchPage<'a> {
    SearchPage {
        c: &cx.chrome,
        api: cx.href(names::API_DIR),
        search_action: cx.href(names::SEARCH_DIR),
        networks: &cx.networks,
        probed: super::probe::probed(cx.probe),
    }
}
