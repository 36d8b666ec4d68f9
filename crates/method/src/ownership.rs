//! Ownership (content/method.md#duplicates): who owns a URL, across every stored snapshot.
//!
//! Listing metadata reaches the catalogue through clients, so anyone can describe a
//! URL that is not theirs. Ownership therefore follows settlement: a listing is bound
//! to the payTo addresses that receive its payments. The first payTo set seen for a
//! URL (oldest snapshot first, then catalogue order) owns it; the same set, or a part
//! of it (an owner dropping a payment option), updates it; any other set — including
//! one that adds an address — does not overwrite it. Such a conflict is not resolved by guessing:
//! the URL is held out of the ranked index and listed with every claim until an entry
//! in the corrections log names the owner.

use serde::Serialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::corrections::{Correction, Corrections};
use catalogue::error::Error;
use catalogue::model::Resource;
use catalogue::snapshot::{self, Item, Stored};

/// A payTo set's claim on a URL.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Claim {
    /// The snapshot the claim was seen in.
    pub date: String,
    /// Position of the listing in that snapshot.
    pub position: usize,
    pub pay_to: Vec<String>,
    pub last_updated: Option<String>,
}

/// What the ledger says about one URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Standing {
    /// One payTo set has claimed it, ever.
    Owned { owner: Vec<String> },
    /// Several payTo sets claimed it and no correction settled it: held out.
    Contested { claims: Vec<Claim> },
    /// Contested, then settled by the corrections log.
    Settled { owner: Vec<String>, by: Correction },
}

/// Ownership of every URL across a set of snapshots.
#[derive(Debug, Clone, Default)]
pub(crate) struct Ledger {
    /// url -> every distinct claim, in the order first seen.
    claims: BTreeMap<String, Vec<Claim>>,
    as_of: String,
    corrections: Corrections,
}

/// What a claim needs of a listing: its URL, payTo set and lastUpdated.
type ClaimRead = (String, Vec<String>, Option<String>);

/// What a claim needs of an item, `None` when it is not a listing.
fn claim_of(item: &serde_json::Value) -> Option<ClaimRead> {
    let r = Resource::from_value(item).ok()?;
    let pay_to = r.pay_to_set();
    Some((r.url, pay_to, r.last_updated))
}

impl Ledger {
    /// An empty ledger as it stands on `as_of`; snapshots are added oldest first.
    pub(crate) fn new(as_of: &str, corrections: &Corrections) -> Ledger {
        Ledger { claims: BTreeMap::new(), as_of: as_of.to_owned(), corrections: corrections.clone() }
    }

    /// Adds a snapshot's claims, listing by listing in snapshot order (`None` where an
    /// item was not a listing, so that positions hold).
    fn add_claims(&mut self, date: &str, listings: Vec<Option<ClaimRead>>) {
        for (position, listing) in listings.into_iter().enumerate() {
            let Some((url, pay_to, last_updated)) = listing else { continue };
            let claim = Claim { date: date.to_owned(), position, pay_to, last_updated };
            add_claim(self.claims.entry(url).or_default(), claim);
        }
    }

    /// The standing of `url` once `current` (the claims of the snapshot being indexed,
    /// in snapshot order) is added to what the ledger holds. The ledger need not hold
    /// the current snapshot's own claims, and if it does, adding them again changes
    /// nothing: a million claims of the current snapshot are never held at once.
    pub(crate) fn standing_with(&self, url: &str, current: impl IntoIterator<Item = Claim>) -> Option<Standing> {
        let mut claims = self.claims.get(url).cloned().unwrap_or_default();
        for claim in current {
            add_claim(&mut claims, claim);
        }
        self.decide(url, claims)
    }

    #[cfg(test)]
    pub(crate) fn standing(&self, url: &str) -> Option<Standing> {
        self.standing_with(url, [])
    }

