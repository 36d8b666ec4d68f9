//! `x402dir build`: the static site, one dated folder per snapshot plus the root index.

use std::path::{Path, PathBuf};
use std::time::Instant;

use catalogue::snapshot;
use catalogue::{timings, Error};
use method::Method;
use publish::lock::{Policy, Verdict, DEFAULT_LOCK};

#[derive(clap::Args)]
pub struct Args {
    /// Snapshot file to build (repeatable). Default: every snapshot in --snapshots-dir.
    #[arg(long)]
    snapshot: Vec<PathBuf>,
    /// Build every snapshot in --snapshots-dir (the default when no --snapshot is given).
    #[arg(long, conflicts_with = "snapshot")]
    all: bool,
    /// Folder holding dated snapshots.
    #[arg(long, default_value = snapshot::DEFAULT_DIR)]
    snapshots_dir: PathBuf,
    /// Output folder.
    #[arg(long, default_value = "public")]
    out: PathBuf,
    /// Print how long each phase of the build takes (standard error).
    #[arg(long)]
    timings: bool,
    /// Refuse to build a snapshot whose folder would hold more files than this (a
    /// host's cap per deployment, e.g. 20000; docs/deploy.md).
    #[arg(long)]
    max_files: Option<usize>,
    /// The lock of published dates: every folder built is checked against its line, and
    /// new dates are added (content/method.md#published). Default: content/published.lock
    /// when building the default --snapshots-dir; none otherwise.
    #[arg(long, conflicts_with = "no_lock")]
    lock: Option<PathBuf>,
    /// Build without checking or adding to any lock (a preview that will not be published).
    #[arg(long)]
    no_lock: bool,
    /// Let the published answers of DATE change (repeatable). Needs a `republished` entry
    /// for DATE in content/corrections.json, which the folder's pages then show.
    #[arg(long, value_name = "DATE")]
    republish: Vec<String>,
    /// Refuse dates missing from the lock instead of adding them (CI's check that every
    /// stored snapshot is locked).
    #[arg(long)]
    locked: bool,
    /// Render every dated folder again, even one whose inputs have not changed since it
    /// was built (by default it is kept: docs/deploy.md#incremental-builds).
    #[arg(long)]
    rebuild: bool,
}

/// The corrections log in the lock's folder (content/corrections.json beside
/// content/published.lock). The default lock must have it; another lock without one
/// builds with the log compiled in.
fn corrections_beside(lock: &Path) -> Result<Option<method::corrections::Corrections>, Error> {
    let path = lock.with_file_name("corrections.json");
    match std::fs::read_to_string(&path) {
        Ok(text) => method::corrections::Corrections::parse(&text).map(Some),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && lock != Path::new(DEFAULT_LOCK) => Ok(None),
        Err(e) => Err(Error::io(&path, e)),
    }
}

/// Snapshot JSON from which a build gives freed memory back at once
/// (`return_freed_memory_at_once`): about 200,000 listings.
const LARGE_SNAPSHOT_BYTES: u64 = 150 << 20;

/// Whether the snapshot at `path` is one of [`LARGE_SNAPSHOT_BYTES`] or more, a
/// compressed one (`.gz`) taken at ten times its size, about what gzip makes of JSON.
fn large_snapshot(path: &Path) -> bool {
    let gz = path.extension().is_some_and(|e| e == "gz");
    std::fs::metadata(path).is_ok_and(|m| m.len().saturating_mul(if gz { 10 } else { 1 }) >= LARGE_SNAPSHOT_BYTES)
}

pub fn run(args: Args) -> Result<(), Error> {
    // `--all` only says out loud what no --snapshot means.
    let Args {
        snapshot: paths,
        all: _,
        snapshots_dir,
        out,
        timings,
        max_files,
        lock,
        no_lock,
        republish,
        locked,
        rebuild,
    } = args;
    timings::report(timings);
    let default_folder = paths.is_empty() && snapshots_dir == Path::new(snapshot::DEFAULT_DIR);
    let lock = match (lock, no_lock) {
        (_, true) => None,
        (Some(lock), false) => Some(lock),
        (None, false) => default_folder.then(|| PathBuf::from(DEFAULT_LOCK)),
    };
    if lock.is_none() && (locked || !republish.is_empty()) {
        return Err(Error::Refused(
            "--locked and --republish check a lock: name one with --lock, or build the default --snapshots-dir".into(),
        ));
    }
    let paths = if paths.is_empty() {
        snapshot::list(&snapshots_dir)?.into_iter().map(snapshot::Stored::into_path).collect()
    } else {
        paths
    };
    if paths.is_empty() {
        return Err(snapshot::latest(&snapshots_dir).expect_err("no snapshot in an empty list"));
    }
    if paths.iter().any(|p| large_snapshot(p)) {
        crate::return_freed_memory_at_once();
    }
    let started = Instant::now();
    // The corrections log beside the lock is read now, not the copy compiled in: an entry
    // removed from the file no longer explains a republication (content/method.md#published).
    let corrections = match &lock {
        Some(lock) => corrections_beside(lock)?,
        None => None,
    };
    let embedded = Method::embedded();
    let method = match &corrections {
        Some(log) => Method { corrections: log, ..embedded },
        None => embedded,
    };
    let options = publish::Options {
        max_files,
        lock: lock.clone(),
        policy: Policy { republish, frozen: locked },
        rebuild,
        code: None,
    };
    let (built, cleanup) = publish::build_then_clean(&paths, &out, &method, &options)?;
    for b in &built {
        let locked = match &b.lock {
            None => String::new(),
            Some(Verdict::Unchanged) => "; answers as locked".to_owned(),
            Some(Verdict::New) => "; added to the lock".to_owned(),
            Some(Verdict::Relocked(why)) => format!("; lock updated: {why}"),
        };
        if b.kept {
            println!("kept {} (inputs unchanged): {} resources, {} files{locked}", b.date, b.entries, b.files);
            continue;
        }
        println!(
            "built {}: {} resources, {} files in {}{locked}",
            b.date,
            b.entries,
            b.files,
            out.join(&b.date).display()
        );
    }
    if let Some(lock) = lock {
        println!("checked against {}", lock.display());
    }
    println!("done in {:.2} s; open {}", started.elapsed().as_secs_f64(), out.join("index.html").display());
    // The result is in place and said; the replaced folders are deleted before exiting.
    if cleanup.pending() > 0 {
        eprintln!("deleting the folders replaced or left over in {}", out.display());
    }
    for warning in cleanup.wait() {
        eprintln!("warning: {warning}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_snapshot_is_large_from_150_mb_of_json_a_compressed_one_at_a_tenth_of_that() {
        let dir = std::env::temp_dir().join(format!("x402dir-large-snapshot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = |name: &str, len: u64| {
            let path = dir.join(name);
            // Sparse: the length is what is read, not the bytes.
            std::fs::File::create(&path).unwrap().set_len(len).unwrap();
            path
        };
        assert!(large_snapshot(&file("2026-01-01.json", LARGE_SNAPSHOT_BYTES)));
        assert!(!large_snapshot(&file("2026-01-02.json", LARGE_SNAPSHOT_BYTES - 1)));
        assert!(large_snapshot(&file("2026-01-03.json.gz", LARGE_SNAPSHOT_BYTES / 10)));
        assert!(!large_snapshot(&file("2026-01-04.json.gz", LARGE_SNAPSHOT_BYTES / 10 - 1)));
        assert!(!large_snapshot(&dir.join("missing.json")));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
