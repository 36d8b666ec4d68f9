//! `x402dir serve`: a local preview of the built site on loopback, sending the headers
//! and following the redirects Netlify would (netlify.toml's `[[headers]]` and
//! `[[redirects]]`, the build's `_redirects`), so a deploy can be checked before it is
//! made. Standard library only: a thread per connection, `Connection: close`, GET and
//! HEAD. A preview for one person at one machine, not a production server.
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

use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use regex::Regex;
use serde::Deserialize;

use crate::Error;

/// 8402: 8000 plus x402's number, and rarely taken by other development servers.
pub const DEFAULT_PORT: u16 = 8402;

/// The repository's netlify.toml, for when `serve` runs outside the repository.
pub const EMBEDDED_NETLIFY_TOML: &str = include_str!("../netlify.toml");

/// Headers Netlify's docs say a custom header rule cannot set (its servers set them).
const NOT_SETTABLE: [&str; 14] = [
    "accept-ranges",
    "age",
    "allow",
    "alt-svc",
    "connection",
    "content-encoding",
    "content-length",
    "content-range",
    "date",
    "location",
    "server",
    "trailer",
    "transfer-encoding",
    "upgrade",
];

/// Files in the published root that configure Netlify and are never served.
const CONFIG_FILES: [&str; 2] = ["_redirects", "_headers"];

/// Longest request head read; a browser's is a few hundred bytes.
const MAX_HEAD_BYTES: u64 = 16 * 1024;

/// One `[[headers]]` table: the paths it is `for` and the headers it sets there.
#[derive(Debug)]
pub struct HeaderRule {
    pub pattern: String,
    matcher: Regex,
    pub values: Vec<(String, String)>,
}

impl HeaderRule {
    pub fn new(pattern: &str, values: Vec<(String, String)>) -> Result<HeaderRule, String> {
        Ok(HeaderRule { pattern: pattern.trim().to_owned(), matcher: for_pattern(pattern)?, values })
    }

    pub fn matches(&self, path: &str) -> bool {
        self.matcher.is_match(path)
    }
}

/// Netlify's translation of a `for` pattern (see the module notes).
fn for_pattern(pattern: &str) -> Result<Regex, String> {
    let parts: Vec<String> = pattern
        .trim()
        .split('/')
        .map(str::trim_end)
        .filter(|part| !part.is_empty())
        .map(|part| {
            if part.starts_with(':') {
                "([^/]+)".to_owned()
            } else if part == "*" {
                // Follows the `/` the join puts before it: that slash becomes optional.
                "?(.*)".to_owned()
            } else {
                part.split('*').map(regex::escape).collect::<Vec<_>>().join("(.*)")
            }
        })
        .collect();
    Regex::new(&format!("(?i)^/{}/?$", parts.join("/"))).map_err(|e| format!("pattern {pattern:?}: {e}"))
}

/// The headers the rules set for `path`: every matching rule applies, and a later rule's
/// value for a header replaces an earlier rule's (names compared ignoring case).
pub fn headers_for(rules: &[HeaderRule], path: &str) -> Vec<(String, String)> {
    let mut headers: Vec<(String, String)> = Vec::new();
    for rule in rules.iter().filter(|rule| rule.matches(path)) {
        for (name, value) in &rule.values {
            match headers.iter_mut().find(|(known, _)| known.eq_ignore_ascii_case(name)) {
                Some(slot) => slot.1.clone_from(value),
                None => headers.push((name.clone(), value.clone())),
            }
        }
    }
    headers
}

/// One redirect or rewrite rule, from `_redirects` or netlify.toml.
#[derive(Debug)]
pub struct RedirectRule {
    pub from: String,
    pub to: String,
    pub status: u16,
    /// `!` after the status (`force = true` in netlify.toml): applies even over a file.
    pub force: bool,
    matcher: Regex,
    /// The name of each capture group of `matcher`, `splat` for the `*`.
    names: Vec<String>,
}

