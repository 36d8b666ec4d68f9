//! Incremental builds: a dated folder whose inputs have not changed since it was built,
//! and whose files are still the ones built, is kept rather than rendered again.
//!
//! A folder's inputs, digested together ([`Inputs::of`]):
//! - the code that renders it: the SHA-256 of the running binary (`std::env::current_exe`),
//!   which holds every template, static file, embedded content file and version constant
//!   (method, API layout, explore), so any change to any of them, or to the code, rebuilds
//!   every folder. Digesting each embedded input instead would keep folders across a
//!   change to code that does not touch them, but a forgotten input would then keep a
//!   stale folder; the binary cannot be forgotten. `Options::code` overrides it (tests);
//! - the method as passed (the screening list, asset table and segments with their
//!   versions, the site settings with the base URL, and the corrections log, which the
//!   CLI reads from disk at each build);
//! - the snapshot file's bytes and its probe file's (`method::probe::beside`), if any;
//! - every earlier snapshot stored beside it, by date and digest: their claims make the
//!   ownership ledger, and the last of them the history and "new since" it shows;
//! - the probe files of the earlier snapshots its history shows ([`HISTORY_SNAPSHOTS`]).
//!
//! The record of a folder is `<out>/.inputs/<date>`: the inputs' digest, its count of
//! entries, every folder in it with its modification time, and every file with its size,
//! modification time and digest (`lock::record_sum`). A hidden folder
//! at the root, which the site never writes (its paths refuse a leading dot) and a
//! deploy does not upload. A folder is kept only when the digest matches and its files
//! are exactly the recorded ones: each folder at its recorded time (so holding the same
//! names), and each file with its recorded size and time, or else with its recorded
//! digest (read again). Anything else rebuilds it.

use std::collections::HashMap;
use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use rayon::prelude::*;
use sha2::{Digest, Sha256};

use catalogue::error::Error;
use catalogue::hash::hex;
use catalogue::snapshot::Stored;
use explore::EXPLORE_VERSION;
use method::{Method, DISCOVERY_METHOD_VERSION};
use site::api::method::API_VERSION;
use site::history::HISTORY_SNAPSHOTS;

use crate::lock::{FileSums, Sums};

/// The records' folder, inside the output folder.
pub const RECORDS_DIR: &str = ".inputs";

/// The SHA-256 of a file's bytes, in hex; `None` when there is no such file.
fn file_digest(path: &Path) -> Result<Option<String>, Error> {
    let mut file = match fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(path, e)),
    };
    let mut hash = Sha256::new();
    std::io::copy(&mut file, &mut hash).map_err(|e| Error::io(path, e))?;
    Ok(Some(hex(&hash.finalize())))
}

/// The digest of the running binary, read once per process.
fn code_digest() -> Result<String, Error> {
    static CODE: OnceLock<Result<String, String>> = OnceLock::new();
    CODE.get_or_init(|| {
        let exe = std::env::current_exe().map_err(|e| e.to_string())?;
        file_digest(&exe).map_err(|e| e.to_string())?.ok_or_else(|| format!("{} is missing", exe.display()))
    })
    .clone()
    .map_err(|e| Error::Refused(format!("cannot digest the running binary for an incremental build: {e}")))
}

/// What every folder of a build shares, and each snapshot file's digest, read once.
pub(crate) struct Inputs {
    common: String,
    files: HashMap<PathBuf, Option<String>>,
}

impl Inputs {
    pub(crate) fn new(code: Option<&str>, method: &Method) -> Result<Inputs, Error> {
        let code = match code {
            Some(c) => c.to_owned(),
            None => code_digest()?,
        };
        let common = format!(
            "x402dir-inputs 1\ncode {code}\nmethod {DISCOVERY_METHOD_VERSION} api {API_VERSION} explore \
             {EXPLORE_VERSION}\nscreening {:?}\nsegments {} {:?}\nassets {} {:?}\nsite {:?}\ncorrections {:?}\n",
            method.screen,
            method.segments.version,
            method.segments.segments,
            method.assets.version,
            method.assets,
            method.site,
            method.corrections,
        );
        Ok(Inputs { common, files: HashMap::new() })
    }

    fn digest(&mut self, path: &Path) -> Result<String, Error> {
        if let Some(d) = self.files.get(path) {
            return Ok(d.clone().unwrap_or_else(|| "none".into()));
        }
        let d = file_digest(path)?;
        self.files.insert(path.to_owned(), d.clone());
        Ok(d.unwrap_or_else(|| "none".into()))
    }

