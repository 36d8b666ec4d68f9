//! `x402dir fetch`: walk the public discovery catalogue into a dated snapshot.
//!
//! The API's paging rules shape the walk: `limit` is rounded to the nearest 10 and
//! clamped to 20..=1000, an offset is snapped down to a multiple of the limit, and
//! answers come from a cache up to ten minutes old, so `pagination.total` can move
//! while we walk. Coverage is therefore checked, not assumed: every offset below the
//! (possibly grown) total is fetched, identical items seen twice are reported, and a
//! walk whose distinct items do not add up to the total, or whose total went down, is
//! never stored as complete. A total that moves past a tolerance stops the walk.
//!
//! Pages go to a checkpoint file on disk as they arrive, so an interrupted walk resumes
//! where it stopped, and memory holds only a few pages in flight and a line per page;
//! the snapshot is written from the checkpoint, atomically, at the end. Caps on the
//! whole walk (listings, bytes, pages, time) bound the disk and the time it may take
//! (content/method.md#limits).

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::io::{BufRead, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Deserialize;
use serde_json::value::RawValue;
use serde_json::Value;
use sha2::Digest;
use time::format_description::well_known::Rfc2822;
use time::OffsetDateTime;
use tokio::sync::Mutex;

use super::import::CDP_DISCOVERY_URL;
use super::snapshot::{now_rfc3339, parse_date, write_streaming, Header, Source, FORMAT_NAME, FORMAT_VERSION};
use crate::error::Error;

#[derive(Debug, Clone)]
pub struct WalkConfig {
    pub base_url: String,
    /// Requested page size; the API's own rounding is applied (see `api_limit`).
    pub page_size: u32,
    /// Pages in flight at once.
    pub concurrency: usize,
    /// Least time between the starts of two requests (politeness).
    pub min_interval: Duration,
    pub request_timeout: Duration,
    pub walk_timeout: Duration,
    /// Attempts per page before giving up (the first try included).
    pub max_tries: u32,
    pub backoff_base: Duration,
    pub backoff_max: Duration,
    /// A Retry-After longer than this is not waited for: the walk gives up instead.
    pub max_retry_after: Duration,
    pub user_agent: String,
    /// Caps on the whole walk; the defaults are the published ones.
    pub caps: WalkCaps,
}

impl Default for WalkConfig {
    fn default() -> Self {
        WalkConfig {
            base_url: CDP_DISCOVERY_URL.to_owned(),
            page_size: 1000,
            concurrency: 2,
            min_interval: Duration::from_millis(500),
            request_timeout: Duration::from_secs(30),
            walk_timeout: Duration::from_secs(30 * 60),
            max_tries: 6,
            backoff_base: Duration::from_secs(1),
            backoff_max: Duration::from_secs(60),
            max_retry_after: Duration::from_secs(300),
            user_agent: format!(
                "x402dir/{} (weekly walk for a static directory of x402 resources)",
                env!("CARGO_PKG_VERSION")
            ),
            caps: WalkCaps::default(),
        }
    }
}

/// What one walk may hold, whatever the catalogue says (content/method.md#limits): past
/// any of them it stops with an error, stores nothing and keeps no checkpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WalkCaps {
    /// Listings received, repeats included; a reported total above it is refused at once.
    pub listings: u64,
    /// Bytes of page bodies kept (the checkpoint's size, about).
    pub bytes: u64,
    /// Pages; a total that would need more is refused at once.
    pub pages: u64,
}

impl Default for WalkCaps {
    fn default() -> Self {
        WalkCaps { listings: MAX_TOTAL, bytes: MAX_WALK_BYTES, pages: MAX_WALK_PAGES }
    }
}

/// Largest page body accepted: a full page of 1,000 items is a few MB. Counted as the
/// bytes arrive, whatever the headers say, error responses included.
pub(crate) const MAX_PAGE_BYTES: u64 = 64 << 20;

/// Most JSON values (objects, arrays, strings, numbers, ...) one page may hold. A real
/// page of 1,000 items holds about 72,000 (the largest real item, 487); parsed, each
/// value takes some 80 bytes, so 64 MB of `[0,0,0,...]` would take gigabytes: a page
/// over this is refused before it is parsed.
pub(crate) const MAX_PAGE_VALUES: u64 = 2_000_000;

/// The largest `pagination.total` a walk follows, and the most listings it receives: the
/// most items an import accepts.
pub(crate) const MAX_TOTAL: u64 = super::import::MAX_ITEMS as u64;

/// The most bytes of pages one walk keeps: 1 GiB, some 70 times the live catalogue
/// (15,155 listings of about 1 KB in August 2026).
pub(crate) const MAX_WALK_BYTES: u64 = 1 << 30;

/// The most pages one walk reads: the live catalogue takes 16 at the default size and
/// 758 at the smallest (20).
pub(crate) const MAX_WALK_PAGES: u64 = 10_000;

/// How far `pagination.total` may move from the first page's during a walk: 1 % of
/// it, and never less than 100 listings (content/method.md#limits).
pub(crate) fn total_tolerance(first: u64) -> u64 {
    first.div_ceil(100).max(100)
}

/// Most redirects followed for one request, all within the walk's host.
pub(crate) const MAX_REDIRECTS: usize = 3;

/// How much of an error response's body is read, to quote its start.
const ERROR_BODY_BYTES: u64 = 4096;

/// The page size the API will actually use for a requested `limit`.
pub(crate) fn api_limit(requested: u32) -> u32 {
    (requested.saturating_add(5) / 10 * 10).clamp(20, 1000)
}