impl RedirectRule {
    pub fn new(from: &str, to: &str, status: u16, force: bool) -> Result<RedirectRule, String> {
        let (matcher, names) = from_pattern(from)?;
        Ok(RedirectRule { from: from.to_owned(), to: to.to_owned(), status, force, matcher, names })
    }

    /// Where `path` goes under this rule (`to` with its placeholders filled), if it matches.
    pub fn target(&self, path: &str) -> Option<String> {
        let captures = self.matcher.captures(path)?;
        let values: Vec<(&str, &str)> = self
            .names
            .iter()
            .enumerate()
            .map(|(i, name)| (name.as_str(), captures.get(i + 1).map_or("", |m| m.as_str())))
            .collect();
        Some(fill_placeholders(&self.to, &values))
    }

    fn is_redirect(&self) -> bool {
        (300..400).contains(&self.status)
    }
}

/// A rule's `from` as a regular expression: literal segments, `:name` for one segment,
/// a final `*` for the rest; an optional trailing slash. Netlify's docs have `from`
/// written percent-encoded; it is decoded here, as request paths are.
fn from_pattern(from: &str) -> Result<(Regex, Vec<String>), String> {
    if !from.starts_with('/') {
        return Err(format!("{from:?}: only paths are supported in `from` (no domains)"));
    }
    let decoded = decode_path(from).map_err(|why| format!("{from:?}: {why}"))?;
    let segments: Vec<&str> = decoded.split('/').filter(|s| !s.is_empty()).collect();
    let mut pattern = String::from("^");
    let mut names = Vec::new();
    for (i, segment) in segments.iter().enumerate() {
        if *segment == "*" {
            if i + 1 != segments.len() {
                return Err(format!("{from:?}: a splat (*) must end the path"));
            }
            pattern.push_str("(?:/(.*))?");
            names.push("splat".to_owned());
        } else if let Some(name) = segment.strip_prefix(':') {
            pattern.push_str("/([^/]+)");
            names.push(name.to_owned());
        } else if segment.contains('*') {
            return Err(format!("{from:?}: a splat (*) must be a whole segment"));
        } else {
            pattern.push('/');
            pattern.push_str(&regex::escape(segment));
        }
    }
    pattern.push_str("/?$");
    let regex = Regex::new(&pattern).map_err(|e| format!("{from:?}: {e}"))?;
    Ok((regex, names))
}

/// `to` with each `:name` it holds replaced by that capture, percent-encoded (a capture
/// is decoded text and may hold anything a path may).
fn fill_placeholders(to: &str, values: &[(&str, &str)]) -> String {
    let mut out = String::with_capacity(to.len());
    let mut rest = to;
    while let Some(at) = rest.find(':') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let name_len = after.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(after.len());
        match values.iter().find(|(name, _)| *name == &after[..name_len]) {
            Some((_, value)) if name_len > 0 => out.push_str(&encode_path(value)),
            _ => out.push_str(&rest[at..at + 1 + name_len]),
        }
        rest = &after[name_len..];
    }
    out.push_str(rest);
    out
}

