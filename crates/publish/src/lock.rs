//! What a published dated folder's answers are made of, locked (content/method.md#published).
//!
//! Dated paths are served as immutable, and reviewers cite them: a folder's answers must
//! not change under a new method, screening list, segment rules or asset table without
//! saying so. The lock (`content/published.lock`) holds a line per published date: the
//! versions its answers were made under and a digest of its JSON API, the method's files
//! and explore's apart (explore is versioned on its own). Beside it, `published/<date>.sums`
//! lists each file's digest, so a refusal can name the first file that differs. Pages,
//! styles and scripts are not locked: they may improve freely.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use catalogue::error::Error;
use catalogue::hash::hex;
use explore::EXPLORE_VERSION;
use method::{names, Method, DISCOVERY_METHOD_VERSION};
use site::api::method::API_VERSION;

/// The committed lock, relative to the project root.
pub const DEFAULT_LOCK: &str = "content/published.lock";

/// Under a folder's API, the files that follow explore's version rather than the method's.
const EXPLORE_PREFIX: &str = "api/explore/";

/// The versions and digests one published folder's answers were made under.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Line {
    pub(crate) date: String,
    pub(crate) method: String,
    pub(crate) screening: String,
    pub(crate) segments: String,
    pub(crate) assets: String,
    pub(crate) api: u32,
    /// SHA-256 of the method's part of the sums (every `api/` file but explore's).
    pub(crate) answers: String,
    pub(crate) explore: String,
    pub(crate) explore_answers: String,
    /// The day the line was written (UTC): a republication's corrections entry is dated
    /// no earlier. Absent on lines written before it was recorded.
    pub(crate) locked: Option<String>,
}

/// Each locked file's digest (the first 128 bits of its SHA-256, in hex), by path
/// within the dated folder, in byte order.
pub(crate) type Sums = BTreeMap<String, String>;

/// Whether the file at `path` (within a dated folder) is locked: the API's JSON files
/// (its HTML index is a page).
pub(crate) fn is_locked(path: &str) -> bool {
    path.starts_with(names::API_DIR) && path.ends_with(".json")
}

/// A file's sum as the record of an incremental build keeps it, in binary.
pub(crate) type Sum = [u8; 16];

/// The sum the record of an incremental build keeps for the file at `path`: for a locked
/// file the lock's (the first 128 bits of its SHA-256), for any other its XXH3-128. The
/// record only asks whether a file is still the one built (incremental.rs), which a fast
/// hash answers; SHA-256 of every page was a tenth of a build's time (BENCHMARKS.md,
/// "Against Hugo").
pub(crate) fn record_sum(path: &str, bytes: &[u8]) -> Sum {
    if is_locked(path) {
        Sha256::digest(bytes)[..16].try_into().expect("SHA-256 is 32 bytes")
    } else {
        xxhash_rust::xxh3::xxh3_128(bytes).to_be_bytes()
    }
}

/// A file of a folder as the build wrote it: its path within the folder, its
/// [`record_sum`], and the size and time the write left (what the record of an
/// incremental build keeps, incremental.rs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct FileSum {
    pub(crate) path: Box<str>,
    pub(crate) sum: Sum,
    pub(crate) size: u64,
    /// Nanoseconds since the epoch (`incremental::mtime_of`); 64 bits hold 1677 to 2262,
    /// and 16 bytes less a file is 17 MB less at a million listings' 1.2 million files.
    /// A time outside them is kept as `i64::MAX`, which no file's time then matches, so
    /// its content decides whether it is still the file built.
    pub(crate) mtime: i64,
}

/// Every file of a folder, in byte order of path. Kept compact (no hex, no tree): at a
/// million listings it is 1.2 million files, held to the end of the build, and as a map
/// of strings it was 200 MB of the build's peak.
#[derive(Debug, Default)]
pub(crate) struct FileSums(Vec<FileSum>);

