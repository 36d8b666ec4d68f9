//! `x402dir serve`, run as a user would: the real binary on a loopback port, spoken to over
//! plain TCP. Expected headers come from netlify.toml's text, expected bodies and lengths
//! from the files the build wrote.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;
use std::time::Duration;

use crate::common::{self, memory, repo_root, static_temp_dir, temp_dir, TempDir, REAL_DATES};
use method::Method;

/// Written beside the built site: no request may ever read it.
const SECRET: &str = "x402dir serve test: outside the site";

/// The three embedded snapshots, built once for every test in this file.
fn built_site() -> &'static Path {
    // In a static, never dropped: the next test run removes it (common::static_temp_dir).
    static SITE: OnceLock<TempDir> = OnceLock::new();
    SITE.get_or_init(|| {
        let out = static_temp_dir("serve").at("public");
        let secret = out.with_file_name("secret.txt");
        let snapshots: Vec<PathBuf> =
            REAL_DATES.iter().map(|d| repo_root().join(format!("content/snapshots/{d}.json"))).collect();
        publish::build(&snapshots, &out, &Method::embedded()).unwrap();
        fs::write(&secret, SECRET).unwrap();
        #[cfg(unix)]
        std::os::unix::fs::symlink(&secret, out.join("leak.txt")).unwrap();
        out
    })
    .path()
}

fn newest_date() -> &'static str {
    REAL_DATES.iter().max().unwrap()
}

