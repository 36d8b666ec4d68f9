//! `x402dir serve`: a local preview of the built site on loopback, sending the headers
//! and following the redirects Netlify would (netlify.toml's `[[headers]]` and
//! `[[redirects]]`, the build's `_redirects`), so a deploy can be checked before it is
//! made. Standard library only: a fixed pool of worker threads fed by a queue of
//! connections, one more thread watching the connections whose head is late and those
//! closing after their response, a cap on connections (at it, the oldest watched one
//! makes room, else a connection is answered 503 at once), a total deadline for a
//! request's head, `Connection: close`, GET and HEAD. A preview for one person at one
//! machine, not a production server, but one that keeps serving whatever a peer sends.
//!
//! Netlify semantics followed, and where they come from:
//!
//! - Header rules: every `[[headers]]` rule whose `for` matches the request path applies.
//!   When several matching rules set the same header, the rule declared later replaces the
//!   earlier one's value (no concatenation). Netlify's custom-headers docs do not say; this
//!   is what Netlify's own local emulation does: `headersForPath` in netlify/primitives
//!   (packages/headers/src/lib/headersForPath.ts, used by `netlify dev`) merges the values
//!   of all matching rules with `Object.assign` in declaration order, and Node's
//!   `setHeader` then treats names case-insensitively. Netlify's config merger says the
//!   same for two rules with the same `for` ("the later one overrides (does not
//!   concatenate)", netlify/build packages/headers-parser/src/merge.ts). It is also what
//!   this site's netlify.toml means: `/*` sets a short Cache-Control and the later `/20*`
//!   "caches it for good"; comma-joining both would give two `max-age` directives, which
//!   RFC 9111 §4.2.1 makes invalid. Some other hosts (Sevalla's `_headers`) join them
//!   with commas instead; Netlify's production edge was not observed here.
//! - `for` patterns: Netlify's own translation to a regular expression
//!   (netlify/build packages/headers-parser/src/for_regexp.ts): case-insensitive, an
//!   optional trailing slash, `:name` is one segment, a `*` standing alone as a segment
//!   matches anything (slashes included) and makes the slash before it optional (so
//!   `/latest/*` also matches `/latest` and `/latestx`), a `*` inside a segment matches
//!   anything. Unlike that code, other characters are matched literally (there a `.` is a
//!   regex wildcard).
//! - Header values: a string is trimmed and its comma-separated parts rejoined with ", "
//!   (so a multi-line TOML string is one line); an array's items are joined with ", "
//!   (normalize.ts there). The headers Netlify's docs list as not settable (Content-Length,
//!   Location, Connection, ...) are dropped with a warning.
//! - Headers are matched against the path the browser asked for, also when a 200 rule
//!   rewrites it: this netlify.toml's `/latest/*` rule is only meaningful that way.
//!   (`netlify dev` matches the rewritten path instead; the production edge was not
//!   observed.) Redirect responses get no custom headers: Netlify's docs say custom
//!   headers apply to files it serves, and `netlify dev` sends none on a redirect.
//! - Redirect rules: `_redirects` in the published folder first, then netlify.toml's
//!   `[[redirects]]` (Netlify's docs on rule order); the first rule whose `from` matches
//!   wins (Netlify's knowledge base, "How to configure netlify.toml redirects, headers,
//!   and env vars"). `from` matches with or without a trailing slash (Netlify normalises
//!   it before matching, which is why `/latest/` also gets the `/latest` 302) and, as
//!   Netlify's redirect docs say, case-sensitively, its escapes decoded; `*` at its
//!   end is the splat, `:name` one segment, both substituted into `to`. Status 301 when
//!   none is given; 3xx redirects with `Location` (the request's query string carried over
//!   when `to` has none); any other status (200, 404, ...) serves `to`'s content under the
//!   asked URL with that status. Shadowing: a rule without `!` (or `force = true`) does not
//!   apply when a file exists at the asked path. Rules with conditions, query matching,
//!   a domain in `from` or a proxy to another site are skipped with a warning.
//! - Files: `/x/` serves `x/index.html`; `/x` where `x` is a folder with an index answers
//!   301 to `/x/` (Netlify's pretty URLs); `/x` serves `x.html` when there is one
//!   (as `netlify dev` does); otherwise 404 with the site's `404.html`.

