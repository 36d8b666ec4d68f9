//! `x402dir fetch`: walk the public discovery catalogue into a dated snapshot.
//!
//! The API's paging rules shape the walk: `limit` is rounded to the nearest 10 and
//! clamped to 20..=1000, an offset is snapped down to a multiple of the limit, and
//! answers come from a cache up to ten minutes old, so `pagination.total` can move
//! while we walk. Coverage is therefore checked, not assumed: every offset below the
//! (possibly grown) total is fetched, identical items seen twice are reported, and a
//! walk whose distinct items do not add up to the total is never stored as complete.
//!
//! Pages are appended to a checkpoint file as they arrive, so an interrupted walk
//! resumes where it stopped; the snapshot itself is written atomically only at the end.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use time::format_description::well_known::Rfc2822;
use time::OffsetDateTime;
use tokio::sync::Mutex;

use super::import::CDP_DISCOVERY_URL;
use super::snapshot::{now_rfc3339, parse_date, Header, Snapshot, Source, FORMAT_NAME, FORMAT_VERSION};
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
        }
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

/// The largest `pagination.total` a walk follows: the most items an import accepts.
pub(crate) const MAX_TOTAL: u64 = super::import::MAX_ITEMS as u64;

/// How much of an error response's body is read, to quote its start.
const ERROR_BODY_BYTES: u64 = 4096;

/// The page size the API will actually use for a requested `limit`.
pub(crate) fn api_limit(requested: u32) -> u32 {
    (requested.saturating_add(5) / 10 * 10).clamp(20, 1000)
}

/// One page as the API sent it.
#[derive(Debug, Clone)]
pub(crate) struct Page {
    pub(crate) offset: u64,
    pub(crate) total: u64,
    pub(crate) items: Vec<Value>,
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