/// A running `x402dir serve`, stopped when dropped (a failing test included).
struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `serve --port 0 --dir <dir>` in `cwd` and reads the port from its first line.
fn serve_in(cwd: &Path, dir: &Path) -> Server {
    static STARTED: AtomicUsize = AtomicUsize::new(0);
    // Its request log goes to a file: a pipe nobody reads could fill and stall it.
    let log = built_site().with_file_name(format!("serve-{}.log", STARTED.fetch_add(1, Ordering::SeqCst)));
    let mut child = Command::new(memory::x402dir_bin())
        .args(["serve", "--port", "0", "--dir"])
        .arg(dir)
        .current_dir(cwd)
        .stdout(Stdio::piped())
        .stderr(fs::File::create(&log).unwrap())
        .spawn()
        .expect("binary runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    // Stopped by the guard if the line is not what it should be.
    let mut server = Server { child, port: 0 };
    let prefix = format!("serving {} at http://127.0.0.1:", dir.display());
    let port = line.strip_prefix(&prefix).and_then(|rest| rest.strip_suffix("/\n")).and_then(|p| p.parse().ok());
    let Some(port) = port else {
        panic!("first line {line:?}, stderr: {}", fs::read_to_string(&log).unwrap_or_default());
    };
    server.port = port;
    server
}

fn serve() -> Server {
    serve_in(&repo_root(), built_site())
}

struct Reply {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Reply {
    /// Every value sent under `name`.
    fn all(&self, name: &str) -> Vec<&str> {
        self.headers.iter().filter(|(n, _)| n.eq_ignore_ascii_case(name)).map(|(_, v)| v.as_str()).collect()
    }

    /// The one value sent under `name` (a header sent twice fails the test).
    fn header(&self, name: &str) -> Option<&str> {
        let all = self.all(name);
        assert!(all.len() <= 1, "{name} sent {} times: {all:?}", all.len());
        all.first().copied()
    }
}

/// Sends `method target` as written (no client-side normalisation) and reads to the close.
fn request(port: u16, method: &str, target: &str) -> Reply {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(stream, "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n").unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).unwrap();
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").unwrap_or_else(|| panic!("no head for {target}"));
    let head = std::str::from_utf8(&raw[..end]).unwrap();
    let mut lines = head.split("\r\n");
    let status_line = lines.next().unwrap();
    assert!(status_line.starts_with("HTTP/1.1 "), "{status_line}");
    let status = status_line.split(' ').nth(1).unwrap().parse().unwrap();
    let headers = lines
        .map(|line| {
            let (name, value) = line.split_once(": ").unwrap_or_else(|| panic!("header line {line:?}"));
            (name.to_owned(), value.to_owned())
        })
        .collect();
    Reply { status, headers, body: raw[end + 4..].to_vec() }
}

fn get(port: u16, target: &str) -> Reply {
    request(port, "GET", target)
}

/// The value netlify.toml's `[[headers]]` rule `for = pattern` gives `name`.
fn declared(pattern: &str, name: &str) -> String {
    let text = fs::read_to_string(repo_root().join("netlify.toml")).unwrap();
    let config: toml::Table = toml::from_str(&text).unwrap();
    let rule = config["headers"].as_array().unwrap().iter().find(|rule| rule["for"].as_str() == Some(pattern));
    let rule = rule.unwrap_or_else(|| panic!("netlify.toml has no [[headers]] for {pattern}"));
    rule["values"][name].as_str().unwrap_or_else(|| panic!("{pattern} sets no {name}")).to_owned()
}

fn on_disk(path: &str) -> Vec<u8> {
    fs::read(built_site().join(path)).unwrap()
}

#[test]
fn pages_carry_the_security_headers_netlify_toml_declares() {
    let server = serve();
    let date = newest_date();
    for (target, file) in
        [("/".to_owned(), "index.html".to_owned()), (format!("/{date}/"), format!("{date}/index.html"))]
    {
        let reply = get(server.port, &target);
        assert_eq!(reply.status, 200, "{target}");
        for name in ["Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy"] {
            assert_eq!(reply.header(name), Some(declared("/*", name).as_str()), "{name} on {target}");
        }
        assert_eq!(reply.header("Content-Type"), Some("text/html; charset=utf-8"));
        assert_eq!(reply.body, on_disk(&file), "{target}");
        assert_eq!(reply.header("Content-Length"), Some(reply.body.len().to_string().as_str()));
    }
}

#[test]
fn cache_control_follows_the_path() {
    let server = serve();
    let date = newest_date();
    for (target, rule) in [
        ("/".to_owned(), "/*"),
        ("/robots.txt".to_owned(), "/*"),
        (format!("/{date}/"), "/20*"),
        (format!("/{date}/api/manifest.json"), "/20*"),
        (format!("/method/{}/", method::DISCOVERY_METHOD_VERSION), "/method/*"),
        ("/latest/api/manifest.json".to_owned(), "/latest/*"),
    ] {
        let reply = get(server.port, &target);
        assert_eq!(reply.status, 200, "{target}");
        assert_eq!(reply.header("Cache-Control"), Some(declared(rule, "Cache-Control").as_str()), "{target}");
    }
    assert!(declared("/20*", "Cache-Control").contains("immutable"));
}

#[test]
fn the_json_apis_are_readable_from_any_origin_and_nothing_else_is() {
    let server = serve();
    let date = newest_date();
    for target in [
        format!("/{date}/api/manifest.json"),
        format!("/{date}/api/report.json"),
        "/latest/api/manifest.json".to_owned(),
    ] {
        let reply = get(server.port, &target);
        assert_eq!(reply.status, 200, "{target}");
        assert_eq!(reply.header("Access-Control-Allow-Origin"), Some("*"), "{target}");
    }
    for target in [format!("/{date}/"), format!("/{date}/search/"), "/".to_owned()] {
        assert_eq!(get(server.port, &target).header("Access-Control-Allow-Origin"), None, "{target}");
    }
}

/// clients/node/query.mjs, the format page's Node example: over HTTP from the preview, the
/// answer `x402dir query --json` gives for the default snapshot.
#[test]
fn the_node_example_answers_over_http_as_the_cli_does() {
    if !common::prerequisites::ready("the Node example (clients/node/query.mjs)", &[common::prerequisites::Need::Node])
    {
        return;
    }
    example_answers_as_the_cli_does(|| {
        let mut node = Command::new("node");
        node.arg(repo_root().join("clients/node/query.mjs"));
        node
    });
}

/// The same example under Deno (npm's `deno`, a devDependency), which the format page
/// and the example name as a runtime for the composer: over HTTP, as the CLI answers.
#[test]
fn the_node_example_runs_under_deno_as_the_cli_answers() {
    if !common::prerequisites::ready("the Node example under Deno", &[common::prerequisites::Need::NpmPackages]) {
        return;
    }
    example_answers_as_the_cli_does(|| {
        let mut deno = Command::new(repo_root().join("node_modules/.bin/deno"));
        deno.args(["run", "--quiet", "--no-config", "--allow-net=127.0.0.1"])
            .env("DENO_DIR", repo_root().join("target/deno"))
            .arg(repo_root().join("clients/node/query.mjs"));
        deno
    });
}

/// Deno imports the composer the site publishes, by its URL, as the format page shows,
/// and answers with `httpSource(base)` as the CLI does for that snapshot.
#[test]
fn deno_imports_the_published_composer_by_url() {
    if !common::prerequisites::ready("the composer under Deno", &[common::prerequisites::Need::NpmPackages]) {
        return;
    }
    let server = serve();
    let date = "2025-12-31";
    let origin = format!("http://127.0.0.1:{}", server.port);
    let script = format!(
        "import {{ query, httpSource }} from \"{origin}/{date}/static/composer.js\";\n\
         const answer = await query(httpSource(\"{origin}/{date}/api/\"), \"token price\", {{ max_price: \"$0.05\" }});\n\
         console.log(JSON.stringify(answer));\n"
    );
    let deno = Command::new(repo_root().join("node_modules/.bin/deno"))
        .args(["eval", "--quiet", "--no-config", "--ext=js"])
        .arg(format!("--allow-import=127.0.0.1:{}", server.port))
        .arg(format!("--allow-net=127.0.0.1:{}", server.port))
        .env("DENO_DIR", repo_root().join("target/deno"))
        .arg(&script)
        .output()
        .expect("deno runs");
    assert!(deno.status.success(), "{}", String::from_utf8_lossy(&deno.stderr));
    let snapshot = format!("content/snapshots/{date}.json");
    let from_cli = common::cli_answer(&["--snapshot", &snapshot, "--max-price", "$0.05", "token", "price"]);
    let from_deno: serde_json::Value = serde_json::from_slice(&deno.stdout).unwrap();
    assert!(from_cli["meta"]["returned"].as_u64().unwrap() > 0, "the check would be empty");
    assert_eq!(from_deno, from_cli);
}

/// Runs clients/node/query.mjs (the command `runtime` makes, given the site and the CLI's
/// flags) on the preview, and compares each answer with `x402dir query --json`.
fn example_answers_as_the_cli_does(runtime: impl Fn() -> Command) {
    let server = serve();
    let site = format!("http://127.0.0.1:{}", server.port);
    // The site's default snapshot (the newest complete of those it was built from), which
    // the example reads through latest/; the CLI is given the same one, since the stored
    // snapshots may include newer ones (the weekly run adds one each week).
    let list: serde_json::Value =
        serde_json::from_slice(&fs::read(built_site().join("snapshots.json")).unwrap()).unwrap();
    let default = repo_root().join(format!("content/snapshots/{}.json", list["default"].as_str().unwrap()));
    for args in [&["weather", "--max-price", "0.01", "--network", "Base"][..], &["ai", "agent", "--offset", "10"], &[]]
    {
        let example = runtime().arg(&site).args(args).output().expect("the runtime runs");
        assert!(example.status.success(), "{args:?}: {}", String::from_utf8_lossy(&example.stderr));
        // The example takes the CLI's own flags.
        let from_cli = common::cli_answer(&[&["--snapshot", default.to_str().unwrap()], args].concat());
        let from_example: serde_json::Value = serde_json::from_slice(&example.stdout).unwrap();
        assert_eq!(from_example, from_cli, "{args:?}");
        assert!(from_cli["meta"]["returned"].as_u64().unwrap() > 0, "{args:?} found nothing: the check would be empty");
    }
    // A network the snapshot does not know: the composer's INVALID_FILTER, exit status 2.
    let example = runtime().args([&site, "weather", "--network", "basee"]).output().unwrap();
    assert_eq!(example.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&example.stderr).starts_with("INVALID_FILTER: unknown network \"basee\""));
}

