//! The directory method (content/method.md): how text is normalised, how a query is read, which
//! resources qualify, how they are ordered and which figures are published.

pub mod answer;
pub mod assets;
pub mod config;
pub mod corrections;
pub(crate) mod figures;
pub mod index;
pub mod names;
pub mod networks;
pub mod normalise;
pub mod ownership;
pub mod probe;
pub mod query;
pub(crate) mod rank;
pub mod request;
pub mod screen;
pub(crate) mod segments;
pub mod view;
pub mod walk;

use crate::config::SiteConfig;
use assets::AssetTable;
use corrections::Corrections;
use screen::PatternList;
use segments::SegmentRules;

/// Covers normalising, querying, ranking and figures (content/method.md, from #indexed-text
/// to #figures). Minor at least for any change that can move a position or change a
/// figure's meaning; major for removing a field or changing its type; patch for adding a
/// field or a default-off filter (content/method.md#versions).
pub const DISCOVERY_METHOD_VERSION: &str = "1.4.1";

/// The three limits of the source, stated in every answer and on every page with figures.
pub const SOURCE_LIMITS: [&str; 3] = [
    "The catalogue counts only payments settled through it: a resource used through another \
     facilitator or a direct agreement looks quiet here. Quiet is not absence of use.",
    "Figures are a snapshot, not a live reading: they are as of the snapshot date named in this answer.",
    "Descriptions are the providers' own words and are not verified, only screened for text aimed at AI agents.",
];

/// The same three limits in a few words each, for the one line every page states them in
/// beside the snapshot's date; it links to their full text (content/method.md#limits).
pub const SOURCE_LIMITS_BRIEF: [&str; 3] =
    ["only payments settled through the catalogue are counted", "not live", "descriptions unverified"];

/// Everything the method reads besides the snapshot: the versioned content files.
#[derive(Debug, Clone, Copy)]
pub struct Method<'a> {
    pub assets: &'a AssetTable,
    pub screen: &'a PatternList,
    pub segments: &'a SegmentRules,
    pub site: &'a SiteConfig,
    /// The corrections log: settles contested URLs (and is published).
    pub corrections: &'a Corrections,
}

impl Method<'static> {
    /// The content files compiled into this binary.
    pub fn embedded() -> Method<'static> {
        Method {
            assets: AssetTable::embedded(),
            screen: PatternList::embedded(),
            segments: SegmentRules::embedded(),
            site: SiteConfig::embedded(),
            corrections: Corrections::embedded(),
        }
    }
}