use std::collections::VecDeque;
use std::fs::{self, File};
use std::io::{self, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use catalogue::Error;

mod netlify;
use netlify::{encode_path, read_netlify_toml, NetlifyRules};
pub use netlify::{headers_for, netlify_toml_in, parse_redirects, HeaderRule, ParsedRedirects, RedirectRule};

/// 8402: 8000 plus x402's number, and rarely taken by other development servers.
pub const DEFAULT_PORT: u16 = 8402;

/// The repository's netlify.toml, for when `serve` runs outside the repository.
pub(crate) const EMBEDDED_NETLIFY_TOML: &str = include_str!("../../../netlify.toml");

/// Files in the published root that configure Netlify and are never served.
const CONFIG_FILES: [&str; 2] = ["_redirects", "_headers"];

/// Longest request head read; a browser's is a few hundred bytes.
const MAX_HEAD_BYTES: u64 = 16 * 1024;

/// Threads answering requests. A browser opens about six connections at once.
pub const WORKERS: usize = 32;
/// Connections open at once, whatever they are doing: waiting for a worker or for the
/// rest of their head, being answered, closing. At the cap, the oldest closing connection
/// (else the oldest still waiting for its head) is dropped to make room, and when there
/// is none a new connection is answered 503 at once. Fewer when the process may
/// open fewer files. BENCHMARKS.md ("serve under load") measures these numbers.
pub const MAX_CONNECTIONS: usize = 1024;
/// Connections whose head did not come at once (a slow client, or slowloris): past
/// this many the oldest is dropped once a second old, so they never take the room real
/// requests need.
pub const MAX_SLOW_HEADS: usize = 256;
/// Time a client has to send its whole request head, however slowly it trickles in.
pub const HEAD_DEADLINE: Duration = Duration::from_secs(5);
/// Time a worker waits for a head, from the accept. A client on this machine sends
/// it at once; a later one is left to the thread that watches slow connections, so
/// that no slow client holds a worker. 50 ms let slowloris' bursts hold the workers
/// long enough to double the p99 latency of real requests (BENCHMARKS.md).
const PATIENCE: Duration = Duration::from_millis(10);
/// Age past which a head still to come counts against [`MAX_SLOW_HEADS`]: before it, a
/// late head may just be a client starved of CPU, as wrk was at 1000 connections on a
/// loaded machine (BENCHMARKS.md).
const SLOW: Duration = Duration::from_secs(1);
/// How often that thread looks at the slow connections.
const SWEEP: Duration = Duration::from_millis(10);
/// Time a client has, once its response is sent, to close its end.
const LINGER: Duration = Duration::from_secs(5);

/// What a request path names on disk.
#[derive(Debug, PartialEq)]
enum Lookup {
    File(PathBuf),
    /// A folder with an index, asked for without the trailing slash.
    Folder(PathBuf),
    Missing,
}

/// The body of a response: bytes made here, or a file streamed from disk.
pub(crate) enum Body {
    Bytes(Vec<u8>),
    File(File, u64),
}

impl Body {
    pub(crate) fn len(&self) -> u64 {
        match self {
            Body::Bytes(bytes) => bytes.len() as u64,
            Body::File(_, len) => *len,
        }
    }
}

/// A response before it is written: Content-Length and Connection are added on writing.
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Body,
}

impl Response {
    fn text(status: u16, text: &str) -> Response {
        Response {
            status,
            headers: vec![("Content-Type".into(), "text/plain; charset=utf-8".into())],
            body: Body::Bytes(format!("{text}\n").into_bytes()),
        }
    }

    #[cfg(test)]
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Writes the status line, headers and (unless `head_only`) the body.
    pub(crate) fn write_to(self, out: &mut impl Write, head_only: bool) -> io::Result<()> {
        let mut head = format!("HTTP/1.1 {} {}\r\n", self.status, reason(self.status));
        for (name, value) in &self.headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        head.push_str(&format!("Content-Length: {}\r\nConnection: close\r\n\r\n", self.body.len()));
        out.write_all(head.as_bytes())?;
        if !head_only {
            match self.body {
                Body::Bytes(bytes) => out.write_all(&bytes)?,
                Body::File(mut file, len) => {
                    io::copy(&mut (&mut file).take(len), out)?;
                }
            }
        }
        out.flush()
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        410 => "Gone",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        500 => "Internal Server Error",
        _ => "",
    }
}

/// The Content-Type for a file, by its extension. For the kinds the site publishes, the
/// values `netlify dev` sends (tests/it/netlify.rs compares them): scripts as
/// `application/javascript` and JSON with its charset.
pub(crate) fn content_type(path: &Path) -> &'static str {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match extension.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "application/javascript; charset=utf-8",
        "json" => "application/json; charset=utf-8",
        "webmanifest" => "application/manifest+json",
        // Sitemaps and the Atom feed alike.
        "xml" => "application/xml",
        "txt" => "text/plain; charset=utf-8",
        "md" => "text/markdown; charset=utf-8",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

/// Decodes a request path's percent-escapes, refusing what could step outside the site
/// or smuggle bytes into a header: `.` and `..` segments, backslashes, control characters
/// (NUL included), bad escapes and text that is not UTF-8.
pub(crate) fn decode_path(raw: &str) -> Result<String, &'static str> {
    if !raw.starts_with('/') {
        return Err("the path must start with /");
    }
    let bytes = raw.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
            let byte = hex.and_then(|h| u8::from_str_radix(h, 16).ok()).ok_or("bad percent-escape")?;
            decoded.push(byte);
            i += 3;
        } else {
            decoded.push(bytes[i]);
            i += 1;
        }
    }
    let path = String::from_utf8(decoded).map_err(|_| "the path is not UTF-8")?;
    if path.chars().any(|c| c.is_control() || c == '\\') {
        return Err("control characters and backslashes are refused");
    }
    if path.split('/').any(|segment| segment == "." || segment == "..") {
        return Err(". and .. segments are refused");
    }
    Ok(path)
}

