//! The frame every page shares: the snapshot's date and coverage, the addresses its
//! pages link to (every one made by `method::names`, so no template spells a path), and
//! the source's three limits (content/method.md#limits).

use method::answer::SnapshotRef;
use method::corrections::Corrections;
use method::index::Index;
use method::names;
use method::walk::Walk;
use method::{DISCOVERY_METHOD_VERSION, SOURCE_LIMITS_BRIEF};

/// What every page of a snapshot shows around its content.
pub(crate) struct Chrome {
    pub(crate) date: String,
    /// What a reader must know before reading this snapshot's orders: partial, no usage
    /// counters (the answers' `meta.snapshot.notices`, word for word).
    pub(crate) notices: Vec<String>,
    /// When this folder's published answers were last changed on purpose, and how often.
    pub(crate) republished: Option<Republished>,
    /// The snapshot's walk: when the next was due and when it turns stale (fixed dates,
    /// from the walk's date); `None` on pages outside any snapshot.
    pub(crate) walk: Option<Walk>,
    /// Whether the page is one of a snapshot's (else the root's, or a versioned method
    /// page's: no snapshot's pages in its navigation).
    pub(crate) in_snapshot: bool,
    /// The snapshot's pages (outside a snapshot, the default one's).
    pub(crate) links: Links,
    pub(crate) assets: Assets,
    /// The site's root, the list of snapshots.
    pub(crate) root: &'static str,
    pub(crate) method_path: String,
    pub(crate) method_version: &'static str,
    /// The source's three limits, briefly; the method page has them in full.
    pub(crate) limits: &'static [&'static str; 3],
}

/// The addresses of a snapshot's pages and files that every page may link to.
pub(crate) struct Links {
    pub(crate) home: String,
    pub(crate) search: String,
    pub(crate) explore: String,
    pub(crate) browse: String,
    pub(crate) new: String,
    pub(crate) feed: String,
    pub(crate) networks: String,
    pub(crate) prices: String,
    pub(crate) segments: String,
    pub(crate) corrections: String,
    pub(crate) report: String,
    pub(crate) report_json: String,
    pub(crate) api: String,
}

impl Links {
    pub(crate) fn of(date: &str) -> Links {
        let at = |rel: &str| names::in_snapshot(date, rel);
        Links {
            home: at(names::HOME_DIR),
            search: at(names::SEARCH_DIR),
            explore: at(names::EXPLORE_DIR),
            browse: at(names::BROWSE_DIR),
            new: at(names::NEW_DIR),
            feed: at(names::FEED_FILE),
            networks: at(names::NETWORKS_DIR),
            prices: at(names::PRICES_DIR),
            segments: at(names::SEGMENTS_DIR),
            corrections: at(names::CORRECTIONS_DIR),
            report: at(names::REPORT_DIR),
            report_json: at(&names::REPORT.file(&[])),
            api: at(names::API_DIR),
        }
    }
}

pub(crate) struct Republished {
    pub(crate) last: String,
    pub(crate) times: usize,
}

/// The addresses of the stylesheet, icon and scripts, in one snapshot's folder.
pub(crate) struct Assets {
    pub(crate) style: String,
    pub(crate) icon: String,
    pub(crate) search_script: String,
    pub(crate) explore_script: String,
    pub(crate) snapshot_script: String,
    pub(crate) copy_script: String,
}

impl Assets {
    pub(crate) fn of(date: &str) -> Assets {
        let at = |file: &str| format!("{}{file}", names::in_snapshot(date, names::STATIC_DIR));
        Assets {
            style: at(names::STYLE_FILE),
            icon: at(names::ICON_FILE),
            search_script: at(names::SEARCH_SCRIPT),
            explore_script: at(names::EXPLORE_PAGE_SCRIPT),
            snapshot_script: at(names::SNAPSHOT_SCRIPT),
            copy_script: at(names::COPY_SCRIPT),
        }
    }
}

impl Chrome {
    /// The home page of the snapshot of `date`.
    pub(crate) fn home_of(&self, date: &str) -> String {
        names::in_snapshot(date, names::HOME_DIR)
    }

    /// The feed of the snapshot of `date`.
    pub(crate) fn feed_of(&self, date: &str) -> String {
        names::in_snapshot(date, names::FEED_FILE)
    }

    pub(crate) fn for_index(index: &Index, corrections: &Corrections) -> Chrome {
        let h = &index.header;
        let notices = SnapshotRef::of(index).notices;
        // A folder whose published answers were changed says so on every page, in one
        // line that links the log, where each change is told (content/method.md#published).
        let entries = corrections.republications(&h.date);
        let republished = entries.last().map(|last| Republished { last: last.date.clone(), times: entries.len() });
        Chrome {
            date: h.date.clone(),
            notices,
            republished,
            walk: Some(Walk::of(&h.date)),
            in_snapshot: true,
            links: Links::of(&h.date),
            assets: Assets::of(&h.date),
            root: names::ROOT,
            method_path: names::method_page(),
            method_version: DISCOVERY_METHOD_VERSION,
            limits: &SOURCE_LIMITS_BRIEF,
        }
    }

    /// For pages outside a snapshot (the root index, the versioned method page), which
    /// borrow the default snapshot's stylesheet.
    pub(crate) fn outside(latest_date: &str) -> Chrome {
        Chrome {
            date: latest_date.to_owned(),
            notices: Vec::new(),
            republished: None,
            walk: None,
            in_snapshot: false,
            links: Links::of(latest_date),
            assets: Assets::of(latest_date),
            root: names::ROOT,
            method_path: names::method_page(),
            method_version: DISCOVERY_METHOD_VERSION,
            limits: &SOURCE_LIMITS_BRIEF,
        }
    }
}
