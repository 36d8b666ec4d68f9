//! What the writers of one snapshot's folder share, worked out once per snapshot and
//! handed to each of them (as mdBook hands its renderers a `RenderContext`).

use crate::api::Sink;
use crate::chrome::Chrome;
use crate::facets::{self, BrowseList, Facets};
use crate::history::{Comparison, NewSince, Timeline};
use catalogue::error::Error;
use explore::eval::GoldenSet;
use method::index::Index;
use method::names;
use method::networks::{self, KnownNetwork};
use method::probe::Probe;
use method::Method;

pub(crate) struct SnapshotContext<'a> {
    pub(crate) index: &'a Index,
    pub(crate) method: &'a Method<'a>,
    /// The snapshots before this one: resource histories, what is new.
    pub(crate) timeline: &'a Timeline,
    /// What the snapshot's probe recorded, when it was probed.
    pub(crate) probe: Option<&'a Probe>,
    /// Where every file of the folder goes, batch by batch.
    pub(crate) sink: Sink<'a>,
    /// The snapshot's date, the name of its folder.
    pub(crate) date: &'a str,
    /// What every page of the snapshot shows around its content.
    pub(crate) chrome: Chrome,
    /// How many resources are new since the previous snapshot, when it is comparable.
    pub(crate) new_since: Option<NewSince>,
    /// Every browsable listing, in the order their pages are written.
    pub(crate) listings: Vec<BrowseList>,
    pub(crate) facets: Facets,
    /// Every network a filter can name, with the names pages show (`networks::known`).
    pub(crate) known_networks: Vec<KnownNetwork>,
    /// The names of the networks any resource accepts, for the search forms' network filter.
    pub(crate) networks: Vec<String>,
    /// The golden set, when it was labelled on this snapshot: its folder then carries
    /// the evaluation (content/explore.md#evaluation).
    pub(crate) golden: Option<GoldenSet>,
}

impl<'a> SnapshotContext<'a> {
    pub(crate) fn new(
        index: &'a Index,
        method: &'a Method,
        timeline: &'a Timeline,
        sink: Sink<'a>,
    ) -> Result<SnapshotContext<'a>, Error> {
        let new_ids = timeline.new_ids(index);
        let new_since = match (timeline.comparison(), &new_ids) {
            (Comparison::With(previous), Some(ids)) => Some(NewSince::of(previous, ids)),
            _ => None,
        };
        let previous = new_since.as_ref().map(|n| n.previous.as_str());
        let known_networks = networks::known(index, method.assets);
        let (listings, facets) = facets::listings(index, method, &known_networks, previous.zip(new_ids));
        let networks = known_networks.iter().filter(|n| n.resources > 0).map(|n| n.name.clone()).collect();
        let date = index.header.date.as_str();
        let golden = Some(GoldenSet::embedded()?).filter(|g| g.snapshot == date);
        Ok(SnapshotContext {
            index,
            method,
            timeline,
            probe: index.probe.as_ref(),
            sink,
            date,
            chrome: Chrome::for_index(index, method.corrections),
            new_since,
            listings,
            facets,
            known_networks,
            networks,
            golden,
        })
    }

    /// Ids of the resources new since the previous snapshot, in browse order (the `new/`
    /// listing's); `None` when there is no comparable previous snapshot.
    pub(crate) fn new_ids(&self) -> Option<&[usize]> {
        self.listings.iter().find(|l| l.dir == names::NEW_DIR).map(|l| l.ids.as_slice())
    }

    /// How a network is shown: its name, and whether it is a test network.
    pub(crate) fn network<'s>(&'s self, id: &'s str) -> (&'s str, bool) {
        self.known_networks.iter().find(|n| n.id == id).map_or((id, false), |n| (n.name.as_str(), n.testnet))
    }

    /// The address of the folder `dir` of this snapshot.
    pub(crate) fn href(&self, dir: &str) -> String {
        names::in_snapshot(self.date, dir)
    }
}
