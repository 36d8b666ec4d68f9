//! `x402dir mcp` driven as an MCP client drives it: spawn the binary, write JSON-RPC
//! requests to its standard input one per line, read its responses, in both eras of
//! the protocol (the 2025-11-25 handshake and the stateless 2026-07-28 revision). The
//! official SDKs drive it in tests/it/mcp_sdks.rs.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use crate::common::{self, memory, repo_root, temp_dir};
use serde_json::{json, Value};

const SNAPSHOT: &str = "content/snapshots/2025-12-31.json";
const WITHHELD_URL: &str = "http://x402-joke-agent.up.railway.app/explain_service";

struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    /// Every line the server wrote, to search afterwards.
    transcript: String,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = Command::new(memory::x402dir_bin())
            .arg("mcp")
            .args(args)
            .current_dir(repo_root())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("binary runs");
        let stdin = child.stdin.take();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Session { child, stdin, stdout, next_id: 1, transcript: String::new() }
    }

    fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    fn read(&mut self) -> Value {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        assert!(line.ends_with('\n'), "one message per line: {line:?}");
        self.transcript.push_str(&line);
        serde_json::from_str(&line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"))
    }

    /// A request; its response, whose id must be the request's.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        let response = self.read();
        assert_eq!(response["jsonrpc"], "2.0");
        assert_eq!(response["id"], id, "{response}");
        response
    }

    fn result(&mut self, method: &str, params: Value) -> Value {
        let response = self.request(method, params);
        assert!(response.get("error").is_none(), "{method}: {response}");
        response["result"].clone()
    }

    /// Closes standard input: the server must then exit cleanly.
    fn finish(mut self) -> String {
        drop(self.stdin.take());
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
        std::mem::take(&mut self.transcript)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn cli_answer(args: &[&str]) -> Value {
    common::cli_answer(&[&["--snapshot", SNAPSHOT], args].concat())
}

fn modern(params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "x402dir-test", "version": "0"}
    });
    params
}

#[test]
fn a_handshake_client_lists_the_tool_and_gets_the_cli_answer() {
    let mut s = Session::start(&["--snapshot", SNAPSHOT]);
    let init = s.result(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "0"}}),
    );
    assert_eq!(init["protocolVersion"], "2025-11-25");
    assert_eq!(init["serverInfo"]["name"], "x402dir");
    assert!(init["capabilities"]["tools"].is_object());
    assert!(init.get("resultType").is_none(), "the handshake era has no resultType");
    // A notification gets no response: the next line read answers the next request.
    s.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));

    let tools = s.result("tools/list", json!({}));
    let tools = tools["tools"].as_array().unwrap();
    assert_eq!(tools.len(), 1);
    let tool = &tools[0];
    assert_eq!(tool["name"], "find_x402_resource");
    assert_eq!(tool["inputSchema"]["required"], json!(["query"]));
    let properties: Vec<&str> =
        tool["inputSchema"]["properties"].as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(properties, ["query", "max_price", "network", "exclude_testnets", "answered_402", "limit", "offset"]);
    let published: Value =
        serde_json::from_slice(&std::fs::read(repo_root().join("content/schema/answer.schema.json")).unwrap()).unwrap();
    assert_eq!(tool["outputSchema"], published, "the output schema is the published answer schema");

    let call = s.result(
        "tools/call",
        json!({"name": "find_x402_resource", "arguments": {"query": "weather", "limit": 3, "max_price": 0.05}}),
    );
    assert_eq!(call["isError"], false);
    let expected = cli_answer(&["--limit", "3", "--max-price", "0.05", "weather"]);
    assert_eq!(call["structuredContent"], expected);
    // The envelope travels once: the text is a summary that says where it is.
    let text = call["content"][0]["text"].as_str().unwrap();
    assert!(serde_json::from_str::<Value>(text).is_err(), "the text is a summary, not the envelope: {text}");
    assert!(text.contains("structuredContent"), "{text}");
    assert_eq!(expected["meta"]["query"]["tokens"], json!(["weather"]));
    assert!(expected["data"].as_array().unwrap().len() <= 3);

    assert_eq!(s.result("ping", json!({})), json!({}));
    s.finish();
}

