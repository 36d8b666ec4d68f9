//! `x402dir mcp` driven by the official MCP SDKs as they ship, in every mode that reaches
//! a revision the server claims: PyPI `mcp` (its default, which probes `server/discover`
//! and speaks 2026-07-28; its modern pin; and each handshake revision), npm's
//! `@modelcontextprotocol/client` 2.x (auto, pinned and legacy negotiation) and
//! `@modelcontextprotocol/sdk` 1.x. Each client script (tests/mcp/) lists the tools and
//! makes the calls in tests/mcp/calls.json, printing what its SDK handed back; this
//! checks that against `x402dir query --json`. Without Node, the npm packages or the
//! Python SDK's venv the tests skip (common::prerequisites); .ci/run installs them all.

use std::process::Command;

use serde_json::{json, Value};

use crate::common::prerequisites::{self, Need, PYTHON_MCP_INSTALL};
use crate::common::repo_root;

const SNAPSHOT: &str = "content/snapshots/2025-12-31.json";
pub(crate) const MODERN: &str = "2026-07-28";

/// What a mode should have negotiated, and how its text content reads.
pub(crate) struct Expect {
    pub(crate) version: &'static str,
    /// The server's name, when the SDK reports one in this mode (the Python SDK's modern
    /// pin adopts a discover result of its own making, which names no server).
    pub(crate) server_name: Option<&'static str>,
    /// 2025-03-26 has no structured content: there the text is the envelope itself.
    pub(crate) text_is_envelope: bool,
}

pub(crate) const HANDSHAKE: Expect =
    Expect { version: "2025-11-25", server_name: Some("x402dir"), text_is_envelope: false };

fn run_client(program: &std::path::Path, args: &[&str]) -> Value {
    run_client_against(program, args, None)
}

/// A client script's report; `server`, when given, is the command (and arguments) it
/// starts in place of `x402dir mcp` (X402DIR_MCP_SERVER, tests/mcp/exercise.mjs).
pub(crate) fn run_client_against(program: &std::path::Path, args: &[&str], server: Option<&[String]>) -> Value {
    let mut command = Command::new(program);
    if let Some(server) = server {
        command.env("X402DIR_MCP_SERVER", serde_json::to_string(server).unwrap());
    }
    let out = command
        .args(args)
        .args([env!("CARGO_BIN_EXE_x402dir"), SNAPSHOT])
        .current_dir(repo_root())
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", program.display()));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{} {args:?} failed:\n{stderr}", program.display());
    serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
        panic!("{args:?} printed no report ({e}):\n{}\n{stderr}", String::from_utf8_lossy(&out.stdout))
    })
}

fn python(mode: &str) -> Option<Value> {
    if !prerequisites::ready("MCP Python SDK tests", &[Need::PythonMcp]) {
        return None;
    }
    let python = prerequisites::python_mcp().expect("checked by prerequisites::ready");
    Some(run_client(&python, &["tests/mcp/python_client.py", mode]))
}

fn node(script: &str, mode: Option<&str>) -> Option<Value> {
    if !prerequisites::ready("MCP TypeScript SDK tests", &[Need::Node, Need::NpmPackages]) {
        return None;
    }
    let mut args = vec![script];
    args.extend(mode);
    Some(run_client(std::path::Path::new("node"), &args))
}

/// `x402dir query --json` for `args`: its exit status and what it printed.
fn cli(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_x402dir"))
        .args(["query", "--json", "--snapshot", SNAPSHOT])
        .args(args)
        .current_dir(repo_root())
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap().trim_end().to_owned())
}

/// The CLI's answer as compact JSON: the fields in the order, and the numbers in the
/// digits, it printed them (serde_json keeps both here).
fn cli_answer(args: &[&str]) -> String {
    let (status, text) = cli(args);
    assert_eq!(status, 0, "{args:?}: {text}");
    serde_json::from_str::<Value>(&text).unwrap().to_string()
}

/// Every `type` in a schema that is a list rather than one name (anyOf is the portable form).
fn type_lists(schema: &Value, path: &str, out: &mut Vec<String>) {
    match schema {
        Value::Object(o) => {
            for (key, value) in o {
                if key == "type" && value.is_array() {
                    out.push(path.to_owned());
                }
                type_lists(value, &format!("{path}/{key}"), out);
            }
        }
        Value::Array(a) => a.iter().enumerate().for_each(|(i, v)| type_lists(v, &format!("{path}/{i}"), out)),
        _ => {}
    }
}

