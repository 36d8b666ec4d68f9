//! Synthetic probe files (for tests only): a result for every ranked resource of an index,
//! its outcome drawn from a seeded generator, so the answers that read a probe (rows,
//! records, the `answered_402` filter) can be compared across surfaces without a network.

use std::path::{Path, PathBuf};

use catalogue::model::Accept;
use method::index::Index;
use method::probe::{Failure, Limits, Live, Offered, Outcome, Probe, ProbeResult, Term, PROBE_VERSION};

use super::Rng;

/// A probe of `index`'s snapshot: of every 20 resources about 11 answer 402 with the listed
/// terms, 2 with another payTo, 2 with unreadable requirements, 2 with another status,
/// 2 not at all, and 1 is not asked (its host silent).
pub fn synthetic_probe(index: &Index, seed: u64) -> Probe {
    let mut rng = Rng(seed);
    let results: Vec<ProbeResult> = index
        .entries
        .iter()
        .map(|e| {
            let draw = rng.below(20);
            let outcome = match draw {
                0..=12 => Outcome::Terms,
                13..=14 => Outcome::Unreadable,
                15..=16 => Outcome::OtherStatus,
                _ => Outcome::NoAnswer,
            };
            let (status, failure, ms, version) = match outcome {
                Outcome::Terms => (Some(402), None, Some(100 + rng.below(900) as u64), Some(1 + rng.below(2) as u8)),
                Outcome::Unreadable => (Some(402), None, Some(40), None),
                Outcome::OtherStatus => (Some(200), None, Some(12), None),
                Outcome::NoAnswer if draw == 19 => (None, Some(Failure::HostSilent), None, None),
                Outcome::NoAnswer => (None, Some(Failure::Timeout), None, None),
            };
            let other = draw >= 11;
            let terms = if outcome == Outcome::Terms {
                e.resource
                    .accepts
                    .iter()
                    .enumerate()
                    .map(|(j, a)| {
                        let (live, offered) = if other && j == 0 {
                            (
                                Live::Other,
                                Some(Offered {
                                    amount: a.amount.map(|n| n.to_string()),
                                    pay_to: Some(format!("0x{:040x}", rng.next())),
                                }),
                            )
                        } else {
                            (Live::Same, None)
                        };
                        listed_term(a, live, offered)
                    })
                    .collect()
            } else {
                Vec::new()
            };
            result_of(&e.resource.url, "2026-12-07T06:31:07Z", outcome, (status, failure, ms, version), terms)
        })
        .collect();
    probe_of(&index.header.date, "2026-12-07", results)
}

/// A probe file of the snapshot of `date`, run on `day` from 06:30 to 06:40 UTC, holding
/// `results` (sorted here by URL, as the file's reader requires).
pub fn probe_of(date: &str, day: &str, mut results: Vec<ProbeResult>) -> Probe {
    results.sort_by(|a, b| a.resource.cmp(&b.resource));
    Probe {
        probe_version: PROBE_VERSION.into(),
        snapshot: date.into(),
        started: format!("{day}T06:30:00Z"),
        finished: format!("{day}T06:40:00Z"),
        user_agent: "x402dir-probe/test (+https://x402dir.netlify.app)".into(),
        limits: Limits::DEFAULT,
        results,
    }
}

/// A listed payment term (an accept of the listing) beside what the live 402 answered.
pub fn listed_term(accept: &Accept, live: Live, offered: Option<Offered>) -> Term {
    Term {
        scheme: accept.scheme.as_deref().map(str::to_owned),
        network: accept.network.as_deref().map(str::to_owned),
        asset: accept.asset.as_deref().map(str::to_owned),
        amount: accept.amount.map(|n| n.to_string()),
        pay_to: accept.pay_to.clone(),
        live,
        offered,
    }
}

/// Writes `probe` where the build looks for it: `probes/DATE.json` beside the folder of
/// the snapshot stored at `snapshot`.
pub fn write_beside(snapshot: &Path, probe: &Probe) -> PathBuf {
    let path = method::probe::beside(snapshot, &probe.snapshot);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(&path, probe.to_bytes()).unwrap();
    path
}

/// What a probe saw of one resource besides its terms: the HTTP status, the failure, the
/// milliseconds to the first byte and the x402 version.
pub type Answer = (Option<u16>, Option<Failure>, Option<u64>, Option<u8>);

/// The result for `resource` probed `at`, its body whole and no wait asked.
pub fn result_of(resource: &str, at: &str, outcome: Outcome, answer: Answer, terms: Vec<Term>) -> ProbeResult {
    let (status, failure, ms_to_first_byte, x402_version) = answer;
    ProbeResult {
        resource: resource.into(),
        at: at.into(),
        outcome,
        status,
        failure,
        ms_to_first_byte,
        x402_version,
        body_cut: false,
        waited_s: None,
        terms,
    }
}