#[test]
fn descriptions_are_screened_as_on_every_other_surface() {
    let mut s = Session::start(&["--snapshot", SNAPSHOT]);
    let call =
        s.result("tools/call", json!({"name": "find_x402_resource", "arguments": {"query": "joke", "limit": 50}}));
    let rows = call["structuredContent"]["data"].as_array().unwrap();
    let row = rows.iter().find(|r| r["resource"] == WITHHELD_URL).expect("the withheld resource keeps its place");
    assert_eq!(row["description"], Value::Null);
    assert!(row["description_withheld"]["patterns_matched"].as_u64().unwrap() >= 1, "{row}");
    assert_eq!(call["structuredContent"], cli_answer(&["--limit", "50", "joke"]));
    let transcript = s.finish();
    // The withheld text, read from the snapshot itself, appears nowhere in what was said.
    let snapshot: Value = serde_json::from_slice(&std::fs::read(repo_root().join(SNAPSHOT)).unwrap()).unwrap();
    let item = snapshot["items"].as_array().unwrap().iter().find(|i| i["resource"] == WITHHELD_URL).unwrap();
    // The description may be top-level or per payment option (the v1 shape).
    let descriptions: Vec<&str> = std::iter::once(&item["description"])
        .chain(item["accepts"].as_array().into_iter().flatten().map(|a| &a["description"]))
        .filter_map(Value::as_str)
        .collect();
    assert!(!descriptions.is_empty());
    for piece in descriptions.iter().flat_map(|d| d.lines()).map(str::trim).filter(|l| l.chars().count() >= 20) {
        // As it would travel inside a JSON string.
        let escaped = serde_json::to_string(piece).unwrap();
        assert!(!transcript.contains(&escaped[1..escaped.len() - 1]), "withheld text {piece:?} was sent");
    }
}