    fn page_done(&self, offset: u64, items: usize, done: u64, expected: u64) {
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

/// Appends pages as they arrive (one JSON line each) so a walk can resume.
struct Checkpoint {
    path: PathBuf,
    file: std::sync::Mutex<fs::File>,
}

impl Checkpoint {
    /// Opens the checkpoint for this walk, keeping the pages of an earlier, interrupted
    /// walk of the same endpoint and page size. A damaged last line (the process died
    /// mid-write) is ignored.
    fn open(path: &Path, base_url: &str, limit: u32) -> Result<(Checkpoint, BTreeMap<u64, Page>), Error> {
        let mut pages = BTreeMap::new();
        let header = json!({"x402dir_walk": 1, "base_url": base_url, "limit": limit});
        let mut resumable = false;
        if let Ok(f) = fs::File::open(path) {
            let mut lines = std::io::BufReader::new(f).lines();
            if let Some(Ok(first)) = lines.next() {
                resumable = serde_json::from_str::<Value>(&first).ok().as_ref() == Some(&header);
            }
            if resumable {
                for line in lines.map_while(Result::ok) {
                    let Ok(v) = serde_json::from_str::<Value>(&line) else { break };
                    if let (Some(offset), Some(total), Some(items)) =
                        (v["offset"].as_u64(), v["total"].as_u64(), v["items"].as_array())
                    {
                        pages.insert(offset, Page { offset, total, items: items.clone() });
                    }
                }
            }
        }
        if !resumable {
            let mut f = fs::File::create(path).map_err(|e| Error::io(path, e))?;
            writeln!(f, "{header}").map_err(|e| Error::io(path, e))?;
        }
        let file = fs::OpenOptions::new().append(true).open(path).map_err(|e| Error::io(path, e))?;
        Ok((Checkpoint { path: path.to_path_buf(), file: std::sync::Mutex::new(file) }, pages))
    }

    /// Whether the checkpoint at `path` holds a page after its header line.
    fn holds_pages(path: &Path) -> bool {
        let Ok(f) = fs::File::open(path) else { return false };
        let mut lines = std::io::BufReader::new(f).split(b'\n');
        lines.next();
        lines.next().is_some_and(|line| line.is_ok_and(|l| !l.is_empty()))
    }

    fn append(&self, page: &Page) -> Result<(), Error> {
        let line = json!({"offset": page.offset, "total": page.total, "items": page.items});
        let mut f = self.file.lock().expect("checkpoint lock");
        writeln!(f, "{line}").and_then(|_| f.sync_data()).map_err(|e| Error::io(&self.path, e))
    }
}

/// Why a single request did not give a usable page.
enum Failure {
    /// Worth another try: 429, 5xx, a dropped connection, a timeout, a cut body.
    Transient { reason: String, retry_after: Option<Duration> },
    /// Not worth another try: another 4xx, or a page that contradicts the paging rules.
    Permanent(String),
}

struct Walker {
    client: reqwest::Client,
    config: WalkConfig,
    limit: u32,
    retries: AtomicU64,
    next_start: Mutex<Instant>,
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
        let resp = self.client.get(&url).send().await.map_err(|e| transient(describe_reqwest(&e)))?;
        let status = resp.status();
        if status.as_u16() == 429 || status.is_server_error() {
            let retry_after =
                resp.headers().get("retry-after").and_then(|v| v.to_str().ok()).and_then(parse_retry_after);
            return Err(Failure::Transient { reason: format!("HTTP {status}"), retry_after });
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
        let v: Value =
            serde_json::from_slice(&bytes).map_err(|e| transient(format!("truncated or invalid JSON ({e})")))?;
        self.check_page(offset, v).map_err(Failure::Permanent)
    }

    /// A page must say what it is: the offset and limit we asked for, a total, items.
    fn check_page(&self, offset: u64, mut v: Value) -> Result<Page, String> {
        let p = &v["pagination"];
        let (Some(got_offset), Some(got_limit), Some(total)) =
            (p["offset"].as_u64(), p["limit"].as_u64(), p["total"].as_u64())
        else {
            return Err("no pagination {limit, offset, total} in the response".into());
        };
        if got_offset != offset || got_limit != self.limit as u64 {
            return Err(format!(
                "asked for limit {} offset {offset}, got limit {got_limit} offset {got_offset}",
                self.limit
            ));
        }
        if total > MAX_TOTAL {
            return Err(format!(
                "pagination.total is {total}, more than the {MAX_TOTAL} items a walk accepts (the live catalogue \
                 holds tens of thousands)"
            ));
        }
        let Some(Value::Array(items)) = v.get_mut("items").map(Value::take) else {
            return Err("no items list in the response".into());
        };
        if items.len() > self.limit as usize {
            return Err(format!("{} items on a page of {}", items.len(), self.limit));
        }
        Ok(Page { offset, total, items })
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

    /// Exponential backoff with jitter: between half and all of base·2^(attempt-1).
    fn backoff(&self, attempt: u32) -> Duration {
        let full = self.config.backoff_base.saturating_mul(1 << (attempt - 1).min(16)).min(self.config.backoff_max);
        let nanos = full.as_nanos() as u64;
        Duration::from_nanos(nanos / 2 + jitter(nanos / 2 + 1))
    }
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
        let mut source: &dyn std::error::Error = e;
        while let Some(s) = source.source() {
            source = s;
        }
        format!("connection failed: {source}")
    }
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

/// Walks the catalogue. Returns the distinct items in catalogue order and the report;
/// an error leaves the checkpoint in place for a resumed walk.
async fn walk(
    config: &WalkConfig,
    checkpoint_path: &Path,
    progress: &Progress,
) -> Result<(Vec<Value>, WalkReport), Error> {
    let started = Instant::now();
    let limit = api_limit(config.page_size);
    let client = reqwest::Client::builder()
        .user_agent(&config.user_agent)
        .timeout(config.request_timeout)
        .build()
        .map_err(|e| Error::Walk(format!("cannot start an HTTP client: {e}")))?;
    let walker = Arc::new(Walker {
        client,
        config: config.clone(),
        limit,
        retries: AtomicU64::new(0),
        next_start: Mutex::new(Instant::now()),
    });
    let (checkpoint, mut pages) = Checkpoint::open(checkpoint_path, &config.base_url, limit)?;
    let checkpoint = Arc::new(checkpoint);
    let mut report = WalkReport { pages_resumed: pages.len(), ..WalkReport::default() };
    if !pages.is_empty() {
        progress.note(&format!("resuming from a checkpoint with {} pages", pages.len()));
    }
    fn seen_total(t: u64, report: &mut WalkReport) {
        if !report.totals.contains(&t) {
            report.totals.push(t);
        }
    }
    for p in pages.values() {
        seen_total(p.total, &mut report);
    }
    if let std::collections::btree_map::Entry::Vacant(slot) = pages.entry(0) {
        let first = walker.page(0, progress).await?;
        checkpoint.append(&first)?;
        seen_total(first.total, &mut report);
        progress.page_done(0, first.items.len(), 1, first.total.div_ceil(limit as u64));
        slot.insert(first);
    }
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
            let (walker, checkpoint, progress, offset) =
                (walker.clone(), checkpoint.clone(), progress.clone(), next_offset);
            tasks.spawn(async move {
                let page = walker.page(offset, &progress).await?;
                checkpoint.append(&page)?;
                Ok::<Page, Error>(page)
            });
            next_offset += limit as u64;
        }
        progress.pages_expected(report.final_total().div_ceil(limit as u64));
        let Some(done) = tasks.join_next().await else { break };
        let page = done.map_err(|e| Error::Walk(format!("a page task failed: {e}")))??;
        seen_total(page.total, &mut report);
        let expected = report.final_total().div_ceil(limit as u64);
        progress.page_done(page.offset, page.items.len(), pages.len() as u64 + 1, expected);
        pages.insert(page.offset, page);
    }
    report.retries = walker.retries.load(Ordering::Relaxed);
    report.pages = pages.len();

    let total = report.final_total();
    let mut seen: HashSet<String> = HashSet::new();
    let mut items = Vec::new();
    for page in pages.values() {
        let expected = (limit as u64).min(total.saturating_sub(page.offset));
        if (page.items.len() as u64) < expected {
            report.short_pages.push(page.offset);
        }
        for item in &page.items {
            if seen.insert(serde_json::to_string(item).expect("values serialise")) {
                items.push(item.clone());
            } else {
                report.duplicates += 1;
            }
        }
    }
    report.items = items.len();
    report.complete = items.len() as u64 == total && report.short_pages.is_empty();
    report.elapsed = started.elapsed();
    Ok((items, report))
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
/// failure leaves every existing snapshot untouched and keeps the checkpoint.
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
    let (items, report) = match outcome {
        Ok(Ok(walked)) => walked,
        Ok(Err(e)) => {
            resumable();
            return Err(e);
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
    if !report.complete && !request.allow_incomplete {
        // Pages of a catalogue that moved under us cannot be completed by resuming.
        let _ = fs::remove_file(&checkpoint_path);
        return Err(Error::Walk(format!(
            "the walk is incomplete and was not stored ({}); run again, or pass --allow-incomplete to store it marked incomplete",
            report.notes().join("; ")
        )));
    }
    let now = now_rfc3339();
    let snapshot = Snapshot {
        header: Header {
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
            item_count: items.len(),
            notes: report.notes(),
        },
        items,
    };
    let path = snapshot.write_into(&request.dir, request.overwrite)?;
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
    fn retry_after_reads_seconds_and_dates() {
        assert_eq!(parse_retry_after("3"), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT"), Some(Duration::ZERO));
        assert_eq!(parse_retry_after("soon"), None);
    }
}
