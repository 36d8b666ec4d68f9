//! Synthetic snapshots for scale tests (`x402dir synth`): any number of listings whose
//! text comes from the real dumps' vocabulary and whose counters follow the shape
//! published for the live catalogue. Every synthetic snapshot says so in its header.
//!
//! The published shape, for about 15,000 listings over 30 days: 334k paid calls and 41k
//! paying addresses in all; the top two listings take about 39 % of the calls; about
//! 10 % of listings have three or more payers. Totals scale with the number of items.
//!
//! Items are generated one at a time from a seeded generator and written as they are
//! made, so a million-item snapshot never sits in memory. The same seed, item count,
//! date and vocabulary give the same bytes.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use super::model::Resource;
use super::snapshot::{self, Header, Source, FORMAT_NAME, FORMAT_VERSION};
use crate::hash::fnv1a32;
use crate::Error;

/// Listings in the published shape.
const SHAPE_LISTINGS: f64 = 15_000.0;
const SHAPE_CALLS: f64 = 334_000.0;
const SHAPE_PAYERS: f64 = 41_000.0;
/// Shares of all calls taken by the two busiest listings (together about 39 %).
const TOP_TWO_SHARES: [f64; 2] = [0.21, 0.18];
/// Share of listings with three or more payers.
const BUSY_SHARE: f64 = 0.10;

/// splitmix64: small, fast, and the same on every platform.
#[derive(Debug, Clone)]
pub(crate) struct SplitMix(u64);

impl SplitMix {
    pub(crate) fn new(seed: u64) -> SplitMix {
        SplitMix(seed)
    }

    pub(crate) fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub(crate) fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n.max(1) as u64) as usize
    }
}

/// What synthetic text is drawn from: the words of real descriptions (as a word-pair
/// chain, so phrases read like listings), real hosts and path words, real prices.
#[derive(Debug, Clone, Default)]
pub struct Vocabulary {
    /// Word → the words seen after it (with repeats, so frequent pairs are likelier).
    follows: BTreeMap<String, Vec<String>>,
    starts: Vec<String>,
    hosts: Vec<String>,
    path_words: Vec<String>,
    field_names: Vec<String>,
    amounts: Vec<String>,
}

impl Vocabulary {
    /// Learns from published descriptions (screened: withheld text is not passed in),
    /// resource URLs, schema field names and atomic amounts.
    pub(crate) fn learn<'a>(
        descriptions: impl IntoIterator<Item = &'a str>,
        urls: impl IntoIterator<Item = &'a str>,
        field_names: impl IntoIterator<Item = &'a str>,
        amounts: impl IntoIterator<Item = u128>,
    ) -> Vocabulary {
        let mut v = Vocabulary::default();
        for d in descriptions {
            let words: Vec<&str> = d.split_whitespace().filter(|w| w.chars().count() <= 40).take(60).collect();
            if words.len() < 3 {
                continue;
            }
            v.starts.push(words[0].to_owned());
            for pair in words.windows(2) {
                v.follows.entry(pair[0].to_owned()).or_default().push(pair[1].to_owned());
            }
        }
        for url in urls {
            let rest = url.split_once("://").map_or(url, |(_, r)| r);
            let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
            v.hosts.push(host.to_ascii_lowercase());
            v.path_words.extend(
                path.split(['/', '-', '_', '?', '.', '='])
                    .filter(|w| (2..=20).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_alphabetic()))
                    .map(|w| w.to_ascii_lowercase()),
            );
        }
        v.field_names = field_names.into_iter().map(str::to_owned).collect();
        v.amounts = amounts.into_iter().filter(|a| *a > 0).map(|a| a.to_string()).collect();
        for list in [&mut v.starts, &mut v.hosts, &mut v.path_words, &mut v.field_names, &mut v.amounts] {
            list.sort();
        }
        v.hosts.dedup();
        v.path_words.dedup();
        v.field_names.dedup();
        v
    }

    /// Learns from the listings stored in `snapshots_dir`, each with the description
    /// that may be published (`None` when withheld, so screened text never reappears).
    /// Refuses when they hold too little text to draw from.
    pub fn of_stored<'a, L>(listings: L, snapshots_dir: &Path) -> Result<Vocabulary, Error>
    where
        L: Iterator<Item = (&'a Resource, Option<&'a str>)> + Clone,
    {
        let resources = || listings.clone().map(|(resource, _)| resource);
        let vocabulary = Vocabulary::learn(
            listings.clone().filter_map(|(_, description)| description),
            resources().map(|r| r.url.as_str()),
            resources().flat_map(|r| r.schema_fields.iter().map(String::as_str)),
            resources().flat_map(|r| r.accepts.iter().filter_map(|a| a.amount)),
        );
        if vocabulary.is_empty() {
            // No snapshot at all says so, with its fix; else the snapshots are too thin.
            return Err(snapshot::latest(snapshots_dir).err().unwrap_or_else(|| {
                Error::Refused(format!("no usable text in the snapshots of {}", snapshots_dir.display()))
            }));
        }
        Ok(vocabulary)
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.starts.is_empty() || self.hosts.is_empty()
    }

    fn sentence(&self, rng: &mut SplitMix) -> String {
        let want = 6 + rng.below(20);
        let mut word = self.starts[rng.below(self.starts.len())].clone();
        let mut out = vec![word.clone()];
        while out.len() < want {
            match self.follows.get(&word) {
                Some(next) => word = next[rng.below(next.len())].clone(),
                None => word = self.starts[rng.below(self.starts.len())].clone(),
            }
            out.push(word.clone());
        }
        out.join(" ")
    }
}

