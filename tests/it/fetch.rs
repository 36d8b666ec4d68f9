//! `x402dir fetch` against a discovery API on loopback serving the real December dump
//! page by page, with injected faults, and against hostile servers that lie or never
//! stop (peak memory measured). No test touches the internet.

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

use crate::common::catalogue_server::{Action, CatalogueServer};
use crate::common::hostile_server::{write_forever, Asked, HostileServer};
use crate::common::memory::{self, Run};
use crate::common::{repo_root, temp_dir, TempDir};
use catalogue::fetch::{fetch, FetchRequest, Progress, WalkConfig};
use catalogue::snapshot::Snapshot;
use serde_json::{json, Value};

/// A script helper: true for the first `n` requests of `offset`, false after.
fn first_tries(n: usize) -> impl Fn(u64, u64) -> bool + Send + Sync {
    let seen = std::sync::Mutex::new(std::collections::HashMap::<u64, usize>::new());
    move |offset, wanted| {
        if offset != wanted {
            return false;
        }
        let mut seen = seen.lock().unwrap();
        let count = seen.entry(offset).or_default();
        *count += 1;
        *count <= n
    }
}

fn real_items() -> Vec<Value> {
    let path = repo_root().join("tests/fixtures/catalogue/cdp-bazaar_2025-12-31_oops402_full.json");
    let v: Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
    v["resources"].as_array().unwrap().clone()
}

fn request(server: &CatalogueServer, dir: &Path) -> FetchRequest {
    FetchRequest {
        config: WalkConfig {
            base_url: server.base_url.clone(),
            page_size: 100,
            concurrency: 2,
            min_interval: Duration::ZERO,
            request_timeout: Duration::from_millis(800),
            walk_timeout: Duration::from_secs(60),
            max_tries: 4,
            backoff_base: Duration::from_millis(5),
            backoff_max: Duration::from_millis(40),
            max_retry_after: Duration::from_secs(5),
            ..WalkConfig::default()
        },
        date: "2026-12-01".into(),
        dir: dir.to_path_buf(),
        overwrite: false,
        allow_incomplete: false,
    }
}

fn snapshot_dir(name: &str) -> TempDir {
    let dir = temp_dir(name).at("snapshots");
    fs::create_dir_all(&dir).unwrap();
    // An existing snapshot that no failure may touch.
    fs::write(dir.join("2025-01-01.json"), b"previous snapshot bytes").unwrap();
    dir
}

fn assert_untouched(dir: &Path) {
    assert_eq!(fs::read(dir.join("2025-01-01.json")).unwrap(), b"previous snapshot bytes");
    assert!(!dir.join("2026-12-01.json").exists(), "a failed walk wrote a snapshot");
    let stray: Vec<_> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.contains(".tmp"))
        .collect();
    assert!(stray.is_empty(), "{stray:?}");
}

fn stored(dir: &Path) -> Snapshot {
    Snapshot::read(&dir.join("2026-12-01.json")).unwrap()
}

#[test]
fn a_clean_walk_stores_every_item_exactly_and_completely() {
    let items = real_items();
    let server = CatalogueServer::start(items.clone(), |_| Action::Serve);
    let dir = snapshot_dir("fetch-clean");
    let (path, report) = fetch(&request(&server, &dir), &Progress::Quiet).unwrap();
    assert_eq!(path, dir.join("2026-12-01.json"));
    let snap = stored(&dir);
    assert_eq!(snap.items, items, "items are stored exactly as served, in catalogue order");
    assert!(snap.header.complete);
    assert_eq!(snap.header.reported_total, Some(1400));
    assert_eq!(snap.header.source.via, "walk");
    assert_eq!(report.pages, 14);
    assert_eq!((report.retries, report.duplicates), (0, 0));
    let log = server.log.lock().unwrap();
    assert_eq!(log.len(), 14);
    assert!(log.iter().all(|(limit, offset, ua)| *limit == 100 && offset % 100 == 0 && ua.starts_with("x402dir/")));
    assert!(!dir.join(".walk-2026-12-01.jsonl").exists(), "checkpoint removed after success");
}

