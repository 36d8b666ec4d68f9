//! The npm package `x402dir-mcp` (clients/mcp/): an MCP server that answers from a
//! published site through the composer each snapshot publishes. Here it is pointed at
//! `x402dir serve` of a site `x402dir build` made, and must answer every request as `x402dir
//! mcp` answers it over the same snapshot (the differential); say SOURCE_UNAVAILABLE, with
//! the URL and the fix, for a site it cannot read, and keep serving; keep dated files and
//! re-read `latest` at most every ten minutes (tests/mcp/npm_site.mjs); and install from its
//! packed tarball without the public registry, then answer the official MCP SDKs. Without
//! Node, the npm packages or the Python SDK the tests skip (common::prerequisites).

use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::prerequisites::{self, Need};
use crate::common::{repo_root, static_temp_dir, temp_dir, Rng, TempDir};
use crate::mcp_sdks::{check, run_client_against, Expect, HANDSHAKE, MODERN};

/// The snapshots the two servers' differential answers from: the embedded 2025-12-31 (the
/// site's default) and 2026-08-20, copied once for every test here with 2025-12-18 before
/// them (the same history as in content/snapshots), 2025-12-31 with a synthetic probe file
/// beside it (tests/it/common/probes.rs) so that `answered_402` and each row's `probe` are
/// compared too.
fn snapshots() -> &'static [PathBuf; 2] {
    static SNAPSHOTS: OnceLock<(TempDir, [PathBuf; 2])> = OnceLock::new();
    &SNAPSHOTS
        .get_or_init(|| {
            let dir = static_temp_dir("mcp-npm-snapshots");
            let store =
                |date: &str| crate::common::real_snapshot(date).write_into(&dir.join("snapshots"), false).unwrap();
            store("2025-12-18");
            let paths = [store("2025-12-31"), store("2026-08-20")];
            let index = method::index::Index::read(&paths[0], &method::Method::embedded()).unwrap();
            crate::common::probes::write_beside(&paths[0], &crate::common::probes::synthetic_probe(&index, 0x35));
            (dir, paths)
        })
        .1
}
const SUITE: &str = "npm MCP server tests (clients/mcp)";

fn ready() -> bool {
    prerequisites::ready(SUITE, &[Need::Node, Need::NpmPackages])
}

/// A child process stopped when dropped (a failing test included).
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A site built by `x402dir build` from [`snapshots`] (the newest complete one,
/// 2025-12-31, is its default; 2026-08-20 is partial), once for every test here.
fn built_site() -> &'static Path {
    // In a static, never dropped: the next test run removes it (common::static_temp_dir).
    static SITE: OnceLock<(TempDir, PathBuf)> = OnceLock::new();
    &SITE.get_or_init(|| build_site("mcp-npm-site", snapshots())).1
}

/// The same two dates built from content/snapshots as they are (not probed): what the
/// official SDKs' checks compare with `x402dir query`'s answers from the repository.
fn repository_site() -> &'static Path {
    static SITE: OnceLock<(TempDir, PathBuf)> = OnceLock::new();
    let stored = ["2025-12-31", "2026-08-20"].map(|d| repo_root().join(format!("content/snapshots/{d}.json")));
    &SITE.get_or_init(|| build_site("mcp-npm-repository-site", &stored)).1
}

fn build_site(name: &str, snapshots: &[PathBuf]) -> (TempDir, PathBuf) {
    let dir = static_temp_dir(name);
    let mut build = Command::new(env!("CARGO_BIN_EXE_x402dir"));
    build.args(["build", "--no-lock", "--out"]).arg(dir.join("public"));
    for s in snapshots {
        build.arg("--snapshot").arg(s);
    }
    let out = build.current_dir(repo_root()).output().unwrap();
    assert!(out.status.success(), "build: {}", String::from_utf8_lossy(&out.stderr));
    let public = dir.join("public");
    (dir, public)
}