#[test]
fn a_missing_file_under_an_immutable_path_is_not_cached() {
    let server = serve();
    let reply = get(server.port, &format!("/{}/api/q/no-such-word.json", newest_date()));
    assert_eq!(reply.status, 404);
    // Netlify's own for a miss, not the dated path's year-long immutable rule.
    assert_eq!(reply.header("Cache-Control"), Some(serve::NOT_FOUND_CACHE_CONTROL));
    assert!(declared("/20*", "Cache-Control").contains("immutable"));
}

#[test]
fn latest_moves_to_the_default_snapshot_and_its_files_are_served_in_place() {
    let server = serve();
    // The newest complete snapshot, not the newer partial one (content/method.md#limits).
    let date = "2025-12-31";
    let redirects = fs::read_to_string(built_site().join("_redirects")).unwrap();
    assert!(redirects.lines().any(|l| l == format!("/latest /{date}/ 302")), "{redirects}");
    assert!(redirects.lines().any(|l| l == format!("/latest/* /{date}/:splat 200")), "{redirects}");
    for target in ["/latest", "/latest/"] {
        let moved = get(server.port, target);
        assert_eq!((moved.status, moved.header("Location")), (302, Some(format!("/{date}/").as_str())), "{target}");
    }
    let rewritten = get(server.port, "/latest/api/manifest.json");
    assert_eq!(rewritten.status, 200);
    assert_eq!(rewritten.header("Location"), None, "a 200 rule rewrites, it does not redirect");
    assert_eq!(rewritten.body, on_disk(&format!("{date}/api/manifest.json")));
    assert_eq!(rewritten.header("Content-Type"), Some("application/json; charset=utf-8"));
}