#[test]
fn page_size_follows_the_api_rounding() {
    let server = CatalogueServer::start(real_items(), |_| Action::Serve);
    let dir = snapshot_dir("fetch-rounding");
    let mut req = request(&server, &dir);
    req.config.page_size = 333; // the API would use 330
    let (_, report) = fetch(&req, &Progress::Quiet).unwrap();
    assert!(report.complete);
    assert!(server.log.lock().unwrap().iter().all(|(limit, offset, _)| *limit == 330 && offset % 330 == 0));
}

#[test]
fn rate_limits_are_honoured_with_retry_after() {
    let limited = first_tries(1);
    let server = CatalogueServer::start(real_items(), move |r| {
        if limited(r.offset, 300) {
            Action::Status { code: 429, headers: vec![("Retry-After".into(), "1".into())], body: "slow down".into() }
        } else {
            Action::Serve
        }
    });
    let dir = snapshot_dir("fetch-429");
    let started = std::time::Instant::now();
    let (_, report) = fetch(&request(&server, &dir), &Progress::Quiet).unwrap();
    assert!(report.complete && report.retries >= 1);
    assert!(started.elapsed() >= Duration::from_secs(1), "waited as Retry-After asked");
    assert_eq!(stored(&dir).items.len(), 1400);
}

#[test]
fn a_retry_after_beyond_the_allowed_wait_fails_clearly() {
    let server = CatalogueServer::start(real_items(), |r| {
        if r.offset == 500 {
            Action::Status { code: 429, headers: vec![("Retry-After".into(), "3600".into())], body: String::new() }
        } else {
            Action::Serve
        }
    });
    let dir = snapshot_dir("fetch-429-long");
    let err = fetch(&request(&server, &dir), &Progress::Quiet).unwrap_err().to_string();
    assert!(err.contains("offset 500") && err.contains("asks to wait 3600 s"), "{err}");
    assert_untouched(&dir);
}

#[test]
fn server_errors_dropped_connections_and_cut_bodies_are_retried() {
    let (busy, dropped, cut) = (first_tries(2), first_tries(2), first_tries(2));
    let server = CatalogueServer::start(real_items(), move |r| {
        if busy(r.offset, 500) {
            Action::Status { code: 503, headers: vec![], body: "busy".into() }
        } else if dropped(r.offset, 600) {
            Action::Drop
        } else if cut(r.offset, 700) {
            Action::Truncate
        } else {
            Action::Serve
        }
    });
    let dir = snapshot_dir("fetch-transient");
    let mut req = request(&server, &dir);
    req.config.max_tries = 6;
    let (_, report) = fetch(&req, &Progress::Quiet).unwrap();
    assert!(report.complete, "{}", report.summary());
    assert_eq!(report.retries, 6, "{}", report.summary());
    assert_eq!(stored(&dir).items, real_items());
}

#[test]
fn persistent_truncation_gives_up_with_the_reason_and_stores_nothing() {
    let server =
        CatalogueServer::start(real_items(), |r| if r.offset == 700 { Action::Truncate } else { Action::Serve });
    let dir = snapshot_dir("fetch-truncated");
    let err = fetch(&request(&server, &dir), &Progress::Quiet).unwrap_err().to_string();
    assert!(
        err.contains("offset 700")
            && err.contains("gave up after 4 tries")
            && err.contains("truncated or invalid JSON"),
        "{err}"
    );
    assert_untouched(&dir);
}

#[test]
fn a_page_slower_than_the_timeout_is_retried_then_abandoned() {
    // Slow once: retried and completed.
    let slow = first_tries(1);
    let server = CatalogueServer::start(real_items(), move |r| {
        if slow(r.offset, 200) {
            Action::Delay(Duration::from_millis(1500))
        } else {
            Action::Serve
        }
    });
    let dir = snapshot_dir("fetch-slow-once");
    let (_, report) = fetch(&request(&server, &dir), &Progress::Quiet).unwrap();
    assert!(report.complete && report.retries >= 1);
    // Always slow: gives up saying it timed out.
    let server = CatalogueServer::start(real_items(), |r| {
        if r.offset == 200 {
            Action::Delay(Duration::from_millis(1500))
        } else {
            Action::Serve
        }
    });
    let dir = snapshot_dir("fetch-slow-always");
    let err = fetch(&request(&server, &dir), &Progress::Quiet).unwrap_err().to_string();
    assert!(err.contains("offset 200") && err.contains("timed out"), "{err}");
    assert_untouched(&dir);
}