/// `x402dir serve --dir dir` on a free port, and its address.
fn serve(dir: &Path) -> (Running, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_x402dir"))
        .args(["serve", "--port", "0", "--dir"])
        .arg(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let url = line.trim().rsplit(' ').next().unwrap().trim_end_matches('/').to_owned();
    assert!(url.starts_with("http://127.0.0.1:"), "serve said {line:?}");
    (Running(child), url)
}

/// An MCP server on stdio, asked one line at a time.
struct Stdio2 {
    _child: Running,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Stdio2 {
    fn start(mut command: Command) -> Stdio2 {
        let mut child =
            command.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::null()).spawn().expect("server starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Stdio2 { _child: Running(child), input, output }
    }

    /// The response to one line (which must be a request).
    fn ask(&mut self, line: &str) -> Value {
        writeln!(self.input, "{line}").unwrap();
        self.input.flush().unwrap();
        let mut response = String::new();
        self.output.read_line(&mut response).unwrap();
        serde_json::from_str(&response).unwrap_or_else(|e| panic!("{line}: response {response:?}: {e}"))
    }
}

fn rust_server() -> Stdio2 {
    rust_server_of(&snapshots()[0])
}

fn rust_server_of(snapshot: &Path) -> Stdio2 {
    let mut command = Command::new(env!("CARGO_BIN_EXE_x402dir"));
    command.args(["mcp", "--snapshot"]).arg(snapshot).current_dir(repo_root());
    Stdio2::start(command)
}

fn npm_bin() -> PathBuf {
    repo_root().join("clients/mcp/bin/x402dir-mcp.js")
}

fn npm_server(args: &[&str]) -> Stdio2 {
    let mut command = Command::new("node");
    command.arg(npm_bin()).args(args);
    Stdio2::start(command)
}

fn request(id: u64, method: &str, params: Value) -> String {
    json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}).to_string()
}

fn meta(version: &str) -> Value {
    json!({ "io.modelcontextprotocol/protocolVersion": version })
}

/// Tool arguments from the generator: words, every filter in good and bad forms, unknown
/// networks, paging past the end, wrong types and unknown arguments.
fn arguments(rng: &mut Rng) -> Value {
    const WORDS: &[&str] = &[
        "weather",
        "forecast",
        "price",
        "token",
        "crypto",
        "api",
        "data",
        "news",
        "image",
        "search",
        "swap",
        "base",
        "solana",
        "ai",
        "agent",
        "the",
        "a",
        "x",
        "market",
        "wallet",
        "nft",
        "video",
        "translate",
        "stock",
        "chat",
        "questflow",
        "powered",
        "ΣΊΣΥΦΟΣ",
        "σίσυφος",
        "Straße",
        "nonexistentword",
        "WEATHER",
        "check",
        "of",
        "to",
        "api.questflow.ai",
        "x402",
        "pay",
        "usdc",
        "ETH",
        "btc",
        "twitter",
        "score",
    ];
    let mut args = serde_json::Map::new();
    match rng.below(30) {
        0 => {}
        1 => {
            args.insert("query".into(), json!(7));
        }
        2 => {
            args.insert("query".into(), json!("weather ".repeat(251)));
        }
        _ => {
            let n = rng.below(5);
            let words: Vec<&str> = (0..n).map(|_| *rng.pick(WORDS)).collect();
            let joiner = *rng.pick(&[" ", "  ", ", ", "-"]);
            args.insert("query".into(), json!(words.join(joiner)));
        }
    }
    let price = [
        json!("0.01"),
        json!("$0.01"),
        json!(0.01),
        json!("0.001 USD"),
        json!("1"),
        json!(5),
        json!("abc"),
        json!("-1"),
        json!("0.0000000000000000001"),
        json!(""),
        json!(0.5),
        json!(true),
    ];
    let network = [
        json!("Base"),
        json!("base"),
        json!("eip155:8453"),
        json!("solana"),
        json!("Solana"),
        json!("base-sepolia"),
        json!("Base Sepolia"),
        json!("eip155:1"),
        json!("basee"),
        json!("polygon"),
        json!(""),
        json!("   "),
        json!(8453),
        json!(null),
    ];
    let testnets = [json!(true), json!(false), json!("yes"), json!(null), json!(1)];
    let limit = [
        json!(1),
        json!(3),
        json!(50),
        json!(51),
        json!(0),
        json!(-1),
        json!(2.5),
        json!("7"),
        json!("x"),
        json!(1000),
    ];
    let offset = [json!(0), json!(1), json!(5), json!(20), json!(1_000_000), json!(1_000_001), json!("3"), json!(-1)];
    for (key, values, chance) in [
        ("max_price", &price[..], 3),
        ("network", &network[..], 3),
        ("exclude_testnets", &testnets[..], 4),
        ("answered_402", &testnets[..], 4),
        ("limit", &limit[..], 2),
        ("offset", &offset[..], 3),
    ] {
        if rng.below(chance) == 0 {
            args.insert(key.into(), rng.pick(values).clone());
        }
    }
    if rng.below(25) == 0 {
        args.insert(rng.pick(&["foo", "answered", "max-price"]).to_string(), json!("1"));
    }
    Value::Object(args)
}