/// A built site and the rules it is served with.
pub struct Site {
    /// The published folder, canonical: nothing outside it is ever served.
    root: PathBuf,
    headers: Vec<HeaderRule>,
    redirects: Vec<RedirectRule>,
    /// What was read but ignored, for the person starting the preview.
    pub warnings: Vec<String>,
}

impl Site {
    /// The site in `dir`, with netlify.toml's rules (`netlify_toml`, named `source` in
    /// errors) and the folder's own `_redirects` ahead of them.
    pub fn load(dir: &Path, netlify_toml: &str, source: &str) -> Result<Site, Error> {
        let missing = || Error::SourceUnavailable {
            what: format!("no built site in {}", dir.display()),
            fix: "run `x402dir build` first (it writes public/), or pass --dir with a built site".into(),
        };
        if !dir.is_dir() {
            return Err(missing());
        }
        let root = dir.canonicalize().map_err(|_| missing())?;
        let NetlifyRules { headers, redirects: config_redirects, mut warnings } =
            read_netlify_toml(netlify_toml, source)?;
        let mut redirects = Vec::new();
        let redirects_file = root.join("_redirects");
        if redirects_file.is_file() {
            let text = fs::read_to_string(&redirects_file).map_err(|e| Error::io(&redirects_file, e))?;
            let parsed = parse_redirects(&text)
                .map_err(|(line, message)| Error::input(&redirects_file, format!("line {line}: {message}")))?;
            redirects = parsed.rules;
            let name = redirects_file.display();
            warnings.extend(parsed.skipped.into_iter().map(|s| format!("{name}: {s}")));
        }
        redirects.extend(config_redirects);
        if root.join("_headers").is_file() {
            warnings
                .push(format!("{}: not read; only netlify.toml's [[headers]] apply", root.join("_headers").display()));
        }
        Ok(Site { root, headers, redirects, warnings })
    }

    /// The response to a request line's method and target.
    pub(crate) fn respond(&self, method: &str, target: &str) -> Response {
        if target.contains(|c: char| c.is_control()) {
            return Response::text(400, "Bad Request: control characters in the target");
        }
        // An absolute-form target (`http://host/path`) names the path after the authority;
        // only a target that starts with a scheme is one (`/a?next=http://x/b` is a path).
        let target = match absolute_form(target) {
            Some(rest) => rest.find('/').map_or("/", |at| &rest[at..]),
            None => target,
        };
        let (raw_path, query) = match target.split_once('?') {
            Some((path, query)) => (path, Some(query)),
            None => (target, None),
        };
        let path = match decode_path(raw_path) {
            Ok(path) => path,
            Err(why) => return Response::text(400, &format!("Bad Request: {why}")),
        };
        if method != "GET" && method != "HEAD" {
            let mut response = Response::text(405, "Method Not Allowed: this preview answers GET and HEAD");
            response.headers.push(("Allow".into(), "GET, HEAD".into()));
            return response;
        }
        let found = self.lookup(&path);
        let custom = headers_for(&self.headers, &path);
        let rule = self.redirects.iter().find_map(|rule| Some((rule, rule.target(&path)?)));
        if let Some((rule, to)) = rule {
            if rule.force || found == Lookup::Missing {
                return self.apply(rule, &to, query, custom);
            }
        }
        match found {
            Lookup::File(file) => self.file(200, &file, custom),
            Lookup::Folder(_) => redirect(301, &with_query(&format!("{}/", encode_path(&path)), query)),
            Lookup::Missing => self.not_found(custom),
        }
    }

    fn apply(&self, rule: &RedirectRule, to: &str, query: Option<&str>, custom: Vec<(String, String)>) -> Response {
        if rule.is_redirect() {
            return redirect(rule.status, &with_query(to, query));
        }
        let to_path = to.split_once('?').map_or(to, |(path, _)| path);
        match decode_path(to_path).map(|path| self.lookup(&path)) {
            Ok(Lookup::File(file)) => self.file(rule.status, &file, custom),
            Ok(Lookup::Folder(folder)) => self.file(rule.status, &folder.join("index.html"), custom),
            _ => self.not_found(custom),
        }
    }

    /// What `path` names inside the site; a path leading outside it (through a
    /// symbolic link) names nothing, nor one through a hidden name: the build writes
    /// none, but stages its folders as `.staging-*` and `.old-*`.
    fn lookup(&self, path: &str) -> Lookup {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
        if segments.iter().any(|s| s.starts_with('.')) {
            return Lookup::Missing;
        }
        if let [only] = segments[..] {
            if CONFIG_FILES.contains(&only) {
                return Lookup::Missing;
            }
        }
        let mut candidate = self.root.clone();
        candidate.extend(&segments);
        if path.ends_with('/') {
            return self
                .inside(&candidate.join("index.html"))
                .filter(|p| p.is_file())
                .map_or(Lookup::Missing, Lookup::File);
        }
        if let Some(file) = self.inside(&candidate).filter(|p| p.is_file()) {
            return Lookup::File(file);
        }
        if let Some(folder) = self.inside(&candidate).filter(|p| p.is_dir()) {
            if self.inside(&folder.join("index.html")).is_some_and(|p| p.is_file()) {
                return Lookup::Folder(folder);
            }
        }
        if let Some(name) = segments.last() {
            let page = candidate.with_file_name(format!("{name}.html"));
            if let Some(file) = self.inside(&page).filter(|p| p.is_file()) {
                return Lookup::File(file);
            }
        }
        Lookup::Missing
    }