/// One synthetic snapshot to write, checked before any real snapshot is read.
#[derive(Debug, Clone)]
pub struct Plan {
    items: usize,
    seed: u64,
    date: String,
    day: time::Date,
    dir: PathBuf,
    overwrite: bool,
}

impl Plan {
    /// Refuses a `dir` that is the real snapshots' folder (a synthetic snapshot there
    /// would be built and published as observed) and a `date` that is not YYYY-MM-DD.
    pub fn new(
        items: usize,
        seed: u64,
        date: String,
        dir: PathBuf,
        overwrite: bool,
        real_snapshots_dir: &Path,
    ) -> Result<Plan, Error> {
        let same = |a: &Path, b: &Path| a.canonicalize().ok().zip(b.canonicalize().ok()).is_some_and(|(a, b)| a == b);
        if same(&dir, real_snapshots_dir) {
            return Err(Error::Refused(format!(
                "refusing to write a synthetic snapshot among the real ones in {}: pass another --dir",
                dir.display()
            )));
        }
        let day = snapshot::parse_date(&date).map_err(Error::Refused)?;
        Ok(Plan { items, seed, date, day, dir, overwrite })
    }

    /// Generates the listings one at a time and streams them into `<dir>/<date>.json`.
    pub fn write(&self, vocabulary: &Vocabulary) -> Result<PathBuf, Error> {
        let mut rng = SplitMix::new(self.seed);
        let counters = counters(self.items, &mut rng);
        let header = header(&self.date, self.items, self.seed);
        let made = (0..self.items).map(|i| Ok(item(i, &counters[i], vocabulary, self.day, &mut rng)));
        snapshot::write_streaming(&self.dir, &header, self.overwrite, made)
    }
}

/// Counters for each listing, in listing order, following the published shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Counters {
    pub(crate) payers: u64,
    pub(crate) calls: u64,
    /// Days before the snapshot date of the last call; `None` when never called.
    pub(crate) days_since_call: Option<u32>,
}