impl FileSums {
    #[cfg(test)]
    pub(crate) fn get(&self, path: &str) -> Option<&Sum> {
        self.0.binary_search_by(|f| (*f.path).cmp(path)).ok().map(|i| &self.0[i].sum)
    }

    /// Every file, in byte order of path.
    pub(crate) fn files(&self) -> &[FileSum] {
        &self.0
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.0.len()
    }

    /// The locked files' sums, in the lock's hex.
    pub(crate) fn locked(&self) -> Sums {
        self.0.iter().filter(|f| is_locked(&f.path)).map(|f| (f.path.to_string(), hex(&f.sum))).collect()
    }
}

/// Collects a folder's files as the build hands them over and writes them: every file,
/// for the record of an incremental build (incremental.rs, [`record_sum`]); the lock
/// takes the API's ([`FileSums::locked`]).
#[derive(Debug, Default)]
pub(crate) struct Digests(std::sync::Mutex<Vec<FileSum>>);

impl Digests {
    /// A batch's sums, made on every core (while the batch is written): summed one file
    /// at a time under the lock, they were a tenth of a build's time (BENCHMARKS.md,
    /// "Against Hugo").
    pub(crate) fn sums(batch: &[(String, Vec<u8>)]) -> Vec<Sum> {
        use rayon::prelude::*;
        batch.par_iter().map(|(path, bytes)| record_sum(path, bytes)).collect()
    }

    /// Adds a batch: its files' `sums` and the `mtimes` their writes left, both in the
    /// batch's order.
    pub(crate) fn add(&self, batch: &[(String, Vec<u8>)], sums: Vec<Sum>, mtimes: impl IntoIterator<Item = i128>) {
        let files = batch.iter().zip(sums).zip(mtimes).map(|(((path, bytes), sum), mtime)| FileSum {
            path: path.as_str().into(),
            sum,
            size: bytes.len() as u64,
            mtime: i64::try_from(mtime).unwrap_or(i64::MAX),
        });
        self.0.lock().expect("not poisoned").extend(files);
    }

    /// Every file; a path handed over twice keeps its last.
    pub(crate) fn into_sums(self) -> FileSums {
        let mut all = self.0.into_inner().expect("not poisoned");
        all.reverse();
        all.sort_by(|a, b| a.path.cmp(&b.path));
        all.dedup_by(|later, earlier| later.path == earlier.path);
        all.shrink_to_fit();
        FileSums(all)
    }
}

/// The lines' digests over the sums: the method's files, and explore's.
fn digests(sums: &Sums) -> (String, String) {
    let (mut method, mut explore) = (Sha256::new(), Sha256::new());
    for (path, sum) in sums {
        let part = if path.starts_with(EXPLORE_PREFIX) { &mut explore } else { &mut method };
        part.update(format!("{sum} {path}\n").as_bytes());
    }
    (hex(&method.finalize()), hex(&explore.finalize()))
}

impl Line {
    /// The line for a folder just made under this build's versions.
    pub(crate) fn of(date: &str, method: &Method, sums: &Sums) -> Line {
        let (answers, explore_answers) = digests(sums);
        Line {
            date: date.to_owned(),
            method: DISCOVERY_METHOD_VERSION.to_owned(),
            screening: method.screen.version.clone(),
            segments: method.segments.version.clone(),
            assets: method.assets.version.clone(),
            api: API_VERSION,
            answers,
            explore: EXPLORE_VERSION.to_owned(),
            explore_answers,
            locked: Some(catalogue::snapshot::now_rfc3339()[..10].to_owned()),
        }
    }