/// Every request of the differential, in order: protocol (both eras, bad versions,
/// unknown methods and tools) and `n` generated tool calls in every era.
fn requests(n: usize) -> Vec<String> {
    let mut out = vec![
        request(
            1,
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
        ),
        request(2, "tools/list", json!({})),
        request(3, "server/discover", json!({"_meta": meta(MODERN)})),
        request(4, "tools/list", json!({"_meta": meta(MODERN)})),
        request(5, "ping", json!({})),
        request(6, "ping", json!({"_meta": meta(MODERN)})),
        request(7, "resources/list", json!({})),
        request(8, "tools/list", json!({"_meta": meta("2099-01-01")})),
        request(9, "tools/list", json!({"_meta": {"io.modelcontextprotocol/protocolVersion": 5}})),
        request(10, "tools/call", json!({"name": "nope", "arguments": {"query": "weather"}})),
        request(11, "tools/call", json!({"name": 5})),
        request(12, "tools/call", json!({"arguments": {"query": "weather"}})),
        request(13, "tools/call", json!({"name": "find_x402_resource", "arguments": "weather"})),
        request(14, "tools/call", json!({"name": "find_x402_resource", "arguments": null})),
        request(15, "initialize", json!({"protocolVersion": "2024-11-05"})),
        request(16, "initialize", json!({"protocolVersion": "2025-03-26"})),
        request(17, "tools/call", json!({"name": "find_x402_resource", "arguments": {"query": "weather"}})),
        request(18, "initialize", json!({"protocolVersion": "2025-06-18"})),
        request(19, "tools/list", json!({"_meta": meta("2025-03-26")})),
    ];
    let mut rng = Rng(0x5eed_0035);
    for i in 0..n {
        let mut params = json!({"name": "find_x402_resource", "arguments": arguments(&mut rng)});
        match rng.below(4) {
            0 => params["_meta"] = meta(MODERN),
            1 => params["_meta"] = meta("2025-03-26"),
            2 => params["_meta"] = meta("2025-11-25"),
            _ => {}
        }
        out.push(request(100 + i as u64, "tools/call", params));
    }
    // The probe's filter with words that find something (a probed default snapshot keeps
    // what answered 402; the pinned 2026-08-20 was not probed and refuses it).
    for (i, query) in ["", "api", "weather", "token price", "image", "data", "ai agent", "search"].iter().enumerate() {
        let arguments = json!({"query": query, "answered_402": true, "limit": 20, "offset": i % 3});
        let params = json!({"name": "find_x402_resource", "arguments": arguments, "_meta": meta(MODERN)});
        out.push(request(100 + (n + i) as u64, "tools/call", params));
    }
    out
}

/// Where two answers first differ, for a readable failure.
fn first_difference(a: &Value, b: &Value, path: &str) -> String {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for key in x.keys().chain(y.keys()) {
                if x.get(key) != y.get(key) {
                    return first_difference(
                        x.get(key).unwrap_or(&Value::Null),
                        y.get(key).unwrap_or(&Value::Null),
                        &format!("{path}/{key}"),
                    );
                }
            }
            path.to_owned()
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => (0..x.len())
            .find(|&i| x[i] != y[i])
            .map_or(path.to_owned(), |i| first_difference(&x[i], &y[i], &format!("{path}/{i}"))),
        _ => format!("{path}: {a} vs {b}"),
    }
}

