//! The browsable subsets of a snapshot: every resource, the new ones, and one listing per
//! facet value (network, lowest USD price band, segment: content/method.md#segments),
//! with the counts the facet menus show.

use sha2::{Digest, Sha256};

use method::assets::Decimal;
use method::index::{Entry, Index};
use method::names;
use method::networks::KnownNetwork;
use method::Method;

/// Price bands for browsing, by lowest USD price per call (upper bounds inclusive):
/// folder slug, label, upper bound.
const PRICE_BANDS: &[(&str, &str, Option<&str>)] = &[
    ("free", "Free ($0)", Some("0")),
    ("up-to-0.001", "Up to $0.001", Some("0.001")),
    ("up-to-0.01", "Over $0.001, up to $0.01", Some("0.01")),
    ("up-to-0.1", "Over $0.01, up to $0.10", Some("0.1")),
    ("up-to-1", "Over $0.10, up to $1", Some("1")),
    ("over-1", "Over $1", None),
];

/// Folder name for a network: its id with anything but letters, digits and '-'
/// replaced, plus a hash when that changed it (ids come from the catalogue).
pub(crate) fn network_slug(id: &str) -> String {
    let clean: String =
        id.chars().take(60).map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '-' }).collect();
    if clean == id.replace(':', "-") && !clean.is_empty() && !clean.starts_with('-') {
        clean
    } else {
        let hash: String = catalogue::hash::hex(&Sha256::digest(id.as_bytes())[..4]);
        format!("n-{}-{hash}", clean.trim_matches('-'))
    }
}

/// The slug of the band a lowest USD price falls in; `None` without a price.
fn price_band(p: Option<Decimal>) -> Option<&'static str> {
    let p = p?;
    for (slug, _, upper) in PRICE_BANDS {
        match upper {
            Some(u) if p.cmp_exact(&Decimal::parse(u).expect("band bounds parse")).is_le() => return Some(slug),
            None => return Some(slug),
            _ => {}
        }
    }
    None
}

/// A browsable list of resources (all of them, the new ones, or one facet value), paged.
pub(crate) struct BrowseList {
    /// Its folder in the snapshot's folder, ending in `/`.
    pub(crate) dir: String,
    pub(crate) heading: String,
    pub(crate) intro: String,
    /// Entry ids, in browse order.
    pub(crate) ids: Vec<usize>,
}

/// One value of a facet in a facet menu.
pub(crate) struct Facet {
    pub(crate) href: String,
    pub(crate) label: String,
    pub(crate) count: usize,
}

/// The facet menus of a snapshot's home and listing pages.
pub(crate) struct Facets {
    pub(crate) networks: Vec<Facet>,
    pub(crate) prices: Vec<Facet>,
    pub(crate) segments: Vec<Facet>,
    pub(crate) segment_version: String,
}

/// Every listing of the snapshot (all, then the new ones when `new` names the previous
/// snapshot and the ids new since it, then each facet value) and the facet menus.
pub(crate) fn listings(
    index: &Index,
    method: &Method,
    known: &[KnownNetwork],
    new: Option<(&str, Vec<usize>)>,
) -> (Vec<BrowseList>, Facets) {
    let mut out = vec![browse_listing(index)];
    out.extend(new.map(|(previous, ids)| new_listing(previous, ids)));
    let date = &index.header.date;
    let mut facets =
        Facets { networks: vec![], prices: vec![], segments: vec![], segment_version: method.segments.version.clone() };
    let mut add = |menu: &mut Vec<Facet>, label: String, listing: BrowseList| {
        menu.push(Facet { href: names::in_snapshot(date, &listing.dir), label, count: listing.ids.len() });
        out.push(listing);
    };
    for (label, listing) in network_listings(index, known) {
        add(&mut facets.networks, label, listing);
    }
    for (label, listing) in price_listings(index) {
        add(&mut facets.prices, label, listing);
    }
    for (label, listing) in segment_listings(index, method) {
        add(&mut facets.segments, label, listing);
    }
    (out, facets)
}

fn browse_listing(index: &Index) -> BrowseList {
    BrowseList {
        dir: names::BROWSE_DIR.into(),
        heading: "All resources".into(),
        intro: "Every ranked resource of this snapshot, in browse order: distinct paying addresses, then paid calls, then URL.".into(),
        ids: (0..index.entries.len()).collect(),
    }
}

fn new_listing(previous: &str, ids: Vec<usize>) -> BrowseList {
    BrowseList {
        dir: names::NEW_DIR.into(),
        heading: format!("New since the snapshot of {previous}"),
        intro: format!(
            "Resources ranked in this snapshot that the snapshot of {previous} did not rank, in browse order \
             (also as an Atom feed: feed.xml in this snapshot's folder)."
        ),
        ids,
    }
}

/// A listing per network any entry accepts payment on (the asset table's first, in its
/// order, then the others by id), each with its menu label: the network's name, and
/// "testnet" for a test network.
fn network_listings(index: &Index, known: &[KnownNetwork]) -> Vec<(String, BrowseList)> {
    known
        .iter()
        .filter(|n| n.resources > 0)
        .map(|n| {
            let described = n.described();
            let listing = BrowseList {
                dir: names::network_dir(&network_slug(&n.id)),
                heading: format!("Accepts payment on {described}"),
                intro: format!("Resources that list {described} among their payment options."),
                ids: ids_where(index, |e| e.networks.contains(&n.id)),
            };
            let label = if n.testnet { format!("{} (testnet)", n.name) } else { n.name.clone() };
            (label, listing)
        })
        .collect()
}

/// A listing per price band, then one for entries with no readable USD price.
fn price_listings(index: &Index) -> Vec<(String, BrowseList)> {
    let mut out: Vec<(String, BrowseList)> = PRICE_BANDS
        .iter()
        .map(|(slug, label, _)| {
            let listing = BrowseList {
                dir: names::price_dir(slug),
                heading: format!("Lowest USD price: {label}"),
                intro: "By the lowest price asked in a known mainnet USD stablecoin.".into(),
                ids: ids_where(index, |e| price_band(e.min_price_usd) == Some(*slug)),
            };
            ((*label).to_owned(), listing)
        })
        .collect();
    let unpriced = BrowseList {
        dir: names::NO_USD_PRICE_DIR.into(),
        heading: "No USD price readable".into(),
        intro: "Resources priced only in test-network tokens or unknown assets, or with no readable amount.".into(),
        ids: ids_where(index, |e| e.min_price_usd.is_none()),
    };
    out.push(("No USD price readable".into(), unpriced));
    out
}

/// A listing per segment of the method's segment rules, in their order.
fn segment_listings(index: &Index, method: &Method) -> Vec<(String, BrowseList)> {
    method
        .segments
        .segments
        .iter()
        .map(|s| {
            let listing = BrowseList {
                dir: names::segment_dir(&s.id),
                heading: format!("Segment: {}", s.label),
                intro: format!(
                    "Resources whose text contains one of this segment's keywords as whole words (segment rules {}).",
                    method.segments.version
                ),
                ids: ids_where(index, |e| e.segments.contains(&s.id)),
            };
            (s.label.clone(), listing)
        })
        .collect()
}

fn ids_where(index: &Index, keep: impl Fn(&Entry) -> bool) -> Vec<usize> {
    index.entries.iter().enumerate().filter(|(_, e)| keep(e)).map(|(i, _)| i).collect()
}