    /// The digest of the inputs of the folder of `stored`, whose `history` (the
    /// snapshots stored before it, oldest first) is given.
    pub(crate) fn of(&mut self, stored: &Stored, history: &[Stored]) -> Result<String, Error> {
        let mut text = self.common.clone();
        let date = stored.date();
        text.push_str(&format!("snapshot {date} {}\n", self.digest(stored.path())?));
        text.push_str(&format!("probe {}\n", self.digest(&method::probe::beside(stored.path(), date))?));
        let shown = history.len().saturating_sub(HISTORY_SNAPSHOTS - 1);
        for (k, older) in history.iter().enumerate() {
            text.push_str(&format!("earlier {} {}", older.date(), self.digest(older.path())?));
            if k >= shown {
                text.push_str(&format!(" probe {}", self.digest(&method::probe::beside(older.path(), older.date()))?));
            }
            text.push('\n');
        }
        Ok(hex(&Sha256::digest(text.as_bytes())))
    }
}

/// What a kept folder's record says.
pub(crate) struct Kept {
    pub(crate) entries: usize,
    pub(crate) files: usize,
    /// The API files' sums, for the lock.
    pub(crate) sums: Sums,
}

fn record_path(out: &Path, date: &str) -> PathBuf {
    out.join(RECORDS_DIR).join(date)
}

/// A file's or folder's time as the record keeps it: nanoseconds since the epoch.
pub(crate) fn mtime_of(meta: &fs::Metadata) -> i128 {
    i128::from(meta.mtime()) * 1_000_000_000 + i128::from(meta.mtime_nsec())
}

/// The word that starts a folder's line in a record (a file's starts with its digest).
const FOLDER: &str = "folder";

/// A record's first line: the inputs' digest it was built from.
fn inputs_line(inputs: &str) -> String {
    format!("inputs {inputs}")
}

/// Whether the record of the folder of `date` names `inputs` (its first line only).
pub(crate) fn recorded(out: &Path, date: &str, inputs: &str) -> bool {
    use std::io::BufRead;
    let mut first = String::new();
    fs::File::open(record_path(out, date))
        .and_then(|f| std::io::BufReader::new(f).read_line(&mut first))
        .is_ok_and(|_| first.trim_end() == inputs_line(inputs))
}

/// The folder of `date` in `out`, when its record names `inputs` and its files are the
/// recorded ones; `None` when it must be rendered again.
///
/// Its folders are not read: a folder's time changes whenever a name in it is added,
/// removed or renamed, so with every recorded folder at its recorded time, the tree
/// holds exactly the recorded names, and one `stat` of each name says the rest. Reading
/// every folder again cost three times the system calls (issue 33: at 52 weeks the check
/// of kept folders was the build's largest cost after the new folder).
fn kept(out: &Path, date: &str, inputs: &str) -> Option<Kept> {
    let text = fs::read_to_string(record_path(out, date)).ok()?;
    let mut lines = text.lines();
    if lines.next()? != inputs_line(inputs) {
        return None;
    }
    let entries = lines.next()?.strip_prefix("entries ")?.parse().ok()?;
    // Borrowed from the record's text: folders (path, time), files (path, size, time, sum).
    let mut folders: Vec<(&str, i128)> = Vec::new();
    let mut files: Vec<(&str, u64, i128, &str)> = Vec::new();
    for line in lines {
        if let Some(rest) = line.strip_prefix(FOLDER).and_then(|r| r.strip_prefix(' ')) {
            let (mtime, path) = rest.split_once(' ')?;
            folders.push((path, mtime.parse().ok()?));
        } else {
            let mut words = line.splitn(4, ' ');
            let (sum, size, mtime, path) = (words.next()?, words.next()?, words.next()?, words.next()?);
            files.push((path, size.parse().ok()?, mtime.parse().ok()?, sum));
        }
    }
    if !folders.iter().any(|(path, _)| *path == ".") {
        return None;
    }
    let folder = out.join(date);
    let at = |rel: &str| if rel == "." { folder.clone() } else { folder.join(rel) };
    let folders_intact = folders
        .par_iter()
        .all(|&(rel, mtime)| fs::symlink_metadata(at(rel)).is_ok_and(|meta| meta.is_dir() && mtime_of(&meta) == mtime));
    let intact = folders_intact
        && files.par_iter().all(|&(rel, size, mtime, sum)| {
            let path = at(rel);
            // Size and time as recorded: as built (git's check of its index). Otherwise
            // the content decides.
            fs::symlink_metadata(&path).is_ok_and(|meta| {
                meta.is_file()
                    && meta.len() == size
                    && (mtime_of(&meta) == mtime
                        || fs::read(&path).is_ok_and(|bytes| hex(&crate::lock::record_sum(rel, &bytes)) == sum))
            })
        });
    if !intact {
        return None;
    }
    let sums = files
        .iter()
        .filter(|(p, ..)| crate::lock::is_locked(p))
        .map(|&(p, .., sum)| (p.to_owned(), sum.to_owned()))
        .collect();
    Some(Kept { entries, files: files.len(), sums })
}

