//! npm's netlify-cli as the reference for what Netlify sends (issue 21): `netlify dev`,
//! started offline on a built site, and `x402dir serve` on the same folder and the same
//! netlify.toml, asked the same paths (a page, a dated page and its API, CSS, scripts, the
//! root files, `latest/` and its rewrites, missing files), must agree on the status, the
//! redirect's target, the body, the content type and the headers netlify.toml declares
//! (CSP, nosniff, referrer policy, CORS on the APIs). Cache-Control is compared with
//! netlify-cli's own rule engine (tests/netlify/rules.mjs), because `netlify dev`'s static
//! server sends `public, max-age=0` over whatever netlify.toml says.
//!
//! Offline, `netlify dev` needs `--offline` (no account, no site link) and
//! `--internal-disable-edge-functions`: without it, it downloads Deno for edge functions
//! and stops ("fetch failed"). The site has no edge functions.
//!
//! Where `netlify dev` is known to differ from Netlify's CDN, `x402dir serve` follows the
//! CDN, and the test holds each difference as it is: a folder asked without its slash
//! (`/2025-12-31`), which the CDN redirects to `/2025-12-31/` (pretty URLs) and `netlify
//! dev` serves in place; and `/_redirects`, which the CDN reads and never serves.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::prerequisites::{self, Need};
use crate::common::{repo_root, temp_dir, REAL_DATES};
use method::Method;

/// The headers netlify.toml declares, compared between the two as sent.
const DECLARED: [&str; 4] =
    ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "Access-Control-Allow-Origin"];

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers.iter().find(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str())
    }
}

/// `GET target` over HTTP/1.1, read to the close (chunked bodies decoded).
fn get(port: u16, target: &str) -> Reply {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(stream, "GET {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or_else(|| panic!("no head for {target}"));
    let head = String::from_utf8_lossy(&raw[..end]).into_owned();
    let mut lines = head.split("\r\n");
    let status = lines.next().unwrap().split(' ').nth(1).unwrap().parse().unwrap();
    let headers: Vec<(String, String)> =
        lines.filter_map(|l| l.split_once(':')).map(|(n, v)| (n.trim().to_owned(), v.trim().to_owned())).collect();
    let mut body = raw[end + 4..].to_vec();
    if headers.iter().any(|(n, v)| n.eq_ignore_ascii_case("transfer-encoding") && v.contains("chunked")) {
        body = dechunk(&body);
    }
    Reply { status, headers, body }
}

fn dechunk(mut raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let Some(eol) = raw.windows(2).position(|w| w == b"\r\n") else { return out };
        let size = usize::from_str_radix(String::from_utf8_lossy(&raw[..eol]).trim(), 16).unwrap_or(0);
        if size == 0 {
            return out;
        }
        out.extend_from_slice(&raw[eol + 2..eol + 2 + size]);
        raw = &raw[eol + 2 + size + 2..];
    }
}

/// A child process and everything it started, stopped when dropped.
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        // netlify dev runs its static server in its own process group: stop the group.
        let _ = Command::new("kill").arg("--").arg(format!("-{}", self.0.id())).status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

fn start_x402dir_serve(cwd: &Path) -> (Running, u16) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_x402dir"))
        .args(["serve", "--port", "0", "--dir", "public"])
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(fs::File::create(cwd.join("serve.log")).unwrap())
        .spawn()
        .expect("x402dir runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let running = Running(child);
    let port = line.trim_end().trim_end_matches('/').rsplit(':').next().and_then(|p| p.parse().ok());
    (running, port.unwrap_or_else(|| panic!("x402dir serve said {line:?}")))
}