#[test]
fn a_stateless_client_discovers_and_calls_without_a_handshake() {
    let mut s = Session::start(&["--snapshot", SNAPSHOT]);
    let discover = s.result("server/discover", modern(json!({})));
    assert_eq!(discover["resultType"], "complete");
    let versions = discover["supportedVersions"].as_array().unwrap();
    assert!(versions.contains(&json!("2026-07-28")) && versions.contains(&json!("2025-11-25")), "{discover}");
    assert!(discover["capabilities"]["tools"].is_object());
    // The server names itself in `_meta`, and the result carries the caching hints the
    // 2026-07-28 schema requires.
    assert_eq!(discover["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "x402dir");
    assert!(discover.get("serverInfo").is_none(), "{discover}");
    assert!(discover["ttlMs"].as_u64().is_some(), "{discover}");
    assert_eq!(discover["cacheScope"], "public");

    let call = s.result(
        "tools/call",
        modern(json!({"name": "find_x402_resource", "arguments": {"query": "ethereum balance", "network": "base"}})),
    );
    assert_eq!(call["resultType"], "complete");
    assert_eq!(call["structuredContent"], cli_answer(&["--network", "base", "ethereum", "balance"]));
    assert_eq!(call["_meta"]["io.modelcontextprotocol/serverInfo"]["name"], "x402dir");
    assert!(call.get("ttlMs").is_none(), "a tool's answer is not cacheable: {}", call["ttlMs"]);
    let list = s.result("tools/list", modern(json!({})));
    assert_eq!(list["resultType"], "complete");
    assert!(list["ttlMs"].as_u64().is_some(), "{}", list["ttlMs"]);
    assert_eq!(list["cacheScope"], "public");
    // The handshake era has none of these.
    let legacy = s.result("tools/list", json!({}));
    for key in ["resultType", "ttlMs", "cacheScope", "_meta"] {
        assert!(legacy.get(key).is_none(), "{key} in a 2025-11-25 result");
    }

    // A version it does not speak: MCP's error (-32022, UnsupportedProtocolVersionError),
    // with the versions it does; `requested` is a string even when the version was not.
    let response = s.request("tools/list", json!({"_meta": {"io.modelcontextprotocol/protocolVersion": "2099-01-01"}}));
    assert_eq!(response["error"]["code"], -32022);
    assert_eq!(response["error"]["data"]["requested"], "2099-01-01");
    assert!(response["error"]["data"]["supported"].as_array().unwrap().contains(&json!("2026-07-28")));
    let response = s.request("server/discover", json!({"_meta": {"io.modelcontextprotocol/protocolVersion": 2026}}));
    assert_eq!(
        (response["error"]["code"].clone(), response["error"]["data"]["requested"].clone()),
        (json!(-32022), json!("2026"))
    );
    // An initialize asking for the stateless revision is offered the newest handshake one.
    let init = s.result("initialize", json!({"protocolVersion": "2026-07-28", "capabilities": {}}));
    assert_eq!(init["protocolVersion"], "2025-11-25");
    s.finish();
}

#[test]
fn bad_requests_get_errors_and_bad_arguments_get_tool_errors() {
    let mut s = Session::start(&["--snapshot", SNAPSHOT]);
    // Arguments the method refuses: told to the model as the tool's error, not guessed.
    for (arguments, code) in [
        (json!({"query": "weather", "max_price": -1}), "INVALID_FILTER"),
        (json!({"query": "weather", "limit": 500}), "INVALID_FILTER"),
        (json!({"query": "weather", "network": "basee"}), "INVALID_FILTER"),
        (json!({"query": "weather", "offset": -1}), "INVALID_FILTER"),
        (json!({"query": "weather", "exclude_testnets": "yes"}), "INVALID_ARGUMENT"),
        (json!({"query": "weather", "answered_402": 1}), "INVALID_ARGUMENT"),
        // Not probed: no listing's live 402 is known, so the filter is refused, not empty.
        (json!({"query": "weather", "answered_402": true}), "INVALID_FILTER"),
        (json!({"query": "weather", "colour": "blue"}), "INVALID_ARGUMENT"),
        (json!({"limit": 3}), "INVALID_ARGUMENT"),
    ] {
        let call = s.result("tools/call", json!({"name": "find_x402_resource", "arguments": arguments}));
        assert_eq!(call["isError"], true, "{arguments}");
        assert!(call.get("structuredContent").is_none());
        let error: Value = serde_json::from_str(call["content"][0]["text"].as_str().unwrap()).unwrap();
        assert_eq!(error["error"]["code"], code, "{arguments}: {error}");
    }
    let unknown = s.request("tools/call", json!({"name": "find_anything", "arguments": {}}));
    assert_eq!(unknown["error"]["code"], -32602);
    assert_eq!(unknown["error"]["message"], "unknown tool \"find_anything\"; the one tool is find_x402_resource");
    assert_eq!(s.request("resources/list", json!({}))["error"]["code"], -32601);
    // Not JSON, and not an object: answered with a null id, and the server carries on.
    let stdin = s.stdin.as_mut().unwrap();
    writeln!(stdin, "{{not json").unwrap();
    writeln!(stdin, "[1, 2]").unwrap();
    stdin.flush().unwrap();
    let (parse, batch) = (s.read(), s.read());
    assert_eq!((parse["error"]["code"].clone(), parse["id"].clone()), (json!(-32700), Value::Null));
    assert_eq!(batch["error"]["code"], -32600);
    // An id that is an object or a list is not one JSON-RPC allows: refused, null id.
    let stdin = s.stdin.as_mut().unwrap();
    writeln!(stdin, r#"{{"jsonrpc": "2.0", "id": {{"a": 1}}, "method": "tools/list"}}"#).unwrap();
    writeln!(stdin, r#"{{"jsonrpc": "2.0", "id": [1], "method": "tools/list"}}"#).unwrap();
    stdin.flush().unwrap();
    for refused in [s.read(), s.read()] {
        assert_eq!(
            (refused["error"]["code"].clone(), refused["id"].clone()),
            (json!(-32600), Value::Null),
            "{refused}"
        );
    }
    assert!(s.result("tools/list", json!({}))["tools"].is_array());
    s.finish();
}

#[test]
fn without_a_snapshot_the_server_starts_and_says_what_would_fix_it() {
    let empty = temp_dir("mcp-empty");
    let mut s = Session::start(&["--snapshots-dir", empty.to_str().unwrap()]);
    assert_eq!(
        s.result("server/discover", modern(json!({})))["_meta"]["io.modelcontextprotocol/serverInfo"]["name"],
        "x402dir"
    );
    let call = s.result("tools/call", json!({"name": "find_x402_resource", "arguments": {"query": "weather"}}));
    assert_eq!(call["isError"], true);
    let error: Value = serde_json::from_str(call["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(error["error"]["code"], "SOURCE_UNAVAILABLE");
    assert!(error["error"]["fix"].as_str().is_some_and(|f| !f.is_empty()), "{error}");
    s.finish();
}

/// Raw bytes, as a broken or hostile client sends them: a line that is not UTF-8, one of
/// 48 MB, a query of a megabyte. Each gets a JSON-RPC or tool error and the server reads
/// on, in bounded memory, its answers small (48 MB of words once took 1.45 GB and were
/// echoed back in a 281 MB answer).
#[test]
fn bad_bytes_and_huge_lines_get_errors_and_the_server_reads_on() {
    let mut s = Session::start(&["--snapshot", SNAPSHOT]);
    let mut watch = memory::Watch::start(s.child.id(), memory::WATCHDOG_BYTES);
    assert!(s.result("tools/list", json!({}))["tools"].is_array());
    let baseline = watch.peak();

    let stdin = s.stdin.as_mut().unwrap();
    stdin.write_all(b"{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"ping\xff\xfe\"}\n").unwrap();
    stdin.flush().unwrap();
    let not_utf8 = s.read();
    assert_eq!((not_utf8["error"]["code"].clone(), not_utf8["id"].clone()), (json!(-32700), Value::Null));
    assert!(not_utf8["error"]["message"].as_str().unwrap().contains("not UTF-8"), "{not_utf8}");
    assert_eq!(s.result("ping", json!({})), json!({}));

    // 48 MB of words on one line, written while the server reads.
    let words = "weather forecast token price ".repeat(48 << 20 >> 5);
    let huge = json!({"jsonrpc": "2.0", "id": 7, "method": "tools/call",
                      "params": {"name": "find_x402_resource", "arguments": {"query": words}}});
    let stdin = s.stdin.as_mut().unwrap();
    writeln!(stdin, "{huge}").unwrap();
    stdin.flush().unwrap();
    drop(huge);
    let before = s.transcript.len();
    let too_long = s.read();
    assert_eq!(too_long["error"]["code"], -32600, "{too_long}");
    assert!(too_long["error"]["message"].as_str().unwrap().contains("at most 1048576 bytes"), "{too_long}");
    assert!(s.transcript.len() - before < 1000, "the answer is short");

    // Under the line cap, over the query cap: the tool's error, which echoes nothing.
    let call = s.result(
        "tools/call",
        json!({"name": "find_x402_resource", "arguments": {"query": "weather ".repeat(100_000)}}),
    );
    assert_eq!(call["isError"], true);
    let text = call["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("INVALID_ARGUMENT") && text.contains("more than the 2000 taken"), "{text}");
    assert!(text.len() < 500, "{text}");
    // At the cap: answered, the echo bounded by the cap.
    let before = s.transcript.len();
    let call = s.result(
        "tools/call",
        json!({"name": "find_x402_resource", "arguments": {"query": "weather ".repeat(250), "limit": 1}}),
    );
    assert_eq!(call["isError"], false);
    assert!(s.transcript.len() - before < 64 << 10, "{} bytes answered", s.transcript.len() - before);

    assert_eq!(s.result("ping", json!({})), json!({}));
    watch.stop();
    eprintln!("mcp: peak {} MB (after start {} MB)", watch.peak() >> 20, baseline >> 20);
    assert!(!watch.killed() && watch.peak() < 256 << 20, "peak {} MB", watch.peak() >> 20);
    s.finish();
}

#[test]
fn errors_name_what_was_sent_in_words() {
    let mut s = Session::start(&["--snapshot", SNAPSHOT]);
    for (params, expected) in [
        (json!({"name": "nope", "arguments": {}}), "unknown tool \"nope\"; the one tool is find_x402_resource"),
        (json!({"arguments": {}}), "params.name is missing"),
        (json!({"name": 7}), "must be a string"),
        (json!({"name": "x".repeat(10_000)}), "unknown tool \"xxx"),
    ] {
        let response = s.request("tools/call", params.clone());
        let message = response["error"]["message"].as_str().unwrap().to_owned();
        assert_eq!(response["error"]["code"], -32602, "{params}");
        assert!(message.contains(expected), "{message}");
        assert!(message.len() < 300, "quoted, not echoed whole: {} bytes", message.len());
        for internal in ["Some(", "None", "Object {", "String("] {
            assert!(!message.contains(internal), "{message}");
        }
    }
    let missing = s.request(&"m".repeat(10_000), json!({}));
    assert_eq!(missing["error"]["code"], -32601);
    assert!(missing["error"]["message"].as_str().unwrap().len() < 300, "{missing}");
    let call = s.result(
        "tools/call",
        json!({"name": "find_x402_resource", "arguments": {"query": "weather", "limit": [1, 2], "colour": 1}}),
    );
    let error = |call: &Value| -> String {
        let text: Value = serde_json::from_str(call["content"][0]["text"].as_str().unwrap()).unwrap();
        text["error"]["message"].as_str().unwrap().to_owned()
    };
    assert!(error(&call).starts_with("unknown argument \"colour\": the arguments are"), "{call}");
    let call = s.result(
        "tools/call",
        json!({"name": "find_x402_resource", "arguments": {"query": "weather", "limit": [1, 2]}}),
    );
    assert_eq!(error(&call), "limit must be a string or a number, not a list");
    s.finish();
}

/// The text of a call's first content block.
fn text_of(call: &Value) -> &str {
    call["content"][0]["text"].as_str().unwrap_or_else(|| panic!("no text block: {call}"))
}

#[test]
fn counts_are_whole_numbers_however_written() {
    let mut s = Session::start(&["--snapshot", SNAPSHOT]);
    // JSON Schema's `integer` is any number with a zero fraction: 3.0 and 3e0 are 3.
    let three = cli_answer(&["--limit", "3", "--offset", "2", "weather"]);
    for (limit, offset) in [(json!(3), json!(2)), (json!(3.0), json!(2.0)), (json!(3e0), json!(2e0))] {
        let call = s.result(
            "tools/call",
            json!({"name": "find_x402_resource", "arguments": {"query": "weather", "limit": limit, "offset": offset}}),
        );
        assert_eq!(call["structuredContent"], three, "limit {limit}, offset {offset}");
    }
    for (key, value) in [("limit", json!(3.5)), ("limit", json!(-1.0)), ("offset", json!(0.5)), ("limit", json!(1e300))]
    {
        let call = s
            .result("tools/call", json!({"name": "find_x402_resource", "arguments": {"query": "weather", key: value}}));
        assert_eq!(call["isError"], true, "{key} {value}");
        let error: Value = serde_json::from_str(text_of(&call)).unwrap();
        assert_eq!(error["error"]["code"], "INVALID_FILTER", "{key} {value}: {error}");
    }
    // The input schema says so without `type` lists (anyOf is the portable form).
    let tools = s.result("tools/list", json!({}));
    let schema = &tools["tools"][0]["inputSchema"]["properties"];
    assert_eq!(schema["max_price"]["anyOf"], json!([{"type": "number"}, {"type": "string"}]));
    assert_eq!(schema["limit"]["type"], "integer");
    s.finish();
}

#[test]
fn a_fifty_row_answer_sends_the_envelope_once_and_a_short_summary() {
    let mut s = Session::start(&["--snapshot", SNAPSHOT]);
    let response =
        s.request("tools/call", json!({"name": "find_x402_resource", "arguments": {"query": "api", "limit": 50}}));
    let line_bytes = s.transcript.len();
    let call = &response["result"];
    let envelope = cli_answer(&["--limit", "50", "api"]);
    assert_eq!(call["structuredContent"], envelope);
    let rows = envelope["data"].as_array().unwrap();
    assert_eq!(rows.len(), 50, "the query fills a page");
    let summary = text_of(call);
    assert!(summary.len() < 2048, "{} bytes: {summary}", summary.len());
    // The message is the envelope plus the summary and framing, not the envelope twice.
    let envelope_bytes = envelope.to_string().len();
    assert!(line_bytes < envelope_bytes + 4096, "{line_bytes} bytes for a {envelope_bytes}-byte envelope");
    let meta = &envelope["meta"];
    assert!(summary.starts_with(&format!("{} resources matched; 50 returned.", meta["total_matched"])), "{summary}");
    assert!(summary.contains(meta["snapshot"]["date"].as_str().unwrap()), "{summary}");
    for (i, row) in rows.iter().enumerate() {
        let named = summary.contains(&format!("{}. {}", i + 1, row["resource"].as_str().unwrap()));
        assert_eq!(named, i < 5, "row {}: {summary}", i + 1);
    }
    assert!(summary.contains("and 45 more rows"), "{summary}");
    // Descriptions (untrusted provider text) stay in the structured content.
    for row in rows.iter().filter_map(|r| r["description"].as_str()).filter(|d| d.chars().count() >= 20) {
        assert!(!summary.contains(row), "description {row:?} in the summary");
    }
    s.finish();
}

#[test]
fn a_2025_03_26_client_reads_the_envelope_as_text() {
    // That revision has no structured content: its clients read the text block.
    let mut s = Session::start(&["--snapshot", SNAPSHOT]);
    let init = s.result("initialize", json!({"protocolVersion": "2025-03-26", "capabilities": {}}));
    assert_eq!(init["protocolVersion"], "2025-03-26");
    let arguments = json!({"query": "weather", "limit": 2});
    let call = s.result("tools/call", json!({"name": "find_x402_resource", "arguments": arguments}));
    let expected = cli_answer(&["--limit", "2", "weather"]);
    assert_eq!(serde_json::from_str::<Value>(text_of(&call)).unwrap(), expected);
    assert_eq!(call["structuredContent"], expected);
    // A request naming its own version is answered at that version.
    let modern_call = s.result("tools/call", modern(json!({"name": "find_x402_resource", "arguments": arguments})));
    assert!(serde_json::from_str::<Value>(text_of(&modern_call)).is_err(), "a summary at 2026-07-28");
    // A later handshake agrees another version, and requests naming none follow it.
    s.result("initialize", json!({"protocolVersion": "2025-06-18", "capabilities": {}}));
    let call = s.result("tools/call", json!({"name": "find_x402_resource", "arguments": arguments}));
    assert!(serde_json::from_str::<Value>(text_of(&call)).is_err(), "a summary at 2025-06-18");
    s.finish();
}

/// A probed snapshot (content/method.md#probe; the probe file synthetic, beside a copy of
/// the snapshot): the tool's rows carry what the probe saw and `answered_402` keeps the
/// resources that answered 402, exactly as `x402dir query --json` answers.
#[test]
fn the_answered_402_filter_and_each_rows_probe_are_the_clis() {
    let dir = temp_dir("mcp-probed");
    let snapshot = common::real_snapshot("2025-12-31").write_into(&dir.join("snapshots"), false).unwrap();
    let index = method::index::Index::read(&snapshot, &method::Method::embedded()).unwrap();
    let probe = common::probes::synthetic_probe(&index, 11);
    common::probes::write_beside(&snapshot, &probe);
    let path = snapshot.to_str().unwrap();
    let mut s = Session::start(&["--snapshot", path]);
    for (arguments, flags) in [
        (
            json!({"query": "weather", "answered_402": true, "limit": 50}),
            vec!["weather", "--answered-402", "--limit", "50"],
        ),
        (json!({"query": "", "answered_402": true, "offset": 7}), vec!["--answered-402", "--offset", "7"]),
        (json!({"query": "token price", "answered_402": false}), vec!["token", "price"]),
    ] {
        let call = s.result("tools/call", modern(json!({"name": "find_x402_resource", "arguments": arguments})));
        assert_eq!(call["isError"], false, "{arguments}: {call}");
        let answer = &call["structuredContent"];
        assert_eq!(*answer, common::cli_answer(&[&["--snapshot", path], flags.as_slice()].concat()), "{arguments}");
        let rows = answer["data"].as_array().unwrap();
        assert!(!rows.is_empty(), "{arguments}");
        for row in rows {
            let result = probe.result(row["resource"].as_str().unwrap()).unwrap();
            assert_eq!(row["probe"]["at"], result.at.as_str());
            if arguments["answered_402"] == true {
                assert!(result.answered_402(), "{row}");
            }
        }
    }
    s.finish();
}