    /// `path` resolved (symbolic links followed), if it exists and stays in the site.
    fn inside(&self, path: &Path) -> Option<PathBuf> {
        path.canonicalize().ok().filter(|real| real.starts_with(&self.root))
    }

    fn file(&self, status: u16, path: &Path, custom: Vec<(String, String)>) -> Response {
        let opened = File::open(path).and_then(|file| Ok((file.metadata()?.len(), file)));
        match opened {
            Ok((len, file)) => {
                let mut headers = vec![("Content-Type".to_owned(), content_type(path).to_owned())];
                for (name, value) in custom {
                    match headers.iter_mut().find(|(known, _)| known.eq_ignore_ascii_case(&name)) {
                        Some(slot) => slot.1 = value,
                        None => headers.push((name, value)),
                    }
                }
                Response { status, headers, body: Body::File(file, len) }
            }
            Err(e) => Response::text(500, &format!("Internal Server Error: {}: {e}", path.display())),
        }
    }

    fn not_found(&self, custom: Vec<(String, String)>) -> Response {
        // A path's caching rule is for the file it names: Netlify sends a missing file
        // with max-age=0 whatever the rule says, so an immutable dated path does not
        // keep "missing" cached for a year.
        let custom: Vec<(String, String)> = custom
            .into_iter()
            .filter(|(n, _)| !n.eq_ignore_ascii_case("cache-control"))
            .chain([("Cache-Control".to_owned(), NOT_FOUND_CACHE_CONTROL.to_owned())])
            .collect();
        match self.inside(&self.root.join("404.html")).filter(|p| p.is_file()) {
            Some(page) => self.file(404, &page, custom),
            None => {
                let mut response = Response::text(404, "Not Found");
                response.headers.extend(custom.into_iter().filter(|(n, _)| !n.eq_ignore_ascii_case("content-type")));
                response
            }
        }
    }
}

/// What Netlify sends as a missing file's Cache-Control.
pub const NOT_FOUND_CACHE_CONTROL: &str = "public, max-age=0, must-revalidate";

fn with_query(location: &str, query: Option<&str>) -> String {
    match query {
        Some(query) if !query.is_empty() && !location.contains('?') => format!("{location}?{query}"),
        _ => location.to_owned(),
    }
}

/// What follows `scheme://` when `target` starts with a scheme (RFC 3986: a letter,
/// then letters, digits, `+`, `-` or `.`).
fn absolute_form(target: &str) -> Option<&str> {
    let (scheme, rest) = target.split_once("://")?;
    let mut chars = scheme.chars();
    let valid = chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    valid.then_some(rest)
}

fn redirect(status: u16, location: &str) -> Response {
    // `//host/x` (or `/\host/x`) is scheme-relative: a browser would leave the site.
    // A path asked with a doubled slash moves to the same path with one.
    let trimmed = location.trim_start_matches(['/', '\\']);
    let owned;
    let location = if location.starts_with('/') && location.len() - trimmed.len() > 1 {
        owned = format!("/{trimmed}");
        &owned
    } else {
        location
    };
    let mut response = Response::text(status, &format!("Redirecting to {location}"));
    response.headers.push(("Location".into(), location.to_owned()));
    response
}

/// A site bound to a loopback port, not yet answering.
pub struct Server {
    listener: TcpListener,
    address: SocketAddr,
    site: Arc<Site>,
}

impl Server {
    /// Listens on 127.0.0.1 only (never every interface): `port` 0 takes a free one.
    pub fn bind(site: Site, port: u16) -> Result<Server, Error> {
        let listener =
            TcpListener::bind(SocketAddr::from((Ipv4Addr::LOCALHOST, port))).map_err(|e| match e.kind() {
                io::ErrorKind::AddrInUse => Error::Listen(format!(
                    "port {port} on 127.0.0.1 is already in use: stop what holds it, or pass another --port \
                 (--port 0 picks a free one)"
                )),
                _ => Error::Listen(format!("cannot listen on 127.0.0.1:{port}: {e}")),
            })?;
        let address = listener.local_addr().map_err(|e| Error::Listen(format!("no local address: {e}")))?;
        Ok(Server { listener, address, site: Arc::new(site) })
    }

