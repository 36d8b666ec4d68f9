//! The ranked index of one snapshot: every listing read, screened, labelled and given
//! its figures, in browse order. Answers and pages are all computed from it.

use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::Serialize;

use super::assets::Decimal;
use super::figures::{figures, Figures};
use super::names::{host_of, slug_digest, slug_of};
use super::normalise::{append_fields, normalise_fields};
use super::ownership::{self, is_owners, Claim, Ledger, RunningLedger, SnapshotClaims, Standing};
use super::probe::{self, Probe};
use super::rank::RankKey;
use super::screen::Withheld;
use super::Method;
use catalogue::error::Error;
use catalogue::model::Rejection;
use catalogue::model::{Accept, Resource};
use catalogue::snapshot::{self, parse_date, read_in_batches, Header, Item, Snapshot, Stored};
use catalogue::timings::phase;

/// One resource as the method sees it.
#[derive(Debug, Clone)]
pub struct Entry {
    pub resource: Resource,
    /// Normalised description, service name, URL and tags (content/method.md#indexed-text), in that order.
    pub haystack: String,
    /// Where the description's words end in `haystack` (see [`Entry::description_haystack`]).
    description_end: usize,
    /// Boxed: rare, and it would otherwise widen every entry by a hundred bytes.
    pub withheld: Option<Box<Withheld>>,
    pub segments: Vec<String>,
    pub figures: Figures,
    /// Lowest USD price among accepts paid in a known USD stablecoin.
    pub min_price_usd: Option<Decimal>,
    /// Distinct networks accepted, as CAIP-2 ids where the table knows the alias.
    pub networks: Vec<String>,
    /// Every network accepted is a test network in the asset table (and there is one
    /// at least): what the `exclude_testnets` filter leaves out.
    pub testnets_only: bool,
    /// Operated by the site's operator: disclosed, never boosted.
    pub operator_listing: bool,
    /// The snapshot's probe asked it and it answered 402, its terms readable or not:
    /// what the `answered_402` filter keeps (content/method.md#probe).
    pub answered_402: bool,
    /// The hashed part of the page's folder name (`names::slug_digest`).
    slug_digest: [u8; 6],
}

impl Entry {
    /// The description that may be published: `None` when absent or withheld.
    pub fn public_description(&self) -> Option<&str> {
        if self.withheld.is_some() {
            None
        } else {
            self.resource.description.as_deref()
        }
    }

    /// Normalised description alone: the start of `haystack`, which holds its words
    /// first (normalising field by field never joins words across fields), kept as an
    /// offset rather than a second copy. A withheld description's words are here too:
    /// withholding keeps the text out of what is published, not out of matching.
    pub fn description_haystack(&self) -> &str {
        &self.haystack[..self.description_end]
    }

    /// The prices the listing asks, read from its accepts each time they are wanted: a
    /// copy kept per entry was a fifth of the build's memory at a million listings.
    pub fn prices(&self, method: &Method) -> Vec<Price> {
        prices(&self.resource, method)
    }

    /// The folder name of the entry's page, made from its URL and digest when wanted
    /// (kept whole, it was 70 bytes an entry).
    pub fn slug(&self) -> String {
        slug_of(&self.resource.url, &self.slug_digest)
    }

    pub(crate) fn rank_key(&self, match_score: u32) -> RankKey<'_> {
        RankKey {
            match_score,
            unique_payers_30d: self.figures.unique_payers_30d,
            calls_30d: self.figures.calls_30d,
            resource: &self.resource.url,
        }
    }
}

/// A price asked on one network.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Price {
    /// The network as the listing names it.
    pub(crate) network: String,
    /// Its CAIP-2 id where known.
    pub(crate) network_id: String,
    pub testnet: bool,
    pub(crate) scheme: Option<String>,
    pub asset: Option<String>,
    /// Atomic units, as exact digits.
    pub amount_atomic: String,
    /// The amount in USD, when the asset is a known mainnet USD stablecoin.
    pub usd: Option<Decimal>,
    pub asset_symbol: Option<String>,
    /// The address the payment goes to, as listed: what a payer checks before signing.
    pub pay_to: Option<String>,
}