/// A call's tool error object (`{"error": {code, message}}`, as `query --json` prints
/// it), after checking the call was refused.
fn tool_error(report: &Value, call: &str) -> Value {
    let result = &report["calls"][call];
    assert_eq!(result["isError"], true, "{call}: {result}");
    assert_eq!(result["structuredContent"], Value::Null, "{call}: an error has no envelope");
    let text = result["text"][0].as_str().unwrap_or_else(|| panic!("{call}: no text: {result}"));
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{call}: text is not JSON ({e}): {text}"))
}

pub(crate) fn check(label: &str, report: &Value, expect: &Expect) {
    assert_eq!(report["protocolVersion"], expect.version, "{label}: negotiated version");
    assert_eq!(report["serverName"], json!(expect.server_name), "{label}: server name");

    // The one tool, with the published output schema and no `type` lists.
    let tools = report["tools"].as_array().unwrap_or_else(|| panic!("{label}: no tools: {report}"));
    assert_eq!(tools.len(), 1, "{label}");
    let tool = &tools[0];
    assert_eq!(tool["name"], "find_x402_resource", "{label}");
    let properties: Vec<&str> =
        tool["inputSchema"]["properties"].as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(
        properties,
        ["query", "max_price", "network", "exclude_testnets", "answered_402", "limit", "offset"],
        "{label}"
    );
    let mut lists = Vec::new();
    type_lists(&tool["inputSchema"], "", &mut lists);
    assert!(lists.is_empty(), "{label}: type lists in the input schema at {lists:?}");
    let published: Value =
        serde_json::from_slice(&std::fs::read(repo_root().join("content/schema/answer.schema.json")).unwrap()).unwrap();
    assert_eq!(tool["outputSchema"], published, "{label}: the output schema is the published answer schema");

    // A query with a price cap and a network: the CLI's envelope, byte for byte.
    let find = &report["calls"]["find"];
    assert_eq!(find["isError"], false, "{label}: {find}");
    let expected = cli_answer(&["--max-price", "$0.01", "--network", "Base", "weather"]);
    assert_eq!(serde_json::to_string(&find["structuredContent"]).unwrap(), expected, "{label}: structured content");
    let envelope: Value = serde_json::from_str(&expected).unwrap();
    assert!(envelope["meta"]["returned"].as_u64().unwrap() > 0, "the query finds something to compare");
    let texts = find["text"].as_array().unwrap();
    assert_eq!(texts.len(), 1, "{label}: one text block");
    let text = texts[0].as_str().unwrap();
    if expect.text_is_envelope {
        assert_eq!(text, expected, "{label}: the text is the envelope");
    } else {
        let meta = &envelope["meta"];
        let head = format!("{} resources matched; {} returned", meta["total_matched"], meta["returned"]);
        assert!(text.starts_with(&head), "{label}: {text}");
        assert!(text.contains(meta["snapshot"]["date"].as_str().unwrap()), "{label}: {text}");
        assert!(text.contains("structuredContent"), "{label}: the summary says where the envelope is: {text}");
        for row in envelope["data"].as_array().unwrap().iter().take(5) {
            assert!(text.contains(row["resource"].as_str().unwrap()), "{label}: {} not in {text}", row["resource"]);
        }
        assert!(text.len() < expected.len() / 2, "{label}: the summary is {} bytes", text.len());
    }

    // limit 3.0 is the whole number 3 (JSON Schema's integer); 3.5, 500 and 0 are refused.
    let three = &report["calls"]["limit_float"];
    assert_eq!(three["isError"], false, "{label}: {three}");
    assert_eq!(serde_json::to_string(&three["structuredContent"]).unwrap(), cli_answer(&["--limit", "3", "weather"]));
    assert_eq!(three["structuredContent"]["meta"]["returned"], 3, "{label}");
    for (call, limit) in [("limit_fraction", "3.5"), ("bad_limit", "500"), ("zero_limit", "0")] {
        let error = tool_error(report, call);
        assert_eq!(error["error"]["code"], "INVALID_FILTER", "{label}: {call}");
        let message = error["error"]["message"].as_str().unwrap();
        assert!(message.starts_with(&format!("invalid limit \"{limit}\"")), "{label}: {call}: {message}");
    }

    // An unknown network: the CLI's own error, naming the snapshot's networks.
    let (status, cli_error) = cli(&["--network", "basee", "weather"]);
    assert_eq!(status, 2, "{cli_error}");
    let error = tool_error(report, "unknown_network");
    assert_eq!(error["error"]["code"], "INVALID_FILTER", "{label}");
    let message = error["error"]["message"].as_str().unwrap();
    assert!(message.contains("Base (eip155:8453)") && message.contains("Solana"), "{label}: {message}");
    assert_eq!(error, serde_json::from_str::<Value>(&cli_error).unwrap(), "{label}: the CLI's error object");

    // An unknown tool: a JSON-RPC invalid-params error naming the one tool, in plain words.
    let unknown = &report["unknown_tool"];
    assert_eq!(unknown["code"], -32602, "{label}: {unknown}");
    let message = unknown["message"].as_str().unwrap();
    assert!(message.contains("unknown tool \"nope\"") && message.contains("find_x402_resource"), "{label}: {message}");
    for internal in ["Some(", "None", "Err(", "Ok(", "::", "panicked"] {
        assert!(!message.contains(internal), "{label}: Rust internals in {message:?}");
    }
}

