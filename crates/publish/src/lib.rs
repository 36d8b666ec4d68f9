//! Publishing: snapshots built into their dated folders, oldest first, each made in a
//! staging folder, checked against the lock of published dates ([`lock`]) and swapped in
//! whole, so a failed build leaves the previous folder in place; the folders it replaced
//! are deleted in the background ([`Cleanup`]). What goes into a folder is the site
//! crate's; when and how it reaches `public/` is this one's (content/method.md#published).

pub mod incremental;
pub mod lock;

use std::fs;
use std::path::{Path, PathBuf};

use catalogue::snapshot;
use catalogue::timings::phase;
use catalogue::Error;
use method::index::Index;
use method::ownership::RunningLedger;
use method::Method;
use site::api::Sink;
use site::history::{Past, Timeline};
use site::output::Output;

#[derive(Debug, Clone)]
pub struct BuiltSnapshot {
    pub date: String,
    pub entries: usize,
    pub files: usize,
    /// What the lock of published dates said of it, when the build was locked.
    pub lock: Option<lock::Verdict>,
    /// Kept as built before: its inputs had not changed and its files were as recorded
    /// ([`incremental`]). Its lock line was checked all the same.
    pub kept: bool,
}

/// Builds the site for `snapshots` into `out`. Each snapshot's folder is written to a
/// staging folder first and swapped in whole, so a failed build leaves the previous
/// one in place.
pub fn build(snapshots: &[PathBuf], out: &Path, method: &Method) -> Result<Vec<BuiltSnapshot>, Error> {
    build_with(snapshots, out, method, &Options::default())
}

/// How a build is checked besides its inputs.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Refuse a folder of more files than this (`--max-files`: a host's cap on files per
    /// deployment, docs/deploy.md). The refusal comes as soon as the count passes the
    /// cap, and leaves the previous build of that date in place.
    pub max_files: Option<usize>,
    /// The lock of published dates to verify each folder against, and add new dates to
    /// (content/method.md#published); `None` builds unlocked (previews, tests, fixtures).
    pub lock: Option<PathBuf>,
    pub policy: lock::Policy,
    /// Render every folder again, even those whose inputs have not changed (`--rebuild`).
    pub rebuild: bool,
    /// The digest standing for the code that renders (templates, static files, embedded
    /// content, versions); `None`: the running binary's ([`incremental`]). Tests set it to
    /// stand for a new binary.
    pub code: Option<String>,
}

/// [`build`] with [`Options`]. Every folder is checked against the lock before it
/// replaces the published one; the lock is written only once every folder is in.
/// Returns once the replaced folders are deleted too; [`build_then_clean`] returns first.
pub fn build_with(
    snapshots: &[PathBuf],
    out: &Path,
    method: &Method,
    options: &Options,
) -> Result<Vec<BuiltSnapshot>, Error> {
    let (built, cleanup) = build_then_clean(snapshots, out, method, options)?;
    for warning in cleanup.wait() {
        eprintln!("warning: {warning}");
    }
    Ok(built)
}