    fn decide(&self, url: &str, claims: Vec<Claim>) -> Option<Standing> {
        if claims.is_empty() {
            return None;
        }
        if claims.len() == 1 {
            return Some(Standing::Owned { owner: claims[0].pay_to.clone() });
        }
        match self.corrections.release(url, &self.as_of) {
            Some(c) => {
                let mut owner = c.pay_to.clone().unwrap_or_default();
                for p in owner.iter_mut().filter(|p| p.starts_with("0x")) {
                    *p = p.to_ascii_lowercase();
                }
                owner.sort_unstable();
                owner.dedup();
                Some(Standing::Settled { owner, by: c.clone() })
            }
            None => Some(Standing::Contested { claims }),
        }
    }
}

/// Adds a claim to a URL's claims (content/method.md#duplicates): the first payTo set owns the URL; a set
/// already seen, or a part of the owner's, is an update and adds nothing.
fn add_claim(claims: &mut Vec<Claim>, claim: Claim) {
    let owners_update = claims.first().is_some_and(|owner| is_owners(&claim.pay_to, &owner.pay_to));
    if !owners_update && !claims.iter().any(|c| c.pay_to == claim.pay_to) {
        claims.push(claim);
    }
}

/// True when a listing paying `pay_to` is the owner's: the same addresses, or some of
/// them (every payment still reaches the owner). An empty set pays no one and is
/// never the owner's unless the owner's is empty too.
pub(crate) fn is_owners(pay_to: &[String], owner: &[String]) -> bool {
    pay_to == owner || (!pay_to.is_empty() && pay_to.iter().all(|p| owner.contains(p)))
}

/// The ledger of a stored snapshot dated `as_of`, as it stood then: the claims of the
/// snapshots of its `history` (those stored before it; later ones never count, so an older
/// dated build never changes), streamed from their files keeping only what a claim needs.
/// Its own claims are added URL by URL as it is indexed ([`Ledger::standing_with`]).
pub(crate) fn ledger_for(history: &[Stored], as_of: &str, corrections: &Corrections) -> Result<Ledger, Error> {
    let mut ledger = Ledger::new(as_of, corrections);
    for older in history {
        let claims = claims_in(older.path())?;
        ledger.add_claims(&claims.date, claims.listings);
    }
    Ok(ledger)
}

/// One snapshot's claims, listing by listing in snapshot order (`None` where an item was
/// not a listing), kept for the snapshots indexed after it in the same run.
#[derive(Debug, Clone)]
pub(crate) struct SnapshotClaims {
    date: String,
    listings: Vec<Option<ClaimRead>>,
}

impl SnapshotClaims {
    pub(crate) fn new(
        date: &str,
        listings: impl Iterator<Item = Option<(String, Vec<String>, Option<String>)>>,
    ) -> Self {
        SnapshotClaims { date: date.to_owned(), listings: listings.collect() }
    }
}

/// One ledger kept through a run over several snapshots, oldest first (a build): each
/// snapshot's claims come from its own read and are added once, instead of every later
/// snapshot reading every earlier file again ([`ledger_for`]; that made a build of N
/// snapshots cost N² reads). Gives the same ledger as [`ledger_for`] for each snapshot.
#[derive(Debug, Default)]
pub struct RunningLedger {
    ledger: Ledger,
    /// The files whose claims the ledger holds, and the newest of their dates.
    added: Vec<PathBuf>,
    newest: String,
}

impl RunningLedger {
    pub fn new(corrections: &Corrections) -> RunningLedger {
        RunningLedger { ledger: Ledger::new("", corrections), added: Vec::new(), newest: String::new() }
    }