#[test]
fn a_folder_without_its_slash_moves_to_it() {
    let server = serve();
    let date = newest_date();
    let moved = get(server.port, &format!("/{date}"));
    assert_eq!((moved.status, moved.header("Location")), (301, Some(format!("/{date}/").as_str())));
    let with_query = get(server.port, &format!("/{date}/search?q=weather"));
    assert_eq!(with_query.header("Location"), Some(format!("/{date}/search/?q=weather").as_str()));
}

#[test]
fn a_missing_file_is_a_404() {
    let server = serve();
    let reply = get(server.port, &format!("/{}/no-such-page/", newest_date()));
    assert_eq!(reply.status, 404);
    match fs::read(built_site().join("404.html")) {
        Ok(page) => assert_eq!(reply.body, page),
        Err(_) => assert!(!reply.body.is_empty() && reply.body.len() < 100, "a short text body"),
    }
    assert_eq!(reply.header("X-Content-Type-Options"), Some(declared("/*", "X-Content-Type-Options").as_str()));
    assert_eq!(get(server.port, "/_redirects").status, 404, "Netlify's configuration is not published");
}

#[test]
fn no_path_leaves_the_site() {
    let server = serve();
    let cargo_toml = fs::read_to_string(repo_root().join("Cargo.toml")).unwrap();
    for target in [
        "/../Cargo.toml",
        "/../../Cargo.toml",
        "/%2e%2e/Cargo.toml",
        "/%2E%2E/%2e%2e/%2e%2e/Cargo.toml",
        "/.%2e/secret.txt",
        "/%2e%2e%2fsecret.txt",
        "/2026-08-20/..%2f..%2fsecret.txt",
        "/..%5csecret.txt",
        "/../secret.txt",
        "/./../secret.txt",
        "/leak.txt",
        "/%00",
        "/index.html%00.png",
        "//secret.txt",
    ] {
        let reply = get(server.port, target);
        assert!(matches!(reply.status, 400 | 404), "{target}: {}", reply.status);
        let body = String::from_utf8_lossy(&reply.body);
        assert!(!body.contains(SECRET) && !body.contains(&cargo_toml[..40]), "{target} leaked: {body}");
    }
}

