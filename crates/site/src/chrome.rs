//! The frame every page shares: the snapshot's date and coverage, where its home,
//! assets and method page are, and the source's three limits (content/method.md#limits).

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
    /// The snapshot's walk: when the next was due and when it turns stale (fixed dates,
    /// from the walk's date); `None` on pages outside any snapshot.
    pub(crate) walk: Option<Walk>,
    /// The snapshot's home, `/<date>/`; `None` on pages outside any snapshot.
    pub(crate) home: Option<String>,
    pub(crate) static_base: String,
    pub(crate) method_path: String,
    pub(crate) method_version: &'static str,
    /// The source's three limits, briefly; the method page has them in full.
    pub(crate) limits: &'static [&'static str; 3],
}

impl Chrome {
    pub(crate) fn for_index(index: &Index, corrections: &Corrections) -> Chrome {
        let h = &index.header;
        let mut notices = SnapshotRef::of(index).notices;
        // A folder whose published answers were changed says so on every page
        // (content/method.md#published).
        for c in corrections.republications(&h.date) {
            notices.push(format!("corrected on {}: this folder's answers were republished ({})", c.date, c.note));
        }
        Chrome {
            date: h.date.clone(),
            notices,
            walk: Some(Walk::of(&h.date)),
            home: Some(names::in_snapshot(&h.date, names::HOME_DIR)),
            static_base: names::in_snapshot(&h.date, names::STATIC_DIR),
            method_path: names::method_page(),
            method_version: DISCOVERY_METHOD_VERSION,
            limits: &SOURCE_LIMITS_BRIEF,
        }
    }

    /// For pages outside a snapshot (the root index, the versioned method page), which
    /// borrow the newest snapshot's stylesheet.
    pub(crate) fn outside(latest_date: &str) -> Chrome {
        Chrome {
            date: latest_date.to_owned(),
            notices: Vec::new(),
            walk: None,
            home: None,
            static_base: names::in_snapshot(latest_date, names::STATIC_DIR),
            method_path: names::method_page(),
            method_version: DISCOVERY_METHOD_VERSION,
            limits: &SOURCE_LIMITS_BRIEF,
        }
    }
}