/// What happened to listings that did not become plain entries.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Report {
    /// Items with no usable resource URL (position in the snapshot, reason).
    pub rejected: Vec<Rejected>,
    /// The same URL listed again by the same owner: the newest listing is kept.
    pub collapsed: Vec<Collapsed>,
    /// The same URL claimed by different payTo addresses (in this snapshot or an
    /// earlier one) and not settled: held out of the index.
    pub quarantined: Vec<Conflict>,
    /// Listings of a settled URL that do not pay its owner.
    pub overruled: Vec<Overruled>,
    /// The ranked resources with a field dropped or cut while reading (content/method.md#reading),
    /// in browse order: the same list the report page and each resource's page show.
    pub dropped_fields: Vec<DroppedFields>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Rejected {
    pub position: usize,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Collapsed {
    pub resource: String,
    pub kept_position: usize,
    pub dropped_positions: Vec<usize>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Conflict {
    pub resource: String,
    /// Every payTo set that claimed the URL, across the stored snapshots.
    pub claims: Vec<Claim>,
}

/// A ranked resource and the fields dropped or cut while reading it.
#[derive(Debug, Clone, Serialize)]
pub struct DroppedFields {
    pub resource: String,
    /// Its position in browse order (the `id` of its record).
    pub id: usize,
    pub fields: Vec<catalogue::model::Drop>,
}

/// A listing dropped because the corrections log settled its URL on another owner.
#[derive(Debug, Clone, Serialize)]
pub struct Overruled {
    pub resource: String,
    pub position: usize,
    pub pay_to: Vec<String>,
    pub owner: Vec<String>,
    pub correction_date: String,
}

#[derive(Debug, Clone)]
pub struct Index {
    pub header: Header,
    /// In browse order (the order of a query with no tokens).
    pub entries: Vec<Entry>,
    pub report: Report,
    /// True when any listing carries a usage counter (payers or calls). Without one,
    /// the order falls to match_score, then URL (content/method.md#ranking), and every
    /// surface says so.
    pub(crate) usage_counters: bool,
    /// The snapshot's probe file, when it was probed (content/method.md#probe): what
    /// each listing's live 402 answered, published beside what it lists.
    pub probe: Option<Probe>,
}

impl Index {
    /// The index of a snapshot judged on its own (no earlier snapshots as history).
    pub fn build<I: Item>(snapshot: &Snapshot<I>, method: &Method) -> Index {
        Index::from_snapshot(snapshot, method, &Ledger::new(&snapshot.header.date, method.corrections))
    }

    fn from_snapshot<I: Item>(snapshot: &Snapshot<I>, method: &Method, ledger: &Ledger) -> Index {
        let read = snapshot.items.par_iter().map(|item| Entry::read(item, method)).collect();
        Index::from_entries(snapshot.header.clone(), read, ledger)
    }

    /// The index of the stored snapshot at `path`, judged with the snapshots stored
    /// before it in its folder (content/method.md#duplicates).
    pub fn read(path: &Path, method: &Method) -> Result<Index, Error> {
        let (stored, history) = snapshot::with_histories(&[path.to_path_buf()])?.remove(0);
        Index::read_stored(&stored, &history, method)
    }

    /// The index of `stored`, judged with its `history`: the snapshots stored before it,
    /// oldest first.
    pub fn read_stored(stored: &Stored, history: &[Stored], method: &Method) -> Result<Index, Error> {
        let (header, read) = Index::read_entries(stored.path(), method)?;
        let ledger =
            phase("index: ownership ledger", || ownership::ledger_for(history, stored.date(), method.corrections))?;
        let index = phase("index: entries", || Index::from_entries(header, read, &ledger));
        Ok(index.with_probe(probe::read_beside(stored.path(), stored.date())?))
    }

    /// The index with its snapshot's probe (or none): each entry told whether it
    /// answered 402. A result for a URL the index does not rank is not published.
    pub fn with_probe(mut self, probe: Option<Probe>) -> Index {
        for e in &mut self.entries {
            e.answered_402 = probe.as_ref().and_then(|p| p.result(&e.resource.url)).is_some_and(|r| r.answered_402());
        }
        self.probe = probe;
        self
    }

    /// [`Index::read_stored`] for a run over several snapshots, oldest first: `ledger`
    /// holds the claims of those before (read once per run), and, when `more` snapshots
    /// follow, is given this one's.
    pub fn read_running(
        stored: &Stored,
        history: &[Stored],
        method: &Method,
        ledger: &mut RunningLedger,
        more: bool,
    ) -> Result<Index, Error> {
        let (header, read) = Index::read_entries(stored.path(), method)?;
        let claims = more.then(|| {
            let claim = |e: &Entry| (e.resource.url.clone(), e.resource.pay_to_set(), e.resource.last_updated.clone());
            SnapshotClaims::new(stored.date(), read.iter().map(|r| r.as_ref().ok().map(claim)))
        });
        let index = {
            let ledger = phase("index: ownership ledger", || ledger.before(history, stored.date()))?;
            phase("index: entries", || Index::from_entries(header, read, ledger))
        };
        if let Some(claims) = claims {
            ledger.push(stored.path(), claims);
        }
        Ok(index.with_probe(probe::read_beside(stored.path(), stored.date())?))
    }

    /// The items of the stored snapshot at `path`, each read as an entry or rejected.
    /// The file is read as a stream and each batch of items made into entries at once,
    /// so neither the file's text nor the parsed listings are ever held whole: at a
    /// million listings those were most of the build's peak.
    fn read_entries(path: &Path, method: &Method) -> Result<(Header, Vec<Result<Entry, Rejection>>), Error> {
        let mut read = Vec::new();
        let header = phase("index: read listings", || {
            read_in_batches(path, |batch| {
                let start = read.len();
                read.par_extend(batch.par_iter().map(|item| Entry::read(item, method)));
                // Each entry was made among the short-lived values of its item's parse,
                // so its strings sit on pages that are mostly holes once those are
                // freed. Copied now, it fills the holes its own batch left, and the
                // pages it was made on empty out and go back: at 200,000 listings the
                // read holds 330 MB instead of 470 MB.
                read[start..].par_iter_mut().flatten().for_each(|e| *e = e.clone());
            })
        })?;
        Ok((header, read))
    }

    /// The index of a snapshot's items read as entries (or rejected), in snapshot
    /// order, with ownership decided by `ledger` and this snapshot's claims (content/method.md#duplicates).
    pub(crate) fn from_entries(header: Header, read: Vec<Result<Entry, Rejection>>, ledger: &Ledger) -> Index {
        let date = parse_date(&header.date).expect("snapshot dates are checked when read");
        let mut report = Report::default();
        let read: Vec<Option<Entry>> = read
            .into_iter()
            .enumerate()
            .map(|(position, result)| {
                result.map_err(|rejection| report.rejected.push(Rejected { position, reason: rejection.reason })).ok()
            })
            .collect();
        // Group listings by exact URL, keeping snapshot positions: positions sorted by
        // URL, then position (no URL is copied to do it).
        let url = |p: usize| read[p].as_ref().map(|e| e.resource.url.as_str());
        let mut order: Vec<usize> = (0..read.len()).filter(|&p| read[p].is_some()).collect();
        order.par_sort_unstable_by(|&a, &b| url(a).cmp(&url(b)).then(a.cmp(&b)));
        let mut groups: Vec<std::ops::Range<usize>> = Vec::new();
        for (i, &p) in order.iter().enumerate() {
            match groups.last_mut() {
                Some(g) if url(order[g.start]) == url(p) => g.end = i + 1,
                _ => groups.push(i..i + 1),
            }
        }
        // Decided by reference, group by group; the entries stay where they are, so that
        // no second array of a million entries is made.
        let mut keep = vec![false; read.len()];
        for group in groups {
            let entry = |p: usize| read[p].as_ref().expect("grouped entries are read");
            let mut listings: Vec<(usize, &Resource)> = order[group].iter().map(|&p| (p, &entry(p).resource)).collect();
            let url = listings[0].1.url.clone();
            let current = listings.iter().map(|&(position, r)| Claim {
                date: header.date.clone(),
                position,
                pay_to: r.pay_to_set(),
                last_updated: r.last_updated.clone(),
            });
            match ledger.standing_with(&url, current) {
                Some(Standing::Contested { claims }) => {
                    report.quarantined.push(Conflict { resource: url, claims });
                    continue;
                }
                Some(Standing::Settled { owner, by }) => {
                    let (kept, others): (Vec<_>, Vec<_>) =
                        listings.into_iter().partition(|(_, r)| is_owners(&r.pay_to_set(), &owner));
                    for (position, r) in others {
                        report.overruled.push(Overruled {
                            resource: url.clone(),
                            position,
                            pay_to: r.pay_to_set(),
                            owner: owner.clone(),
                            correction_date: by.date.clone(),
                        });
                    }
                    listings = kept;
                    if listings.is_empty() {
                        continue;
                    }
                }
                Some(Standing::Owned { .. }) | None => {}
            }
            if listings.len() > 1 {
                // Same owner (the ledger saw one payTo set): the most recently updated
                // listing stands, the later position on a tie.
                listings.sort_by(|(pa, a), (pb, b)| a.last_updated.cmp(&b.last_updated).then(pa.cmp(pb)));
                let (kept, _) = listings.last().expect("non-empty");
                let mut dropped: Vec<usize> = listings[..listings.len() - 1].iter().map(|(p, _)| *p).collect();
                dropped.sort_unstable();
                report.collapsed.push(Collapsed {
                    resource: url.clone(),
                    kept_position: *kept,
                    dropped_positions: dropped,
                });
            }
            keep[listings.last().expect("non-empty").0] = true;
        }
        drop(order);
        // Collected in place: the kept entries move down the same allocation.
        let mut entries: Vec<Entry> =
            read.into_iter().zip(keep).filter_map(|(entry, keep)| entry.filter(|_| keep)).collect();
        // Figures are counted against the snapshot's date, known once the file is read.
        entries.par_iter_mut().for_each(|e| e.figures = figures(&e.resource.quality, date));
        // The URL ends every key, so no two are equal and an unstable sort (which needs
        // no second array of entries, as a stable one does) gives the one order.
        entries.par_sort_unstable_by(|a, b| a.rank_key(0).cmp(&b.rank_key(0)));
        report.rejected.sort_by_key(|r| r.position);
        report.overruled.sort_by_key(|o| o.position);
        report.dropped_fields = entries
            .iter()
            .enumerate()
            .filter(|(_, e)| !e.resource.drops.is_empty())
            .map(|(id, e)| DroppedFields { resource: e.resource.url.clone(), id, fields: e.resource.drops.clone() })
            .collect();
        let usage_counters =
            entries.iter().any(|e| e.figures.unique_payers_30d.is_some() || e.figures.calls_30d.is_some());
        Index { header, entries, report, usage_counters, probe: None }
    }
}

impl Entry {
    /// An item read as an entry, or why it is not a listing. Its figures wait for the
    /// snapshot's date ([`Index::from_entries`]).
    fn read<I: Item>(item: &I, method: &Method) -> Result<Entry, Rejection> {
        Resource::from_value(&item.value()).map(|r| Entry::new(r, method))
    }

    fn new(resource: Resource, method: &Method) -> Entry {
        let withheld = resource.description.as_deref().and_then(|d| method.screen.screen(d));
        // Screening decides what is published, never what matches: the description's
        // words are indexed as listed, withheld or not (content/method.md#indexed-text).
        let description = resource.description.as_deref().unwrap_or("");
        let service_name = resource.service_name.as_deref().unwrap_or("");
        let mut haystack = normalise_fields([description]);
        let description_end = haystack.len();
        append_fields(
            &mut haystack,
            [service_name, resource.url.as_str()].into_iter().chain(resource.tags.iter().map(String::as_str)),
        );
        // A segment is a published label, so it reads only published text: a withheld
        // description's words are left out (content/method.md#segments). The rest of the
        // haystack after the description, with its leading space put back.
        let segments = if withheld.is_some() {
            method.segments.labels(&format!(" {}", &haystack[description_end..]))
        } else {
            method.segments.labels(&haystack)
        };

        let prices = prices(&resource, method);
        // Every network an accept names counts, priced or not.
        let mut networks: Vec<String> = Vec::new();
        for network in resource.accepts.iter().filter_map(|a| a.network.as_deref()) {
            let network_id = method.assets.canonical_network(network);
            if !networks.iter().any(|n| n == network_id) {
                networks.push(network_id.to_owned());
            }
        }
        let min_price_usd = prices.iter().filter_map(|p| p.usd).min_by(|a, b| a.cmp_exact(b));
        let testnets_only = !networks.is_empty() && networks.iter().all(|n| method.assets.is_testnet(n));
        Entry {
            slug_digest: slug_digest(&resource.url),
            testnets_only,
            answered_402: false,
            operator_listing: method.site.is_operator_host(&host_of(&resource.url)),
            figures: Figures::default(),
            resource,
            haystack,
            description_end,
            withheld: withheld.map(Box::new),
            segments,
            min_price_usd,
            networks,
        }
    }
}

/// A price per accept that names a network and an amount, in accept order.
fn prices(resource: &Resource, method: &Method) -> Vec<Price> {
    resource.accepts.iter().filter_map(|accept| Price::of(accept, method)).collect()
}

impl Price {
    /// The price an accept asks, when it names a network and an amount; in US dollars
    /// when its asset is a known USD stablecoin on that network (content/method.md#filters).
    pub fn of(accept: &Accept, method: &Method) -> Option<Price> {
        let network = accept.network.as_deref()?;
        let network_id = method.assets.canonical_network(network).to_owned();
        let amount = accept.amount?;
        let coin = accept.asset.as_deref().and_then(|a| method.assets.usd_stablecoin(&network_id, a));
        Some(Price {
            network: network.to_owned(),
            testnet: method.assets.is_testnet(&network_id),
            network_id,
            scheme: accept.scheme.as_deref().map(str::to_owned),
            asset: accept.asset.as_deref().map(str::to_owned),
            amount_atomic: amount.to_string(),
            usd: coin.map(|c| Decimal::new(amount, c.decimals)),
            asset_symbol: coin.map(|c| c.symbol.clone()),
            pay_to: accept.pay_to.clone(),
        })
    }
}

/// Indexes `snapshots`, each judged with the snapshots stored before it in its folder
/// as history (ownership is decided across snapshots: content/method.md#duplicates), in
/// the order given.
pub fn indexes_with_history(snapshots: &[PathBuf], method: &Method) -> Result<Vec<Index>, Error> {
    let mut ledger = RunningLedger::new(method.corrections);
    let mut run: Vec<(usize, (Stored, Vec<Stored>))> =
        snapshot::with_histories(snapshots)?.into_iter().enumerate().collect();
    // Oldest first, so the ledger is read once for the whole run.
    run.sort_by(|a, b| a.1 .0.date().cmp(b.1 .0.date()));
    let mut indexes: Vec<(usize, Index)> = Vec::new();
    for (k, (at, (stored, history))) in run.iter().enumerate() {
        indexes.push((*at, Index::read_running(stored, history, method, &mut ledger, k + 1 < run.len())?));
    }
    indexes.sort_by_key(|(at, _)| *at);
    Ok(indexes.into_iter().map(|(_, index)| index).collect())
}