    /// The address to open, e.g. `http://127.0.0.1:8402/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// Answers until the process is stopped, logging one line a request to stderr.
    /// [`WORKERS`] threads answer the connections accepted, in order; one more watches
    /// those whose head is late and those closing. Connections are capped
    /// ([`MAX_CONNECTIONS`], [`MAX_SLOW_HEADS`]), so no flood of connections can make
    /// the server run out of threads, files or memory.
    pub fn run(self) -> Result<(), Error> {
        let cap = connection_cap();
        let open = Arc::new(AtomicUsize::new(0));
        let watched = Arc::new(Watched::default());
        let (ready, next) = mpsc::channel::<Conn>();
        let next = Arc::new(Mutex::new(next));
        let spawn = |name: String, work: Box<dyn FnOnce() + Send>| {
            std::thread::Builder::new()
                .name(name)
                .spawn(work)
                .map_err(|e| Error::Listen(format!("cannot start the server's threads: {e}")))
        };
        for n in 0..WORKERS {
            let (site, next, watched) = (Arc::clone(&self.site), Arc::clone(&next), Arc::clone(&watched));
            spawn(
                format!("serve-{n}"),
                Box::new(move || loop {
                    // The lock is held only while waiting for the next connection.
                    let conn = next.lock().unwrap_or_else(|e| e.into_inner()).recv();
                    let Ok(conn) = conn else { return };
                    handle(&site, &watched, conn);
                }),
            )?;
        }
        let (watcher, sender) = (Arc::clone(&watched), ready.clone());
        spawn("serve-watch".into(), Box::new(move || watcher.watch(&sender)))?;
        for stream in self.listener.incoming() {
            match stream {
                Ok(stream) => {
                    // At the cap, a watched connection makes room (closing it gives its slot back).
                    let slot = Slot::take(&open, cap).or_else(|| watched.evict().and_then(|_| Slot::take(&open, cap)));
                    match slot {
                        Some(slot) => {
                            let conn = Conn { stream, accepted: Instant::now(), head: Vec::new(), _slot: slot };
                            // The workers never stop, so the queue is always open.
                            let _ = ready.send(conn);
                        }
                        None => refuse_busy(stream),
                    }
                }
                // A connection that failed before it was accepted, or too many open
                // files: the next one may well work, after a pause that keeps this
                // loop from spinning while nothing can be accepted.
                Err(e) => {
                    eprintln!("accept failed: {e}");
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
        }
        Ok(())
    }
}

/// [`MAX_CONNECTIONS`], or fewer where the process may open fewer files (1,024 is a
/// common limit), leaving room for the files being sent and the server's own.
fn connection_cap() -> usize {
    let limit = fs::read_to_string("/proc/self/limits").ok().and_then(|text| {
        let line = text.lines().find_map(|line| line.strip_prefix("Max open files"))?;
        line.split_whitespace().next()?.parse::<usize>().ok()
    });
    match limit {
        Some(limit) => MAX_CONNECTIONS.min(limit.saturating_sub(WORKERS + 64)).max(WORKERS),
        None => MAX_CONNECTIONS,
    }
}

/// One of the connections counted against the cap, given back when dropped.
struct Slot(Arc<AtomicUsize>);

impl Slot {
    fn take(open: &Arc<AtomicUsize>, cap: usize) -> Option<Slot> {
        open.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| (n < cap).then_some(n + 1)).ok()?;
        Some(Slot(Arc::clone(open)))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// An accepted connection and what has come of its request head.
struct Conn {
    stream: TcpStream,
    accepted: Instant,
    head: Vec<u8>,
    // Declared last: given back once the socket is closed.
    _slot: Slot,
}

/// What reading a request head came to.
#[derive(Clone, Copy, PartialEq)]
enum Head {
    /// Whole: the request line ends at this offset.
    Complete(usize),
    /// [`MAX_HEAD_BYTES`] read and no end.
    TooLarge,
    /// Nothing more to read for now.
    Pending,
    /// The client closed or the connection failed: nobody to answer.
    Closed,
}

/// Reads into `head` until the head ends, [`MAX_HEAD_BYTES`] are read, or `from` has
/// nothing more for now (a timeout, or a non-blocking socket with nothing waiting).
/// Bytes after the head (a pipelined request) may come along; they are never answered.
fn read_head(from: &mut impl Read, head: &mut Vec<u8>) -> Head {
    let mut buf = [0u8; 4096];
    loop {
        if let Some(line) = head_end(head) {
            return Head::Complete(line);
        }
        let room = (MAX_HEAD_BYTES as usize).saturating_sub(head.len()).min(buf.len());
        if room == 0 {
            return Head::TooLarge;
        }
        match from.read(&mut buf[..room]) {
            Ok(0) => return Head::Closed,
            Ok(n) => head.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut) => return Head::Pending,
            Err(_) => return Head::Closed,
        }
    }
}

/// Where the request line ends, once the head is whole: an empty line (`\r\n` or `\n`)
/// after the request line.
fn head_end(head: &[u8]) -> Option<usize> {
    let line = head.iter().position(|&b| b == b'\n')?;
    let mut start = line + 1;
    loop {
        let len = head[start..].iter().position(|&b| b == b'\n')?;
        if len == 0 || (len == 1 && head[start] == b'\r') {
            return Some(line);
        }
        start += len + 1;
    }
}

/// Connections no worker holds: those whose head is late, and those closing after
/// their response. One thread looks at them all in turn, never waiting on one.
#[derive(Default)]
struct Watched {
    set: Mutex<WatchedSet>,
    wake: Condvar,
}

#[derive(Default)]
struct WatchedSet {
    /// Oldest first.
    entries: VecDeque<Watch>,
    /// How many of them wait for their head.
    heads: usize,
}

enum Watch {
    /// A head still to come, by [`HEAD_DEADLINE`] after the accept.
    Head(Conn),
    /// A response sent: what the client sends is read and dropped until it closes, or
    /// until the instant.
    Closing(Conn, Instant),
}

impl Watched {
    fn lock(&self) -> std::sync::MutexGuard<'_, WatchedSet> {
        self.set.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Watches `entry`; past [`MAX_SLOW_HEADS`] the oldest head is dropped for a new one,
    /// once it has had [`SLOW`] to come (until then the connection cap bounds them).
    fn add(&self, entry: Watch) {
        let (Watch::Head(conn) | Watch::Closing(conn, _)) = &entry;
        if conn.stream.set_nonblocking(true).is_err() {
            return;
        }
        let mut set = self.lock();
        let mut dropped = None;
        if let Watch::Head(_) = entry {
            if set.heads >= MAX_SLOW_HEADS && set.oldest_head_since().is_some_and(|t| t.elapsed() >= SLOW) {
                dropped = set.remove_oldest(true);
            }
            set.heads += 1;
        }
        // Only an empty set leaves the watcher asleep: waking it costs a system call.
        let was_empty = set.entries.is_empty();
        set.entries.push_back(entry);
        drop(set);
        if was_empty {
            self.wake.notify_one();
        }
        // Closed outside the lock.
        drop(dropped);
    }

    /// Drops the oldest closing connection (its response is sent; its client most likely
    /// done), else the oldest waiting for its head; `None` when none is watched.
    fn evict(&self) -> Option<()> {
        let dropped = {
            let mut set = self.lock();
            set.remove_oldest(false).or_else(|| set.remove_oldest(true))
        };
        dropped.map(drop)
    }

    /// Looks at every watched connection each [`SWEEP`]: a head that came whole goes
    /// to the workers through `ready`; one past its deadline, and a connection whose
    /// client closed or took too long to, is closed.
    fn watch(&self, ready: &mpsc::Sender<Conn>) {
        let mut sink = [0u8; 4096];
        loop {
            let mut set = self.lock();
            while set.entries.is_empty() {
                set = self.wake.wait(set).unwrap_or_else(|e| e.into_inner());
            }
            let now = Instant::now();
            for entry in std::mem::take(&mut set.entries) {
                match entry {
                    Watch::Head(mut conn) => match read_head(&mut &conn.stream, &mut conn.head) {
                        Head::Pending if now < conn.accepted + HEAD_DEADLINE => {
                            set.entries.push_back(Watch::Head(conn))
                        }
                        Head::Complete(_) | Head::TooLarge if conn.stream.set_nonblocking(false).is_ok() => {
                            let _ = ready.send(conn);
                        }
                        _ => {}
                    },
                    Watch::Closing(conn, until) => {
                        if now < until && still_open(&conn.stream, &mut sink) {
                            set.entries.push_back(Watch::Closing(conn, until));
                        }
                    }
                }
            }
            set.heads = set.entries.iter().filter(|e| matches!(e, Watch::Head(_))).count();
            drop(set);
            std::thread::sleep(SWEEP);
        }
    }
}

impl WatchedSet {
    /// When the oldest connection waiting for its head was accepted.
    fn oldest_head_since(&self) -> Option<Instant> {
        self.entries.iter().find_map(|e| match e {
            Watch::Head(conn) => Some(conn.accepted),
            Watch::Closing(..) => None,
        })
    }

    /// Takes out the oldest connection waiting for its head (`head`), or closing.
    fn remove_oldest(&mut self, head: bool) -> Option<Watch> {
        let at = self.entries.iter().position(|e| matches!(e, Watch::Head(_)) == head)?;
        let entry = self.entries.remove(at)?;
        self.heads -= usize::from(head);
        Some(entry)
    }
}

/// Reads and drops what a non-blocking `stream` has: false once its client has closed
/// (or it failed). A bounded amount a call, so no client keeps the watcher to itself.
fn still_open(stream: &TcpStream, sink: &mut [u8]) -> bool {
    for _ in 0..16 {
        match (&*stream).read(sink) {
            Ok(0) => return false,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return e.kind() == io::ErrorKind::WouldBlock,
        }
    }
    true
}

/// Answers 503 without waiting for the request: every connection slot is taken by one
/// being answered.
fn refuse_busy(stream: TcpStream) {
    let mut response = Response::text(503, "Service Unavailable: too many connections at once; try again");
    response.headers.push(("Retry-After".into(), "1".into()));
    // A few hundred bytes fit in a fresh socket's send buffer: this never blocks.
    let _ = stream.set_nonblocking(true);
    let mut out = &stream;
    let _ = response.write_to(&mut out, false);
    let _ = stream.shutdown(std::net::Shutdown::Write);
    // Closing with the request unread would reset the connection, and the client could
    // lose the answer: read what has already arrived (never waiting for more).
    let mut sink = [0u8; 4096];
    while matches!((&stream).read(&mut sink), Ok(n) if n > 0) {}
}

/// A socket read or written until a fixed instant: each call waits at most for the time
/// left, so a client trickling a byte at a time cannot stretch the whole.
struct Until<'a> {
    stream: &'a TcpStream,
    deadline: Instant,
}

impl Until<'_> {
    fn left(&self) -> io::Result<Duration> {
        let left = self.deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(io::ErrorKind::TimedOut, "past the deadline"));
        }
        Ok(left)
    }
}