/// How many names are looked up at once by [`kept_all`]: a stat waits on the disk when
/// the kernel no longer holds the inode. At 52 kept folders of 15,000 listings (1.37
/// million files) on ext4 with cold caches, the check took 55 s on the machine's 2
/// threads, 19.5 s on 16 and 15 s on 64 (whose records, parsed at once, held 700 MB).
const LOOKUPS_AT_ONCE: usize = 16;

/// [`kept`] for each folder of `folders` (date, inputs), in order, checked on a pool of
/// [`LOOKUPS_AT_ONCE`] threads (the global one if it cannot be made).
pub(crate) fn kept_all(out: &Path, folders: &[(&str, &str)]) -> Vec<Option<Kept>> {
    let check = || folders.par_iter().map(|(date, inputs)| kept(out, date, inputs)).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(LOOKUPS_AT_ONCE)
        .thread_name(|k| format!("kept-{k}"))
        .start_handler(|_| yield_to_the_render());
    match pool.build() {
        Ok(pool) => pool.install(check),
        Err(_) => check(),
    }
}

/// Lowers the calling thread's priority (nice 19): the check runs beside the history read
/// of the folder to render, which it should fill the gaps of, not slow (Linux sets the
/// nice value of a single thread).
#[cfg(target_os = "linux")]
fn yield_to_the_render() {
    // SAFETY: gettid and setpriority take and return plain integers; `who` is this thread.
    unsafe {
        let tid = libc::syscall(libc::SYS_gettid) as libc::id_t;
        libc::setpriority(libc::PRIO_PROCESS, tid, 19);
    }
}

#[cfg(not(target_os = "linux"))]
fn yield_to_the_render() {}

/// Forgets the record of `date` (before its folder is replaced): a build killed before
/// the new record is written leaves no record, and the folder is built again.
pub(crate) fn forget(out: &Path, date: &str) -> Result<(), Error> {
    let path = record_path(out, date);
    match fs::remove_file(&path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(Error::io(&path, e)),
        _ => Ok(()),
    }
}

/// Records the folder of `date` just swapped in: `inputs`, `entries`, and each of its
/// files with its size and time as on disk and its digest as written (`sums`).
pub(crate) fn record(out: &Path, date: &str, inputs: &str, entries: usize, sums: &FileSums) -> Result<(), Error> {
    use std::io::Write;
    let folder = out.join(date);
    // The files are the ones the build wrote, with the sizes and times their writes
    // left (no walk: at a million listings the walk was 17 s, a ninth of the build).
    // Folders are asked for their times now that every name in them is made.
    let files = sums.files();
    let mut names: Vec<&str> = vec!["."];
    names.extend(files.iter().flat_map(|f| f.path.match_indices('/').map(|(end, _)| &f.path[..end])));
    names.sort_unstable();
    names.dedup();
    let at = |rel: &str| if rel == "." { folder.clone() } else { folder.join(rel) };
    let folders: Vec<(&str, i128)> = names
        .par_iter()
        .map(|&rel| {
            let path = at(rel);
            fs::symlink_metadata(&path).map(|meta| (rel, mtime_of(&meta))).map_err(|e| Error::io(&path, e))
        })
        .collect::<Result<_, _>>()?;
    let path = record_path(out, date);
    let dir = out.join(RECORDS_DIR);
    fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let tmp = dir.join(format!(".{date}.tmp-{}", std::process::id()));
    // Written as it is made: at a million listings the record is 150 MB of text.
    let write = || -> std::io::Result<()> {
        let mut w = std::io::BufWriter::new(fs::File::create(&tmp)?);
        writeln!(w, "{}\nentries {entries}", inputs_line(inputs))?;
        for (rel, mtime) in &folders {
            writeln!(w, "{FOLDER} {mtime} {rel}")?;
        }
        for f in files {
            writeln!(w, "{} {} {} {}", hex(&f.sum[..]), f.size, f.mtime, f.path)?;
        }
        w.flush()
    };
    write().map_err(|e| Error::io(&tmp, e))?;
    fs::rename(&tmp, &path).map_err(|e| Error::io(&path, e))
}
