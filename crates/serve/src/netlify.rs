//! Netlify's rules as `serve` reads them: `[[headers]]` and `[[redirects]]` from
//! netlify.toml, and the published folder's `_redirects`, matched as Netlify matches
//! them (the parent module's notes say where each behaviour comes from).

use std::fs;
use std::io;
use std::path::Path;

use regex::Regex;
use serde::Deserialize;

use super::{decode_path, EMBEDDED_NETLIFY_TOML};
use catalogue::Error;

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

/// One `[[headers]]` table: the paths it is `for` and the headers it sets there.
#[derive(Debug)]
pub struct HeaderRule {
    /// The `for` pattern as written: for Debug and the tests, which check what was read.
    #[allow(dead_code)]
    pub(crate) pattern: String,
    matcher: Regex,
    pub(crate) values: Vec<(String, String)>,
}

impl HeaderRule {
    pub(crate) fn new(pattern: &str, values: Vec<(String, String)>) -> Result<HeaderRule, String> {
        Ok(HeaderRule { pattern: pattern.trim().to_owned(), matcher: for_pattern(pattern)?, values })
    }

    pub(crate) fn matches(&self, path: &str) -> bool {
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
    /// The `from` path as written: for Debug and the tests, which check what was read.
    #[allow(dead_code)]
    pub(crate) from: String,
    pub(crate) to: String,
    pub(crate) status: u16,
    /// `!` after the status (`force = true` in netlify.toml): applies even over a file.
    pub(crate) force: bool,
    matcher: Regex,
    /// The name of each capture group of `matcher`, `splat` for the `*`.
    names: Vec<String>,
}

impl RedirectRule {
    pub(crate) fn new(from: &str, to: &str, status: u16, force: bool) -> Result<RedirectRule, String> {
        let (matcher, names) = from_pattern(from)?;
        Ok(RedirectRule { from: from.to_owned(), to: to.to_owned(), status, force, matcher, names })
    }

    /// Where `path` goes under this rule (`to` with its placeholders filled), if it matches.
    pub(crate) fn target(&self, path: &str) -> Option<String> {
        let captures = self.matcher.captures(path)?;
        let values: Vec<(&str, &str)> = self
            .names
            .iter()
            .enumerate()
            .map(|(i, name)| (name.as_str(), captures.get(i + 1).map_or("", |m| m.as_str())))
            .collect();
        Some(fill_placeholders(&self.to, &values))
    }

    pub(super) fn is_redirect(&self) -> bool {
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
pub(super) fn encode_path(text: &str) -> String {
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
    pub(crate) rules: Vec<RedirectRule>,
    pub(crate) skipped: Vec<String>,
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
pub(super) struct NetlifyRules {
    pub(super) headers: Vec<HeaderRule>,
    pub(super) redirects: Vec<RedirectRule>,
    pub(super) warnings: Vec<String>,
}

pub(super) fn read_netlify_toml(text: &str, source: &str) -> Result<NetlifyRules, Error> {
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
            ["/*", "/20*", "/:date/api/*", "/latest/api/*", "/method/*", "/latest/*"]
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
    fn placeholders_fill_only_known_names() {
        assert_eq!(fill_placeholders("/x/:splat", &[("splat", "a/b")]), "/x/a/b");
        assert_eq!(fill_placeholders("https://h:8080/:id", &[("id", "7")]), "https://h:8080/7");
        assert_eq!(fill_placeholders("/:id/:identifier", &[("id", "1"), ("identifier", "2")]), "/1/2");
    }
}