#[test]
fn head_sends_the_length_without_the_body() {
    let server = serve();
    let target = format!("/{}/api/manifest.json", newest_date());
    let full = get(server.port, &target);
    let head = request(server.port, "HEAD", &target);
    assert_eq!(head.status, 200);
    assert!(head.body.is_empty(), "{} bytes after a HEAD", head.body.len());
    let size = on_disk(&target[1..]).len().to_string();
    assert_eq!(head.header("Content-Length"), Some(size.as_str()));
    assert_eq!(full.header("Content-Length"), Some(size.as_str()));
    assert_eq!(head.header("Cache-Control"), full.header("Cache-Control"));
}

#[test]
fn other_methods_are_refused() {
    let server = serve();
    for method in ["POST", "PUT", "DELETE"] {
        let reply = request(server.port, method, "/");
        assert_eq!(reply.status, 405, "{method}");
        assert_eq!(reply.header("Allow"), Some("GET, HEAD"));
    }
}

#[test]
fn content_types_by_extension() {
    let server = serve();
    let date = newest_date();
    for (path, expected) in [
        ("index.html".to_owned(), "text/html; charset=utf-8"),
        (format!("{date}/static/style.css"), "text/css; charset=utf-8"),
        (format!("{date}/static/composer.js"), "application/javascript; charset=utf-8"),
        (format!("{date}/api/manifest.json"), "application/json; charset=utf-8"),
        ("sitemap.xml".to_owned(), "application/xml"),
        ("robots.txt".to_owned(), "text/plain; charset=utf-8"),
        ("llms.txt".to_owned(), "text/plain; charset=utf-8"),
    ] {
        assert!(built_site().join(&path).is_file(), "the build wrote {path}");
        let reply = get(server.port, &format!("/{path}"));
        assert_eq!((reply.status, reply.header("Content-Type")), (200, Some(expected)), "{path}");
    }
    let markdown = common::all_files(built_site()).into_iter().find(|p| p.extension().is_some_and(|e| e == "md"));
    let markdown = markdown.expect("the build writes a Markdown file");
    let url = format!("/{}", markdown.strip_prefix(built_site()).unwrap().to_string_lossy());
    assert_eq!(get(server.port, &url).header("Content-Type"), Some("text/markdown; charset=utf-8"), "{url}");
}