#[test]
fn the_whole_walk_has_a_deadline() {
    let server = CatalogueServer::start(real_items(), |_| Action::Delay(Duration::from_millis(300)));
    let dir = snapshot_dir("fetch-deadline");
    let mut req = request(&server, &dir);
    req.config.walk_timeout = Duration::from_millis(700);
    let err = fetch(&req, &Progress::Quiet).unwrap_err().to_string();
    assert!(err.contains("longer than") && err.contains("resume"), "{err}");
    assert_untouched(&dir);
}

#[test]
fn a_total_that_grows_mid_walk_is_followed_to_the_end() {
    let items = real_items();
    let mut grown = items.clone();
    for i in 0..50 {
        grown.push(
            json!({"resource": format!("https://new.example/{i}"), "type": "http", "x402Version": 2, "accepts": []}),
        );
    }
    let grown_for_server = grown.clone();
    let server = CatalogueServer::start(items, move |r| {
        if r.index >= 5 {
            Action::ServeFrom { items: grown_for_server.clone(), total: 1450 }
        } else {
            Action::Serve
        }
    });
    let dir = snapshot_dir("fetch-grow");
    let (_, report) = fetch(&request(&server, &dir), &Progress::Quiet).unwrap();
    assert_eq!(report.totals, vec![1400, 1450]);
    assert!(report.complete, "{}", report.summary());
    let snap = stored(&dir);
    assert_eq!(snap.items, grown);
    assert_eq!(snap.header.reported_total, Some(1450));
    assert!(snap.header.notes.iter().any(|n| n.contains("1400 → 1450")), "{:?}", snap.header.notes);
}

#[test]
fn a_page_repeating_items_is_never_stored_as_complete() {
    let items = real_items();
    let repeated = items.clone();
    let server = CatalogueServer::start(items, move |r| {
        if r.offset == 200 {
            // The API's cache serves the previous page again.
            let mut page_items = repeated.clone();
            page_items.splice(200..300, repeated[100..200].iter().cloned());
            Action::ServeFrom { items: page_items, total: 1400 }
        } else {
            Action::Serve
        }
    });
    let dir = snapshot_dir("fetch-repeat");
    let err = fetch(&request(&server, &dir), &Progress::Quiet).unwrap_err().to_string();
    assert!(
        err.contains("incomplete") && err.contains("100 identical items") && err.contains("1300 distinct items"),
        "{err}"
    );
    assert_untouched(&dir);
    // Asked to, it stores the walk marked incomplete, with the reasons.
    let mut req = request(&server, &dir);
    req.allow_incomplete = true;
    let (_, report) = fetch(&req, &Progress::Quiet).unwrap();
    assert_eq!((report.duplicates, report.items), (100, 1300));
    let snap = stored(&dir);
    assert!(!snap.header.complete);
    assert!(snap.header.notes.iter().any(|n| n.contains("incomplete")));
}

/// Every item served, under a `pagination.total` of the script's choosing: a catalogue
/// that lies about its size while every page is full.
fn all_items_under(total: u64) -> Action {
    Action::ServeFrom { items: real_items(), total }
}

#[test]
fn a_total_that_goes_down_is_never_stored_as_complete() {
    // Every page is full and every item distinct, but pages asked for after 1400 was
    // read say 1399: a listing left mid-walk, and one added meanwhile could make the
    // count add up with a listing skipped (content/method.md#limits).
    let start =
        || CatalogueServer::start(real_items(), |r| if r.index >= 6 { all_items_under(1399) } else { Action::Serve });
    let server = start();
    let dir = snapshot_dir("fetch-shrink");
    let err = fetch(&request(&server, &dir), &Progress::Quiet).unwrap_err().to_string();
    assert!(err.contains("incomplete") && err.contains("went down") && err.contains("1400, then 1399"), "{err}");
    assert_untouched(&dir);
    assert!(!dir.join(".walk-2026-12-01.jsonl").exists(), "a moved catalogue is not resumed");
    // Asked to, it stores the walk marked incomplete.
    let server = start();
    let mut req = request(&server, &dir);
    req.allow_incomplete = true;
    let (_, report) = fetch(&req, &Progress::Quiet).unwrap();
    assert!(!report.complete && report.items == 1400, "{}", report.summary());
    let snap = stored(&dir);
    assert!(!snap.header.complete);
    assert!(snap.header.notes.iter().any(|n| n.contains("went down")), "{:?}", snap.header.notes);
}

