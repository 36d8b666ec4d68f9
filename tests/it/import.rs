//! `x402dir import` of large generated dumps, run as a user would, under the memory
//! watchdog: a dump is read as a stream (whole, it took about 12 times its size), an
//! empty one is refused unless meant, and a snapshot written meanwhile is never replaced.
//! bench/import measures the same at 300 MB.

use std::fs;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use crate::common::memory::{self, Run};
use crate::common::{repo_root, temp_dir};
use catalogue::snapshot;
use serde_json::Value;

/// The real December items, each made distinct by its URL, repeated until the dump
/// has `bytes`: an API page `{items, pagination}` whose total is its item count.
/// Returns the dump and each item's compact text, in order, as the snapshot must hold it.
fn generated_dump(dir: &Path, bytes: u64) -> (PathBuf, Vec<String>) {
    let fixture = repo_root().join("tests/fixtures/catalogue/cdp-bazaar_2025-12-31_oops402_full.json");
    let real: Value = serde_json::from_slice(&fs::read(fixture).unwrap()).unwrap();
    let real = real["resources"].as_array().unwrap();
    let mut texts = Vec::new();
    let mut size = 0u64;
    'fill: for round in 0.. {
        for item in real {
            let mut item = item.clone();
            let url = format!("{}?copy={round}", item["resource"].as_str().unwrap_or("https://x.example/"));
            item["resource"] = url.into();
            let text = item.to_string();
            size += text.len() as u64 + 2;
            texts.push(text);
            if size >= bytes {
                break 'fill;
            }
        }
    }
    let path = dir.join("dump.json");
    let mut out = BufWriter::new(fs::File::create(&path).unwrap());
    out.write_all(b"{\"items\": [").unwrap();
    for (k, text) in texts.iter().enumerate() {
        out.write_all(if k == 0 { b"\n" } else { b",\n" }).unwrap();
        out.write_all(text.as_bytes()).unwrap();
    }
    write!(out, "\n], \"pagination\": {{\"limit\": 1000, \"offset\": 0, \"total\": {}}}}}\n", texts.len()).unwrap();
    out.flush().unwrap();
    (path, texts)
}

fn import(dump: &Path, dir: &Path, extra: &[&str]) -> Run {
    memory::run(
        Command::new(memory::x402dir_bin())
            .arg("import")
            .arg(dump)
            .args(["--date", "2026-12-01", "--dir"])
            .arg(dir)
            .args(extra),
        memory::WATCHDOG_BYTES,
        Duration::from_secs(120),
    )
}

/// Every stored item, as text, in order.
fn stored_texts(path: &Path) -> Vec<String> {
    let mut texts = Vec::new();
    snapshot::read_in_batches(path, |batch| texts.extend(batch.iter().map(|i| i.get().to_owned()))).unwrap();
    texts
}

/// 30 MB: the suite's proportional check of bench/import's 300 MB. The import's peak
/// stays under 3 times the dump's size; read whole, it was about 12 times.
#[test]
fn a_large_dump_is_imported_as_a_stream_in_bounded_memory() {
    let scratch = temp_dir("import-large");
    let (dump, texts) = generated_dump(&scratch, 30 << 20);
    let size = fs::metadata(&dump).unwrap().len();
    let dir = scratch.join("snapshots");
    let run = import(&dump, &dir, &[]);
    eprintln!("import of {} MB: {}", size >> 20, run.summary());
    assert_eq!(run.status.and_then(|s| s.code()), Some(0), "{}", run.summary());
    assert!(run.stdout.contains(&format!("imported {} items", texts.len())), "{}", run.stdout);
    assert!(run.peak < 3 * size, "{}", run.summary());
    let stored = dir.join("2026-12-01.json");
    let header = snapshot::read_header(&stored).unwrap();
    assert!(header.complete && header.item_count == texts.len(), "{header:?}");
    assert!(stored_texts(&stored) == texts, "every item stored exactly, in order");
}

#[test]
fn an_empty_dump_is_refused_unless_meant() {
    let scratch = temp_dir("import-empty");
    let dump = scratch.join("empty.json");
    fs::write(&dump, r#"{"items": [], "pagination": {"limit": 20, "offset": 0, "total": 0}}"#).unwrap();
    let dir = scratch.join("snapshots");
    let refused = import(&dump, &dir, &[]);
    assert_eq!(refused.status.and_then(|s| s.code()), Some(1), "{}", refused.summary());
    assert!(refused.stderr.contains("no items") && refused.stderr.contains("--allow-empty"), "{}", refused.stderr);
    assert!(!dir.join("2026-12-01.json").exists());
    let allowed = import(&dump, &dir, &["--allow-empty"]);
    assert_eq!(allowed.status.and_then(|s| s.code()), Some(0), "{}", allowed.summary());
    assert_eq!(snapshot::read_header(&dir.join("2026-12-01.json")).unwrap().item_count, 0);
}

/// A slow import and a quick one of the same date: the quick one, done while the slow
/// one writes, is never replaced by it, whatever the order (the check before writing
/// was passed long before the slow one's end).
#[test]
fn a_snapshot_written_during_a_slow_import_is_not_replaced() {
    let scratch = temp_dir("import-race");
    let (slow_dump, _) = generated_dump(&scratch, 30 << 20);
    let quick_dump = scratch.join("quick.json");
    fs::write(&quick_dump, r#"[{"resource": "https://quick.example/"}]"#).unwrap();
    let dir = scratch.join("snapshots");
    fs::create_dir_all(&dir).unwrap();
    let mut slow = Command::new(memory::x402dir_bin())
        .arg("import")
        .arg(&slow_dump)
        .args(["--date", "2026-12-01", "--dir"])
        .arg(&dir)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // The slow one writes its temporary file once its checks have passed.
    let started = std::time::Instant::now();
    let writing = loop {
        let names: Vec<String> =
            fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        if names.iter().any(|n| n.contains(".tmp-")) {
            break true;
        }
        if slow.try_wait().unwrap().is_some() || started.elapsed() > Duration::from_secs(60) {
            break false;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    assert!(writing, "the slow import never wrote");
    let quick = import(&quick_dump, &dir, &[]);
    assert_eq!(quick.status.and_then(|s| s.code()), Some(0), "{}", quick.summary());
    let written = fs::read(dir.join("2026-12-01.json")).unwrap();
    let slow = slow.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&slow.stderr);
    assert_eq!(slow.status.code(), Some(1), "the slow import refused: {said}");
    assert!(said.contains("already exists") && said.contains("--force"), "{said}");
    assert_eq!(fs::read(dir.join("2026-12-01.json")).unwrap(), written, "the quick import's snapshot is intact");
    let left: Vec<_> = fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(left.len(), 1, "{left:?}");
}
