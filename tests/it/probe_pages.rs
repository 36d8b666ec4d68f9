//! content/method.md#probe, as the site publishes it: a snapshot's probe file
//! (`probes/DATE.json` beside its folder) puts a dated line on each resource page, the
//! listed terms the live 402 did not offer as listed, and the counts on the build report;
//! a snapshot without one says "not probed". The probe files here are synthetic, written
//! by the test for the embedded snapshot of 2026-08-20; the probe's own tests (probe::) make real
//! ones against loopback sellers.

use std::fs;
use std::path::{Path, PathBuf};

use crate::common::probes::{listed_term, probe_of, result_of};
use crate::common::{real_snapshot, temp_dir, TempDir};
use method::index::Index;
use method::names;
use method::probe::{Failure, Live, Offered, Outcome, Probe, ProbeResult, Term};
use method::Method;

const DATE: &str = "2026-08-20";

/// The embedded snapshot of 2026-08-20 (20 listings) stored under `snapshots/`, and its index.
fn fixture(name: &str) -> (TempDir, PathBuf, Index) {
    let dir = temp_dir(name);
    let snap = real_snapshot(DATE);
    let index = Index::build(&snap, &Method::embedded());
    let path = snap.write_into(&dir.join("snapshots"), false).unwrap();
    (dir, path, index)
}

/// The entry's listed terms, each as the live 402 answered it.
fn terms(index: &Index, id: usize, live: impl Fn(usize) -> (Live, Option<Offered>)) -> Vec<Term> {
    index.entries[id]
        .resource
        .accepts
        .iter()
        .enumerate()
        .map(|(j, a)| {
            let (live, offered) = live(j);
            listed_term(a, live, offered)
        })
        .collect()
}

fn result(index: &Index, id: usize, outcome: Outcome, terms: Vec<Term>) -> ProbeResult {
    let answer = match outcome {
        Outcome::Terms => (Some(402), None, Some(230), Some(2)),
        Outcome::Unreadable => (Some(402), None, Some(41), None),
        Outcome::OtherStatus => (Some(200), None, Some(12), None),
        Outcome::NoAnswer => (None, Some(Failure::Timeout), None, None),
    };
    result_of(&index.entries[id].resource.url, "2026-08-20T06:31:07Z", outcome, answer, terms)
}

fn write_probe(dir: &Path, results: Vec<ProbeResult>, date: &str) -> PathBuf {
    write_probe_as(dir, results, date, DATE)
}

/// A probe file of the snapshot of `date`, stored as the one of `file_date`.
fn write_probe_as(dir: &Path, results: Vec<ProbeResult>, date: &str, file_date: &str) -> PathBuf {
    let probe = probe_of(date, DATE, results);
    let path = dir.join("probes").join(format!("{file_date}.json"));
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(&path, probe.to_bytes()).unwrap();
    path
}

fn page(out: &Path, index: &Index, id: usize) -> String {
    let slug = index.entries[id].slug();
    let rel = names::resource_page(DATE, &slug);
    crate::common::html::unescape(
        &fs::read_to_string(out.join(rel.trim_start_matches('/')).join("index.html")).unwrap(),
    )
}