#[test]
fn a_total_that_flips_past_the_tolerance_stops_the_walk() {
    // 1400 and 20 by turns, every page full: the highest total is covered, yet the
    // catalogue never said one thing.
    let server =
        CatalogueServer::start(real_items(), |r| if r.index % 2 == 1 { all_items_under(20) } else { Action::Serve });
    let dir = snapshot_dir("fetch-flip");
    let mut req = request(&server, &dir);
    req.allow_incomplete = true;
    let err = fetch(&req, &Progress::Quiet).unwrap_err().to_string();
    assert!(err.contains("moved from 1400 to 20") && err.contains("more than the 100 allowed"), "{err}");
    assert_untouched(&dir);
    assert!(!dir.join(".walk-2026-12-01.jsonl").exists(), "a moved catalogue is not resumed");
}

#[test]
fn a_total_that_shrinks_past_the_tolerance_stops_the_walk() {
    let server =
        CatalogueServer::start(real_items(), |r| if r.index >= 3 { all_items_under(1200) } else { Action::Serve });
    let dir = snapshot_dir("fetch-shrink-far");
    let err = fetch(&request(&server, &dir), &Progress::Quiet).unwrap_err().to_string();
    assert!(err.contains("moved from 1400 to 1200") && err.contains("more than the 100 allowed"), "{err}");
    assert_untouched(&dir);
}

fn redirect_to(location: String) -> Action {
    Action::Status { code: 302, headers: vec![("Location".into(), location)], body: String::new() }
}

#[test]
fn a_redirect_to_another_host_is_refused_naming_both() {
    let elsewhere = CatalogueServer::start(real_items(), |_| Action::Serve);
    let target = elsewhere.base_url.clone();
    let server = CatalogueServer::start(real_items(), move |r| {
        redirect_to(format!("{}?limit={}&offset={}", target.replace("127.0.0.1", "localhost"), r.limit, r.offset))
    });
    let dir = snapshot_dir("fetch-redirect-host");
    let err = fetch(&request(&server, &dir), &Progress::Quiet).unwrap_err().to_string();
    let (from, to) = (server.base_url.split('/').nth(2).unwrap(), elsewhere.base_url.split('/').nth(2).unwrap());
    let to = to.replace("127.0.0.1", "localhost");
    assert!(err.contains("offset 0") && err.contains(from) && err.contains(&to) && err.contains("same host"), "{err}");
    assert_eq!(elsewhere.log.lock().unwrap().len(), 0, "the other host was never asked");
    assert_eq!(server.log.lock().unwrap().len(), 1, "refused, not retried");
    assert_untouched(&dir);
}

#[test]
fn a_redirect_to_a_file_says_where_it_pointed() {
    for location in ["file:///etc/passwd", "ftp://127.0.0.1/items.json"] {
        let server = CatalogueServer::start(real_items(), move |_| redirect_to(location.into()));
        let dir = snapshot_dir("fetch-redirect-file");
        let err = fetch(&request(&server, &dir), &Progress::Quiet).unwrap_err().to_string();
        assert!(err.contains("offset 0") && err.contains(location) && err.contains("http or https"), "{err}");
        assert_eq!(server.log.lock().unwrap().len(), 1, "refused, not retried");
        assert_untouched(&dir);
    }
}

#[test]
fn redirects_within_the_host_are_followed_a_few_hops_only() {
    // One hop on the same host, to a moved path: followed, and the walk is stored.
    let moved = CatalogueServer::start(real_items(), |r| {
        if r.path == "/moved" {
            Action::Serve
        } else {
            redirect_to(format!("/moved?limit={}&offset={}", r.limit, r.offset))
        }
    });
    let dir = snapshot_dir("fetch-redirect-same");
    let (_, report) = fetch(&request(&moved, &dir), &Progress::Quiet).unwrap();
    assert!(report.complete, "{}", report.summary());
    assert_eq!(stored(&dir).items, real_items());
    // A redirect that never ends: stopped after a few hops, saying so.
    let looping =
        CatalogueServer::start(real_items(), |r| redirect_to(format!("/again?limit={}&offset={}", r.limit, r.offset)));
    let dir = snapshot_dir("fetch-redirect-loop");
    let err = fetch(&request(&looping, &dir), &Progress::Quiet).unwrap_err().to_string();
    assert!(err.contains("offset 0") && err.contains("more than 3 redirects"), "{err}");
    assert_eq!(looping.log.lock().unwrap().len(), 4, "the first request and 3 hops");
    assert_untouched(&dir);
}