    fn parse(text: &str) -> Option<Line> {
        let mut words = text.split_whitespace();
        let date = words.next()?.to_owned();
        let mut fields: BTreeMap<&str, &str> = BTreeMap::new();
        for word in words {
            let (key, value) = word.split_once('=')?;
            fields.insert(key, value);
        }
        let get = |k: &str| fields.get(k).map(|v| (*v).to_owned());
        Some(Line {
            date,
            method: get("method")?,
            screening: get("screening")?,
            segments: get("segments")?,
            assets: get("assets")?,
            api: get("api")?.parse().ok()?,
            answers: get("answers")?,
            explore: get("explore")?,
            explore_answers: get("explore-answers")?,
            locked: get("locked"),
        })
    }

    fn render(&self) -> String {
        let mut text = format!(
            "{} method={} screening={} segments={} assets={} api={} answers={} explore={} explore-answers={}",
            self.date,
            self.method,
            self.screening,
            self.segments,
            self.assets,
            self.api,
            self.answers,
            self.explore,
            self.explore_answers
        );
        if let Some(day) = &self.locked {
            text.push_str(&format!(" locked={day}"));
        }
        text
    }

    /// The versions that differ from `other`'s, in words ("method 1.2.0, locked 1.1.0").
    fn version_changes(&self, locked: &Line) -> Vec<String> {
        let mut changes = Vec::new();
        for (name, now, then) in [
            ("method", &self.method, &locked.method),
            ("screening", &self.screening, &locked.screening),
            ("segments", &self.segments, &locked.segments),
            ("assets", &self.assets, &locked.assets),
        ] {
            if now != then {
                changes.push(format!("{name} {now} (locked {then})"));
            }
        }
        if self.api != locked.api {
            changes.push(format!("API layout {} (locked {})", self.api, locked.api));
        }
        changes
    }
}

/// The lock file and the per-date sums beside it.
#[derive(Debug)]
pub(crate) struct Lock {
    path: PathBuf,
    lines: BTreeMap<String, Line>,
    changed: BTreeMap<String, Sums>,
}

/// What the build may do with a folder whose answers differ from its line.
#[derive(Debug, Clone, Default)]
pub struct Policy {
    /// Dates whose answers may change (`--republish`), each needing a corrections entry.
    pub republish: Vec<String>,
    /// Refuse dates missing from the lock instead of adding them (`--locked`, for CI).
    pub frozen: bool,
}

/// What checking a folder found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Not in the lock before: added.
    New,
    /// Its answers are as locked.
    Unchanged,
    /// Its answers changed, and may (republished, or a new explore version).
    Relocked(String),
}