fn start_netlify_dev(cwd: &Path, netlify: &Path) -> (Running, u16) {
    let port = free_port();
    let log = cwd.join("netlify-dev.log");
    let child = Command::new(netlify)
        .args(["dev", "--offline", "--internal-disable-edge-functions", "--dir", "public", "--no-open", "--port"])
        .arg(port.to_string())
        .current_dir(cwd)
        // No telemetry, no update check, and its state in the scratch folder, not $HOME.
        .env("NETLIFY_TELEMETRY_DISABLED", "1")
        .env("XDG_CONFIG_HOME", cwd.join("config"))
        .env("BROWSER", "none")
        .stdin(Stdio::null())
        .stdout(fs::File::create(&log).unwrap())
        .stderr(fs::File::create(cwd.join("netlify-dev.err")).unwrap())
        .process_group(0)
        .spawn()
        .expect("netlify runs");
    let running = Running(child);
    let started = Instant::now();
    loop {
        if TcpStream::connect(("127.0.0.1", port)).is_ok() && get(port, "/").status == 200 {
            return (running, port);
        }
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "netlify dev did not answer within 120 s:\n{}\n{}",
            fs::read_to_string(&log).unwrap_or_default(),
            fs::read_to_string(cwd.join("netlify-dev.err")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}

/// netlify-cli's rule engine: the headers it gives each path from `cwd`/netlify.toml.
fn declared_by_netlify(cwd: &Path, paths: &[&str]) -> serde_json::Value {
    let out = Command::new("node")
        .arg(repo_root().join("tests/netlify/rules.mjs"))
        .args(paths)
        .current_dir(cwd)
        .output()
        .expect("node runs");
    assert!(out.status.success(), "rules.mjs: {}", String::from_utf8_lossy(&out.stderr));
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn x402dir_serve_sends_what_netlify_dev_sends() {
    if !prerequisites::ready("netlify-cli comparison (tests/it/netlify.rs)", &[Need::Node, Need::NetlifyCli]) {
        return;
    }
    let netlify: PathBuf = prerequisites::netlify_cli().expect("checked by ready");
    let dir = temp_dir("netlify");
    let snapshots: Vec<PathBuf> =
        REAL_DATES.iter().map(|d| repo_root().join(format!("content/snapshots/{d}.json"))).collect();
    publish::build(&snapshots, &dir.join("public"), &Method::embedded()).unwrap();
    fs::copy(repo_root().join("netlify.toml"), dir.join("netlify.toml")).unwrap();
    let (_serve, ours) = start_x402dir_serve(&dir);
    let (_dev, theirs) = start_netlify_dev(&dir, &netlify);

    let default = "2025-12-31";
    let paths = [
        "/",
        "/index.html",
        "/2025-12-31/",
        "/2025-12-31/index.html",
        "/2025-12-31/browse/",
        "/2025-12-31/api/manifest.json",
        "/2025-12-31/api/explore/manifest.json",
        "/2025-12-31/static/style.css",
        "/2025-12-31/static/composer.js",
        "/2025-12-31/static/snapshot.js",
        "/2025-12-31/static/favicon.svg",
        "/2025-12-31/feed.xml",
        "/2026-08-20/api/manifest.json",
        "/latest",
        "/latest/",
        "/latest/api/manifest.json",
        "/latest/browse/",
        "/method/1.4.0/",
        "/static-api/3/",
        "/explore/1.1.0/golden/RULES.md",
        "/schema/manifest.schema.json",
        "/snapshots.json",
        "/sitemap.xml",
        "/robots.txt",
        "/llms.txt",
        "/nope",
        "/nope/",
        "/2025-12-31/nope.json",
        "/2025-12-31/r/nope/",
        "/latest/nope.json",
    ];
    let rules = declared_by_netlify(&dir, &paths);
    let mut compared = 0;
    for path in paths {
        let (a, b) = (get(ours, path), get(theirs, path));
        assert_eq!(a.status, b.status, "{path}: x402dir serve {} , netlify dev {}", a.status, b.status);
        if (300..400).contains(&a.status) {
            assert_eq!(a.header("Location"), b.header("Location"), "{path}: redirect target");
            compared += 1;
            continue;
        }
        assert_eq!(a.body, b.body, "{path}: body");
        assert_eq!(a.header("Content-Type"), b.header("Content-Type"), "{path}: Content-Type");
        for name in DECLARED {
            assert_eq!(a.header(name), b.header(name), "{path}: {name}");
        }
        if a.status == 200 {
            let declared = rules[path]["Cache-Control"].as_str();
            assert_eq!(a.header("Cache-Control"), declared, "{path}: Cache-Control, as netlify-cli's rules give it");
        }
        compared += 1;
    }
    assert_eq!(compared, paths.len());

    // The comparison covers what it says: CSP everywhere, immutable dated paths, latest/
    // as a redirect and a rewrite, CORS on the APIs, a missing file's 404 page.
    let csp = get(ours, "/").header("Content-Security-Policy").unwrap().to_owned();
    assert!(csp.contains("require-trusted-types-for 'script'"), "{csp}");
    assert_eq!(rules["/2025-12-31/api/manifest.json"]["Cache-Control"], "public, max-age=31536000, immutable");
    assert_eq!(rules["/latest/api/manifest.json"]["Cache-Control"], "public, max-age=300, must-revalidate");
    let latest = get(theirs, "/latest/");
    assert_eq!((latest.status, latest.header("Location")), (302, Some("/2025-12-31/")));
    let rewritten = get(theirs, "/latest/api/manifest.json");
    assert_eq!(rewritten.status, 200);
    assert_eq!(rewritten.body, fs::read(dir.join("public").join(default).join("api/manifest.json")).unwrap());
    assert_eq!(rewritten.header("Access-Control-Allow-Origin"), Some("*"));
    let missing = get(theirs, "/2025-12-31/nope.json");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.body, fs::read(dir.join("public/404.html")).unwrap());

    // Where netlify dev is not the CDN, as the module doc says.
    let (a, b) = (get(ours, "/2025-12-31"), get(theirs, "/2025-12-31"));
    assert_eq!((a.status, a.header("Location")), (301, Some("/2025-12-31/")));
    assert_eq!((b.status, &b.body), (200, &get(ours, "/2025-12-31/").body));
    let (a, b) = (get(ours, "/_redirects"), get(theirs, "/_redirects"));
    assert_eq!((a.status, b.status), (404, 200));
    // netlify dev's static server's own Cache-Control, which is why the rules are asked.
    assert_eq!(get(theirs, "/2025-12-31/").header("Cache-Control"), Some("public, max-age=0"));
}
