//! A snapshot's explore page: explore ranks in the browser from the explore API, and
//! says it is not the method's answer (content/method.md#explore).

use askama::Template;

use super::Chrome;
use crate::context::SnapshotContext;
use explore::EXPLORE_VERSION;
use method::names;

#[derive(Template)]
#[template(path = "explore.html")]
pub(crate) struct ExplorePage<'a> {
    pub(crate) c: &'a Chrome,
    pub(crate) api: String,
    pub(crate) action: String,
    pub(crate) explore_path: String,
    pub(crate) explore_version: &'static str,
    /// The evaluation page, when this snapshot carries the golden set.
    pub(crate) evaluation: Option<String>,
}

pub(crate) fn explore_page<'a>(cx: &'a SnapshotContext) -> ExplorePage<'a> {
    ExplorePage {
        c: &cx.chrome,
        api: cx.href(names::API_DIR),
        action: cx.href(names::EXPLORE_DIR),
        explore_path: names::explore_method_page(EXPLORE_VERSION),
        explore_version: EXPLORE_VERSION,
        evaluation: cx.golden.as_ref().map(|_| cx.href(names::EVALUATION_DIR)),
    }
}