/// One page as the API sent it: the body, and where each item's text lies in it.
/// Items are not parsed until they are written out, one at a time.
#[derive(Debug)]
struct Page {
    offset: u64,
    total: u64,
    body: Vec<u8>,
    items: Vec<std::ops::Range<usize>>,
}

/// A page kept in the checkpoint: what the walk remembers of it in memory.
#[derive(Debug, Clone, Copy)]
struct Kept {
    total: u64,
    /// The highest total read before this page was asked for: a lower one here means the
    /// catalogue went down between the two answers.
    floor: u64,
    items: u64,
    /// Where its line starts in the checkpoint, and its length with the newline.
    at: u64,
    len: u64,
}

/// What a walk saw.
#[derive(Debug, Clone, Default)]
pub struct WalkReport {
    pub pages: usize,
    pub pages_resumed: usize,
    pub retries: u64,
    /// Items the walk kept (identical repeats removed).
    pub items: usize,
    pub duplicates: usize,
    /// Every `pagination.total` the API reported, in the order first seen.
    pub totals: Vec<u64>,
    pub(crate) short_pages: Vec<u64>,
    /// The first time the total went down: the highest read before a page was asked
    /// for, and the page's.
    pub(crate) went_down: Option<(u64, u64)>,
    pub complete: bool,
    pub(crate) elapsed: Duration,
}

impl WalkReport {
    pub(crate) fn final_total(&self) -> u64 {
        self.totals.iter().copied().max().unwrap_or(0)
    }

    /// Plain-language notes for the snapshot header and the summary.
    pub fn notes(&self) -> Vec<String> {
        let mut notes = Vec::new();
        if self.totals.len() > 1 {
            let seen: Vec<String> = self.totals.iter().map(u64::to_string).collect();
            notes.push(format!("pagination.total moved during the walk: {}", seen.join(" → ")));
        }
        if let Some((before, after)) = self.went_down {
            notes.push(format!(
                "pagination.total went down during the walk ({before}, then {after} for a page asked for after): \
                 listings left while it was read, so one may have been skipped unseen"
            ));
        }
        if self.duplicates > 0 {
            notes.push(format!("{} identical items appeared more than once and were kept once", self.duplicates));
        }
        if !self.short_pages.is_empty() {
            let offs: Vec<String> = self.short_pages.iter().map(u64::to_string).collect();
            notes.push(format!("pages shorter than expected at offsets {}", offs.join(", ")));
        }
        if !self.complete {
            notes.push(format!(
                "{} distinct items for a reported total of {}: incomplete",
                self.items,
                self.final_total()
            ));
        }
        notes
    }

    pub fn summary(&self) -> String {
        format!(
            "{} items in {} pages ({} from a checkpoint), {} retries, {} duplicates, total {}, {:.1} s: {}",
            self.items,
            self.pages,
            self.pages_resumed,
            self.retries,
            self.duplicates,
            self.totals.iter().map(u64::to_string).collect::<Vec<_>>().join(" → "),
            self.elapsed.as_secs_f64(),
            if self.complete { "complete" } else { "INCOMPLETE" }
        )
    }
}

/// How progress is shown: a bar on a terminal, plain lines otherwise, or nothing.
#[derive(Clone)]
pub enum Progress {
    Bar(indicatif::ProgressBar),
    Lines,
    Quiet,
}

impl Progress {
    pub fn for_stderr(quiet: bool) -> Progress {
        use std::io::IsTerminal;
        if quiet {
            Progress::Quiet
        } else if std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new(0);
            bar.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {bar:40} {pos}/{len} pages {msg}")
                    .expect("template is valid"),
            );
            Progress::Bar(bar)
        } else {
            Progress::Lines
        }
    }

    fn pages_expected(&self, n: u64) {
        if let Progress::Bar(b) = self {
            b.set_length(n);
        }
    }

    fn page_done(&self, offset: u64, items: u64, done: u64, expected: u64) {
        match self {
            Progress::Bar(b) => b.set_position(done),
            Progress::Lines => eprintln!("page {done}/{expected}: offset {offset}, {items} items"),
            Progress::Quiet => {}
        }
    }

    fn note(&self, message: &str) {
        match self {
            Progress::Bar(b) => b.println(message),
            Progress::Lines => eprintln!("{message}"),
            Progress::Quiet => {}
        }
    }

    fn finish(&self) {
        if let Progress::Bar(b) = self {
            b.finish_and_clear();
        }
    }
}

/// Why a walk ended without a result, and whether its checkpoint is worth resuming
/// from: not after a cap or a moved total, which a second run would meet again.
struct Stopped {
    error: Error,
    resumable: bool,
}

impl From<Error> for Stopped {
    fn from(error: Error) -> Stopped {
        Stopped { error, resumable: true }
    }
}

/// A stop that no resumed walk can get past.
fn stop(message: String) -> Stopped {
    Stopped { error: Error::Walk(message), resumable: false }
}

/// One checkpoint line, as read back: its items are counted here, not kept.
#[derive(Deserialize)]
struct LineHead {
    offset: u64,
    total: u64,
    /// Absent in checkpoints from before it was written: nothing then counts as a fall.
    #[serde(default)]
    floor: u64,
    items: Vec<serde::de::IgnoredAny>,
}

/// A checkpoint line's items, as their JSON text.
#[derive(Deserialize)]
struct LineItems {
    items: Vec<Box<RawValue>>,
}

