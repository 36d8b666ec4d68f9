//! Incremental builds (publish::incremental, docs/deploy.md#incremental-builds): a dated
//! folder whose inputs have not changed is kept, one whose inputs changed in any way is
//! rendered again, and what an incremental build leaves is byte for byte what a clean
//! build makes.

use std::collections::BTreeMap;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::probes::probe_of;
use crate::common::{all_files, item, synthetic_snapshot, temp_dir, TempDir};
use method::corrections::Corrections;
use method::Method;
use publish::Options;

const DATES: [&str; 3] = ["2026-03-01", "2026-03-08", "2026-03-15"];
const A: &str = "https://a.example/quote";
const B: &str = "https://b.example/lookup";

fn write_snapshot(dir: &Path, date: &str, calls: u64) -> PathBuf {
    let items = vec![item(A, "Quote service", Some(4), Some(calls)), item(B, "Lookup", Some(2), Some(2))];
    let path = dir.join("snapshots").join(format!("{date}.json"));
    let _ = fs::remove_file(&path);
    synthetic_snapshot(date, items).write_into(&dir.join("snapshots"), false).unwrap()
}

fn write_probe(dir: &Path, date: &str) {
    let probe = probe_of(date, date, vec![]);
    fs::create_dir_all(dir.join("probes")).unwrap();
    fs::write(dir.join("probes").join(format!("{date}.json")), probe.to_bytes()).unwrap();
}

fn options(code: &str) -> Options {
    Options { code: Some(code.into()), ..Options::default() }
}

/// Builds, and says which dates were kept (the rest were rendered). A rendered folder
/// is a new folder swapped in: its inode changes, a kept one's does not.
fn build(paths: &[PathBuf], out: &Path, method: &Method, code: &str) -> Vec<&'static str> {
    let before: BTreeMap<&str, Option<u64>> =
        DATES.iter().map(|d| (*d, fs::metadata(out.join(d)).ok().map(|m| m.ino()))).collect();
    let built = publish::build_with(paths, out, method, &options(code)).unwrap();
    let mut kept = Vec::new();
    for b in built {
        let date = DATES.iter().find(|d| **d == b.date).unwrap();
        let ino = fs::metadata(out.join(date)).unwrap().ino();
        assert_eq!(b.kept, before[date] == Some(ino), "{date}: kept is said exactly when the folder stayed");
        if b.kept {
            kept.push(*date);
        }
    }
    kept
}

/// Changes one byte near the end of the file at `path` (white space for white space),
/// keeping its size.
fn change_one_byte(path: &Path) {
    let mut bytes = fs::read(path).unwrap();
    let at = bytes.len() - 2;
    bytes[at] = if bytes[at] == b' ' { b'\n' } else { b' ' };
    fs::write(path, &bytes).unwrap();
}

/// Every file of the built site but the incremental records, with its bytes.
fn tree(out: &Path) -> BTreeMap<String, Vec<u8>> {
    all_files(out)
        .into_iter()
        .map(|p| (p.strip_prefix(out).unwrap().to_string_lossy().into_owned(), fs::read(&p).unwrap()))
        .filter(|(rel, _)| !rel.starts_with(".inputs/"))
        .collect()
}

/// The incremental build in `out` equals a clean build of the same inputs.
fn same_as_clean(dir: &Path, paths: &[PathBuf], out: &Path, method: &Method, code: &str) {
    let clean = dir.join("clean");
    let _ = fs::remove_dir_all(&clean);
    publish::build_with(paths, &clean, method, &options(code)).unwrap();
    let (made, fresh) = (tree(out), tree(&clean));
    assert_eq!(made.keys().collect::<Vec<_>>(), fresh.keys().collect::<Vec<_>>(), "the same files");
    for (rel, bytes) in &fresh {
        assert!(made[rel] == *bytes, "{rel} differs from a clean build's");
    }
}

/// A folder for a test named `name`: its output folder, and a snapshot of 10 listings
/// for each of [`DATES`].
fn three_weeks(name: &str) -> (TempDir, PathBuf, Vec<PathBuf>) {
    let dir = temp_dir(name);
    let out = dir.join("public");
    let paths = DATES.iter().map(|d| write_snapshot(&dir, d, 10)).collect();
    (dir, out, paths)
}