/// [`build_with`], returning as soon as the new folders are in place, with the deletion
/// of the folders they replaced (and of any a killed build left) still running: at
/// 100,000 listings deleting the previous build took 134 of a rebuild's 158 s.
pub fn build_then_clean(
    snapshots: &[PathBuf],
    out: &Path,
    method: &Method,
    options: &Options,
) -> Result<(Vec<BuiltSnapshot>, Cleanup), Error> {
    check_out_dir(out)?;
    let mut cleanup = Cleanup::default();
    cleanup.leftovers(out);
    let mut lock = options.lock.as_deref().map(lock::Lock::read).transpose()?;
    if let Some(lock) = &lock {
        lock.check_policy(&options.policy, method)?;
    }
    let output = Output::new(out);
    let mut built = Vec::new();
    // Oldest first, so each snapshot is remembered as history for the ones after it.
    let mut run = snapshot::with_histories(snapshots)?;
    run.sort_by(|a, b| a.0.date().cmp(b.0.date()));
    let mut timeline = Timeline::default();
    let mut ledger = RunningLedger::new(method.corrections);
    let mut inputs = incremental::Inputs::new(options.code.as_deref(), method)?;
    let digests = phase("inputs digest", || {
        run.iter().map(|(stored, history)| inputs.of(stored, history)).collect::<Result<Vec<_>, _>>()
    })?;
    let kept_folders: Vec<Option<incremental::Kept>> = if options.rebuild {
        run.iter().map(|_| None).collect()
    } else {
        // The kept folders are checked on the other threads while this one reads the
        // history of the first folder sure to be rendered (no record of its inputs):
        // its history and ledger are read from single files one after another, so the
        // check of 52 weeks' kept folders (a stat of each file) costs next to nothing
        // beside it (BENCHMARKS.md, "Incremental builds").
        let folders: Vec<(&str, &str)> = run.iter().zip(&digests).map(|((s, _), d)| (s.date(), d.as_str())).collect();
        let first_rendered = folders.iter().position(|(date, inputs)| !incremental::recorded(out, date, inputs));
        let (kept, warmed) = rayon::join(
            || phase("kept check", || incremental::kept_all(out, &folders)),
            || match first_rendered {
                Some(k) => phase("history", || std::mem::take(&mut timeline).before(&run[k].1, method, &mut ledger)),
                None => Ok(Timeline::default()),
            },
        );
        timeline = warmed?;
        kept
    };
    let mut kept_folders = kept_folders.into_iter();
    // One snapshot at a time: its listings are the bulk of the build's memory.
    for (k, ((stored, history), digest)) in run.iter().zip(&digests).enumerate() {
        let date = stored.date();
        // A kept folder is held to the cap on files too: over it, it is rendered, and refused.
        let kept = kept_folders.next().flatten().filter(|kept| options.max_files.is_none_or(|max| kept.files <= max));
        if let Some(kept) = kept {
            // Not read at all: a later folder that is rendered reads its history and
            // ledger from the stored files (Timeline::before, RunningLedger::before).
            let verdict = match lock.as_mut() {
                Some(lock) => Some(lock.check(date, method, kept.sums, &options.policy)?),
                None => None,
            };
            built.push(BuiltSnapshot {
                date: date.to_owned(),
                entries: kept.entries,
                files: kept.files,
                lock: verdict,
                kept: true,
            });
            continue;
        }
        timeline = phase("history", || timeline.before(history, method, &mut ledger))?;
        let more = k + 1 < run.len();
        let index =
            phase("read and index snapshot", || Index::read_running(stored, history, method, &mut ledger, more))?;
        let mut verdict = None;
        incremental::forget(out, date)?;
        let (files, sums) = swap_in(
            &output,
            &mut cleanup,
            date,
            options.max_files,
            |sink| site::write_snapshot(&index, method, &timeline, sink),
            |sums| {
                if let Some(lock) = lock.as_mut() {
                    verdict = Some(lock.check(date, method, sums, &options.policy)?);
                }
                Ok(())
            },
        )?;
        // The index is let go before the record is made: at a million listings it is
        // most of the memory, and the record of 1.2 million files would stack on it.
        let entries = index.entries.len();
        let past = more.then(|| Past::of(stored, &index));
        drop(index);
        phase("record of the build", || incremental::record(out, date, digest, entries, &sums))?;
        built.push(BuiltSnapshot { date: date.to_owned(), entries, files, lock: verdict, kept: false });
        if let Some(past) = past {
            timeline.push(past);
        }
    }
    phase("root pages", || site::pages::root::write_root(&output, method))?;
    if let Some(lock) = &lock {
        lock.write()?;
    }
    Ok((built, cleanup))
}