#[test]
fn netlify_toml_comes_from_the_working_folder_else_from_the_binary() {
    let date = newest_date();
    let folder = temp_dir("serve-config");
    // The later rule sets X-Preview again: it replaces the first rule's value.
    let config = format!(
        r#"
[[headers]]
  for = "/*"
  [headers.values]
    X-Preview = "every page"
    Cache-Control = "no-store"
[[headers]]
  for = "/{date}/*"
  [headers.values]
    X-Preview = "a dated page"
[[redirects]]
  from = "/old/*"
  to = "/{date}/:splat"
  status = 308
"#
    );
    fs::write(folder.join("netlify.toml"), config).unwrap();
    let custom = serve_in(&folder, built_site());
    let dated = get(custom.port, &format!("/{date}/"));
    assert_eq!(dated.header("X-Preview"), Some("a dated page"));
    assert_eq!(dated.header("Cache-Control"), Some("no-store"));
    assert_eq!(dated.header("Content-Security-Policy"), None, "the repository's rules are not read");
    assert_eq!(get(custom.port, "/").header("X-Preview"), Some("every page"));
    let moved = get(custom.port, "/old/api/manifest.json?x=1");
    assert_eq!(
        (moved.status, moved.header("Location")),
        (308, Some(format!("/{date}/api/manifest.json?x=1").as_str()))
    );
    // The build's `_redirects` comes before netlify.toml's rules and still applies.
    assert_eq!(get(custom.port, "/latest").status, 302);
    drop(custom);

    let empty = temp_dir("serve-no-config");
    let built_in = serve_in(&empty, built_site());
    let page = get(built_in.port, &format!("/{date}/"));
    assert_eq!(page.header("Content-Security-Policy"), Some(declared("/*", "Content-Security-Policy").as_str()));
    assert_eq!(page.header("Cache-Control"), Some(declared("/20*", "Cache-Control").as_str()));
}

fn run(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_x402dir")).args(args).current_dir(repo_root()).output().expect("binary runs")
}

#[test]
fn a_missing_site_says_to_build_it_first() {
    let missing = temp_dir("serve-missing").at("public");
    let output = run(&["serve", "--port", "0", "--dir", missing.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(3));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("x402dir build") && stderr.contains(&*missing.to_string_lossy()), "{stderr}");
    assert!(output.stdout.is_empty());
}

#[test]
fn a_port_in_use_is_a_clear_error() {
    let taken = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = taken.local_addr().unwrap().port().to_string();
    let output = run(&["serve", "--port", &port, "--dir", built_site().to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains(&format!("port {port}")) && stderr.contains("in use"), "{stderr}");
}

/// The kernel's own table of listening sockets: the preview's is on 127.0.0.1 only.
#[cfg(all(target_os = "linux", target_endian = "little"))]
#[test]
fn it_listens_on_loopback_only() {
    let server = serve();
    let table =
        fs::read_to_string("/proc/net/tcp").unwrap() + &fs::read_to_string("/proc/net/tcp6").unwrap_or_default();
    let port = format!(":{:04X}", server.port);
    // Columns: sl, local_address (hex address:port), rem_address, st (0A = LISTEN), ...
    let listening: Vec<&str> = table
        .lines()
        .filter_map(|line| {
            let columns: Vec<&str> = line.split_whitespace().collect();
            (columns.get(3) == Some(&"0A") && columns[1].ends_with(&port)).then_some(columns[1])
        })
        .collect();
    assert_eq!(listening, [format!("0100007F{port}")], "127.0.0.1 in the kernel's byte order");
}

/// Memory the preview may use under any flood.
const FLOOD_PEAK: u64 = 512 << 20;

/// A GET answered within `wait`, or `None` (a hang, a reset, a closed socket).
fn get_within(port: u16, target: &str, wait: Duration) -> Option<u16> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(wait)).ok()?;
    write!(stream, "GET {target} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).ok()?;
    std::str::from_utf8(raw.get(9..12)?).ok()?.parse().ok()
}