#[test]
fn an_interrupted_walk_resumes_from_its_checkpoint() {
    let items = real_items();
    // One endpoint that fails at offset 900 until it is mended.
    let mended = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let m = mended.clone();
    let server = CatalogueServer::start(items.clone(), move |r| {
        if r.offset == 900 && !m.load(std::sync::atomic::Ordering::SeqCst) {
            Action::Status { code: 500, headers: vec![], body: String::new() }
        } else {
            Action::Serve
        }
    });
    let dir = snapshot_dir("fetch-resume");
    let err = fetch(&request(&server, &dir), &Progress::Quiet).unwrap_err().to_string();
    assert!(err.contains("offset 900"), "{err}");
    assert_untouched(&dir);
    assert!(dir.join(".walk-2026-12-01.jsonl").exists(), "checkpoint kept for resuming");
    // Simulate a crash mid-write: a damaged last line is ignored.
    let mut checkpoint = fs::read(dir.join(".walk-2026-12-01.jsonl")).unwrap();
    checkpoint.extend_from_slice(b"{\"offset\": 1300, \"total\": 14");
    fs::write(dir.join(".walk-2026-12-01.jsonl"), checkpoint).unwrap();

    mended.store(true, std::sync::atomic::Ordering::SeqCst);
    let before = server.log.lock().unwrap().len();
    let (_, report) = fetch(&request(&server, &dir), &Progress::Quiet).unwrap();
    assert!(report.pages_resumed >= 1, "{}", report.summary());
    let fetched_again = server.log.lock().unwrap().len() - before;
    assert_eq!(fetched_again, 14 - report.pages_resumed, "only the missing pages are fetched again");
    assert_eq!(stored(&dir).items, items);
    assert!(!dir.join(".walk-2026-12-01.jsonl").exists());
}

#[test]
fn a_damaged_checkpoint_line_is_cut_before_more_pages_follow_it() {
    // Three walks, one page at a time: the first stops at offset 900, and the process
    // is taken to have died mid-write (a cut last line); the second resumes, adds pages
    // 900 to 1200 and stops at 1300. Its pages must not follow the cut line, or the
    // third walk would lose them and fetch them again.
    let items = real_items();
    let phase = std::sync::Arc::new(std::sync::atomic::AtomicU64::new(900));
    let p = phase.clone();
    let server = CatalogueServer::start(items.clone(), move |r| {
        if r.offset == p.load(std::sync::atomic::Ordering::SeqCst) {
            Action::Status { code: 404, headers: vec![], body: String::new() }
        } else {
            Action::Serve
        }
    });
    let dir = snapshot_dir("fetch-resume-damaged");
    let checkpoint = dir.join(".walk-2026-12-01.jsonl");
    let mut req = request(&server, &dir);
    req.config.concurrency = 1;
    assert!(fetch(&req, &Progress::Quiet).is_err());
    let mut bytes = fs::read(&checkpoint).unwrap();
    bytes.extend_from_slice(b"{\"offset\": 1300, \"total\": 14");
    fs::write(&checkpoint, bytes).unwrap();
    phase.store(1300, std::sync::atomic::Ordering::SeqCst);
    assert!(fetch(&req, &Progress::Quiet).is_err());
    phase.store(u64::MAX, std::sync::atomic::Ordering::SeqCst);
    let before = server.log.lock().unwrap().len();
    let (_, report) = fetch(&req, &Progress::Quiet).unwrap();
    let fetched_again = server.log.lock().unwrap().len() - before;
    assert_eq!((report.pages_resumed, fetched_again), (13, 1), "{}", report.summary());
    assert_eq!(stored(&dir).items, items);
}