/// A checkpoint line's items, as slices of the line.
#[derive(Deserialize)]
struct LineRefs<'a> {
    #[serde(borrow)]
    items: Vec<&'a RawValue>,
}

/// Longest checkpoint line read back: a page, written compactly, is never longer than
/// its body was.
const MAX_LINE_BYTES: u64 = MAX_PAGE_BYTES + (1 << 20);

/// Pages on disk as they arrive (one JSON line each), so memory holds none of them and
/// a walk can resume.
struct Checkpoint {
    path: PathBuf,
    /// The file, and its length: where the next line starts.
    file: std::sync::Mutex<(fs::File, u64)>,
}

impl Checkpoint {
    /// Opens the checkpoint for this walk, keeping the pages of an earlier, interrupted
    /// walk of the same endpoint and page size. A damaged last line (the process died
    /// mid-write) is cut off, so the pages written next start on a line of their own.
    fn open(path: &Path, base_url: &str, limit: u32) -> Result<(Checkpoint, BTreeMap<u64, Kept>), Error> {
        let io = |e| Error::io(path, e);
        let mut pages = BTreeMap::new();
        let header = serde_json::json!({"x402dir_walk": 1, "base_url": base_url, "limit": limit}).to_string();
        let mut good = 0u64;
        if let Ok(f) = fs::File::open(path) {
            let mut reader = std::io::BufReader::new(f);
            let mut line = Vec::new();
            let mut first = true;
            loop {
                line.clear();
                let n = (&mut reader).take(MAX_LINE_BYTES).read_until(b'\n', &mut line).map_err(io)? as u64;
                if n == 0 || line.last() != Some(&b'\n') {
                    break;
                }
                if first {
                    if line[..line.len() - 1] != *header.as_bytes() {
                        break;
                    }
                    first = false;
                } else {
                    let Ok(head) = serde_json::from_slice::<LineHead>(&line) else { break };
                    let kept =
                        Kept { total: head.total, floor: head.floor, items: head.items.len() as u64, at: good, len: n };
                    pages.insert(head.offset, kept);
                }
                good += n;
            }
        }
        let mut file = if good == 0 {
            let mut f = fs::File::create(path).map_err(io)?;
            writeln!(f, "{header}").map_err(io)?;
            good = header.len() as u64 + 1;
            f
        } else {
            let f = fs::OpenOptions::new().write(true).open(path).map_err(io)?;
            f.set_len(good).map_err(io)?;
            f
        };
        file.seek(std::io::SeekFrom::Start(good)).map_err(io)?;
        Ok((Checkpoint { path: path.to_path_buf(), file: std::sync::Mutex::new((file, good)) }, pages))
    }

    /// Whether the checkpoint at `path` holds a page after its header line.
    fn holds_pages(path: &Path) -> bool {
        let Ok(f) = fs::File::open(path) else { return false };
        let mut lines = std::io::BufReader::new(f).split(b'\n');
        lines.next();
        lines.next().is_some_and(|line| line.is_ok_and(|l| !l.is_empty()))
    }

    /// Writes `page` as one line, each item parsed and written compactly in turn (the
    /// snapshot's own form, so identical items are identical text), and flushes it to
    /// disk. A line that fails half-way is cut off again.
    fn append(&self, page: &Page, floor: u64) -> Result<Kept, Error> {
        let mut guard = self.file.lock().expect("checkpoint lock");
        let (file, len) = &mut *guard;
        let at = *len;
        let written = (|| -> Result<u64, Error> {
            let io = |e| Error::io(&self.path, e);
            let mut w = std::io::BufWriter::with_capacity(1 << 16, &mut *file);
            write!(w, "{{\"offset\":{},\"total\":{},\"floor\":{floor},\"items\":[", page.offset, page.total)
                .map_err(io)?;
            for (i, range) in page.items.iter().enumerate() {
                if i > 0 {
                    w.write_all(b",").map_err(io)?;
                }
                let item: Value = super::import::strict_item(&page.body[range.clone()]).map_err(|e| {
                    Error::Walk(format!("page at offset {}: item {i} cannot be read: {e}", page.offset))
                })?;
                serde_json::to_writer(&mut w, &item).map_err(|e| io(e.into()))?;
            }
            w.write_all(b"]}\n").map_err(io)?;
            w.flush().map_err(io)?;
            drop(w);
            file.sync_data().map_err(io)?;
            file.stream_position().map_err(io)
        })();
        match written {
            Ok(end) => {
                *len = end;
                Ok(Kept { total: page.total, floor, items: page.items.len() as u64, at, len: end - at })
            }
            Err(e) => {
                let _ = file.set_len(at).and_then(|()| file.seek(std::io::SeekFrom::Start(at)).map(drop));
                Err(e)
            }
        }
    }
}

/// Reads the checkpoint line of `kept` from `file` into `buf`.
fn read_line(file: &mut fs::File, path: &Path, kept: &Kept, buf: &mut Vec<u8>) -> Result<(), Error> {
    buf.resize(kept.len as usize, 0);
    file.seek(std::io::SeekFrom::Start(kept.at)).and_then(|_| file.read_exact(buf)).map_err(|e| Error::io(path, e))
}

/// What is counted against the caps as pages are kept, from every task at once.
struct Budget {
    caps: WalkCaps,
    pages: AtomicU64,
    listings: AtomicU64,
    bytes: AtomicU64,
}