/// Percent-encodes what may not stand in a URL path as it is (keeps `/`).
fn encode_path(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for byte in text.bytes() {
        if byte.is_ascii_alphanumeric() || b"-._~/!$&'()*+,;=:@".contains(&byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Rules read from a `_redirects` file, and the lines skipped as unsupported.
#[derive(Debug, Default)]
pub struct ParsedRedirects {
    pub rules: Vec<RedirectRule>,
    pub skipped: Vec<String>,
}

/// Parses Netlify's `_redirects` format: `from to [status][!]` a line, `#` comments.
/// A line that is not a rule is an error (line number, message); a rule using what the
/// preview cannot evaluate (conditions, query matching, domains, proxies) is skipped.
pub fn parse_redirects(text: &str) -> Result<ParsedRedirects, (usize, String)> {
    let mut parsed = ParsedRedirects::default();
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let from = tokens[0];
        // Query matching (`/store id=:id /blog/:id 301`) puts `key=value` tokens before `to`.
        let Some(to_at) = tokens.iter().skip(1).position(|t| t.starts_with('/') || t.contains("://")).map(|p| p + 1)
        else {
            return Err((number, format!("{from} has no destination: expected `from to [status]`")));
        };
        let skip = |why: &str| format!("line {number}: {line} ({why})");
        if to_at > 1 {
            parsed.skipped.push(skip("query parameter matching is not supported"));
            continue;
        }
        let to = tokens[to_at];
        let mut rest = tokens[to_at + 1..].iter().peekable();
        let (status, force) = match rest.next_if(|t| t.starts_with(|c: char| c.is_ascii_digit())) {
            Some(token) => (parse_status(token).map_err(|e| (number, e))?, token.ends_with('!')),
            None => (301, false),
        };
        if rest.next().is_some() {
            parsed.skipped.push(skip("conditions are not supported"));
            continue;
        }
        if let Some(why) = unsupported_target(to, status) {
            parsed.skipped.push(skip(why));
            continue;
        }
        match RedirectRule::new(from, to, status, force) {
            Ok(rule) => parsed.rules.push(rule),
            Err(why) => parsed.skipped.push(skip(&why)),
        }
    }
    Ok(parsed)
}

fn parse_status(token: &str) -> Result<u16, String> {
    match token.trim_end_matches('!').parse::<u16>() {
        Ok(status) if (200..600).contains(&status) => Ok(status),
        _ => Err(format!("{token:?} is not a status: expected e.g. 301, 302, 200 or 200!")),
    }
}

/// Why a rule's destination cannot be previewed here, if it cannot.
fn unsupported_target(to: &str, status: u16) -> Option<&'static str> {
    let external = to.starts_with("http://") || to.starts_with("https://");
    if external && !(300..400).contains(&status) {
        Some("proxying to another site is not supported")
    } else if !external && !to.starts_with('/') {
        Some("a destination must be a path or a URL")
    } else {
        None
    }
}

/// netlify.toml, as far as the preview reads it.
#[derive(Deserialize)]
struct NetlifyToml {
    #[serde(default)]
    headers: Vec<HeadersTable>,
    #[serde(default)]
    redirects: Vec<RedirectsTable>,
}

#[derive(Deserialize)]
struct HeadersTable {
    #[serde(rename = "for")]
    path: String,
    #[serde(default)]
    values: std::collections::BTreeMap<String, HeaderValue>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum HeaderValue {
    One(String),
    Many(Vec<String>),
}

#[derive(Deserialize)]
struct RedirectsTable {
    from: String,
    to: String,
    status: Option<u16>,
    #[serde(default)]
    force: bool,
    query: Option<toml::Table>,
    conditions: Option<toml::Table>,
}

/// Netlify's normalisation of a header value (see the module notes).
fn header_value(value: &HeaderValue) -> String {
    match value {
        HeaderValue::One(text) => text.split(',').map(str::trim).collect::<Vec<_>>().join(", "),
        HeaderValue::Many(items) => items.iter().map(|item| item.trim()).collect::<Vec<_>>().join(", "),
    }
}

fn is_token(name: &str) -> bool {
    !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b))
}

/// A netlify.toml's header and redirect rules, and warnings for what it ignored.
struct NetlifyRules {
    headers: Vec<HeaderRule>,
    redirects: Vec<RedirectRule>,
    warnings: Vec<String>,
}