impl Lock {
    /// Reads the lock at `path` (empty when the file does not exist yet).
    pub(crate) fn read(path: &Path) -> Result<Lock, Error> {
        let text = match fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(Error::io(path, e)),
        };
        let mut lines = BTreeMap::new();
        for (n, text) in text.lines().enumerate() {
            let text = text.trim();
            if text.is_empty() || text.starts_with('#') {
                continue;
            }
            let line = Line::parse(text).ok_or_else(|| {
                Error::content(
                    &path.display().to_string(),
                    n + 1,
                    "expected `DATE method=… screening=… segments=… assets=… api=… answers=… explore=… explore-answers=…`",
                )
            })?;
            lines.insert(line.date.clone(), line);
        }
        Ok(Lock { path: path.to_owned(), lines, changed: BTreeMap::new() })
    }

    fn sums_path(&self, date: &str) -> PathBuf {
        self.path.with_file_name("published").join(format!("{date}.sums"))
    }

    fn read_sums(&self, date: &str) -> Sums {
        fs::read_to_string(self.sums_path(date))
            .unwrap_or_default()
            .lines()
            .filter_map(|l| l.split_once(' ').map(|(sum, path)| (path.to_owned(), sum.to_owned())))
            .collect()
    }

    /// Before a folder is made: refuses a `--republish` date that no corrections entry
    /// explains, so nothing is built for nothing.
    pub(crate) fn check_policy(&self, policy: &Policy, method: &Method) -> Result<(), Error> {
        for date in &policy.republish {
            if self.republications(date, method).is_empty() {
                return Err(Error::Refused(format!(
                    "--republish {date} needs an entry in content/corrections.json saying why the published answers of \
                     {date} change: {{\"date\": \"YYYY-MM-DD\", \"kind\": \"republished\", \"snapshot\": \"{date}\", \
                     \"note\": \"what changed and why\"}} (content/method.md#published)"
                )));
            }
        }
        Ok(())
    }

    /// The `republished` entries for `date` written since its line was locked: an older
    /// one explained an earlier change.
    fn republications<'m>(&self, date: &str, method: &'m Method) -> Vec<&'m method::corrections::Correction> {
        let since = self.lines.get(date).and_then(|l| l.locked.as_deref()).unwrap_or("");
        method.corrections.republications(date).into_iter().filter(|c| c.date.as_str() >= since).collect()
    }

    /// The per-date sums file as the build would write it: checked against the one
    /// committed, which must not be edited by hand.
    fn sums_text(sums: &Sums) -> String {
        sums.iter().map(|(p, s)| format!("{s} {p}\n")).collect()
    }

    /// Checks the folder of `date` just made (its API files' `sums`) against its line,
    /// before it replaces the published one. A refusal names the date, what changed and
    /// the first differing file, and leaves the published folder as it was.
    pub(crate) fn check(&mut self, date: &str, method: &Method, sums: Sums, policy: &Policy) -> Result<Verdict, Error> {
        let mut now = Line::of(date, method, &sums);
        let Some(locked) = self.lines.get(date).cloned() else {
            if policy.frozen {
                return Err(Error::Refused(format!(
                    "{date} is not in {}: build without --locked to add it, and commit the new line",
                    self.path.display()
                )));
            }
            self.lines.insert(date.to_owned(), now);
            self.changed.insert(date.to_owned(), sums);
            return Ok(Verdict::New);
        };
        let method_same = now.answers == locked.answers && now.version_changes(&locked).is_empty();
        let explore_same = now.explore_answers == locked.explore_answers;
        if method_same && explore_same && now.explore == locked.explore {
            // The line holds; so must the sums file the line was written with.
            return match fs::read_to_string(self.sums_path(date)) {
                Ok(text) if text == Self::sums_text(&sums) => Ok(Verdict::Unchanged),
                Ok(text) => Err(self.edited_sums(date, &text, &sums)),
                Err(_) if policy.frozen => Err(Error::Refused(format!(
                    "{} is missing: a locked build checks every published date's sums; build without --locked to write it",
                    self.sums_path(date).display()
                ))),
                Err(_) => {
                    self.changed.insert(date.to_owned(), sums);
                    Ok(Verdict::Unchanged)
                }
            };
        }
        let republish = policy.republish.iter().any(|d| d == date);
        let explore_may_change = now.explore != locked.explore;
        if !republish && (!method_same || (!explore_same && !explore_may_change)) {
            return Err(self.refusal(date, &now, &locked, &sums, !method_same));
        }
        let said = if republish {
            // The entry must name this change's digest: an entry left from an earlier
            // republication of the same date does not explain this one.
            let digest = if method_same { &now.explore_answers } else { &now.answers };
            let named = self.republications(date, method).iter().any(|c| c.answers.as_deref() == Some(digest.as_str()));
            if !named {
                return Err(Error::Refused(format!(
                    "--republish {date}: the published answers of {date} would change ({}), and no `republished` entry \
                     for {date} dated {} or later names them. Add to that entry, in content/corrections.json, \
                     \"answers\": \"{digest}\" (what this build makes), and build again (content/method.md#published)",
                    describe(&now, &locked),
                    locked.locked.as_deref().unwrap_or("any day"),
                )));
            }
            format!("republished (content/corrections.json): {}", describe(&now, &locked))
        } else {
            // Only explore's files changed, under a new explore version: they follow it.
            now.answers = locked.answers.clone();
            format!("explore {} (locked {}): explore's files follow its own version", now.explore, locked.explore)
        };
        self.lines.insert(date.to_owned(), now);
        self.changed.insert(date.to_owned(), sums);
        Ok(Verdict::Relocked(said))
    }

    /// The committed sums of `date` differ from what its unchanged folder gives: edited.
    fn edited_sums(&self, date: &str, text: &str, sums: &Sums) -> Error {
        let built = Self::sums_text(sums);
        let first = text
            .lines()
            .zip(built.lines())
            .position(|(a, b)| a != b)
            .unwrap_or_else(|| text.lines().count().min(built.lines().count()));
        Error::Refused(format!(
            "{} does not match the folder the lock describes (first difference at line {}: {} lines committed, {} \
             built): the sums are written by the build and never edited; restore the file from version control",
            self.sums_path(date).display(),
            first + 1,
            text.lines().count(),
            built.lines().count(),
        ))
    }

    fn refusal(&self, date: &str, now: &Line, locked: &Line, sums: &Sums, method_part: bool) -> Error {
        let before = self.read_sums(date);
        let in_part = |p: &&String| p.starts_with(EXPLORE_PREFIX) != method_part;
        let paths: std::collections::BTreeSet<&String> = before.keys().chain(sums.keys()).filter(in_part).collect();
        let first =
            paths.into_iter().find(|p| before.get(*p) != sums.get(*p)).map(|p| match (before.get(p), sums.get(p)) {
                (Some(_), Some(_)) => format!("{date}/{p} differs"),
                (Some(_), None) => format!("{date}/{p} would be removed"),
                _ => format!("{date}/{p} would be added"),
            });
        let first = first.unwrap_or_else(|| {
            format!("no per-file sums at {} to name the first differing file", self.sums_path(date).display())
        });
        Error::Refused(format!(
            "the published answers of {date} would change ({}); first: {first}. Dated folders are cited and cached as \
             immutable, so the previous build of {date} is untouched. If the change is meant, add a corrections entry \
             {{\"kind\": \"republished\", \"snapshot\": \"{date}\", …}} to content/corrections.json and build with \
             --republish {date} (content/method.md#published)",
            describe(now, locked)
        ))
    }

    /// Writes the lock and the sums of every date added or changed; nothing when none was.
    pub(crate) fn write(&self) -> Result<(), Error> {
        if self.changed.is_empty() {
            return Ok(());
        }
        for (date, sums) in &self.changed {
            let path = self.sums_path(date);
            write_atomically(&path, Self::sums_text(sums).as_bytes())?;
        }
        let mut text = String::from(
            "# What each published dated folder's answers are made of (content/method.md#published).\n\
             # Written by `x402dir build`: a new date is added; a changed line needs --republish DATE and a\n\
             # `republished` entry in content/corrections.json. Per-file sums: published/DATE.sums.\n",
        );
        for line in self.lines.values() {
            text.push_str(&line.render());
            text.push('\n');
        }
        write_atomically(&self.path, text.as_bytes())
    }
}