impl Budget {
    /// Counts a page of `items` items and `bytes` bytes, or says which cap it passes:
    /// checked before the page is written, so the checkpoint never passes a cap.
    fn take(&self, offset: u64, items: u64, bytes: u64) -> Result<(), Stopped> {
        let caps = &self.caps;
        let pages = self.pages.fetch_add(1, Ordering::SeqCst) + 1;
        let listings = self.listings.fetch_add(items, Ordering::SeqCst) + items;
        let total_bytes = self.bytes.fetch_add(bytes, Ordering::SeqCst) + bytes;
        let passed = if pages > caps.pages {
            format!("{pages} pages, past the walk's cap of {} pages", caps.pages)
        } else if listings > caps.listings {
            format!("{listings} listings, past the walk's cap of {} listings", caps.listings)
        } else if total_bytes > caps.bytes {
            format!("{total_bytes} bytes of pages, past the walk's cap of {} bytes", caps.bytes)
        } else {
            return Ok(());
        };
        Err(stop(format!("the page at offset {offset} would make {passed}; nothing was stored")))
    }
}

/// Why a single request did not give a usable page.
enum Failure {
    /// Worth another try: 429, 5xx, a dropped connection, a timeout, a cut body.
    Transient { reason: String, retry_after: Option<Duration> },
    /// Not worth another try: another 4xx, a redirect not followed, or a page that
    /// contradicts the paging rules.
    Permanent(String),
}

struct Walker {
    client: reqwest::Client,
    config: WalkConfig,
    limit: u32,
    retries: AtomicU64,
    next_start: Mutex<Instant>,
    budget: Budget,
}

/// The top of a page, its items left as text in the body.
#[derive(Deserialize)]
struct PageShape<'a> {
    pagination: Option<Value>,
    #[serde(borrow)]
    items: Option<&'a RawValue>,
}

impl Walker {
    /// Waits for this request's turn under the polite rate.
    async fn pace(&self) {
        let mut next = self.next_start.lock().await;
        let now = Instant::now();
        if *next > now {
            tokio::time::sleep(*next - now).await;
        }
        *next = Instant::now() + self.config.min_interval;
    }

    async fn try_page(&self, offset: u64) -> Result<Page, Failure> {
        self.pace().await;
        let url = format!("{}?limit={}&offset={offset}", self.config.base_url, self.limit);
        let transient = |reason: String| Failure::Transient { reason, retry_after: None };
        let resp = self.client.get(&url).send().await.map_err(|e| {
            if e.is_redirect() {
                // The policy's own words: where the redirect pointed, and why not there.
                Failure::Permanent(innermost(&e))
            } else {
                transient(describe_reqwest(&e))
            }
        })?;
        let status = resp.status();
        if status.as_u16() == 429 || status.is_server_error() {
            let retry_after =
                resp.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(parse_retry_after);
            return Err(Failure::Transient { reason: format!("HTTP {status}"), retry_after });
        }
        if status.is_redirection() {
            // A redirect the client did not follow: one to no URL it can request
            // (`file:`, say) reaches here rather than the redirect policy.
            return Err(Failure::Permanent(match resp.headers().get(reqwest::header::LOCATION) {
                Some(to) => format!(
                    "HTTP {status} redirecting to {:?}: a walk follows redirects only to http or https on the same \
                     host",
                    String::from_utf8_lossy(to.as_bytes()).chars().take(200).collect::<String>()
                ),
                None => format!("HTTP {status} with no Location to follow"),
            }));
        }
        if !status.is_success() {
            // Only the start is quoted, so only the start is read, however long the body.
            let body = match read_body(resp, ERROR_BODY_BYTES).await {
                Ok(Body::Whole(bytes) | Body::Over(bytes)) => bytes,
                Err(_) => Vec::new(),
            };
            let text = String::from_utf8_lossy(&body);
            return Err(Failure::Permanent(format!("HTTP {status}: {}", text.chars().take(200).collect::<String>())));
        }
        if let Some(n) = resp.content_length().filter(|&n| n > MAX_PAGE_BYTES) {
            return Err(Failure::Permanent(format!("a page of {n} bytes is more than the {MAX_PAGE_BYTES} allowed")));
        }
        let bytes = match read_body(resp, MAX_PAGE_BYTES).await {
            Ok(Body::Whole(bytes)) => bytes,
            Ok(Body::Over(_)) => {
                return Err(Failure::Permanent(format!(
                    "the page's body passed the {MAX_PAGE_BYTES} bytes allowed and was not read further"
                )))
            }
            Err(e) => return Err(transient(format!("body cut off: {}", describe_reqwest(&e)))),
        };
        let values = count_values(&bytes);
        if values > MAX_PAGE_VALUES {
            return Err(Failure::Permanent(format!(
                "a page of {values} JSON values is more than the {MAX_PAGE_VALUES} allowed (a real page of 1,000 \
                 items holds about 72,000)"
            )));
        }
        self.check_page(offset, bytes)
    }