/// 3,000 connections that never send a byte: a thread each made 16,000 of them end
/// the server. Threads stay at the pool's size, memory stays small, a request during
/// the flood is answered (200, or 503 at once while every worker is taken and the queue
/// full) within the head deadline the idle ones ahead of it have, and once they pass
/// it pages are served again, the flood still open.
#[test]
fn a_flood_of_idle_connections_is_bounded_and_the_server_keeps_serving() {
    let mut server = serve();
    let pid = server.child.id();
    let mut watch = memory::Watch::start(pid, memory::WATCHDOG_BYTES);
    let flood: Vec<TcpStream> = (0..3000).filter_map(|_| TcpStream::connect(("127.0.0.1", server.port)).ok()).collect();
    assert!(flood.len() >= 2900, "{} connections made", flood.len());
    std::thread::sleep(Duration::from_millis(500));
    let threads = memory::threads(pid).expect("the server runs");
    // Answered or refused, never left hanging past the deadline of the idle connections
    // queued ahead of it (a refusal can come as a reset). Slack for a loaded machine.
    let asked = std::time::Instant::now();
    let during = get_within(server.port, "/", Duration::from_secs(20));
    let waited = asked.elapsed();
    assert!(matches!(during, Some(200 | 503) | None), "{during:?}");
    assert!(waited < serve::HEAD_DEADLINE + Duration::from_secs(3), "left hanging {:.1} s", waited.as_secs_f64());
    let started = std::time::Instant::now();
    let mut after = None;
    while started.elapsed() < serve::HEAD_DEADLINE + Duration::from_secs(10) && after != Some(200) {
        after = get_within(server.port, "/", Duration::from_secs(10));
        std::thread::sleep(Duration::from_millis(200));
    }
    let recovered = started.elapsed();
    eprintln!(
        "flood of {}: {threads} threads, {during:?} during it after {:.1} s, peak {} MB, first 200 after {:.1} s",
        flood.len(),
        waited.as_secs_f64(),
        watch.peak() >> 20,
        recovered.as_secs_f64()
    );
    assert_eq!(after, Some(200), "served again within the head deadline, the flood still open");
    assert!(threads <= serve::WORKERS as u64 + 8, "{threads} threads for {} connections", flood.len());
    drop(flood);
    assert_eq!(get_within(server.port, "/", Duration::from_secs(10)), Some(200));
    assert!(server.child.try_wait().unwrap().is_none(), "the server is still running");
    watch.stop();
    assert!(!watch.killed() && watch.peak() < FLOOD_PEAK, "peak {} MB", watch.peak() >> 20);
}

/// A client that trickles its head a byte at a time is cut off at the head deadline,
/// not kept for as long as it keeps trickling.
#[test]
fn a_slow_client_is_cut_off_at_the_head_deadline() {
    let server = serve();
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_millis(300))).unwrap();
    let started = std::time::Instant::now();
    stream.write_all(b"GET / HTTP/1.1\r\nX-Slow: ").unwrap();
    let limit = serve::HEAD_DEADLINE + Duration::from_secs(5);
    let closed = loop {
        if started.elapsed() > limit {
            break false;
        }
        // Closed by the server: a read gives 0 bytes (or the connection is reset).
        let mut byte = [0u8; 1];
        match stream.read(&mut byte) {
            Ok(0) => break true,
            Err(e) if !matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => break true,
            _ => {}
        }
        if stream.write_all(b"x").is_err() {
            break true;
        }
    };
    assert!(closed, "still open after {:.1} s of trickling", started.elapsed().as_secs_f64());
    assert!(started.elapsed() >= serve::HEAD_DEADLINE - Duration::from_millis(500));
    assert_eq!(get(server.port, "/").status, 200);
}

#[test]
fn a_url_in_the_query_and_a_doubled_slash_stay_on_the_site() {
    let server = serve();
    let robots = get(server.port, "/robots.txt?next=http://x/index.html");
    assert_eq!(robots.status, 200);
    assert!(robots.body == on_disk("robots.txt"), "a URL in the query named the file served");
    let date = newest_date();
    let moved = get(server.port, &format!("//{date}"));
    assert_eq!((moved.status, moved.header("Location")), (301, Some(format!("/{date}/").as_str())));
    // The build's staging folders, were any left, are never served.
    assert_eq!(get(server.port, &format!("/.staging-{date}-1/")).status, 404);
}