/// The 2025-03-26 text is the envelope serialised: compared as parsed JSON (serde_json and
/// JSON.stringify may write one number two ways).
fn normalised(mut response: Value) -> Value {
    if let Some(text) = response.pointer_mut("/result/content/0/text") {
        if let Some(Ok(parsed)) =
            text.as_str().filter(|t| t.starts_with("{\"meta\"")).map(serde_json::from_str::<Value>)
        {
            *text = parsed;
        }
    }
    response
}

#[test]
fn npm_server_answers_as_the_rust_server_does() {
    if !ready() {
        return;
    }
    let (_serve, url) = serve(built_site());
    // Cold: a fresh server's first answer (Node's start, /snapshots.json, the manifest,
    // the composer and its modules, then the query's files), beside the Rust server's.
    let first = call("weather");
    let cold = |mut server: Stdio2| {
        let started = Instant::now();
        assert_eq!(server.ask(&first)["result"]["isError"], false);
        started.elapsed()
    };
    let (rust_cold, npm_cold) = (cold(rust_server()), cold(npm_server(&["--site", &url])));
    let mut rust = rust_server();
    let mut npm = npm_server(&["--site", &url]);
    let lines = requests(300);
    let (mut compared, mut answers, mut errors, mut answered_402) = (0, 0, 0, 0);
    let mut timings = Vec::new();
    for line in &lines {
        let expected = normalised(rust.ask(line));
        let started = Instant::now();
        let got = normalised(npm.ask(line));
        if got["result"]["isError"] == false {
            timings.push(started.elapsed());
        }
        assert!(expected == got, "{line}\n first difference at {}", first_difference(&expected, &got, ""));
        compared += 1;
        let envelope = &expected["result"]["structuredContent"];
        if envelope["meta"]["query"]["filters"]["answered_402"] == true && envelope["meta"]["returned"] != 0 {
            answered_402 += 1;
        }
        match expected["result"]["isError"].as_bool() {
            Some(false) => answers += 1,
            Some(true) => errors += 1,
            None => {}
        }
    }
    // Lines that are no request: both answer with the same JSON-RPC error code and no id
    // (the message quotes each language's own JSON parser).
    for line in ["nonsense", "[1, 2]", "{\"jsonrpc\": \"2.0\", \"id\": 5}"] {
        let (a, b) = (rust.ask(line), npm.ask(line));
        assert_eq!(a["error"]["code"], b["error"]["code"], "{line}: {a} vs {b}");
        assert_eq!(b["id"], Value::Null, "{line}");
    }
    assert!(
        compared >= 300 && answers >= 60 && errors >= 40 && answered_402 >= 5,
        "{compared} compared, {answers} answers, {errors} tool errors, {answered_402} answered_402 answers with rows"
    );
    let warm: Duration = timings.iter().sum::<Duration>() / timings.len() as u32;
    let slowest = timings.iter().max().unwrap();
    let _ = std::io::stderr().write_all(
        format!(
            "mcp_npm differential: {compared} requests, {answers} answers and {errors} tool errors equal; \
             first answer of a fresh server: npm {npm_cold:?}, rust {rust_cold:?}; npm answers after: {warm:?} mean, {slowest:?} slowest\n"
        )
        .as_bytes(),
    );
}

/// `--date` pins a snapshot other than the default (here the partial 2026-08-20, which has
/// usage counters): the same answers as `x402dir mcp` over that snapshot's file.
#[test]
fn npm_server_pinned_to_a_date_answers_from_it() {
    if !ready() {
        return;
    }
    let (_serve, url) = serve(built_site());
    let mut rust = rust_server_of(&snapshots()[1]);
    let mut npm = npm_server(&["--site", &url, "--date", "2026-08-20"]);
    let mut answered = 0;
    for line in requests(80) {
        let (expected, got) = (normalised(rust.ask(&line)), normalised(npm.ask(&line)));
        assert!(expected == got, "{line}\n first difference at {}", first_difference(&expected, &got, ""));
        if let Some(date) = got["result"]["structuredContent"]["meta"]["snapshot"]["date"].as_str() {
            assert_eq!(date, "2026-08-20");
            answered += 1;
        }
    }
    assert!(answered >= 20, "{answered} answers compared");
}