    /// A page must say what it is: the offset and limit we asked for, a total, items.
    /// Only its top is parsed here; each item stays text until it is written out.
    fn check_page(&self, offset: u64, body: Vec<u8>) -> Result<Page, Failure> {
        let shape: PageShape = serde_json::from_slice(&body).map_err(|e| Failure::Transient {
            reason: format!("truncated or invalid JSON ({e})"),
            retry_after: None,
        })?;
        let p = shape.pagination.unwrap_or(Value::Null);
        let (Some(got_offset), Some(got_limit), Some(total)) =
            (p["offset"].as_u64(), p["limit"].as_u64(), p["total"].as_u64())
        else {
            return Err(Failure::Permanent("no pagination {limit, offset, total} in the response".into()));
        };
        if got_offset != offset || got_limit != self.limit as u64 {
            return Err(Failure::Permanent(format!(
                "asked for limit {} offset {offset}, got limit {got_limit} offset {got_offset}",
                self.limit
            )));
        }
        let items: Vec<&RawValue> = match shape.items.map(|raw| serde_json::from_str(raw.get())) {
            Some(Ok(items)) => items,
            _ => return Err(Failure::Permanent("no items list in the response".into())),
        };
        if items.len() > self.limit as usize {
            return Err(Failure::Permanent(format!("{} items on a page of {}", items.len(), self.limit)));
        }
        // Each item is a slice of the body: where it lies is all that is kept.
        let start = body.as_ptr() as usize;
        let items = items
            .iter()
            .map(|item| {
                let at = item.get().as_ptr() as usize - start;
                at..at + item.get().len()
            })
            .collect();
        Ok(Page { offset, total, body, items })
    }

    /// Refuses a page whose total the walk cannot follow: past the caps, or moved from
    /// the first page's (`first`) by more than the tolerance.
    fn check_total(&self, total: u64, first: u64) -> Result<(), Stopped> {
        let caps = &self.config.caps;
        if total > caps.listings {
            return Err(stop(format!(
                "pagination.total is {total}, more than the {} items a walk accepts (the live catalogue holds tens \
                 of thousands)",
                caps.listings
            )));
        }
        let pages = total.div_ceil(self.limit as u64);
        if pages > caps.pages {
            return Err(stop(format!(
                "pagination.total is {total}, {pages} pages of {}, past the walk's cap of {} pages; ask for larger \
                 pages with --page-size",
                self.limit, caps.pages
            )));
        }
        let tolerance = total_tolerance(first);
        if total.abs_diff(first) > tolerance {
            return Err(stop(format!(
                "pagination.total moved from {first} to {total} during the walk, more than the {tolerance} allowed: \
                 the pages do not read one catalogue; nothing was stored"
            )));
        }
        Ok(())
    }

    async fn page(&self, offset: u64, progress: &Progress) -> Result<Page, Error> {
        let mut last = String::new();
        for attempt in 1..=self.config.max_tries {
            match self.try_page(offset).await {
                Ok(page) => return Ok(page),
                Err(Failure::Permanent(reason)) => {
                    return Err(Error::Walk(format!("page at offset {offset}: {reason}")));
                }
                Err(Failure::Transient { reason, retry_after }) => {
                    last = reason;
                    if attempt == self.config.max_tries {
                        break;
                    }
                    let wait = match retry_after {
                        Some(d) if d > self.config.max_retry_after => {
                            return Err(Error::Walk(format!(
                                "page at offset {offset}: {last}, and the server asks to wait {} s, longer than the {} s allowed",
                                d.as_secs(),
                                self.config.max_retry_after.as_secs()
                            )))
                        }
                        Some(d) => d,
                        None => self.backoff(attempt),
                    };
                    self.retries.fetch_add(1, Ordering::Relaxed);
                    progress.note(&format!(
                        "offset {offset}: {last}; retrying in {:.1} s (try {}/{})",
                        wait.as_secs_f64(),
                        attempt + 1,
                        self.config.max_tries
                    ));
                    tokio::time::sleep(wait).await;
                }
            }
        }
        Err(Error::Walk(format!(
            "page at offset {offset}: gave up after {} tries; last: {last}",
            self.config.max_tries
        )))
    }

    /// Fetches the page at `offset`, checks its total against the first page's (its
    /// own, for the first page) and the caps, and writes it to the checkpoint.
    async fn keep_page(
        &self,
        checkpoint: &Checkpoint,
        offset: u64,
        first: Option<u64>,
        floor: u64,
        progress: &Progress,
    ) -> Result<(u64, Kept), Stopped> {
        let page = self.page(offset, progress).await?;
        self.check_total(page.total, first.unwrap_or(page.total))?;
        self.budget.take(offset, page.items.len() as u64, page.body.len() as u64)?;
        Ok((offset, checkpoint.append(&page, floor)?))
    }

    /// Exponential backoff with jitter: between half and all of base·2^(attempt-1).
    fn backoff(&self, attempt: u32) -> Duration {
        let full = self.config.backoff_base.saturating_mul(1 << (attempt - 1).min(16)).min(self.config.backoff_max);
        let nanos = full.as_nanos() as u64;
        Duration::from_nanos(nanos / 2 + jitter(nanos / 2 + 1))
    }
}

/// Redirects are followed only to http or https on the walk's own host (scheme, name
/// and port), and only a few: the snapshot is stored under that host's name.
fn redirect_policy() -> reqwest::redirect::Policy {
    reqwest::redirect::Policy::custom(|attempt| {
        let next = attempt.url().clone();
        let first = attempt.previous().first().cloned().unwrap_or_else(|| next.clone());
        if !matches!(next.scheme(), "http" | "https") {
            attempt.error(format!("redirected to {next}: a walk follows redirects only to http or https"))
        } else if origin(&next) != origin(&first) {
            attempt.error(format!(
                "redirected from {} to {} ({next}): a walk follows redirects only on the same host, whose name the \
                 snapshot is stored under",
                origin(&first),
                origin(&next)
            ))
        } else if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error(format!("more than {MAX_REDIRECTS} redirects, the last to {next}"))
        } else {
            attempt.follow()
        }
    })
}