#[test]
fn a_probed_snapshot_says_on_each_resource_page_what_its_live_402_answered() {
    let (dir, path, index) = fixture("probe-pages");
    assert!(index.entries.len() >= 5, "the snapshot has {} entries", index.entries.len());
    let other =
        Offered { amount: Some("999".into()), pay_to: Some("0xAbC0000000000000000000000000000000000001".into()) };
    let results = vec![
        result(&index, 0, Outcome::Terms, terms(&index, 0, |_| (Live::Same, None))),
        result(
            &index,
            1,
            Outcome::Terms,
            terms(&index, 1, |j| if j == 0 { (Live::Other, Some(other.clone())) } else { (Live::Same, None) }),
        ),
        result(&index, 2, Outcome::Terms, terms(&index, 2, |_| (Live::Absent, None))),
        result(&index, 3, Outcome::NoAnswer, vec![]),
        ProbeResult { failure: Some(Failure::HostSilent), ..result(&index, 5, Outcome::NoAnswer, vec![]) },
    ];
    write_probe(&dir, results, DATE);
    let out = dir.join("public");
    publish::build(&[path], &out, &Method::embedded()).unwrap();

    let as_listed = page(&out, &index, 0);
    assert!(as_listed.contains("Probed 2026-08-20 06:31 UTC: answered 402 in 230 ms; terms as listed."), "{as_listed}");
    assert!(as_listed.contains("x402dir's probe sent only the unpaid request above"));
    assert!(!as_listed.contains("probe-differences"));

    let moved = page(&out, &index, 1);
    assert!(moved.contains("answered 402 in 230 ms; its terms differ from the listing's."), "{moved}");
    let listed = &index.entries[1].resource.accepts[0];
    let expected = format!(
        "the live 402 asks 999 atomic units to 0xAbC0000000000000000000000000000000000001; the listing says {} atomic units to {}",
        listed.amount.unwrap(),
        listed.pay_to.as_deref().unwrap()
    );
    assert!(moved.contains(&expected), "{expected}\n{moved}");
    assert_eq!(
        moved.matches("<li>").count() - as_listed.matches("<li>").count(),
        1,
        "only the differing term is listed"
    );

    let absent = page(&out, &index, 2);
    assert!(absent.contains("the live 402 offers no such payment"), "{absent}");
    let silent = page(&out, &index, 3);
    assert!(
        silent.contains("Probed 2026-08-20 06:31 UTC: no answer (nothing more within the probe's 10 s)."),
        "{silent}"
    );
    let skipped = page(&out, &index, 5);
    assert!(
        skipped
            .contains(&format!("Not asked by the probe of {DATE}: its host had let 3 requests in a row go unanswered")),
        "{skipped}"
    );
    let unprobed = page(&out, &index, 4);
    assert!(
        unprobed.contains(&format!("Not probed: the probe of {DATE} has no result for this resource.")),
        "{unprobed}"
    );
    assert!(unprobed.contains("x402dir has not called the service or checked them"));

    let report = crate::common::html::unescape(&fs::read_to_string(out.join(DATE).join("report/index.html")).unwrap());
    let count = |label: &str| {
        let at = report.find(label).unwrap_or_else(|| panic!("{label} in {report}"));
        let cell = &report[at..];
        let start = cell.find(r#"<td class="num">"#).unwrap() + r#"<td class="num">"#.len();
        cell[start..start + cell[start..].find('<').unwrap()].to_owned()
    };
    assert_eq!(count("Answered 402 with the listed terms"), "1");
    assert_eq!(count("Answered 402 with other terms"), "2");
    assert_eq!(count("Answered 402 without readable terms"), "0");
    assert_eq!(count("No answer"), "2");
    assert!(report.contains("What the probe's requests answered, of 5 probed"));
}

#[test]
fn a_snapshot_without_a_probe_says_not_probed_and_a_wrong_probe_file_is_refused() {
    let (dir, path, index) = fixture("probe-none");
    let out = dir.join("public");
    publish::build(std::slice::from_ref(&path), &out, &Method::embedded()).unwrap();
    let plain = page(&out, &index, 0);
    assert!(plain.contains("Not probed: no probe was run on this snapshot."), "{plain}");
    let report = fs::read_to_string(out.join(DATE).join("report/index.html")).unwrap();
    assert!(report.contains("Not probed: no probe was run on this snapshot."));

    // Another date's probe beside this snapshot: refused, naming the file; nothing built.
    let probe = write_probe(&dir, vec![], "2026-01-03");
    let fresh = dir.join("public-2");
    let e = publish::build(std::slice::from_ref(&path), &fresh, &Method::embedded()).unwrap_err().to_string();
    assert!(
        e.contains(&probe.display().to_string()) && e.contains("probes the snapshot of 2026-01-03, not 2026-08-20"),
        "{e}"
    );
    assert!(!fresh.join(DATE).exists());
    // A damaged one: refused with the reader's reason.
    fs::write(&probe, b"{\"probe_version\": \"1.0.0\"}").unwrap();
    let e = publish::build(std::slice::from_ref(&path), &fresh, &Method::embedded()).unwrap_err().to_string();
    assert!(e.contains("not a probe file: missing field"), "{e}");
}

#[test]
fn the_probe_file_is_published_in_the_api_and_locked_with_the_answers() {
    let (dir, path, index) = fixture("probe-api");
    let lock = dir.join("content/published.lock");
    let options = publish::Options { lock: Some(lock.clone()), ..publish::Options::default() };
    let method = Method::embedded();
    // Published unprobed: no probe.json, no probe in the manifest.
    let out = dir.join("public");
    publish::build_with(std::slice::from_ref(&path), &out, &method, &options).unwrap();
    let api = out.join(DATE).join("api");
    assert!(!api.join("probe.json").exists());
    let manifest: serde_json::Value = serde_json::from_slice(&fs::read(api.join("manifest.json")).unwrap()).unwrap();
    assert!(manifest.get("probe").is_none());

    // A probe file added afterwards would change the published answers: refused, and the
    // folder is left as it was; the lock's answers digest holds the probe.
    let written = write_probe(&dir, vec![result(&index, 0, Outcome::OtherStatus, vec![])], DATE);
    let e = publish::build_with(std::slice::from_ref(&path), &out, &method, &options).unwrap_err().to_string();
    assert!(e.contains("needs an entry") || e.contains("republish"), "{e}");
    assert!(!api.join("probe.json").exists());

    // A date probed before its first build publishes the probe file, parsed the same,
    // and its manifest points at it with the counts.
    let fresh = temp_dir("probe-api-fresh");
    let lock = fresh.join("published.lock");
    let options = publish::Options { lock: Some(lock), ..publish::Options::default() };
    let out = fresh.join("public");
    publish::build_with(std::slice::from_ref(&path), &out, &method, &options).unwrap();
    let api = out.join(DATE).join("api");
    let published = Probe::from_slice(&fs::read(api.join("probe.json")).unwrap()).unwrap();
    assert_eq!(published, Probe::read(&written).unwrap());
    let manifest: serde_json::Value = serde_json::from_slice(&fs::read(api.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["probe"]["path"], "probe.json");
    assert_eq!(manifest["probe"]["counts"]["probed"], 1);
    assert_eq!(manifest["probe"]["counts"]["other_status"], 1);
    let sums = fs::read_to_string(fresh.join("published/2026-08-20.sums")).unwrap();
    assert!(sums.lines().any(|l| l.ends_with(" api/probe.json")), "the per-file sums name it");
}

#[test]
fn a_resource_page_counts_the_probes_that_answered_402_across_snapshots() {
    let (dir, path, index) = fixture("probe-history");
    // A synthetic week-earlier walk: the same listings under the date 2026-08-13.
    let mut earlier = real_snapshot(DATE);
    earlier.header.date = "2026-08-13".into();
    let earlier_path = earlier.write_into(&dir.join("snapshots"), false).unwrap();
    let mut then = vec![
        result(&index, 0, Outcome::Terms, terms(&index, 0, |_| (Live::Same, None))),
        result(&index, 1, Outcome::OtherStatus, vec![]),
    ];
    for r in &mut then {
        r.at = "2026-08-13T06:31:07Z".into();
    }
    let probe = |results: Vec<ProbeResult>, date: &str| {
        let file = write_probe_as(&dir, results, date, date);
        let mut p = Probe::read(&file).unwrap();
        p.started = format!("{date}T06:30:00Z");
        p.finished = format!("{date}T06:40:00Z");
        fs::write(&file, p.to_bytes()).unwrap();
    };
    probe(then, "2026-08-13");
    probe(vec![result(&index, 0, Outcome::NoAnswer, vec![]), result(&index, 1, Outcome::Unreadable, vec![])], DATE);
    let out = dir.join("public");
    publish::build(&[earlier_path, path], &out, &Method::embedded()).unwrap();
    let first = page(&out, &index, 0);
    assert!(first.contains("Answered 402 in 1 of the last 2 probes that reached it"), "{first}");
    let second = page(&out, &index, 1);
    assert!(second.contains("Answered 402 in 1 of the last 2 probes that reached it"), "{second}");
    let neither = page(&out, &index, 2);
    assert!(neither.contains(r#"id="hist-h""#) && !neither.contains(r#"class="probes""#), "{neither}");
}