/// Draws the counters of `n` listings: about 10 % with three or more payers (a heavy
/// tail), some with one or two, most with none; calls at least payers, the two
/// busiest taking about 39 %; totals scaled from the published 15,000-listing shape.
pub(crate) fn counters(n: usize, rng: &mut SplitMix) -> Vec<Counters> {
    let scale = n as f64 / SHAPE_LISTINGS;
    let mut payers: Vec<u64> = (0..n)
        .map(|_| {
            let u = rng.unit();
            if u < BUSY_SHARE {
                // Pareto tail from 3, shape 1.15: a few listings with thousands of payers.
                let x = 3.0 / (1.0 - rng.unit()).powf(1.0 / 1.15);
                x.min(50_000.0) as u64
            } else if u < BUSY_SHARE + 0.08 {
                1 + rng.below(2) as u64
            } else {
                0
            }
        })
        .collect();
    // Bring the payer total to the published shape without moving anyone across the
    // three-payer line.
    let target_payers = SHAPE_PAYERS * scale;
    let total: u64 = payers.iter().sum();
    if total > 0 {
        let busy_total: u64 = payers.iter().filter(|&&p| p >= 3).sum();
        let small_total = total - busy_total;
        let factor = ((target_payers - small_total as f64) / busy_total.max(1) as f64).max(0.0);
        for p in payers.iter_mut().filter(|p| **p >= 3) {
            *p = ((*p as f64 * factor).round() as u64).max(3);
        }
    }
    let target_calls = SHAPE_CALLS * scale;
    // Calls: each paying listing gets calls ∝ payers × a spread factor; the two
    // listings with the most payers take the published top-two shares.
    let weights: Vec<f64> =
        payers.iter().map(|&p| if p == 0 { 0.0 } else { p as f64 * (0.5 + 2.0 * rng.unit()).powi(2) }).collect();
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| payers[b].cmp(&payers[a]).then(a.cmp(&b)));
    let top: Vec<usize> = order.iter().take(2).copied().filter(|&i| payers[i] > 0).collect();
    let rest_weight: f64 = weights.iter().enumerate().filter(|(i, _)| !top.contains(i)).map(|(_, w)| w).sum();
    let rest_calls = target_calls * (1.0 - TOP_TWO_SHARES.iter().take(top.len()).sum::<f64>());
    (0..n)
        .map(|i| {
            let p = payers[i];
            let calls = if let Some(k) = top.iter().position(|&t| t == i) {
                (target_calls * TOP_TWO_SHARES[k]).round() as u64
            } else if rest_weight > 0.0 {
                (rest_calls * weights[i] / rest_weight).round() as u64
            } else {
                0
            };
            let calls = calls.max(p);
            let days_since_call = (calls > 0).then(|| rng.below(30) as u32);
            Counters { payers: p, calls, days_since_call }
        })
        .collect()
}

/// The header of a synthetic snapshot: marked synthetic in its source and notes.
pub(crate) fn header(date: &str, items: usize, seed: u64) -> Header {
    Header {
        format: FORMAT_NAME.into(),
        format_version: FORMAT_VERSION,
        date: date.into(),
        source: Source { url: "synthetic".into(), via: "synth".into(), file: None, shape: None, sha256: None },
        taken_at: None,
        recorded_at: format!("{date}T00:00:00Z"),
        reported_total: Some(items as u64),
        complete: true,
        item_count: items,
        notes: vec![format!(
            "SYNTHETIC: generated by `x402dir synth --items {items} --seed {seed}` from the vocabulary of the stored \
             snapshots; counters follow the published shape of the live catalogue (about 15,000 listings, 334k calls \
             and 41k payers in 30 days, top two listings about 39% of calls, about 10% of listings with 3 or more \
             payers), scaled to {items} items. Nothing here was observed."
        )],
    }
}