/// `scheme://host[:port]`, the port as written or the scheme's own.
fn origin(url: &reqwest::Url) -> String {
    let port = url.port().map(|p| format!(":{p}")).unwrap_or_default();
    format!("{}://{}{port}", url.scheme(), url.host_str().unwrap_or(""))
}

/// A response body as read: whole, or cut off once it passed the limit.
enum Body {
    Whole(Vec<u8>),
    /// The first bytes (a little over the limit); the rest was never read.
    Over(Vec<u8>),
}

/// Reads `resp`'s body chunk by chunk, counting as the bytes arrive: a body with no
/// length, or a chunked one that never ends, is stopped as soon as it passes `limit`
/// instead of after it has filled memory.
async fn read_body(mut resp: reqwest::Response, limit: u64) -> Result<Body, reqwest::Error> {
    let mut body = Vec::with_capacity(resp.content_length().unwrap_or(0).min(limit) as usize);
    while let Some(chunk) = resp.chunk().await? {
        body.extend_from_slice(&chunk);
        if body.len() as u64 > limit {
            return Ok(Body::Over(body));
        }
    }
    Ok(Body::Whole(body))
}

/// An upper bound on how many JSON values and keys `bytes` holds (commas, colons and openings
/// outside strings, plus one), counted without parsing: what parsing it would allocate.
fn count_values(bytes: &[u8]) -> u64 {
    let (mut count, mut in_string, mut escaped) = (1u64, false, false);
    for &b in bytes {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b',' | b':' | b'[' | b'{' => count += 1,
                _ => {}
            }
        }
    }
    count
}

/// A pseudo-random number below `n`, from the clock: enough to spread retries.
fn jitter(n: u64) -> u64 {
    let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos() as u64);
    let mut x = t ^ 0x9E37_79B9_7F4A_7C15;
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x % n
}

fn describe_reqwest(e: &reqwest::Error) -> String {
    if e.is_timeout() {
        "timed out".into()
    } else if e.is_connect() {
        "could not connect".into()
    } else {
        // The innermost cause says what happened (connection reset, closed, ...).
        format!("connection failed: {}", innermost(e))
    }
}

/// The innermost cause of `e`, as text.
fn innermost(e: &reqwest::Error) -> String {
    let mut source: &dyn std::error::Error = e;
    while let Some(s) = source.source() {
        source = s;
    }
    source.to_string()
}

/// `Retry-After` as seconds or an HTTP date.
pub(crate) fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let when = OffsetDateTime::parse(value, &Rfc2822).ok()?;
    let secs = (when - OffsetDateTime::now_utc()).whole_seconds().max(0) as u64;
    Some(Duration::from_secs(secs))
}

/// A walk that reached its end: the pages kept in the checkpoint, by offset, and the
/// report so far (items and completeness are counted from the checkpoint after).
struct Walked {
    pages: BTreeMap<u64, Kept>,
    report: WalkReport,
    limit: u32,
}

/// Walks the catalogue into the checkpoint. An error that a resumed walk could get past
/// leaves the checkpoint in place for it.
async fn walk(config: &WalkConfig, checkpoint_path: &Path, progress: &Progress) -> Result<Walked, Stopped> {
    let started = Instant::now();
    let limit = api_limit(config.page_size);
    let client = reqwest::Client::builder()
        .user_agent(&config.user_agent)
        .timeout(config.request_timeout)
        .redirect(redirect_policy())
        .build()
        .map_err(|e| Error::Walk(format!("cannot start an HTTP client: {e}")))?;
    let walker = Arc::new(Walker {
        client,
        config: config.clone(),
        limit,
        retries: AtomicU64::new(0),
        next_start: Mutex::new(Instant::now()),
        budget: Budget {
            caps: config.caps,
            pages: AtomicU64::new(0),
            listings: AtomicU64::new(0),
            bytes: AtomicU64::new(0),
        },
    });
    let (checkpoint, mut pages) = Checkpoint::open(checkpoint_path, &config.base_url, limit)?;
    let checkpoint = Arc::new(checkpoint);
    let mut report = WalkReport { pages_resumed: pages.len(), ..WalkReport::default() };
    if !pages.is_empty() {
        progress.note(&format!("resuming from a checkpoint with {} pages", pages.len()));
    }
    // Every page read is seen here, in the order its answer came: its total is
    // recorded, and one below the highest read before it was asked for is a fall.
    fn seen(report: &mut WalkReport, kept: &Kept) {
        if kept.total < kept.floor && report.went_down.is_none() {
            report.went_down = Some((kept.floor, kept.total));
        }
        if !report.totals.contains(&kept.total) {
            report.totals.push(kept.total);
        }
    }
    // A resumed checkpoint counts against the caps and the tolerance as if just read.
    let first = pages.get(&0).map(|k| k.total);
    for (&offset, kept) in &pages {
        walker.check_total(kept.total, first.unwrap_or(kept.total))?;
        walker.budget.take(offset, kept.items, kept.len)?;
        seen(&mut report, kept);
    }
    let first = match first {
        Some(first) => first,
        None => {
            let (_, kept) = walker.keep_page(&checkpoint, 0, None, report.final_total(), progress).await?;
            seen(&mut report, &kept);
            progress.page_done(0, kept.items, 1, kept.total.div_ceil(limit as u64));
            pages.insert(0, kept);
            kept.total
        }
    };
    // Page requests are made lazily, at most `concurrency` in flight: the next offset
    // is taken only when a request ends, below the total as known then (it may grow).
    // Making them all up front, for a total of 10^15, filled memory before the first
    // was awaited, and the walk's deadline never got a turn.
    let in_flight = config.concurrency.max(1);
    let mut next_offset = 0u64;
    let mut tasks = tokio::task::JoinSet::new();
    loop {
        while tasks.len() < in_flight {
            let total = report.final_total();
            while next_offset < total && pages.contains_key(&next_offset) {
                next_offset += limit as u64;
            }
            if next_offset >= total {
                break;
            }
            // The highest total read so far: the page's answer comes after all of them.
            let floor = report.final_total();
            let (walker, checkpoint, progress, offset) =
                (walker.clone(), checkpoint.clone(), progress.clone(), next_offset);
            tasks.spawn(async move { walker.keep_page(&checkpoint, offset, Some(first), floor, &progress).await });
            next_offset += limit as u64;
        }
        progress.pages_expected(report.final_total().div_ceil(limit as u64));
        let Some(done) = tasks.join_next().await else { break };
        let (offset, kept) = done.map_err(|e| Error::Walk(format!("a page task failed: {e}")))??;
        seen(&mut report, &kept);
        let expected = report.final_total().div_ceil(limit as u64);
        progress.page_done(offset, kept.items, pages.len() as u64 + 1, expected);
        pages.insert(offset, kept);
    }
    report.retries = walker.retries.load(Ordering::Relaxed);
    report.pages = pages.len();
    report.elapsed = started.elapsed();
    Ok(Walked { pages, report, limit })
}