impl Read for Until<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.stream.set_read_timeout(Some(self.left()?))?;
        let mut stream = self.stream;
        stream.read(buf)
    }
}

impl Write for Until<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.stream.set_write_timeout(Some(self.left()?))?;
        let mut stream = self.stream;
        stream.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        let mut stream = self.stream;
        stream.flush()
    }
}

/// Time a client has to take a whole response: a preview's largest file crosses
/// loopback in well under a second.
const RESPONSE_DEADLINE: Duration = Duration::from_secs(60);

/// Reads one request from `conn`, answers it and closes; a head that is late is left
/// to the watcher, which brings it back once whole.
fn handle(site: &Site, watched: &Watched, mut conn: Conn) {
    // At least a look at what has come, for a connection that waited in the queue.
    let deadline = (conn.accepted + PATIENCE).max(Instant::now() + Duration::from_millis(1));
    let head = read_head(&mut Until { stream: &conn.stream, deadline }, &mut conn.head);
    let request_line = match head {
        Head::Complete(line) => std::str::from_utf8(&conn.head[..line]).unwrap_or(""),
        Head::TooLarge => "",
        Head::Closed => return,
        Head::Pending => {
            if conn.accepted.elapsed() < HEAD_DEADLINE {
                watched.add(Watch::Head(conn));
            }
            return;
        }
    };
    let parts: Vec<&str> = request_line.split_whitespace().collect();
    let (method, target, response) = match parts[..] {
        _ if head == Head::TooLarge => ("?", "?", Response::text(431, "Request Header Fields Too Large")),
        [method, target, version] if version.starts_with("HTTP/1.") => (method, target, site.respond(method, target)),
        _ => ("?", "?", Response::text(400, "Bad Request: expected `METHOD /path HTTP/1.1`")),
    };
    let status = response.status;
    let mut out = Until { stream: &conn.stream, deadline: Instant::now() + RESPONSE_DEADLINE };
    if let Err(e) = response.write_to(&mut out, method == "HEAD") {
        eprintln!("{method} {} -> {status} (not sent: {e})", target.escape_debug());
        return;
    }
    eprintln!("{method} {} -> {status}", target.escape_debug());
    close_gently(watched, conn);
}