/// Folders being deleted in the background: the ones a build replaced, and the staging
/// and replaced folders a killed build left (hidden, so they stayed for ever: 2.1 GB
/// after three kills). Dropped, it waits for them.
#[derive(Default)]
pub struct Cleanup {
    removing: Vec<(PathBuf, std::thread::JoinHandle<std::io::Result<()>>)>,
}

impl Cleanup {
    /// Deletes `folder` on a thread of its own.
    fn remove(&mut self, folder: PathBuf) {
        let doomed = folder.clone();
        self.removing.push((folder, std::thread::spawn(move || fs::remove_dir_all(&doomed))));
    }

    /// Deletes the `.staging-<date>-<pid>` and `.old-<date>-<pid>` folders in `out` of
    /// builds that no longer run (a build running now, in this process or another, keeps
    /// its own). Only where running processes can be looked up (/proc).
    fn leftovers(&mut self, out: &Path) {
        if !Path::new("/proc/self").exists() {
            return;
        }
        let Ok(entries) = fs::read_dir(out) else { return };
        for entry in entries.flatten() {
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            if !(name.starts_with(".staging-") || name.starts_with(".old-")) {
                continue;
            }
            let pid = name.rsplit('-').next().and_then(|p| p.split('.').next()).and_then(|p| p.parse::<u32>().ok());
            let Some(pid) = pid else { continue };
            if pid == std::process::id() || Path::new(&format!("/proc/{pid}")).exists() {
                continue;
            }
            // `.old-DATE-PID.N` of a build killed between its two renames is the only copy
            // of DATE: it goes back, never away.
            let date = name.strip_prefix(".old-").and_then(|rest| rest.get(..10));
            if let Some(date) = date.filter(|d| !out.join(d).exists()) {
                if fs::rename(entry.path(), out.join(date)).is_ok() {
                    continue;
                }
            }
            self.remove(entry.path());
        }
    }

    /// Folders still being deleted.
    pub fn pending(&self) -> usize {
        self.removing.iter().filter(|(_, t)| !t.is_finished()).count()
    }

    /// Waits for every deletion; what could not be deleted, in words.
    pub fn wait(mut self) -> Vec<String> {
        self.join()
    }

    fn join(&mut self) -> Vec<String> {
        let mut failed = Vec::new();
        for (folder, thread) in self.removing.drain(..) {
            match thread.join() {
                Ok(Ok(())) => {}
                Ok(Err(e)) => failed.push(format!("could not delete {}: {e}", folder.display())),
                Err(_) => failed.push(format!("could not delete {}", folder.display())),
            }
        }
        failed
    }
}

impl Drop for Cleanup {
    fn drop(&mut self) {
        self.join();
    }
}

/// Swaps two folders in one step (Linux `renameat2` with `RENAME_EXCHANGE`). False where
/// the system or the file system cannot: the caller renames in two steps.
#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<bool> {
    use std::ffi::CString;
    use std::os::unix::ffi::OsStrExt;
    let c = |p: &Path| CString::new(p.as_os_str().as_bytes()).map_err(std::io::Error::other);
    let (a, b) = (c(a)?, c(b)?);
    // SAFETY: both paths are NUL-terminated strings that outlive the call.
    let done =
        unsafe { libc::renameat2(libc::AT_FDCWD, a.as_ptr(), libc::AT_FDCWD, b.as_ptr(), libc::RENAME_EXCHANGE) };
    if done == 0 {
        return Ok(true);
    }
    let e = std::io::Error::last_os_error();
    match e.raw_os_error() {
        // Not supported by this kernel or file system.
        Some(libc::ENOSYS | libc::EINVAL | libc::EOPNOTSUPP) => Ok(false),
        _ => Err(e),
    }
}

#[cfg(not(target_os = "linux"))]
fn exchange(_: &Path, _: &Path) -> std::io::Result<bool> {
    Ok(false)
}