/// "method 1.3.0 (locked 1.2.0)", or that only the files differ under the same versions.
fn describe(now: &Line, locked: &Line) -> String {
    let changes = now.version_changes(locked);
    if changes.is_empty() {
        "same versions, different files".to_owned()
    } else {
        changes.join(", ")
    }
}

fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if let Some(dir) = path.parent() {
        fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    }
    let tmp = path.with_extension(format!("tmp-{}", std::process::id()));
    fs::write(&tmp, bytes).map_err(|e| Error::io(&tmp, e))?;
    fs::rename(&tmp, path).map_err(|e| Error::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hands a batch over as the build does, each file's time its place in the batch.
    fn add(d: &Digests, batch: &[(String, Vec<u8>)]) {
        d.add(batch, Digests::sums(batch), (0..batch.len()).map(|i| i as i128));
    }

    fn sums(files: &[(&str, &str)]) -> Sums {
        files.iter().map(|(p, s)| ((*p).to_owned(), (*s).to_owned())).collect()
    }

    #[test]
    fn a_line_reads_back_as_written() {
        let line = Line::of("2025-12-31", &Method::embedded(), &sums(&[("api/manifest.json", "ab")]));
        assert_eq!(Line::parse(&line.render()), Some(line));
        assert_eq!(Line::parse("2025-12-31 method=1.2.0"), None);
    }

    #[test]
    fn explore_files_are_digested_apart_from_the_method_s() {
        let base = sums(&[("api/manifest.json", "aa"), ("api/explore/manifest.json", "bb")]);
        let (m, e) = digests(&base);
        let explore_changed = sums(&[("api/manifest.json", "aa"), ("api/explore/manifest.json", "cc")]);
        assert_eq!(digests(&explore_changed).0, m);
        assert_ne!(digests(&explore_changed).1, e);
        let renamed = sums(&[("api/manifest2.json", "aa"), ("api/explore/manifest.json", "bb")]);
        assert_ne!(digests(&renamed).0, m, "a path is part of what is locked");
    }

    #[test]
    fn every_file_is_digested_and_only_api_files_are_locked() {
        let d = Digests::default();
        let file = |path: &str, bytes: &[u8]| (path.to_owned(), bytes.to_vec());
        add(&d, &[file("api/manifest.json", b"{}"), file("index.html", b"<p>")]);
        add(&d, &[file("static/composer.js", b"x"), file("api/index.html", b"<p>")]);
        let all = d.into_sums();
        assert_eq!(all.len(), 4, "every file is digested, for the record of an incremental build");
        let s = all.locked();
        assert_eq!(s.keys().collect::<Vec<_>>(), ["api/manifest.json"]);
        // SHA-256 of "{}", first 128 bits.
        assert_eq!(s["api/manifest.json"], "44136fa355b3678a1146ad16f7e8649e");
    }

    #[test]
    fn a_page_is_summed_by_xxh3_and_an_api_file_by_sha_256() {
        let d = Digests::default();
        add(&d, &[("index.html".to_owned(), Vec::new()), ("api/q/a.json".to_owned(), Vec::new())]);
        let all = d.into_sums();
        // XXH3-128 of no bytes, seed 0, as xxHash's own sanity tests give it.
        assert_eq!(hex(all.get("index.html").unwrap()), "99aa06d3014798d86001c324468d497f");
        // SHA-256 of no bytes, first 128 bits: e3b0c442 98fc1c14 9afbf4c8 996fb924.
        assert_eq!(hex(all.get("api/q/a.json").unwrap()), "e3b0c44298fc1c149afbf4c8996fb924");
        assert_eq!(all.get("api/q/b.json"), None);
    }

    /// Held for each of a million listings' 1.2 million files to the end of the build,
    /// beside the index: 48 bytes and the path (BENCHMARKS.md, "A million listings").
    #[test]
    fn a_file_s_entry_stays_small() {
        assert_eq!(std::mem::size_of::<FileSum>(), 48);
    }

    #[test]
    fn a_file_handed_over_twice_keeps_its_last_sum() {
        let d = Digests::default();
        add(&d, &[("a.html".to_owned(), b"one".to_vec()), ("b.html".to_owned(), b"b".to_vec())]);
        add(&d, &[("c.html".to_owned(), b"c".to_vec()), ("a.html".to_owned(), b"three".to_vec())]);
        let all = d.into_sums();
        assert_eq!(all.len(), 3);
        assert_eq!(all.get("a.html"), Some(&record_sum("a.html", b"three")));
        let a = &all.files()[0];
        assert_eq!((&*a.path, a.size, a.mtime), ("a.html", 5, 1), "its size and time are the last write's too");
        assert_ne!(record_sum("a.html", b"one"), record_sum("a.html", b"three"));
    }
}