#[test]
fn a_client_error_is_not_retried() {
    let server = CatalogueServer::start(real_items(), |_| Action::Status {
        code: 404,
        headers: vec![],
        body: "no such endpoint".into(),
    });
    let dir = snapshot_dir("fetch-404");
    let err = fetch(&request(&server, &dir), &Progress::Quiet).unwrap_err().to_string();
    assert!(err.contains("HTTP 404") && err.contains("no such endpoint"), "{err}");
    assert_eq!(server.log.lock().unwrap().len(), 1);
    assert_untouched(&dir);
}

#[test]
fn an_existing_snapshot_is_refused_before_any_request() {
    let server = CatalogueServer::start(real_items(), |_| Action::Serve);
    let dir = snapshot_dir("fetch-exists");
    fs::write(dir.join("2026-12-01.json"), b"keep me").unwrap();
    let err = fetch(&request(&server, &dir), &Progress::Quiet).unwrap_err().to_string();
    assert!(err.contains("--force"), "{err}");
    assert_eq!(server.log.lock().unwrap().len(), 0);
    assert_eq!(fs::read(dir.join("2026-12-01.json")).unwrap(), b"keep me");
}

#[test]
fn the_cli_prints_a_summary_and_plain_progress_lines() {
    let server = CatalogueServer::start(real_items(), |_| Action::Serve);
    let dir = snapshot_dir("fetch-cli");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_x402dir"))
        .args([
            "fetch",
            "--base-url",
            &server.base_url,
            "--date",
            "2026-12-01",
            "--page-size",
            "200",
            "--rate-ms",
            "0",
            "--dir",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stdout.contains("walked 1400 items in 7 pages") && stdout.contains("complete"), "{stdout}");
    assert!(stdout.contains("wrote "), "{stdout}");
    // Not a terminal: plain lines, no progress-bar control characters.
    assert!(stderr.lines().filter(|l| l.starts_with("page ")).count() >= 6, "{stderr}");
    assert!(!stderr.contains('\u{1b}'));
}

// Hostile catalogues: the real binary walks a loopback server that lies or never stops,
// under a watchdog that kills it past 1 GB. Each must end in a clear error within its
// bounds (memory under 512 MB) and leave the snapshot folder as it was.

/// Memory a walk may use against any hostile server.
const HOSTILE_PEAK: u64 = 512 << 20;

/// Walks `server` with the binary into a folder holding a real snapshot, and checks
/// what every hostile walk must do: fail (exit 1) under the memory bound, the stored
/// snapshot byte-identical and no other file left but the files `left` names.
fn hostile_walk(name: &str, server: &HostileServer, walk_timeout_secs: u64, left: &[&str]) -> Run {
    let dir = temp_dir(name).at("snapshots");
    fs::create_dir_all(&dir).unwrap();
    let kept = fs::read(repo_root().join("content/snapshots/2025-12-18.json")).unwrap();
    fs::write(dir.join("2025-12-18.json"), &kept).unwrap();
    let run = memory::run(
        Command::new(memory::x402dir_bin())
            .args(["fetch", "--base-url", &server.base_url, "--date", "2026-12-01", "--page-size", "20"])
            .args(["--rate-ms", "0", "--timeout-secs", "10", "--max-tries", "2", "--quiet"])
            .args(["--walk-timeout-secs", &walk_timeout_secs.to_string(), "--dir"])
            .arg(&*dir),
        memory::WATCHDOG_BYTES,
        Duration::from_secs(walk_timeout_secs + 30),
    );
    eprintln!("{name}: {}", run.summary());
    assert!(!run.over_memory && !run.over_time, "{name}: {}", run.summary());
    assert_eq!(run.status.and_then(|s| s.code()), Some(1), "{name}: {}", run.summary());
    assert!(run.peak < HOSTILE_PEAK, "{name}: {}", run.summary());
    assert!(!run.stdout.contains("wrote"), "{name}: {}", run.stdout);
    assert_eq!(fs::read(dir.join("2025-12-18.json")).unwrap(), kept, "{name}: the stored snapshot changed");
    let mut names: Vec<String> =
        fs::read_dir(&*dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    let mut expected: Vec<String> = ["2025-12-18.json"].iter().chain(left).map(|s| s.to_string()).collect();
    expected.sort();
    assert_eq!(names, expected, "{name}: files left in the snapshot folder");
    run
}

/// A valid page of one item for the request, reporting `total`.
fn one_item_page(asked: &Asked, total: u64) -> String {
    let (limit, offset) = (asked.param("limit"), asked.param("offset"));
    let body = json!({"items": [{"resource": format!("https://h.example/{offset}")}],
                      "pagination": {"limit": limit, "offset": offset, "total": total}})
    .to_string();
    format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len())
}

#[test]
fn a_total_of_ten_to_the_fifteen_is_refused_at_once() {
    let server = HostileServer::start(|asked, stream| stream.write_all(one_item_page(asked, 10u64.pow(15)).as_bytes()));
    let run = hostile_walk("fetch-hostile-total", &server, 20, &[]);
    assert!(
        run.stderr.contains("pagination.total is 1000000000000000") && run.stderr.contains("5000000"),
        "{}",
        run.summary()
    );
    assert!(run.elapsed < Duration::from_secs(10), "{}", run.summary());
    assert_eq!(server.requests.load(std::sync::atomic::Ordering::SeqCst), 1, "refused, not retried");
}

#[test]
fn the_walk_deadline_holds_against_a_total_at_the_cap() {
    // 200,000 items in pages of 20: 10,000 requests (the cap on pages), each answered
    // after 5 ms, more than 3 s allow.
    let server = HostileServer::start(|asked, stream| {
        std::thread::sleep(Duration::from_millis(5));
        stream.write_all(one_item_page(asked, 200_000).as_bytes())
    });
    let run = hostile_walk("fetch-hostile-deadline", &server, 3, &[".walk-2026-12-01.jsonl"]);
    assert!(run.stderr.contains("longer than 3 s") && run.stderr.contains("resume"), "{}", run.summary());
    assert!(run.elapsed < Duration::from_secs(8), "the deadline held: {}", run.summary());
}

#[test]
fn an_endless_chunked_body_is_stopped_at_the_page_limit() {
    let server = HostileServer::start(|_, stream| {
        stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")?;
        let chunk = format!("{:x}\r\n{}\r\n", 1 << 16, "[".repeat(1 << 16));
        write_forever(stream, chunk.as_bytes(), u64::MAX)
    });
    let run = hostile_walk("fetch-hostile-chunked", &server, 20, &[]);
    assert!(run.stderr.contains("passed the 67108864 bytes allowed"), "{}", run.summary());
}

#[test]
fn a_body_without_a_length_is_stopped_at_the_page_limit() {
    let server = HostileServer::start(|_, stream| {
        stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n")?;
        write_forever(stream, &[b' '; 1 << 16], u64::MAX)
    });
    let run = hostile_walk("fetch-hostile-no-length", &server, 20, &[]);
    assert!(run.stderr.contains("passed the 67108864 bytes allowed"), "{}", run.summary());
}

#[test]
fn a_two_gigabyte_error_body_is_quoted_from_its_start_only() {
    let server = HostileServer::start(|_, stream| {
        stream.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 2147483648\r\n\r\nno such page ")?;
        write_forever(stream, &[b'x'; 1 << 16], 2 << 30)
    });
    let run = hostile_walk("fetch-hostile-404", &server, 20, &[]);
    assert!(run.stderr.contains("HTTP 404") && run.stderr.contains("no such page xxx"), "{}", run.summary());
    assert!(run.stderr.len() < 1000, "the error quotes the start only: {}", run.summary());
}

#[test]
fn a_page_of_millions_of_tiny_values_is_refused_before_parsing() {
    // 60 MB, under the byte limit, that would parse into gigabytes of JSON values.
    let server = HostileServer::start(|asked, stream| {
        let values = 30 << 20;
        let head = format!(
            "{{\"pagination\":{{\"limit\":{},\"offset\":{},\"total\":1}},\"items\":[[",
            asked.param("limit"),
            asked.param("offset")
        );
        let length = head.len() + values * 2 - 1 + 3;
        write!(stream, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n{head}0")?;
        write_forever(stream, &b",0".repeat(1 << 15), (values as u64 - 1) * 2)?;
        stream.write_all(b"]]}")
    });
    let run = hostile_walk("fetch-hostile-values", &server, 20, &[]);
    assert!(run.stderr.contains("JSON values is more than the 2000000 allowed"), "{}", run.summary());
}

#[test]
fn a_total_needing_more_pages_than_the_cap_is_refused_at_once() {
    // 1,000,000 items in pages of 20: 50,000 pages, past the cap of 10,000.
    let server = HostileServer::start(|asked, stream| stream.write_all(one_item_page(asked, 1_000_000).as_bytes()));
    let run = hostile_walk("fetch-hostile-pages", &server, 20, &[]);
    assert!(run.stderr.contains("50000 pages") && run.stderr.contains("cap of 10000 pages"), "{}", run.summary());
    assert!(run.elapsed < Duration::from_secs(10), "{}", run.summary());
    assert_eq!(server.requests.load(std::sync::atomic::Ordering::SeqCst), 1, "refused, not retried");
}

/// An answer of `items` for the request, reporting `total`.
fn page_answer(asked: &Asked, items: Vec<Value>, total: u64) -> String {
    let body = json!({"items": items,
                      "pagination": {"limit": asked.param("limit"), "offset": asked.param("offset"), "total": total}})
    .to_string();
    format!("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}", body.len())
}

#[test]
fn a_total_growing_by_a_page_on_every_page_stops_at_the_tolerance() {
    // Every page is full (20 items of 50 KB) and says the catalogue holds one page more
    // than it reaches. Followed, the walk would never end; it stops once the total has
    // moved more than the tolerance (100 listings) from the first page's 40.
    let filler = std::sync::Arc::new("g".repeat(50_000));
    let server = HostileServer::start(move |asked, stream| {
        let (limit, offset) = (asked.param("limit"), asked.param("offset"));
        let items = (offset..offset + limit)
            .map(|i| json!({"resource": format!("https://g.example/{i}"), "description": *filler}))
            .collect();
        stream.write_all(page_answer(asked, items, offset + 2 * limit).as_bytes())
    });
    let run = hostile_walk("fetch-hostile-growing", &server, 60, &[]);
    assert!(
        run.stderr.contains("moved from 40 to 160") && run.stderr.contains("more than the 100 allowed"),
        "{}",
        run.summary()
    );
    assert!(server.requests.load(std::sync::atomic::Ordering::SeqCst) <= 8, "{}", run.summary());
}

#[test]
fn pages_of_fifty_megabyte_descriptions_stop_at_the_byte_cap() {
    // Each page holds one item whose description is 50 MB, under the 64 MB a page may
    // be, of a catalogue said to hold 200,000 (10,000 pages, the cap). The walk keeps
    // pages on disk, not in memory, and stops at the cap of 1 GiB of pages.
    let description = std::sync::Arc::new("d".repeat(50 << 20));
    let server = HostileServer::start(move |asked, stream| {
        let (limit, offset) = (asked.param("limit"), asked.param("offset"));
        let head = format!(
            "{{\"pagination\":{{\"limit\":{limit},\"offset\":{offset},\"total\":200000}},\
             \"items\":[{{\"resource\":\"https://d.example/{offset}\",\"description\":\""
        );
        let tail = "\"}]}";
        let length = head.len() + description.len() + tail.len();
        write!(stream, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {length}\r\n\r\n{head}")?;
        stream.write_all(description.as_bytes())?;
        stream.write_all(tail.as_bytes())
    });
    let run = hostile_walk("fetch-hostile-fifty", &server, 120, &[]);
    assert!(run.stderr.contains("cap of 1073741824 bytes"), "{}", run.summary());
}

/// An item holding one key twice is refused by the walk as by the import, the key
/// named: serde_json kept the last silently, and two readers could read two listings.
#[test]
fn an_item_with_a_key_twice_stops_the_walk_naming_it() {
    let body = r#"{"items": [{"resource": "https://a.example/w", "resource": "https://b.example/w"}], "pagination": {"limit": 100, "offset": 0, "total": 1}}"#;
    let server = CatalogueServer::start(real_items(), move |_| Action::Status {
        code: 200,
        headers: vec![("Content-Type".into(), "application/json".into())],
        body: body.into(),
    });
    let dir = snapshot_dir("fetch-duplicate-key");
    let err = fetch(&request(&server, &dir), &Progress::Quiet).unwrap_err().to_string();
    assert!(err.contains("`resource` twice"), "{err}");
    assert_untouched(&dir);
}