/// Ends the connection without losing the response: closing a socket with input unread,
/// or with input still to come (a pipelined request), makes the kernel reset it and
/// drop whatever of the response the client has not yet received. So the response's
/// end is marked (FIN), and the watcher reads and drops what the client sends until it
/// closes. Waiting for that here cost a quarter of the requests a second
/// (BENCHMARKS.md, "serve under load").
fn close_gently(watched: &Watched, mut conn: Conn) {
    let _ = conn.stream.shutdown(std::net::Shutdown::Write);
    conn.head = Vec::new();
    watched.add(Watch::Closing(conn, Instant::now() + LINGER));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_could_leave_the_site_are_refused() {
        assert_eq!(decode_path("/2026-08-20/api/manifest.json").unwrap(), "/2026-08-20/api/manifest.json");
        assert_eq!(decode_path("/a%20b/").unwrap(), "/a b/");
        for bad in [
            "/../Cargo.toml",
            "/%2e%2e/Cargo.toml",
            "/%2E%2E/%2e%2e/Cargo.toml",
            "/a/..%2f..%2fCargo.toml",
            "/a/%2e/b",
            "/..",
            "/..%5cCargo.toml",
            "/a%00b",
            "/a%0d%0aSet-Cookie:%20x",
            "/%zz",
            "/%e",
            "/%ff",
            "relative",
        ] {
            assert!(decode_path(bad).is_err(), "{bad}");
        }
    }

    /// A small site on disk: files, a folder, a 404 page and rules.
    fn small_site(name: &str, redirects: &str, toml: &str) -> (PathBuf, Site) {
        let dir = std::env::temp_dir().join(format!("x402dir-serve-unit-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(dir.join("site/folder")).unwrap();
        fs::write(dir.join("site/index.html"), "root").unwrap();
        fs::write(dir.join("site/folder/index.html"), "folder").unwrap();
        fs::write(dir.join("site/page.html"), "page").unwrap();
        fs::write(dir.join("site/data.json"), "{}").unwrap();
        fs::write(dir.join("site/404.html"), "missing").unwrap();
        fs::write(dir.join("site/_redirects"), redirects).unwrap();
        fs::write(dir.join("secret.txt"), "secret").unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(dir.join("secret.txt"), dir.join("site/leak.txt")).unwrap();
        let site = Site::load(&dir.join("site"), toml, "test.toml").unwrap();
        (dir, site)
    }

    fn body(response: Response) -> String {
        match response.body {
            Body::Bytes(bytes) => String::from_utf8(bytes).unwrap(),
            Body::File(mut file, _) => {
                let mut text = String::new();
                file.read_to_string(&mut text).unwrap();
                text
            }
        }
    }

    #[test]
    fn a_file_shadows_an_unforced_rule_and_not_a_forced_one() {
        let redirects =
            "/data.json /page.html 200\n/index.html /page.html 200!\n/nothing /page.html 200\n/away /folder/ 302\n";
        let (dir, site) = small_site("shadow", redirects, "");
        assert_eq!(body(site.respond("GET", "/data.json")), "{}", "the file wins over an unforced rewrite");
        assert_eq!(body(site.respond("GET", "/index.html")), "page", "a forced rule wins over the file");
        let rewritten = site.respond("GET", "/nothing");
        assert_eq!(rewritten.status, 200);
        assert_eq!(rewritten.header("content-type"), Some("text/html; charset=utf-8"));
        assert_eq!(body(rewritten), "page");
        let moved = site.respond("GET", "/away?x=1");
        assert_eq!((moved.status, moved.header("location")), (302, Some("/folder/?x=1")));
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn folders_pages_and_missing_files() {
        let (dir, site) = small_site("files", "", "[[headers]]\nfor = \"/*\"\n[headers.values]\nX-Test = \"yes\"\n");
        assert_eq!(body(site.respond("GET", "/")), "root");
        assert_eq!(body(site.respond("GET", "/folder/")), "folder");
        let bare = site.respond("GET", "/folder?q=1");
        assert_eq!((bare.status, bare.header("location")), (301, Some("/folder/?q=1")));
        assert_eq!(bare.header("x-test"), None, "redirects carry no custom headers");
        assert_eq!(body(site.respond("GET", "/page")), "page", "pretty URL for page.html");
        let missing = site.respond("GET", "/nope");
        assert_eq!((missing.status, missing.header("x-test")), (404, Some("yes")));
        assert_eq!(body(missing), "missing");
        assert_eq!(site.respond("GET", "/_redirects").status, 404, "Netlify's own files are not served");
        #[cfg(unix)]
        assert_eq!(site.respond("GET", "/leak.txt").status, 404, "a link out of the site is refused");
        assert_eq!(site.respond("GET", "/../secret.txt").status, 400);
        assert_eq!(site.respond("POST", "/").status, 405);
        assert_eq!(site.respond("GET", "http://127.0.0.1:8402/page.html").status, 200);
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn hidden_folders_queries_and_doubled_slashes_stay_inside_the_site() {
        let (dir, site) = small_site("hidden", "", "");
        for hidden in [".staging-2026-01-01-7", ".old-2026-01-01-7"] {
            fs::create_dir_all(dir.join("site").join(hidden)).unwrap();
            fs::write(dir.join("site").join(hidden).join("index.html"), "staged").unwrap();
            for target in [format!("/{hidden}/"), format!("/{hidden}/index.html"), format!("/{hidden}")] {
                let response = site.respond("GET", &target);
                assert_eq!(response.status, 404, "{target}");
                assert_eq!(body(response), "missing", "{target}");
            }
        }
        // A URL in the query is not an absolute-form target.
        let robots = site.respond("GET", "/page.html?next=http://x/index.html");
        assert_eq!(body(robots), "page");
        assert_eq!(body(site.respond("GET", "https://127.0.0.1:8402/page.html?next=http://x/")), "page");
        assert_eq!(site.respond("GET", "1http://x/page.html").status, 400, "not a scheme, so not a path");
        // A doubled slash never becomes a scheme-relative Location.
        for (target, location) in [("//folder", "/folder/"), ("///folder?x=1", "/folder/?x=1")] {
            let moved = site.respond("GET", target);
            assert_eq!((moved.status, moved.header("location")), (301, Some(location)), "{target}");
        }
        fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_missing_folder_is_the_source_unavailable() {
        let error = Site::load(Path::new("/nonexistent/x402dir/public"), "", "test.toml").err().unwrap();
        assert_eq!(error.code(), "SOURCE_UNAVAILABLE");
        assert!(error.to_string().contains("x402dir build"), "{error}");
    }

    #[test]
    fn a_head_ends_at_its_first_empty_line() {
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n"), Some(15));
        assert_eq!(head_end(b"GET / HTTP/1.1\nHost: x\n\nGET /next HTTP/1.1\n"), Some(14));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\n\r\n"), Some(15));
        assert_eq!(head_end(b"GET / HTTP/1.1\r\nHost: x\r\n"), None);
        assert_eq!(head_end(b"GET / HTTP/1.1\r\n"), None);
        assert_eq!(head_end(b"GET / HTTP/1.1"), None);
    }

    #[test]
    fn content_types_by_extension() {
        for (name, expected) in [
            ("a/index.html", "text/html; charset=utf-8"),
            ("static/style.css", "text/css; charset=utf-8"),
            ("static/composer.js", "application/javascript; charset=utf-8"),
            ("api/manifest.json", "application/json; charset=utf-8"),
            ("sitemap.xml", "application/xml"),
            ("robots.txt", "text/plain; charset=utf-8"),
            ("golden/RULES.md", "text/markdown; charset=utf-8"),
            ("logo.svg", "image/svg+xml"),
            ("logo.png", "image/png"),
            ("vectors.i8", "application/octet-stream"),
            ("vectors.bin", "application/octet-stream"),
        ] {
            assert_eq!(content_type(Path::new(name)), expected, "{name}");
        }
    }
}