fn read_netlify_toml(text: &str, source: &str) -> Result<NetlifyRules, Error> {
    let config: NetlifyToml = toml::from_str(text).map_err(|e| Error::input(source, e.to_string()))?;
    let mut warnings = Vec::new();
    let mut headers = Vec::new();
    for table in &config.headers {
        let mut values = Vec::new();
        for (name, value) in &table.values {
            let name = name.trim();
            let value = header_value(value);
            if !is_token(name) {
                return Err(Error::input(
                    source,
                    format!("[[headers]] for {:?}: {name:?} is not a header name", table.path),
                ));
            }
            if value.contains(['\r', '\n', '\0']) {
                return Err(Error::input(source, format!("[[headers]] for {:?}: {name} spans lines", table.path)));
            }
            if NOT_SETTABLE.contains(&name.to_ascii_lowercase().as_str()) {
                warnings
                    .push(format!("{source}: [[headers]] for {:?}: {name} is set by the server; ignored", table.path));
                continue;
            }
            values.push((name.to_owned(), value));
        }
        headers.push(HeaderRule::new(&table.path, values).map_err(|e| Error::input(source, e))?);
    }
    let mut redirects = Vec::new();
    for table in &config.redirects {
        let status = table.status.unwrap_or(301);
        let skip = |why: &str| format!("{source}: [[redirects]] from {:?} skipped ({why})", table.from);
        if table.query.as_ref().is_some_and(|q| !q.is_empty()) {
            warnings.push(skip("query parameter matching is not supported"));
        } else if table.conditions.as_ref().is_some_and(|c| !c.is_empty()) {
            warnings.push(skip("conditions are not supported"));
        } else if let Some(why) = unsupported_target(&table.to, status) {
            warnings.push(skip(why));
        } else if !(200..600).contains(&status) {
            return Err(Error::input(source, format!("[[redirects]] from {:?}: status {status}", table.from)));
        } else {
            match RedirectRule::new(&table.from, &table.to, status, table.force) {
                Ok(rule) => redirects.push(rule),
                Err(why) => warnings.push(skip(&why)),
            }
        }
    }
    Ok(NetlifyRules { headers, redirects, warnings })
}

/// The netlify.toml a preview follows: `folder`'s own when it has one (the repository
/// root, where the commands run), else the copy built into the binary. Its text, and the
/// name errors and warnings give it.
pub fn netlify_toml_in(folder: &Path) -> Result<(String, String), Error> {
    let path = folder.join("netlify.toml");
    match fs::read_to_string(&path) {
        Ok(text) => Ok((text, path.display().to_string())),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            Ok((EMBEDDED_NETLIFY_TOML.to_owned(), "netlify.toml (built in)".to_owned()))
        }
        Err(e) => Err(Error::io(&path, e)),
    }
}

/// What a request path names on disk.
#[derive(Debug, PartialEq)]
enum Lookup {
    File(PathBuf),
    /// A folder with an index, asked for without the trailing slash.
    Folder(PathBuf),
    Missing,
}

/// The body of a response: bytes made here, or a file streamed from disk.
pub enum Body {
    Bytes(Vec<u8>),
    File(File, u64),
}

