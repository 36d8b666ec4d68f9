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
    import_within(dump, dir, extra, Duration::from_secs(120))
}

fn import_within(dump: &Path, dir: &Path, extra: &[&str], deadline: Duration) -> Run {
    memory::run(
        Command::new(memory::x402dir_bin())
            .arg("import")
            .arg(dump)
            .args(["--date", "2026-12-01", "--dir"])
            .arg(dir)
            .args(extra),
        memory::WATCHDOG_BYTES,
        deadline,
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

/// Every way writing can fail before the dump is read to its end ends the import with an
/// error within the deadline. A dump of more items than the reader may hold in flight
/// (256) once made each of these wait forever: the reader blocked on a writer gone.
#[test]
fn a_write_that_fails_early_ends_the_import_with_an_error() {
    let scratch = temp_dir("import-fails");
    let (dump, texts) = generated_dump(&scratch, 2 << 20);
    assert!(texts.len() > 1000, "{} items", texts.len());
    let exists = scratch.join("exists");
    fs::create_dir_all(&exists).unwrap();
    fs::write(exists.join("2026-12-01.json"), "kept").unwrap();
    let a_file = scratch.join("a-file");
    fs::write(&a_file, "").unwrap();
    let beside_gz = scratch.join("gz");
    fs::create_dir_all(&beside_gz).unwrap();
    fs::write(beside_gz.join("2026-12-01.json.gz"), "kept").unwrap();
    for (dir, why) in [(&exists, "already"), (&a_file, ""), (&beside_gz, "already")] {
        let run = import_within(&dump, dir, &[], Duration::from_secs(30));
        assert_eq!(run.status.and_then(|s| s.code()), Some(1), "{}: {}", dir.display(), run.summary());
        assert!(run.stderr.contains(why) && run.stderr.len() > 20, "{}: {}", dir.display(), run.stderr);
    }
    assert_eq!(fs::read_to_string(exists.join("2026-12-01.json")).unwrap(), "kept");
    assert_eq!(fs::read_to_string(beside_gz.join("2026-12-01.json.gz")).unwrap(), "kept");
}

/// Dumps and snapshot files that were once taken silently, or hung: each gets an error
/// that names what is wrong, and nothing is stored.
#[test]
fn odd_files_are_read_or_refused_with_what_is_wrong() {
    let scratch = temp_dir("import-odd");
    let dir = scratch.join("snapshots");
    let item = r#"{"resource": "https://a.example/w", "accepts": [{"network": "base", "maxAmountRequired": "10"}]}"#;
    let code = |run: &Run| run.status.and_then(|s| s.code());
    let within = |dump: &Path| import_within(dump, &dir, &[], Duration::from_secs(30));

    // A byte-order mark is read past, and said.
    let bom = scratch.join("bom.json");
    fs::write(&bom, format!("\u{feff}[{item}]")).unwrap();
    let run = within(&bom);
    assert_eq!(code(&run), Some(0), "{}", run.summary());
    let header = snapshot::read_header(&dir.join("2026-12-01.json")).unwrap();
    assert!(header.notes.iter().any(|n| n.contains("byte-order mark")), "{:?}", header.notes);
    fs::remove_file(dir.join("2026-12-01.json")).unwrap();

    // One key twice in an item: refused, the key named.
    let twice = scratch.join("twice.json");
    fs::write(&twice, r#"[{"resource": "https://a.example/w", "accepts": [{"payTo": "0xa", "payTo": "0xb"}]}]"#)
        .unwrap();
    let run = within(&twice);
    assert_eq!(code(&run), Some(1), "{}", run.summary());
    assert!(run.stderr.contains("`payTo` twice"), "{}", run.stderr);

    // Items without a URL, whatever the header says: nothing to rank, refused.
    let no_urls = scratch.join("no-urls.json");
    fs::write(&no_urls, r#"{"items": [{"x": 1}, {"x": 2}, {"x": 3}], "pagination": {"offset": 0, "total": 3}}"#)
        .unwrap();
    let run = within(&no_urls);
    assert_eq!(code(&run), Some(1), "{}", run.summary());
    assert!(
        run.stderr.contains("none of the dump's 3 items") && run.stderr.contains("--allow-empty"),
        "{}",
        run.stderr
    );

    // A pipe: the import reads a dump twice, so it is refused at once, not half-read.
    let fifo = scratch.join("pipe.json");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    let run = within(&fifo);
    assert_eq!(code(&run), Some(1), "{}", run.summary());
    assert!(run.stderr.contains("not a regular file"), "{}", run.stderr);
    assert!(!dir.join("2026-12-01.json").exists());

    // As a snapshot, a pipe is refused by the build too (opening it waited for a writer).
    let build = memory::run(
        Command::new(memory::x402dir_bin())
            .arg("build")
            .arg("--snapshot")
            .arg(&fifo)
            .arg("--out")
            .arg(scratch.join("out")),
        memory::WATCHDOG_BYTES,
        Duration::from_secs(30),
    );
    assert_eq!(code(&build), Some(1), "{}", build.summary());
    assert!(build.stderr.contains("not a regular file"), "{}", build.stderr);

    // A .gz snapshot with bytes after its gzip stream: refused, the offset named.
    fs::write(&twice, format!("[{item}]")).unwrap();
    let run = within(&twice);
    assert_eq!(code(&run), Some(0), "{}", run.summary());
    let stored = fs::read(dir.join("2026-12-01.json")).unwrap();
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(&stored).unwrap();
    let mut bytes = gz.finish().unwrap();
    let end = bytes.len();
    bytes.extend_from_slice(b"garbage");
    let gz_dir = scratch.join("gz");
    fs::create_dir_all(&gz_dir).unwrap();
    fs::write(gz_dir.join("2026-12-01.json.gz"), &bytes).unwrap();
    let err = snapshot::read_header(&gz_dir.join("2026-12-01.json.gz")).unwrap_err().to_string();
    assert!(err.contains(&format!("from byte {end}")), "{err}");
    // A snapshot file that an editor gave a byte-order mark: said so.
    let mut marked = "\u{feff}".as_bytes().to_vec();
    marked.extend_from_slice(&stored);
    fs::write(gz_dir.join("2026-12-02.json"), marked).unwrap();
    let err = snapshot::read_header(&gz_dir.join("2026-12-02.json")).unwrap_err().to_string();
    assert!(err.contains("byte-order mark"), "{err}");
}
