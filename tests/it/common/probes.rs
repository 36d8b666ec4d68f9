//! Synthetic probe files (for tests only): a result for every ranked resource of an index,
//! its outcome drawn from a seeded generator, so the answers that read a probe (rows,
//! records, the `answered_402` filter) can be compared across surfaces without a network.

use std::path::{Path, PathBuf};

use method::index::Index;
use method::probe::{Failure, Limits, Live, Offered, Outcome, Probe, ProbeResult, Term, PROBE_VERSION};

use super::Rng;

/// A probe of `index`'s snapshot: of every 20 resources about 11 answer 402 with the listed
/// terms, 2 with another payTo, 2 with unreadable requirements, 2 with another status,
/// 2 not at all, and 1 is not asked (its host silent).
pub fn synthetic_probe(index: &Index, seed: u64) -> Probe {
    let mut rng = Rng(seed);
    let mut results: Vec<ProbeResult> = index
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
                        Term {
                            scheme: a.scheme.as_deref().map(str::to_owned),
                            network: a.network.as_deref().map(str::to_owned),
                            asset: a.asset.as_deref().map(str::to_owned),
                            amount: a.amount.map(|n| n.to_string()),
                            pay_to: a.pay_to.clone(),
                            live,
                            offered,
                        }
                    })
                    .collect()
            } else {
                Vec::new()
            };
            ProbeResult {
                resource: e.resource.url.clone(),
                at: "2026-12-07T06:31:07Z".into(),
                outcome,
                status,
                failure,
                ms_to_first_byte: ms,
                x402_version: version,
                body_cut: false,
                waited_s: None,
                terms,
            }
        })
        .collect();
    results.sort_by(|a, b| a.resource.cmp(&b.resource));
    Probe {
        probe_version: PROBE_VERSION.into(),
        snapshot: index.header.date.clone(),
        started: "2026-12-07T06:30:00Z".into(),
        finished: "2026-12-07T06:40:00Z".into(),
        user_agent: "x402dir-probe/test (+https://x402dir.netlify.app)".into(),
        limits: Limits::DEFAULT,
        results,
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