impl Body {
    pub fn len(&self) -> u64 {
        match self {
            Body::Bytes(bytes) => bytes.len() as u64,
            Body::File(_, len) => *len,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A response before it is written: Content-Length and Connection are added on writing.
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Body,
}

impl Response {
    fn text(status: u16, text: &str) -> Response {
        Response {
            status,
            headers: vec![("Content-Type".into(), "text/plain; charset=utf-8".into())],
            body: Body::Bytes(format!("{text}\n").into_bytes()),
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }

    /// Writes the status line, headers and (unless `head_only`) the body.
    pub fn write_to(self, out: &mut impl Write, head_only: bool) -> io::Result<()> {
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
        500 => "Internal Server Error",
        _ => "",
    }
}

/// The Content-Type for a file, by its extension.
pub fn content_type(path: &Path) -> &'static str {
    let extension = path.extension().and_then(|e| e.to_str()).unwrap_or("").to_ascii_lowercase();
    match extension.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
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
pub fn decode_path(raw: &str) -> Result<String, &'static str> {
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
    pub fn respond(&self, method: &str, target: &str) -> Response {
        if target.contains(|c: char| c.is_control()) {
            return Response::text(400, "Bad Request: control characters in the target");
        }
        // An absolute-form target (`http://host/path`) names the path after the authority.
        let target = match target.split_once("://") {
            Some((_, rest)) => rest.find('/').map_or("/", |at| &rest[at..]),
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
    /// symbolic link) names nothing.
    fn lookup(&self, path: &str) -> Lookup {
        let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
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

fn with_query(location: &str, query: Option<&str>) -> String {
    match query {
        Some(query) if !query.is_empty() && !location.contains('?') => format!("{location}?{query}"),
        _ => location.to_owned(),
    }
}

fn redirect(status: u16, location: &str) -> Response {
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
                io::ErrorKind::AddrInUse => Error::Refused(format!(
                    "port {port} on 127.0.0.1 is already in use: stop what holds it, or pass another --port \
                 (--port 0 picks a free one)"
                )),
                _ => Error::Refused(format!("cannot listen on 127.0.0.1:{port}: {e}")),
            })?;
        let address = listener.local_addr().map_err(|e| Error::Refused(format!("no local address: {e}")))?;
        Ok(Server { listener, address, site: Arc::new(site) })
    }

    /// The address to open, e.g. `http://127.0.0.1:8402/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.address)
    }

    /// Answers until the process is stopped, logging one line a request to stderr.
    pub fn run(self) -> Result<(), Error> {
        for stream in self.listener.incoming() {
            match stream {
                Ok(stream) => {
                    let site = Arc::clone(&self.site);
                    std::thread::spawn(move || handle(&site, stream));
                }
                // A connection that failed before it was accepted (or too many open
                // files): the next one may well work.
                Err(e) => eprintln!("accept failed: {e}"),
            }
        }
        Ok(())
    }
}

/// Reads one request from `stream`, answers it and closes.
fn handle(site: &Site, stream: TcpStream) {
    let _ = stream.set_read_timeout(Some(Duration::from_secs(10)));
    let _ = stream.set_write_timeout(Some(Duration::from_secs(30)));
    let mut reader = BufReader::new((&stream).take(MAX_HEAD_BYTES));
    let mut request_line = String::new();
    if reader.read_line(&mut request_line).unwrap_or(0) == 0 {
        return;
    }
    // The headers are not used, but are read so the client's write completes.
    let mut complete = false;
    let mut line = String::new();
    loop {
        line.clear();
        match reader.read_line(&mut line) {
            Ok(0) | Err(_) => break,
            Ok(_) if line == "\r\n" || line == "\n" => {
                complete = true;
                break;
            }
            Ok(_) => {}
        }
    }
    if !complete && reader.get_ref().limit() > 0 {
        // The client went away mid-request: nobody to answer.
        return;
    }
    let parts: Vec<&str> = request_line.split_whitespace().collect();
    let (method, target, response) = match parts[..] {
        _ if !complete => ("?", "?", Response::text(431, "Request Header Fields Too Large")),
        [method, target, version] if version.starts_with("HTTP/1.") => (method, target, site.respond(method, target)),
        _ => ("?", "?", Response::text(400, "Bad Request: expected `METHOD /path HTTP/1.1`")),
    };
    let status = response.status;
    let mut out = &stream;
    if let Err(e) = response.write_to(&mut out, method == "HEAD") {
        eprintln!("{method} {} -> {status} (not sent: {e})", target.escape_debug());
        return;
    }
    eprintln!("{method} {} -> {status}", target.escape_debug());
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(pattern: &str, values: &[(&str, &str)]) -> HeaderRule {
        HeaderRule::new(pattern, values.iter().map(|(n, v)| (n.to_string(), v.to_string())).collect()).unwrap()
    }

    #[test]
    fn for_patterns_match_as_netlify_translates_them() {
        let all = rule("/*", &[]);
        for path in ["/", "/index.html", "/2026-08-20/api/manifest.json"] {
            assert!(all.matches(path), "{path}");
        }
        let dated = rule("/20*", &[]);
        assert!(dated.matches("/2026-08-20/"));
        assert!(dated.matches("/2026-08-20/api/manifest.json"));
        assert!(!dated.matches("/method/1.0.0/"));
        assert!(!dated.matches("/a/2026-08-20/"));
        let latest = rule("/latest/*", &[]);
        for path in ["/latest", "/latest/", "/latest/api/manifest.json", "/LATEST/x"] {
            assert!(latest.matches(path), "{path}");
        }
        // The standalone `*` makes the slash before it optional: Netlify's quirk, kept.
        assert!(latest.matches("/latestx"));
        assert!(!latest.matches("/other/latest/x"));
        let placeholder = rule("/:date/index.html", &[]);
        assert!(placeholder.matches("/2026-08-20/index.html"));
        assert!(!placeholder.matches("/a/b/index.html"));
        let exact = rule("/robots.txt", &[]);
        assert!(exact.matches("/robots.txt"));
        assert!(exact.matches("/robots.txt/"));
        // Literal characters are literal, `.` included.
        assert!(!exact.matches("/robotsxtxt"));
        let inner = rule("/*.json", &[]);
        assert!(inner.matches("/2026-08-20/api/manifest.json"));
        assert!(!inner.matches("/index.html"));
        let root = rule("/", &[]);
        assert!(root.matches("/"));
        assert!(!root.matches("/index.html"));
    }

    #[test]
    fn a_later_matching_rule_replaces_an_earlier_ones_header() {
        let rules = [
            rule("/*", &[("Cache-Control", "public, max-age=300"), ("X-Content-Type-Options", "nosniff")]),
            rule("/20*", &[("cache-control", "public, max-age=31536000, immutable")]),
            rule("/method/*", &[("Cache-Control", "public, max-age=86400")]),
        ];
        let dated = headers_for(&rules, "/2026-08-20/");
        assert_eq!(
            dated,
            [
                ("Cache-Control".to_string(), "public, max-age=31536000, immutable".to_string()),
                ("X-Content-Type-Options".to_string(), "nosniff".to_string())
            ]
        );
        let root = headers_for(&rules, "/");
        assert_eq!(root[0].1, "public, max-age=300");
        assert_eq!(root.len(), 2);
        // Order is declaration order, not specificity: a broad rule declared last wins.
        let reversed = [rule("/20*", &[("Cache-Control", "long")]), rule("/*", &[("Cache-Control", "short")])];
        assert_eq!(headers_for(&reversed, "/2026-08-20/")[0].1, "short");
    }

    #[test]
    fn the_repository_netlify_toml_reads_whole() {
        let NetlifyRules { headers, redirects, warnings } =
            read_netlify_toml(EMBEDDED_NETLIFY_TOML, "netlify.toml").unwrap();
        assert_eq!(
            headers.iter().map(|h| h.pattern.as_str()).collect::<Vec<_>>(),
            ["/*", "/20*", "/method/*", "/latest/*"]
        );
        assert!(redirects.is_empty());
        assert!(warnings.is_empty(), "{warnings:?}");
    }

    #[test]
    fn header_values_are_normalised_as_netlify_does() {
        let text = r#"
            [[headers]]
              for = "/*"
              [headers.values]
                Cache-Control = '''
                max-age=0,
                no-cache'''
                Link = ["</a.css>; rel=preload", " </b.js>; rel=preload "]
                Content-Length = "5"
        "#;
        let NetlifyRules { headers, warnings, .. } = read_netlify_toml(text, "test.toml").unwrap();
        let values = headers_for(&headers, "/x");
        assert_eq!(
            values,
            [
                ("Cache-Control".to_string(), "max-age=0, no-cache".to_string()),
                ("Link".to_string(), "</a.css>; rel=preload, </b.js>; rel=preload".to_string())
            ]
        );
        assert_eq!(warnings.len(), 1, "Content-Length is the server's: {warnings:?}");
    }

    #[test]
    fn a_header_value_cannot_smuggle_a_line() {
        let text = "[[headers]]\nfor = \"/*\"\n[headers.values]\nX-A = '''\none\ntwo'''\n";
        assert!(read_netlify_toml(text, "test.toml").is_err());
    }

    #[test]
    fn the_builds_redirects_parse() {
        let text = "/latest /2026-08-20/ 302\n/latest/* /2026-08-20/:splat 200\n";
        let parsed = parse_redirects(text).unwrap();
        assert!(parsed.skipped.is_empty());
        let [moved, rewrite] = &parsed.rules[..] else { panic!("two rules: {:?}", parsed.rules) };
        assert_eq!(
            (moved.from.as_str(), moved.to.as_str(), moved.status, moved.force),
            ("/latest", "/2026-08-20/", 302, false)
        );
        assert_eq!((rewrite.status, rewrite.force), (200, false));
        assert_eq!(moved.target("/latest").as_deref(), Some("/2026-08-20/"));
        assert_eq!(moved.target("/latest/").as_deref(), Some("/2026-08-20/"), "a trailing slash matches too");
        assert_eq!(moved.target("/Latest"), None, "paths are case-sensitive");
        assert_eq!(moved.target("/latest/x"), None);
        assert_eq!(rewrite.target("/latest/api/manifest.json").as_deref(), Some("/2026-08-20/api/manifest.json"));
        assert_eq!(rewrite.target("/latest/").as_deref(), Some("/2026-08-20/"));
        assert_eq!(rewrite.target("/latestx"), None);
    }

    #[test]
    fn redirects_lines_parse_by_netlifys_format() {
        let text =
            "# comment\n\n  /old   /new\n/a/:year/:slug /b/:slug/:year 301!\n/go/* https://example.com/:splat 302\n";
        let parsed = parse_redirects(text).unwrap();
        assert_eq!(parsed.rules.len(), 3);
        assert_eq!((parsed.rules[0].status, parsed.rules[0].force), (301, false), "301 when none is given");
        assert!(parsed.rules[1].force);
        assert_eq!(parsed.rules[1].target("/a/2026/hello").as_deref(), Some("/b/hello/2026"));
        // Captures are decoded text: they go back into the URL encoded.
        assert_eq!(parsed.rules[1].target("/a/2026/a b").as_deref(), Some("/b/a%20b/2026"));
        assert_eq!(parsed.rules[2].target("/go/a/b").as_deref(), Some("https://example.com/a/b"));
        let encoded = parse_redirects("/authors/c%C3%A9line /about 301\n").unwrap();
        assert_eq!(encoded.rules[0].target("/authors/céline").as_deref(), Some("/about"));
    }

    #[test]
    fn unsupported_redirects_are_skipped_and_bad_ones_refused() {
        let parsed = parse_redirects(
            "/store id=:id /blog/:id 301\n/a /b 302 Country=us\n/api/* https://example.com/:splat 200\n/x* /y\n",
        )
        .unwrap();
        assert!(parsed.rules.is_empty());
        assert_eq!(parsed.skipped.len(), 4, "{:?}", parsed.skipped);
        assert_eq!(parse_redirects("/ok /fine\n/lonely\n").unwrap_err().0, 2);
        assert_eq!(parse_redirects("/a /b 3o2\n").unwrap_err().0, 1);
        assert_eq!(parse_redirects("/a /b 999\n").unwrap_err().0, 1);
    }

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

    #[test]
    fn placeholders_fill_only_known_names() {
        assert_eq!(fill_placeholders("/x/:splat", &[("splat", "a/b")]), "/x/a/b");
        assert_eq!(fill_placeholders("https://h:8080/:id", &[("id", "7")]), "https://h:8080/7");
        assert_eq!(fill_placeholders("/:id/:identifier", &[("id", "1"), ("identifier", "2")]), "/1/2");
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
    fn a_missing_folder_is_the_source_unavailable() {
        let error = Site::load(Path::new("/nonexistent/x402dir/public"), "", "test.toml").err().unwrap();
        assert_eq!(error.code(), "SOURCE_UNAVAILABLE");
        assert!(error.to_string().contains("x402dir build"), "{error}");
    }

    #[test]
    fn content_types_by_extension() {
        for (name, expected) in [
            ("a/index.html", "text/html; charset=utf-8"),
            ("static/style.css", "text/css; charset=utf-8"),
            ("static/composer.js", "text/javascript; charset=utf-8"),
            ("api/manifest.json", "application/json"),
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