#[test]
fn python_sdk_default_mode_speaks_the_stateless_revision() {
    let Some(report) = python("auto") else { return };
    check("python auto", &report, &Expect { version: MODERN, server_name: Some("x402dir"), text_is_envelope: false });
}

#[test]
fn python_sdk_pinned_to_the_stateless_revision() {
    let Some(report) = python(MODERN) else { return };
    check("python 2026-07-28", &report, &Expect { version: MODERN, server_name: None, text_is_envelope: false });
}

#[test]
fn python_sdk_pinned_to_2025_11_25() {
    let Some(report) = python("2025-11-25") else { return };
    check("python 2025-11-25", &report, &HANDSHAKE);
}

#[test]
fn python_sdk_pinned_to_2025_06_18() {
    let Some(report) = python("2025-06-18") else { return };
    check("python 2025-06-18", &report, &Expect { version: "2025-06-18", ..HANDSHAKE });
}

#[test]
fn python_sdk_pinned_to_2025_03_26() {
    let Some(report) = python("2025-03-26") else { return };
    check("python 2025-03-26", &report, &Expect { version: "2025-03-26", text_is_envelope: true, ..HANDSHAKE });
}

#[test]
fn typescript_client_2_auto_mode_speaks_the_stateless_revision() {
    let Some(report) = node("tests/mcp/ts_client.mjs", Some("auto")) else { return };
    assert_eq!(report["era"], "modern");
    check(
        "ts client auto",
        &report,
        &Expect { version: MODERN, server_name: Some("x402dir"), text_is_envelope: false },
    );
}

#[test]
fn typescript_client_2_pinned_to_the_stateless_revision() {
    let Some(report) = node("tests/mcp/ts_client.mjs", Some("pin")) else { return };
    assert_eq!(report["era"], "modern");
    check("ts client pin", &report, &Expect { version: MODERN, server_name: Some("x402dir"), text_is_envelope: false });
}

#[test]
fn typescript_client_2_legacy_mode_uses_the_handshake() {
    let Some(report) = node("tests/mcp/ts_client.mjs", Some("legacy")) else { return };
    assert_eq!(report["era"], "legacy");
    check("ts client legacy", &report, &HANDSHAKE);
}

#[test]
fn typescript_sdk_1_as_it_ships() {
    let Some(report) = node("tests/mcp/ts_client_v1.mjs", None) else { return };
    check("ts sdk 1.x", &report, &HANDSHAKE);
}

#[test]
fn ci_installs_the_pinned_sdks() {
    let ci = std::fs::read_to_string(repo_root().join(".ci/run")).unwrap();
    assert!(ci.contains(PYTHON_MCP_INSTALL), ".ci/run must run `{PYTHON_MCP_INSTALL}`");
    let manifest: Value = serde_json::from_slice(&std::fs::read(repo_root().join("package.json")).unwrap()).unwrap();
    for package in ["@modelcontextprotocol/client", "@modelcontextprotocol/sdk"] {
        let version = manifest["devDependencies"][package].as_str().unwrap_or_else(|| panic!("{package} missing"));
        assert!(version.chars().all(|c| c.is_ascii_digit() || c == '.'), "{package} pinned exactly, not {version}");
    }
}
