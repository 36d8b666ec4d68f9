//! Helpers shared by the integration tests.

pub mod catalogue_server;
pub mod hostile_server;
pub mod html;
pub mod memory;
pub mod prerequisites;
pub mod probes;
pub mod verdicts;
pub mod x402_stack;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use catalogue::snapshot::{Header, Snapshot, Source, FORMAT_NAME, FORMAT_VERSION};
use serde_json::Value;

pub fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// What `x402dir query --json ARGS` prints, run from the repository (so the embedded
/// default and `content/snapshots/...` paths resolve), as JSON; it must succeed. The
/// answer other clients (MCP, the Node and Deno examples) are compared with.
pub fn cli_answer(args: &[&str]) -> Value {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_x402dir"))
        .args(["query", "--json"])
        .args(args)
        .current_dir(repo_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The real dumps, as imported into content/snapshots (the embedded default).
pub fn real_snapshot(date: &str) -> Snapshot {
    Snapshot::read(&repo_root().join("content/snapshots").join(format!("{date}.json")))
        .expect("embedded snapshot reads")
}

pub const REAL_DATES: [&str; 3] = ["2025-12-18", "2025-12-31", "2026-08-20"];

/// A synthetic snapshot (for tests only) holding `items` as given.
pub fn synthetic_snapshot(date: &str, items: Vec<Value>) -> Snapshot {
    Snapshot {
        header: Header {
            format: FORMAT_NAME.into(),
            format_version: FORMAT_VERSION,
            date: date.into(),
            source: Source { url: "synthetic".into(), via: "test".into(), file: None, shape: None, sha256: None },
            taken_at: None,
            recorded_at: "2026-01-01T00:00:00Z".into(),
            reported_total: Some(items.len() as u64),
            complete: true,
            item_count: items.len(),
            notes: vec!["synthetic test data".into()],
        },
        items,
    }
}

/// Set to keep the tests' scratch folders for a look afterwards.
pub const KEEP_TEMP: &str = "X402DIR_KEEP_TEMP";

/// A scratch folder under [`temp_root`], removed with everything in it when
/// dropped (unless `X402DIR_KEEP_TEMP=1`): builds leave hundreds of megabytes, and
/// folders left by every run once filled the disk. It dereferences to `path`, the
/// folder itself or a path inside it ([`TempDir::at`]).
pub struct TempDir {
    root: PathBuf,
    path: PathBuf,
}

impl TempDir {
    /// The same scratch folder, standing for `rel` inside it: for helpers that hand out
    /// e.g. `<scratch>/public` and must keep the folder alive as long as it is used.
    pub fn at(self, rel: &str) -> TempDir {
        // Moved out without dropping `self`, which would remove the folder.
        let mut this = std::mem::ManuallyDrop::new(self);
        let (root, _) = (std::mem::take(&mut this.root), std::mem::take(&mut this.path));
        let path = root.join(rel);
        TempDir { root, path }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl std::ops::Deref for TempDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TempDir {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<std::ffi::OsStr> for TempDir {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.path.as_os_str()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        if std::env::var_os(KEEP_TEMP).is_none_or(|v| v.is_empty() || v == "0") {
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }
}

/// Room a RAM-backed folder needs for the scratch folders to go there: the most the suite
/// held at once, on two threads, was 1.2 GB (BENCHMARKS.md, "The test suite").
const RAM_ROOM_BYTES: u64 = 4 << 30;

/// Where the scratch folders go: `TMPDIR` when it is set; else `/dev/shm` when it is a
/// RAM-backed folder with [`RAM_ROOM_BYTES`] free (a container's 64 MB one is not); else the
/// system temp dir. The builds make tens of thousands of small files, and on a disk the
/// kernel's work on them was most of the suite's time: 450 s against 170 s on tmpfs.
fn temp_root() -> PathBuf {
    static ROOT: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    ROOT.get_or_init(|| {
        let shm = Path::new("/dev/shm");
        let roomy = || rustix::fs::statvfs(shm).is_ok_and(|s| s.f_bavail.saturating_mul(s.f_frsize) >= RAM_ROOM_BYTES);
        if std::env::var_os("TMPDIR").is_none() && shm.is_dir() && roomy() {
            let probe = shm.join(format!("x402dir-it-probe-{}", std::process::id()));
            if std::fs::create_dir(&probe).is_ok() && std::fs::remove_dir(&probe).is_ok() {
                return shm.to_path_buf();
            }
        }
        std::env::temp_dir()
    })
    .clone()
}

/// A fresh empty folder under [`temp_root`], never handed out twice: every suite
/// runs in this one process, so the process id alone would not keep two suites' folders
/// of the same name apart. Removed when the guard is dropped; the first call also
/// removes folders left by test processes that are gone (killed, or holding a folder
/// in a `static`, which is never dropped).
pub fn temp_dir(name: &str) -> TempDir {
    temp_dir_under(temp_root(), name)
}

/// [`temp_dir`] for a folder held in a `static`, which is never dropped: under the system
/// temp dir, so that what stays until the next run (a built site or two) does not hold
/// RAM when [`temp_root`] is `/dev/shm`.
pub fn static_temp_dir(name: &str) -> TempDir {
    temp_dir_under(std::env::temp_dir(), name)
}

fn temp_dir_under(root: PathBuf, name: &str) -> TempDir {
    static MADE: AtomicUsize = AtomicUsize::new(0);
    static SWEPT: std::sync::Once = std::sync::Once::new();
    SWEPT.call_once(|| {
        remove_folders_of_dead_runs(&temp_root());
        remove_folders_of_dead_runs(&std::env::temp_dir());
    });
    let n = MADE.fetch_add(1, Ordering::SeqCst);
    let dir = root.join(format!("x402dir-it-{name}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    TempDir { root: dir.clone(), path: dir }
}

/// Removes the `x402dir-it-<name>-<pid>-<n>` folders in `root` whose process no longer runs.
fn remove_folders_of_dead_runs(root: &Path) {
    if std::env::var_os(KEEP_TEMP).is_some_and(|v| !v.is_empty() && v != "0") || !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(root) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str().and_then(|n| n.strip_prefix("x402dir-it-")) else { continue };
        // The pid is the second-to-last dash-separated part (the name may hold dashes).
        let mut parts = name.rsplit('-');
        let (Some(_n), Some(pid)) = (parts.next(), parts.next()) else { continue };
        let Ok(pid) = pid.parse::<u32>() else { continue };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// Every file below `dir`, sorted.
pub fn all_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            // An incremental build's records (publish::incremental) are not part of the
            // site: never deployed, and with the times the files were written.
            if p.file_name().is_some_and(|n| n == publish::incremental::RECORDS_DIR) {
                continue;
            }
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

pub fn read_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(str::to_owned)
        .collect()
}

/// A synthetic v2 item with counters.
pub fn item(url: &str, description: &str, payers: Option<u64>, calls: Option<u64>) -> Value {
    let mut quality = serde_json::Map::new();
    if let Some(p) = payers {
        quality.insert("l30DaysUniquePayers".into(), p.into());
    }
    if let Some(c) = calls {
        quality.insert("l30DaysTotalCalls".into(), c.into());
    }
    serde_json::json!({
        "resource": url,
        "type": "http",
        "x402Version": 2,
        "description": description,
        "accepts": [{"scheme": "exact", "network": "eip155:8453", "amount": "10000",
                     "asset": "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", "payTo": "0x1111111111111111111111111111111111111111"}],
        "quality": quality,
    })
}

/// Small deterministic generator (xorshift64*), so a failing generated case can be replayed.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}