    /// The ledger as it stood for a stored snapshot dated `as_of` whose `history` (the
    /// snapshots stored before it, oldest first) is given. Files of the history not yet
    /// seen are read now; a history that does not extend what is held (an older file
    /// than one already added, another folder) is read whole again, as [`ledger_for`] does.
    pub(crate) fn before(&mut self, history: &[Stored], as_of: &str) -> Result<&Ledger, Error> {
        let extends = self.added.iter().all(|p| history.iter().any(|h| h.path() == p));
        // The files not seen yet are read only when they can extend what is held.
        let mut read = Vec::new();
        if extends {
            for older in history.iter().filter(|h| !self.added.iter().any(|p| h.path() == p)) {
                read.push((older.path().to_path_buf(), claims_in(older.path())?));
            }
        }
        if !extends || read.iter().any(|(_, c)| c.date.as_str() < self.newest.as_str()) {
            self.ledger = ledger_for(history, as_of, &self.ledger.corrections)?;
            self.added = history.iter().map(|h| h.path().to_path_buf()).collect();
            self.newest = as_of.to_owned();
        } else {
            read.sort_by(|a, b| a.1.date.cmp(&b.1.date));
            for (file, claims) in read {
                self.push(&file, claims);
            }
        }
        self.ledger.as_of = as_of.to_owned();
        Ok(&self.ledger)
    }

    /// Adds the claims of the snapshot at `path` just indexed, for the snapshots after it.
    pub(crate) fn push(&mut self, path: &Path, claims: SnapshotClaims) {
        self.newest = self.newest.clone().max(claims.date.clone());
        self.ledger.add_claims(&claims.date, claims.listings);
        self.added.push(path.to_path_buf());
    }
}

/// The claims of the stored snapshot at `path`, streamed from its file.
fn claims_in(path: &Path) -> Result<SnapshotClaims, Error> {
    use rayon::prelude::*;
    let mut listings = Vec::new();
    let header = snapshot::read_in_batches(path, |batch| {
        listings.par_extend(batch.par_iter().map(|item| claim_of(&item.value())))
    })?;
    Ok(SnapshotClaims { date: header.date, listings })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_owner_may_drop_an_address_but_not_add_one() {
        let owner = vec!["0xa".to_owned(), "sol1".to_owned()];
        assert!(is_owners(&owner, &owner));
        assert!(is_owners(&["0xa".to_owned()], &owner));
        assert!(!is_owners(&["0xa".to_owned(), "0xb".to_owned()], &owner));
        assert!(!is_owners(&["0xb".to_owned()], &owner));
        assert!(!is_owners(&[], &owner));
        assert!(is_owners(&[], &[]));
    }

    /// The index adds the current snapshot's claims URL by URL; a ledger that already
    /// holds them (built from the whole history) must come to the same standing.
    #[test]
    fn adding_the_current_claims_again_changes_no_standing() {
        let claim = |position: usize, pay_to: &[&str]| Claim {
            date: "2026-02-01".into(),
            position,
            pay_to: pay_to.iter().map(|p| (*p).to_owned()).collect(),
            last_updated: None,
        };
        let cases: Vec<Vec<Claim>> = vec![
            vec![claim(0, &["0xa"])],
            vec![claim(0, &["0xa", "0xb"]), claim(3, &["0xa"])],
            vec![claim(0, &["0xa"]), claim(1, &["0xb"])],
            vec![claim(0, &["0xa"]), claim(1, &["0xa", "0xb"]), claim(2, &["0xb"])],
        ];
        for current in cases {
            let empty = Ledger::new("2026-02-01", &Corrections::default());
            let mut holding = empty.clone();
            let url = "https://a.example/x";
            holding.claims.insert(url.into(), Vec::new());
            for c in current.clone() {
                add_claim(holding.claims.get_mut(url).unwrap(), c);
            }
            let once = empty.standing_with(url, current.clone());
            assert_eq!(holding.standing_with(url, current.clone()), once, "{current:?}");
            assert_eq!(holding.standing(url), once, "{current:?}");
        }
        let contested = Ledger::new("2026-02-01", &Corrections::default())
            .standing_with("u", vec![claim(0, &["0xa"]), claim(1, &["0xb"])]);
        assert!(matches!(contested, Some(Standing::Contested { claims }) if claims.len() == 2));
    }
}