#[test]
fn a_folder_is_kept_only_while_every_input_is_unchanged_and_the_result_is_a_clean_build_s() {
    let (dir, out, mut paths) = three_weeks("incremental");
    let embedded = Method::embedded();
    assert!(build(&paths, &out, &embedded, "code-1").is_empty(), "nothing to keep at first");
    assert_eq!(build(&paths, &out, &embedded, "code-1"), DATES, "nothing changed: every folder kept");
    same_as_clean(&dir, &paths, &out, &embedded, "code-1");

    // The snapshot's own bytes: only its folder (no later one reads it).
    paths[2] = write_snapshot(&dir, DATES[2], 11);
    assert_eq!(build(&paths, &out, &embedded, "code-1"), [DATES[0], DATES[1]]);
    same_as_clean(&dir, &paths, &out, &embedded, "code-1");

    // An earlier snapshot: every folder from it on (its ledger and history are later ones' inputs).
    paths[0] = write_snapshot(&dir, DATES[0], 12);
    assert!(build(&paths, &out, &embedded, "code-1").is_empty());
    same_as_clean(&dir, &paths, &out, &embedded, "code-1");

    // A probe file beside the middle snapshot: its folder, and the later one whose
    // history counts that probe's answers; not the earlier one.
    write_probe(&dir, DATES[1]);
    assert_eq!(build(&paths, &out, &embedded, "code-1"), [DATES[0]]);
    same_as_clean(&dir, &paths, &out, &embedded, "code-1");

    // The corrections log: every folder (every one publishes it).
    let log = Corrections::parse(
        r#"{"entries": [{"date": "2026-12-04", "kind": "misattribution", "resource": "https://elsewhere.example/", "note": "a note"}]}"#,
    )
    .unwrap();
    let corrected = Method { corrections: &log, ..embedded };
    assert!(build(&paths, &out, &corrected, "code-1").is_empty());
    same_as_clean(&dir, &paths, &out, &corrected, "code-1");
    assert_eq!(build(&paths, &out, &corrected, "code-1"), DATES);

    // A new binary (templates, static files, versions): every folder.
    assert!(build(&paths, &out, &corrected, "code-2").is_empty());
    assert_eq!(build(&paths, &out, &corrected, "code-2"), DATES);
}

#[test]
fn a_folder_edited_or_damaged_on_disk_is_rebuilt_and_one_only_touched_is_kept() {
    let (dir, out, paths) = three_weeks("incremental-damage");
    let method = Method::embedded();
    build(&paths, &out, &method, "code-1");
    let manifest = out.join(DATES[1]).join("api/manifest.json");
    let index = out.join(DATES[0]).join("index.html");
    let original = fs::read(&manifest).unwrap();

    // Touched, same bytes: the content decides, and it is as recorded.
    fs::write(&index, fs::read(&index).unwrap()).unwrap();
    assert_eq!(build(&paths, &out, &method, "code-1"), DATES);

    // One byte changed, the size kept.
    change_one_byte(&manifest);
    assert_eq!(build(&paths, &out, &method, "code-1"), [DATES[0], DATES[2]]);
    assert_eq!(fs::read(&manifest).unwrap(), original, "rebuilt as it was");

    // A file removed, a file added.
    fs::remove_file(&index).unwrap();
    fs::write(out.join(DATES[2]).join("extra.html"), b"<p>not built</p>").unwrap();
    assert_eq!(build(&paths, &out, &method, "code-1"), [DATES[1]]);
    assert!(index.is_file() && !out.join(DATES[2]).join("extra.html").exists());

    // Deeper in: a file added beside the API's, an empty folder added, a folder put where
    // a file was (each only a name changed in a folder below the dated one).
    let api = out.join(DATES[0]).join("api");
    fs::write(api.join("stray.json"), b"{}").unwrap();
    fs::create_dir(out.join(DATES[1]).join("api").join("empty")).unwrap();
    assert_eq!(build(&paths, &out, &method, "code-1"), [DATES[2]]);
    assert!(!api.join("stray.json").exists());
    fs::remove_file(&manifest).unwrap();
    fs::create_dir(&manifest).unwrap();
    assert_eq!(build(&paths, &out, &method, "code-1"), [DATES[0], DATES[2]]);
    assert_eq!(fs::read(&manifest).unwrap(), original);

    // A record lost: its folder is rebuilt.
    fs::remove_file(out.join(".inputs").join(DATES[1])).unwrap();
    assert_eq!(build(&paths, &out, &method, "code-1"), [DATES[0], DATES[2]]);
    same_as_clean(&dir, &paths, &out, &method, "code-1");
}