/// The `i`th synthetic item. `date` is the snapshot date (YYYY-MM-DD), the last-call
/// times count back from it.
pub(crate) fn item(i: usize, c: &Counters, vocabulary: &Vocabulary, date: time::Date, rng: &mut SplitMix) -> Value {
    let v = vocabulary;
    let host = &v.hosts[rng.below(v.hosts.len())];
    let mut path: Vec<&str> = Vec::new();
    for _ in 0..1 + rng.below(3) {
        if !v.path_words.is_empty() {
            path.push(&v.path_words[rng.below(v.path_words.len())]);
        }
    }
    // The index in base 36 makes every URL unique.
    let url = format!("https://{host}/{}/{}", path.join("/"), radix36(i));
    // One payTo per host, as most real providers have.
    let pay_to = format!("0x{:040x}", u128::from(fnv1a32(host)) * 0x1_0000_0001);
    let amount = if v.amounts.is_empty() { "10000".to_owned() } else { v.amounts[rng.below(v.amounts.len())].clone() };
    let mut quality = serde_json::Map::new();
    quality.insert("l30DaysTotalCalls".into(), json!(c.calls));
    quality.insert("l30DaysUniquePayers".into(), json!(c.payers));
    if let Some(days) = c.days_since_call {
        let at = date.midnight().assume_utc() - time::Duration::days(i64::from(days))
            + time::Duration::seconds(rng.below(86_400) as i64);
        quality.insert("lastCalledAt".into(), json!(at.unix_timestamp() * 1000));
    }
    let fields: Vec<&str> = if v.field_names.is_empty() {
        Vec::new()
    } else {
        (0..rng.below(5)).map(|_| v.field_names[rng.below(v.field_names.len())].as_str()).collect()
    };
    let properties: serde_json::Map<String, Value> =
        fields.iter().map(|f| ((*f).to_owned(), json!({"type": "string"}))).collect();
    json!({
        "accepts": [{
            "amount": amount,
            "asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
            "extra": {"name": "USD Coin", "version": "2"},
            "maxTimeoutSeconds": 60,
            "network": "eip155:8453",
            "payTo": pay_to,
            "scheme": "exact"
        }],
        "description": v.sentence(rng),
        "extensions": {"bazaar": {"info": {"input": {"type": "http", "method": "GET"}},
                                  "schema": {"properties": {"output": {"properties": properties}}}}},
        "lastUpdated": format!("{date}T00:00:00.000Z"),
        "quality": quality,
        "resource": url,
        "type": "http",
        "x402Version": 2
    })
}

fn radix36(mut n: usize) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut out = Vec::new();
    loop {
        out.push(DIGITS[n % 36]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII digits")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_follow_the_published_shape() {
        let n = 15_000;
        let c = counters(n, &mut SplitMix::new(7));
        let calls: u64 = c.iter().map(|x| x.calls).sum();
        let payers: u64 = c.iter().map(|x| x.payers).sum();
        let busy = c.iter().filter(|x| x.payers >= 3).count();
        let mut by_calls: Vec<u64> = c.iter().map(|x| x.calls).collect();
        by_calls.sort_unstable_by(|a, b| b.cmp(a));
        let top_two = (by_calls[0] + by_calls[1]) as f64 / calls as f64;
        // Published: 334k calls, 41k payers, ~39% in the top two, ~10% with 3+ payers.
        assert!((300_000..=370_000).contains(&calls), "{calls}");
        assert!((37_000..=45_000).contains(&payers), "{payers}");
        assert!((0.35..=0.43).contains(&top_two), "{top_two}");
        assert!((0.08..=0.12).contains(&(busy as f64 / n as f64)), "{busy}");
        assert!(c.iter().all(|x| x.calls >= x.payers));
        assert!(c.iter().all(|x| x.days_since_call.is_some() == (x.calls > 0)));
    }

    #[test]
    fn the_same_seed_gives_the_same_counters() {
        assert_eq!(counters(1000, &mut SplitMix::new(1)), counters(1000, &mut SplitMix::new(1)));
        assert_ne!(counters(1000, &mut SplitMix::new(1)), counters(1000, &mut SplitMix::new(2)));
    }

    #[test]
    fn base36_ids_are_unique_and_short() {
        assert_eq!(radix36(0), "0");
        assert_eq!(radix36(35), "z");
        assert_eq!(radix36(36), "10");
        assert_eq!(radix36(999_999), "lflr");
    }
}