/// A test's way in to the swap (tests/it/published.rs kills the build at each step):
/// when `X402DIR_TEST_PAUSE` names `step`, say so on stderr and wait to be killed.
fn pause_for_tests(step: &str) {
    if std::env::var("X402DIR_TEST_PAUSE").is_ok_and(|at| at == step) {
        eprintln!("paused at {step}");
        loop {
            std::thread::sleep(std::time::Duration::from_secs(3600));
        }
    }
}

fn check_out_dir(out: &Path) -> Result<(), Error> {
    if out.as_os_str().is_empty() || out.parent().is_none() {
        return Err(Error::Refused(format!(
            "refusing to build into {:?}: name a folder such as public",
            out.display()
        )));
    }
    if out.is_file() {
        return Err(Error::Refused(format!("{} is a file, not a folder", out.display())));
    }
    fs::create_dir_all(out).map_err(|e| Error::io(out, e))
}

/// Writes a snapshot's files into a staging folder as `make` hands them over, batch by
/// batch, then replaces `<out>/<date>` with it. Returns how many files were written.
fn swap_in(
    output: &Output,
    cleanup: &mut Cleanup,
    date: &str,
    max_files: Option<usize>,
    make: impl FnOnce(Sink) -> Result<(), Error>,
    verify: impl FnOnce(lock::Sums) -> Result<(), Error>,
) -> Result<(usize, lock::FileSums), Error> {
    let staging_name = format!("staging-{date}-{}", std::process::id());
    let staging = output.root().join(format!(".{staging_name}"));
    let _ = fs::remove_dir_all(&staging);
    let stage = Output::new(&staging);
    let written = std::sync::atomic::AtomicUsize::new(0);
    let digests = lock::Digests::default();
    let sink = |batch: Vec<(String, Vec<u8>)>| {
        let so_far = written.fetch_add(batch.len(), std::sync::atomic::Ordering::Relaxed) + batch.len();
        if let Some(max) = max_files.filter(|&max| so_far > max) {
            return Err(Error::Refused(format!(
                "the folder of {date} would hold more than {max} files (--max-files): a snapshot of n listings \
                 makes about 1.2 n files (a page per listing, a record block per 16, shards, answers); \
                 publish to a host without a file cap or raise the cap (docs/deploy.md). The previous build \
                 of {date}, if any, is untouched"
            )));
        }
        // Summed while written: the sums are a tenth of a build's work.
        let (sums, written) = rayon::join(|| lock::Digests::sums(&batch), || stage.write_all(&batch));
        digests.add(&batch, sums, written?.iter().map(incremental::mtime_of));
        Ok(())
    };
    // Checked before the swap: a refused folder never replaces the published one.
    let sums = make(&sink).map(|()| digests.into_sums()).and_then(|all| verify(all.locked()).map(|()| all));
    let sums = match sums {
        Ok(sums) => sums,
        Err(e) => {
            let _ = fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    let target = output.path(date)?;
    pause_for_tests("before-swap");
    if target.exists() {
        // Numbered: a folder of this date replaced earlier in this process may still be
        // being deleted.
        static REPLACED: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = REPLACED.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let old = output.root().join(format!(".old-{date}-{}.{n}", std::process::id()));
        if exchange(&staging, &target).map_err(|e| Error::io(&target, e))? {
            // One step: the date's folder was never missing. The staging name now holds
            // the replaced folder.
            pause_for_tests("after-exchange");
            fs::rename(&staging, &old).map_err(|e| Error::io(&staging, e))?;
        } else {
            // Two steps where the system cannot exchange: a kill between them leaves
            // `.old-` as the only copy, which the next build puts back (`leftovers`).
            fs::rename(&target, &old).map_err(|e| Error::io(&target, e))?;
            pause_for_tests("between-renames");
            fs::rename(&staging, &target).map_err(|e| Error::io(&target, e))?;
        }
        pause_for_tests("after-swap");
        // The new folder is in place: the old one goes on another thread.
        cleanup.remove(old);
    } else {
        fs::rename(&staging, &target).map_err(|e| Error::io(&target, e))?;
    }
    Ok((written.into_inner(), sums))
}