fn tool_error(response: &Value) -> Value {
    assert_eq!(response["result"]["isError"], true, "{response}");
    serde_json::from_str(response["result"]["content"][0]["text"].as_str().unwrap()).unwrap()
}

fn call(query: &str) -> String {
    request(1, "tools/call", json!({"name": "find_x402_resource", "arguments": {"query": query}}))
}

#[test]
fn npm_server_says_what_it_cannot_read_and_keeps_serving() {
    if !ready() {
        return;
    }
    // Nothing listens: SOURCE_UNAVAILABLE naming the snapshot list's URL, then the server
    // still lists its tool and still checks arguments.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let mut npm = npm_server(&["--site", &format!("http://127.0.0.1:{port}")]);
    let error = tool_error(&npm.ask(&call("weather")));
    assert_eq!(error["error"]["code"], "SOURCE_UNAVAILABLE", "{error}");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains(&format!("http://127.0.0.1:{port}/snapshots.json")), "{message}");
    assert!(error["error"]["fix"].as_str().unwrap().contains("--site"), "{error}");
    assert_eq!(npm.ask(&request(2, "tools/list", json!({})))["result"]["tools"][0]["name"], "find_x402_resource");
    let refused =
        tool_error(&npm.ask(&request(3, "tools/call", json!({"name": "find_x402_resource", "arguments": {}}))));
    assert_eq!(refused["error"]["code"], "INVALID_ARGUMENT");

    // A date the site does not have: the manifest's URL.
    let (_serve, url) = serve(built_site());
    let mut npm = npm_server(&["--site", &url, "--date", "2020-01-01"]);
    let error = tool_error(&npm.ask(&call("weather")));
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains(&format!("{url}/2020-01-01/api/manifest.json")), "{message}");

    // A layout this package does not know.
    let other = temp_dir("mcp-npm-layout");
    let api = other.join("2025-12-31/api");
    fs::create_dir_all(&api).unwrap();
    fs::copy(built_site().join("snapshots.json"), other.join("snapshots.json")).unwrap();
    let mut manifest: Value =
        serde_json::from_slice(&fs::read(built_site().join("2025-12-31/api/manifest.json")).unwrap()).unwrap();
    manifest["api_version"] = json!(99);
    fs::write(api.join("manifest.json"), manifest.to_string()).unwrap();
    let (_other_serve, other_url) = serve(&other);
    let mut npm = npm_server(&["--site", &other_url]);
    let error = tool_error(&npm.ask(&call("weather")));
    let message = error["error"]["message"].as_str().unwrap();
    assert!(
        message.contains("layout 99") && message.contains(&format!("{other_url}/2025-12-31/api/manifest.json")),
        "{message}"
    );
    assert!(error["error"]["fix"].as_str().unwrap().contains("x402dir-mcp@latest"), "{error}");
    assert_eq!(npm.ask(&request(2, "ping", json!({})))["result"], json!({}), "still serving");
}