#[test]
fn the_command_line_says_what_it_kept_and_rebuild_renders_every_folder() {
    let dir = temp_dir("incremental-cli");
    for d in DATES {
        write_snapshot(&dir, d, 10);
    }
    let build = |extra: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_x402dir"))
            .args(["build", "--no-lock", "--snapshots-dir", "snapshots", "--out", "public"])
            .args(extra)
            .current_dir(dir.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
        String::from_utf8(output.stdout).unwrap()
    };
    let first = build(&[]);
    assert!(first.contains(&format!("built {}: 2 resources", DATES[0])), "{first}");
    let second = build(&[]);
    for d in DATES {
        assert!(second.contains(&format!("kept {d} (inputs unchanged): 2 resources")), "{second}");
    }
    let forced = build(&["--rebuild"]);
    assert!(!forced.contains("kept") && forced.contains(&format!("built {}", DATES[2])), "{forced}");
    // The records are not part of the site: nothing in the root files names them.
    assert!(!fs::read_to_string(dir.join("public/sitemap.xml")).unwrap().contains(".inputs"));
}

/// A new week is read ahead while the kept folders are checked (publish::build_then_clean);
/// an earlier folder that then fails its check is rendered in its place in the run, and
/// every folder is still a clean build's.
#[test]
fn a_new_week_beside_a_damaged_folder_renders_both_as_a_clean_build_would() {
    let (dir, out, paths) = three_weeks("incremental-week");
    let method = Method::embedded();
    assert!(build(&paths[..2], &out, &method, "code-1").is_empty());
    change_one_byte(&out.join(DATES[0]).join("api/manifest.json"));
    assert_eq!(build(&paths, &out, &method, "code-1"), [DATES[1]]);
    same_as_clean(&dir, &paths, &out, &method, "code-1");
}

/// Every folder (`.` for `root`) and every file under `root` with its size and time,
/// as a fresh walk of the disk finds them.
fn on_disk(root: &Path) -> (BTreeMap<String, i128>, BTreeMap<String, (u64, i128)>) {
    let time = |m: &fs::Metadata| i128::from(m.mtime()) * 1_000_000_000 + i128::from(m.mtime_nsec());
    let (mut folders, mut files) = (BTreeMap::new(), BTreeMap::new());
    let mut todo = vec![(root.to_path_buf(), ".".to_owned())];
    while let Some((dir, rel)) = todo.pop() {
        folders.insert(rel.clone(), time(&fs::symlink_metadata(&dir).unwrap()));
        for entry in fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            let path = if rel == "." { name } else { format!("{rel}/{name}") };
            let meta = entry.metadata().unwrap();
            if meta.is_dir() {
                todo.push((entry.path(), path));
            } else {
                files.insert(path, (meta.len(), time(&meta)));
            }
        }
    }
    (folders, files)
}

/// The record of a folder is made from what the build wrote, not from a walk of the
/// folder: it must still name exactly the folders and files on disk, with their sizes
/// and times, or a kept folder would be checked against the wrong tree.
#[test]
fn the_record_names_every_folder_and_file_on_disk_with_its_size_and_time() {
    let (dir, out, paths) = three_weeks("incremental-record");
    let method = Method::embedded();
    build(&paths, &out, &method, "one");
    for date in DATES {
        let record = fs::read_to_string(out.join(".inputs").join(date)).unwrap();
        let (mut folders, mut files) = (BTreeMap::new(), BTreeMap::new());
        for line in record.lines().skip(2) {
            let words: Vec<&str> = line.splitn(4, ' ').collect();
            if words[0] == "folder" {
                let (mtime, rel) = line["folder ".len()..].split_once(' ').unwrap();
                folders.insert(rel.to_owned(), mtime.parse::<i128>().unwrap());
            } else {
                files
                    .insert(words[3].to_owned(), (words[1].parse::<u64>().unwrap(), words[2].parse::<i128>().unwrap()));
            }
        }
        let (disk_folders, disk_files) = on_disk(&out.join(date));
        assert!(disk_files.len() > 20 && disk_folders.len() > 5, "{date}: a real folder was built");
        assert_eq!(folders, disk_folders, "{date}: folders and their times");
        assert_eq!(files, disk_files, "{date}: files, sizes and times");
    }
    drop(dir);
}