/// The first 128 bits of an item's SHA-256: identical items are identical text in the
/// checkpoint, and kept once.
fn digest(text: &str) -> u128 {
    let hash = sha2::Sha256::digest(text.as_bytes());
    u128::from_le_bytes(hash[..16].try_into().expect("16 bytes"))
}

/// Counts the walked items from the checkpoint, a page at a time: how many are distinct,
/// and the places (in catalogue order) of the repeats, to leave out when writing. Fills
/// in the report's counts and completeness.
fn count_items(walked: &mut Walked, path: &Path) -> Result<Vec<u64>, Error> {
    let Walked { pages, report, limit } = walked;
    let total = report.final_total();
    let received: u64 = pages.values().map(|k| k.items).sum();
    let mut seen: HashSet<u128> = HashSet::with_capacity(received as usize);
    let mut repeats = Vec::new();
    let mut file = fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut buf = Vec::new();
    let mut at = 0u64;
    for (&offset, kept) in pages.iter() {
        let expected = (*limit as u64).min(total.saturating_sub(offset));
        if kept.items < expected {
            report.short_pages.push(offset);
        }
        read_line(&mut file, path, kept, &mut buf)?;
        let line: LineRefs = serde_json::from_slice(&buf)
            .map_err(|e| Error::input(path, format!("the checkpoint's page at offset {offset} is damaged: {e}")))?;
        for item in line.items {
            if !seen.insert(digest(item.get())) {
                repeats.push(at);
            }
            at += 1;
        }
    }
    report.duplicates = repeats.len();
    report.items = seen.len();
    report.complete = report.items as u64 == total && report.short_pages.is_empty() && report.went_down.is_none();
    Ok(repeats)
}

/// The walked items in catalogue order, read back from the checkpoint a page at a time,
/// repeats left out: what the snapshot is written from.
struct Items<'a> {
    file: fs::File,
    path: &'a Path,
    pages: std::collections::btree_map::Values<'a, u64, Kept>,
    page: std::vec::IntoIter<Box<RawValue>>,
    /// Places of the items to leave out, ascending.
    repeats: std::iter::Peekable<std::slice::Iter<'a, u64>>,
    at: u64,
    buf: Vec<u8>,
}

impl Iterator for Items<'_> {
    type Item = Result<Box<RawValue>, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(item) = self.page.next() {
                let at = self.at;
                self.at += 1;
                if self.repeats.next_if_eq(&&at).is_some() {
                    continue;
                }
                return Some(Ok(item));
            }
            let kept = self.pages.next()?;
            let read = read_line(&mut self.file, self.path, kept, &mut self.buf).and_then(|()| {
                serde_json::from_slice::<LineItems>(&self.buf)
                    .map_err(|e| Error::input(self.path, format!("the checkpoint is damaged: {e}")))
            });
            match read {
                Ok(line) => self.page = line.items.into_iter(),
                Err(e) => return Some(Err(e)),
            }
        }
    }
}

/// What the fetch command was asked to do.
#[derive(Debug, Clone)]
pub struct FetchRequest {
    pub config: WalkConfig,
    pub date: String,
    pub dir: PathBuf,
    pub overwrite: bool,
    /// Store an incomplete walk (marked incomplete) instead of failing.
    pub allow_incomplete: bool,
}