#[test]
fn npm_site_caches_dated_files_and_rechecks_latest() {
    if !ready() {
        return;
    }
    let cache = temp_dir("mcp-npm-cache");
    let out = Command::new("node")
        .arg("tests/mcp/npm_site.mjs")
        .arg(built_site())
        .arg(cache.path())
        .current_dir(repo_root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
}

/// The package reads the published address of content/site.json, and names itself as the
/// crate does.
#[test]
fn npm_package_points_at_the_published_site() {
    let read = |rel: &str| -> Value { serde_json::from_slice(&fs::read(repo_root().join(rel)).unwrap()).unwrap() };
    let site = read("content/site.json");
    let spec = read("clients/mcp/spec.json");
    assert_eq!(spec["site"].as_str(), site["base_url"].as_str().map(|u| u.trim_end_matches('/')));
    assert_eq!(spec["mcp"], mcp::description(), "clients/mcp/spec.json is stale: cargo xtask codegen");
    let package = read("clients/mcp/package.json");
    assert_eq!(package["name"], "x402dir-mcp");
    assert_eq!(package["version"], spec["mcp"]["server_info"]["version"], "the package's version is the server's");
    assert_eq!(package["bin"]["x402dir-mcp"], "bin/x402dir-mcp.js");
    let sdk = package["dependencies"]["@modelcontextprotocol/sdk"].as_str().unwrap();
    assert!(sdk.starts_with("^1."), "the official SDK 1.x, not {sdk}");
    // The one-line config the README and llms.txt give.
    let line = r#"{"command":"npx","args":["-y","x402dir-mcp"]}"#;
    let readme = fs::read_to_string(repo_root().join("README.md")).unwrap();
    let llms = fs::read_to_string(built_site().join("llms.txt")).unwrap();
    for (name, text) in [("README.md", &readme), ("llms.txt", &llms)] {
        assert!(text.contains(line), "{name} gives {line}");
        assert!(text.contains("--date"), "{name} says how to pin a snapshot");
    }
    assert!(
        llms.contains("https://x402dir.netlify.app") && llms.contains("2025-12-31 now"),
        "llms.txt names the site and snapshot"
    );
}

/// `npm pack`, then an install of the tarball into an empty folder with no public
/// registry: a local registry of node_modules/ (tests/mcp/local_registry.mjs) fills a
/// fresh npm cache, is stopped, and a second install runs `--offline` from that cache.
/// The installed server then answers the official SDKs as `x402dir mcp` does.
#[test]
fn packed_package_installs_offline_and_answers_the_official_sdks() {
    if !prerequisites::ready(SUITE, &[Need::Node, Need::NpmPackages, Need::PythonMcp]) {
        return;
    }
    let scratch = temp_dir("mcp-npm-pack");
    let run = |command: &mut Command| {
        let out = command.output().unwrap();
        assert!(out.status.success(), "{command:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    run(Command::new("npm")
        .args(["pack", "--silent", "--pack-destination"])
        .arg(scratch.path())
        .arg(repo_root().join("clients/mcp")));
    let tarball = fs::read_dir(scratch.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.file_name().unwrap().to_string_lossy().starts_with("x402dir-mcp-"))
        .expect("npm pack wrote the tarball");
    let mut registry = Command::new("node")
        .arg(repo_root().join("tests/mcp/local_registry.mjs"))
        .arg(repo_root().join("node_modules"))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(registry.stdout.take().unwrap()).read_line(&mut line).unwrap();
    let registry = Running(registry);
    let address = line.trim().to_owned();
    let cache = scratch.join("npm-cache");
    let install = |folder: &str, offline: bool| -> PathBuf {
        let dir = scratch.join(folder);
        fs::create_dir_all(&dir).unwrap();
        fs::write(dir.join("package.json"), "{}").unwrap();
        let mut command = Command::new("npm");
        command.arg("install").args(offline.then_some("--offline")).args([
            "--no-audit",
            "--no-fund",
            "--registry",
            &address,
            "--cache",
        ]);
        run(command.arg(&cache).arg(&tarball).current_dir(&dir));
        dir
    };
    install("warm", false);
    drop(registry);
    let installed = install("empty", true).join("node_modules/.bin/x402dir-mcp");
    assert!(installed.exists(), "the package's bin is installed");

    let (_serve, url) = serve(repository_site());
    let server = [installed.to_string_lossy().into_owned(), "--site".into(), url];
    let python = prerequisites::python_mcp().expect("checked by prerequisites::ready");
    let client = |program: &Path, args: &[&str]| run_client_against(program, args, Some(&server));
    let named = Expect { version: MODERN, server_name: Some("x402dir"), text_is_envelope: false };
    check("npm package, python auto", &client(&python, &["tests/mcp/python_client.py", "auto"]), &named);
    check(
        "npm package, python 2025-11-25",
        &client(&python, &["tests/mcp/python_client.py", "2025-11-25"]),
        &HANDSHAKE,
    );
    let text_only = Expect { version: "2025-03-26", text_is_envelope: true, ..HANDSHAKE };
    check(
        "npm package, python 2025-03-26",
        &client(&python, &["tests/mcp/python_client.py", "2025-03-26"]),
        &text_only,
    );
    let node = Path::new("node");
    check("npm package, ts client auto", &client(node, &["tests/mcp/ts_client.mjs", "auto"]), &named);
    check("npm package, ts client legacy", &client(node, &["tests/mcp/ts_client.mjs", "legacy"]), &HANDSHAKE);
}