/// Two requests for a large file sent back to back before reading, the second after the
/// server has read the first: the first is answered whole, then the connection closes
/// cleanly. Closing a socket with unread input (or input still to come) makes the
/// kernel reset it, which threw away the end of the body not yet sent (cut at 74 KB).
#[test]
fn a_pipelined_request_for_a_large_file_gets_its_whole_body() {
    let site = temp_dir("serve-large").at("public");
    fs::create_dir_all(&*site).unwrap();
    // Larger than what the kernel buffers on both ends together.
    let large: Vec<u8> = (0..16u32 << 20).map(|i| (i % 251) as u8).collect();
    fs::write(site.join("large.bin"), &large).unwrap();
    let server = serve_in(&repo_root(), &site);
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    stream.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let ask = "GET /large.bin HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    stream.write_all(ask.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    stream.write_all(ask.as_bytes()).unwrap();
    std::thread::sleep(Duration::from_millis(300));
    let mut raw = Vec::new();
    let read = stream.read_to_end(&mut raw);
    assert!(read.is_ok(), "{read:?} after {} bytes of {}", raw.len(), large.len());
    let end = raw.windows(4).position(|w| w == b"\r\n\r\n").expect("a head") + 4;
    let head = String::from_utf8_lossy(&raw[..end]).to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 200 "), "{head}");
    assert!(head.contains(&format!("\r\ncontent-length: {}\r\n", large.len())), "{head}");
    // The response said `Connection: close`: the second request is not answered.
    assert!(head.contains("\r\nconnection: close\r\n"), "{head}");
    assert_eq!(raw.len() - end, large.len(), "the body, and nothing after it");
    assert!(raw[end..] == large[..], "the body is the file");
}
/// The status of a reply read to the close, or `None` (a hang, a reset, no head).
fn status_of(mut stream: TcpStream) -> Option<u16> {
    stream.set_read_timeout(Some(Duration::from_secs(20))).ok()?;
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).ok()?;
    std::str::from_utf8(raw.get(9..12)?).ok()?.parse().ok()
}

/// 200 connections open at once, each asking only once all are open: every one is
/// answered 200 (at most 96 were; the rest got 503 at once).
#[test]
fn two_hundred_connections_at_once_are_all_served() {
    let server = serve();
    let streams: Vec<TcpStream> = (0..200).map(|_| TcpStream::connect(("127.0.0.1", server.port)).unwrap()).collect();
    for mut stream in &streams {
        // A refused connection may already be closed: its status says so below.
        let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n");
    }
    let statuses: Vec<Option<u16>> = streams.into_iter().map(status_of).collect();
    let served = statuses.iter().filter(|s| **s == Some(200)).count();
    assert_eq!(served, 200, "others: {:?}", statuses.iter().filter(|s| **s != Some(200)).collect::<Vec<_>>());
}

/// Clients that open connections and send part of a head, 200 new ones a second (twice
/// the slowloris of issue 30), must not keep real requests from being answered: each of
/// these is answered 200 while they go on.
#[test]
fn clients_that_never_finish_their_head_do_not_starve_real_requests() {
    let mut server = serve();
    let port = server.port;
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let attacker = {
        let stop = std::sync::Arc::clone(&stop);
        std::thread::spawn(move || {
            let mut open = std::collections::VecDeque::new();
            while !stop.load(Ordering::SeqCst) {
                for _ in 0..100 {
                    if let Ok(mut stream) = TcpStream::connect(("127.0.0.1", port)) {
                        let _ = stream.write_all(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
                        open.push_back(stream);
                    }
                }
                open.drain(..open.len().saturating_sub(1000));
                std::thread::sleep(Duration::from_millis(500));
            }
        })
    };
    // Enough partial heads to take every worker and fill the old queue.
    std::thread::sleep(Duration::from_secs(1));
    let statuses: Vec<Option<u16>> = (0..20).map(|_| get_within(port, "/", Duration::from_secs(20))).collect();
    stop.store(true, Ordering::SeqCst);
    attacker.join().unwrap();
    assert!(statuses.iter().all(|s| *s == Some(200)), "{statuses:?}");
    assert!(server.child.try_wait().unwrap().is_none(), "the server is still running");
}