/// Walks the catalogue and stores the snapshot. Nothing is written into the snapshot
/// folder unless the walk succeeds (and is complete, unless allowed otherwise); a
/// failure leaves every existing snapshot untouched, and keeps the checkpoint only when
/// a second run could resume from it.
pub fn fetch(request: &FetchRequest, progress: &Progress) -> Result<(PathBuf, WalkReport), Error> {
    parse_date(&request.date).map_err(Error::Refused)?;
    let target = request.dir.join(format!("{}.json", request.date));
    super::snapshot::refuse_beside_compressed(&request.dir, &request.date)?;
    if target.exists() && !request.overwrite {
        return Err(Error::Refused(format!("{} already exists; pass --force to replace it", target.display())));
    }
    fs::create_dir_all(&request.dir).map_err(|e| Error::io(&request.dir, e))?;
    let checkpoint_path = request.dir.join(format!(".walk-{}.jsonl", request.date));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::Walk(format!("cannot start the runtime: {e}")))?;
    let outcome = runtime.block_on(async {
        tokio::time::timeout(request.config.walk_timeout, walk(&request.config, &checkpoint_path, progress)).await
    });
    // Tasks still writing a page finish it before the checkpoint is looked at.
    runtime.shutdown_timeout(Duration::from_secs(10));
    progress.finish();
    // A failed walk keeps its checkpoint only when there is something to resume from:
    // one with no page would stay among the snapshots for nothing.
    let resumable = || {
        let holds = Checkpoint::holds_pages(&checkpoint_path);
        if !holds {
            let _ = fs::remove_file(&checkpoint_path);
        }
        holds
    };
    let mut walked = match outcome {
        Ok(Ok(walked)) => walked,
        Ok(Err(Stopped { error, resumable: true })) => {
            resumable();
            return Err(error);
        }
        Ok(Err(Stopped { error, resumable: false })) => {
            let _ = fs::remove_file(&checkpoint_path);
            return Err(error);
        }
        Err(_) => {
            let next = if resumable() {
                "run again to resume from the checkpoint"
            } else {
                "no page had arrived, so there is nothing to resume"
            };
            return Err(Error::Walk(format!(
                "the walk took longer than {} s and was stopped; {next}",
                request.config.walk_timeout.as_secs()
            )));
        }
    };
    let repeats = count_items(&mut walked, &checkpoint_path).inspect_err(|_| {
        resumable();
    })?;
    let report = walked.report.clone();
    if !report.complete && !request.allow_incomplete {
        // Pages of a catalogue that moved under us cannot be completed by resuming.
        let _ = fs::remove_file(&checkpoint_path);
        return Err(Error::Walk(format!(
            "the walk is incomplete and was not stored ({}); run again, or pass --allow-incomplete to store it marked incomplete",
            report.notes().join("; ")
        )));
    }
    let now = now_rfc3339();
    let header = Header {
        format: FORMAT_NAME.into(),
        format_version: FORMAT_VERSION,
        date: request.date.clone(),
        source: Source {
            url: request.config.base_url.clone(),
            via: "walk".into(),
            file: None,
            shape: Some("api-pages".into()),
            sha256: None,
        },
        taken_at: Some(now.clone()),
        recorded_at: now,
        reported_total: Some(report.final_total()),
        complete: report.complete,
        item_count: report.items,
        notes: report.notes(),
    };
    let items = Items {
        file: fs::File::open(&checkpoint_path).map_err(|e| Error::io(&checkpoint_path, e))?,
        path: &checkpoint_path,
        pages: walked.pages.values(),
        page: Vec::new().into_iter(),
        repeats: repeats.iter().peekable(),
        at: 0,
        buf: Vec::new(),
    };
    let path = write_streaming(&request.dir, &header, request.overwrite, items)?;
    let _ = fs::remove_file(&checkpoint_path);
    Ok((path, report))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_follow_the_api_rounding_and_clamping() {
        assert_eq!(api_limit(0), 20);
        assert_eq!(api_limit(24), 20);
        assert_eq!(api_limit(25), 30);
        assert_eq!(api_limit(104), 100);
        assert_eq!(api_limit(105), 110);
        assert_eq!(api_limit(999), 1000);
        assert_eq!(api_limit(5000), 1000);
    }

    #[test]
    fn values_are_counted_outside_strings_only() {
        assert_eq!(count_values(b"1"), 1);
        // Keys count too: each is a string allocated when parsed.
        assert_eq!(count_values(br#"{"a":[1,2,{"b":"x"}]}"#), 8);
        // Commas, colons and brackets inside strings, escaped quotes included, are text.
        assert_eq!(count_values(br#"["a,b:[{", "say \"[,]\" \\", 3]"#), 4);
        let page: Value = serde_json::from_str(r#"{"items":[{"a":1},{"b":[true,null]}],"p":{"t":2}}"#).unwrap();
        fn nodes(v: &Value) -> u64 {
            match v {
                Value::Array(a) => 1 + a.iter().map(nodes).sum::<u64>(),
                Value::Object(o) => 1 + o.values().map(|v| 1 + nodes(v)).sum::<u64>(),
                _ => 1,
            }
        }
        assert!(count_values(page.to_string().as_bytes()) >= nodes(&page));
    }

    #[test]
    fn the_total_may_move_by_one_percent_and_never_less_than_a_hundred() {
        assert_eq!(total_tolerance(0), 100);
        assert_eq!(total_tolerance(1400), 100);
        assert_eq!(total_tolerance(15155), 152);
        assert_eq!(total_tolerance(MAX_TOTAL), 50_000);
    }

    #[test]
    fn a_redirect_is_named_by_scheme_host_and_port() {
        let url = |s: &str| reqwest::Url::parse(s).unwrap();
        assert_eq!(origin(&url("https://api.cdp.coinbase.com/platform?x=1")), "https://api.cdp.coinbase.com");
        assert_eq!(origin(&url("http://127.0.0.1:8402/a")), "http://127.0.0.1:8402");
        // The scheme's own port is the same host.
        assert_eq!(origin(&url("https://a.example:443/")), origin(&url("https://a.example/")));
    }

    #[test]
    fn retry_after_reads_seconds_and_dates() {
        assert_eq!(parse_retry_after("3"), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT"), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon"), None);
    }
}
