//! The paying call, end to end on loopback with official x402 software (issue 29): a
//! local chain (npm `@foundry-rs/anvil`, with Base's chain id 8453), a USD Coin-like
//! EIP-3009 token written at the listing's own asset address, the official facilitator
//! (`@x402/core` with `@x402/evm`'s exact scheme) and sellers made with `@x402/express`
//! (v2 listings) and `x402-express` (v1 listings), each charging exactly a real listing's
//! terms (tests/x402/stack.mjs; its README says what it maps and why).
//!
//! For every call shape the build emits among the Base listings of the embedded
//! snapshots and tests/fixtures/calls (method, body encoding, where parameters go, x402
//! version), one listing is taken, and the text its page shows is run as it is, with one
//! change: the listing's origin (`https://host`) becomes the local seller's. The curl
//! command gets a 402 whose requirements hold the listing's terms; the JavaScript and
//! Python programs, with a funded key in their variable, get 200; the seller saw the
//! declared method, the parameters where the call puts them, and JSON bodies of the
//! declared types; the token moved by exactly the listed amount from payer to payTo. A
//! seller whose live 402 names another payTo than the listing is refused by both
//! programs, and nothing moves. Solana listings are not covered: no local Solana
//! validator installs from npm or PyPI (tests/x402/README.md).

use std::collections::BTreeMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::common::html::code_block;
use crate::common::prerequisites::{self, python_x402, Need};
use crate::common::x402_stack::Stack;
use crate::common::{repo_root, temp_dir, REAL_DATES};
use catalogue::import::import_file;
use method::index::Index;
use method::names;
use method::Method;

/// A payTo no listing uses: the seller that asks for it tests the programs' refusal.
const STRANGER: &str = "0x000000000000000000000000000000000000dEaD";

/// One listing taken for its call shape.
struct Case {
    id: String,
    shape: String,
    url: String,
    item: Value,
    record: Value,
    page: String,
    /// The payment option the local seller asks for.
    accept: Value,
}

/// `scheme://host[:port]` of a URL.
fn origin(url: &str) -> &str {
    let after = url.find("://").map_or(0, |i| i + 3);
    &url[..after + url[after..].find('/').unwrap_or(url.len() - after)]
}

/// The option of a listing a Base seller can ask for: exact, on Base, with an asset,
/// an amount and a payTo.
fn base_exact(item: &Value) -> Option<Value> {
    item["accepts"]
        .as_array()?
        .iter()
        .find(|a| {
            a["scheme"] == "exact"
                && (a["network"] == "base" || a["network"] == "eip155:8453")
                && a["asset"].as_str().is_some_and(|s| s.len() == 42 && s.starts_with("0x"))
                && a["payTo"].as_str().is_some_and(|s| s.len() == 42 && s.starts_with("0x"))
                && amount(a).is_some()
        })
        .cloned()
}

fn amount(accept: &Value) -> Option<u128> {
    accept["amount"].as_str().or(accept["maxAmountRequired"].as_str())?.parse().ok().filter(|n| *n > 0)
}

/// What a call looks like, from the record's `call`: the key that picks one listing of each.
fn shape(item: &Value, call: &Value) -> String {
    let mut places: Vec<&str> = call["params"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["required"] == true)
        .map(|p| p["in"].as_str().unwrap())
        .collect();
    places.sort_unstable();
    places.dedup();
    format!(
        "v{} {} body={} sends={}",
        item["x402Version"],
        call["method"].as_str().unwrap(),
        call["body_type"].as_str().unwrap_or("none"),
        if places.is_empty() { "nothing".to_owned() } else { places.join("+") }
    )
}

/// A path a local express route can take: the listing's, with `{name}` as `:name`.
fn route(url: &str) -> Option<String> {
    let rest = &url[origin(url).len()..];
    let path = rest.split(['?', '#']).next().unwrap_or("");
    let path = if path.is_empty() { "/" } else { path };
    let plain = path.chars().all(|c| c.is_ascii_alphanumeric() || "/-_.:{}".contains(c));
    plain.then(|| {
        path.split('/')
            .map(|s| match s.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(name) => format!(":{name}"),
                None => s.to_owned(),
            })
            .collect::<Vec<_>>()
            .join("/")
    })
}

/// Standard base64, as the PAYMENT-REQUIRED header carries it.
fn base64_decode(text: &str) -> Vec<u8> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut bits = 0u32;
    let mut count = 0;
    let mut out = Vec::new();
    for b in text.bytes().filter(|b| *b != b'=' && !b.is_ascii_whitespace()) {
        bits = (bits << 6) | ALPHABET.iter().position(|a| *a == b).expect("base64") as u32;
        count += 6;
        if count >= 8 {
            count -= 8;
            out.push((bits >> count) as u8);
        }
    }
    out
}

/// The payment requirements of a `curl -i` answer: v2's header, v1's body (none in the
/// answer to a HEAD).
fn requirements(answer: &str) -> Option<Value> {
    let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((answer, ""));
    let header = head.lines().find_map(|l| {
        let (name, value) = l.split_once(':')?;
        name.eq_ignore_ascii_case("payment-required").then(|| value.trim().to_owned())
    });
    match header {
        Some(encoded) => Some(serde_json::from_slice(&base64_decode(&encoded)).expect("PAYMENT-REQUIRED is JSON")),
        None => serde_json::from_str(body.trim()).ok(),
    }
}

/// A value as the seller receives it in a query string, a header or a form field.
fn as_text(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// What the seller saw against the record's call: the method, every parameter the call
/// sends where it sends it, and body values of their declared JSON types.
fn check_seen(case: &Case, seen: &Value) -> Vec<String> {
    let mut wrong = Vec::new();
    let call = &case.record["call"];
    if seen["method"] != call["method"] {
        wrong.push(format!("the seller saw {} for {}", seen["method"], call["method"]));
    }
    for p in call["params"].as_array().unwrap().iter().filter(|p| p["required"] == true) {
        let name = p["name"].as_str().unwrap();
        let got = match p["in"].as_str().unwrap() {
            "query" => seen["query"][name].clone(),
            "header" => seen["headers"][name.to_ascii_lowercase()].clone(),
            "path" => seen["params"][name].clone(),
            _ => seen["body"][name].clone(),
        };
        if got.is_null() {
            wrong.push(format!("{} parameter {name} did not arrive: {seen}", p["in"]));
            continue;
        }
        let json_body = call["body_type"] == "json" && p["in"] == "body";
        if json_body {
            let declared = p["type"].as_str();
            let fits = declared.is_none_or(|t| t == json_type(&got) || (t == "number" && json_type(&got) == "integer"));
            if !fits {
                wrong.push(format!("{name} arrived as {got}, declared {declared:?}"));
            }
            if !p["example"].is_null() && got != p["example"] {
                wrong.push(format!("{name} arrived as {got}, the listing's value is {}", p["example"]));
            }
        } else if !p["example"].is_null() && p["in"] != "path" && as_text(&got) != as_text(&p["example"]) {
            wrong.push(format!("{name} arrived as {got}, the listing's value is {}", p["example"]));
        }
    }
    let sends_body = call["params"].as_array().unwrap().iter().any(|p| p["required"] == true && p["in"] == "body");
    if sends_body
        && call["body_type"] == "json"
        && seen["contentType"].as_str().is_none_or(|t| !t.starts_with("application/json"))
    {
        wrong.push(format!("a JSON body arrived as {}", seen["contentType"]));
    }
    wrong
}

/// Every Base listing with a local route, one per call shape, from a build of the
/// embedded snapshots and the hand-written shapes.
fn cases(out: &Path, snapshots: &[PathBuf], method: &Method) -> Vec<Case> {
    let mut by_shape: BTreeMap<String, Case> = BTreeMap::new();
    for path in snapshots {
        let raw: Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
        let items: BTreeMap<&str, &Value> =
            raw["items"].as_array().unwrap().iter().filter_map(|i| Some((i["resource"].as_str()?, i))).collect();
        let index = Index::read(path, method).unwrap();
        let date = index.header.date.as_str();
        for (id, e) in index.entries.iter().enumerate() {
            let item = items[e.resource.url.as_str()];
            let (Some(accept), Some(_)) = (base_exact(item), route(&e.resource.url)) else { continue };
            let block: Value = serde_json::from_slice(
                &fs::read(out.join(date).join(format!("api/records/{}.json", id / 16))).unwrap(),
            )
            .unwrap();
            let record = block[id % 16].clone();
            assert_eq!(record["resource"], e.resource.url.as_str());
            let shape = shape(item, &record["call"]);
            if by_shape.contains_key(&shape) {
                continue;
            }
            let page =
                fs::read_to_string(out.join(date).join(names::page_file(&names::resource_dir(&e.slug())))).unwrap();
            let n = by_shape.len();
            by_shape.insert(
                shape.clone(),
                Case {
                    id: format!("s{n}"),
                    shape,
                    url: e.resource.url.clone(),
                    item: item.clone(),
                    record,
                    page,
                    accept,
                },
            );
        }
    }
    by_shape.into_values().collect()
}

/// The stack's seller for a case, asking for `pay_to` (the listing's, or a stranger's).
fn seller(id: &str, case: &Case, pay_to: &str) -> Value {
    let network = case.accept["network"].as_str().unwrap();
    let mut accept = json!({
        "scheme": "exact", "network": network, "asset": case.accept["asset"],
        "amount": amount(&case.accept).unwrap().to_string(), "payTo": pay_to, "maxTimeoutSeconds": 300,
    });
    let extra = &case.accept["extra"];
    if extra["name"].is_string() && extra["version"].is_string() {
        accept["extra"] = json!({"name": extra["name"], "version": extra["version"]});
    }
    json!({
        "id": id, "x402Version": case.item["x402Version"].as_u64().unwrap_or(1),
        "method": case.record["call"]["method"], "path": route(&case.url).unwrap(),
        "accepts": [accept], "description": "a local stand-in for a listing", "mimeType": "application/json",
    })
}

/// Runs a program of the page, rewritten to `seller`, with the payer's key.
fn run_program(language: &str, code: &str, file: &Path, key_var: &str, key: &str) -> (bool, String) {
    fs::write(file, code).unwrap();
    let program = match language {
        "js" => Command::new("node").arg(file).env(key_var, key).current_dir(repo_root()).output(),
        _ => Command::new(python_x402().unwrap()).arg(file).env(key_var, key).output(),
    }
    .unwrap();
    let stdout = String::from_utf8_lossy(&program.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&program.stderr).into_owned();
    (program.status.success() && stdout.starts_with("200 "), format!("{stdout}\n{stderr}"))
}

#[test]
fn the_calls_a_page_shows_pay_a_local_seller_with_the_listed_terms() {
    let needs = [Need::Node, Need::NpmPackages, Need::PythonX402, Need::Curl];
    if !prerequisites::ready("paid calls on a local chain (tests/x402/)", &needs) {
        return;
    }
    let dir = temp_dir("paid-calls");
    let fixture = import_file(&repo_root().join("tests/fixtures/calls/2026-03-01.json"), "2026-03-01")
        .unwrap()
        .write_into(&dir.join("calls"), false)
        .unwrap();
    let mut snapshots: Vec<PathBuf> =
        REAL_DATES.iter().map(|d| repo_root().join(format!("content/snapshots/{d}.json"))).collect();
    snapshots.push(fixture);
    let out = dir.join("public");
    let method = Method::embedded();
    publish::build(&snapshots, &out, &method).unwrap();
    let cases = cases(&out, &snapshots, &method);
    let shapes: Vec<&str> = cases.iter().map(|c| c.shape.as_str()).collect();
    for needed in ["v2 GET body=none sends=query", "v1 POST body=json sends=body", "v1 GET body=none sends=query"] {
        assert!(shapes.contains(&needed), "no listing of shape {needed}: {shapes:?}");
    }
    assert!(shapes.iter().any(|s| s.contains("header")), "{shapes:?}");
    assert!(shapes.iter().any(|s| s.contains("form")), "{shapes:?}");

    // The refusal: the first v2 and v1 cases again, behind sellers asking a stranger.
    let liars: Vec<(String, &Case)> = [2, 1]
        .iter()
        .filter_map(|v| cases.iter().find(|c| c.item["x402Version"] == *v && c.record["call"]["method"] != "HEAD"))
        .map(|c| (format!("liar-{}", c.id), c))
        .collect();
    let sellers: Vec<Value> = cases
        .iter()
        .map(|c| seller(&c.id, c, c.accept["payTo"].as_str().unwrap()))
        .chain(liars.iter().map(|(id, c)| seller(id, c, STRANGER)))
        .collect();
    let config = dir.join("stack.json");
    fs::write(&config, json!({"chainId": 8453, "fund": "1000000000000000", "sellers": sellers}).to_string()).unwrap();
    let stack = Stack::start(&config, Stdio::inherit());
    let payer = stack.ready["payer"]["address"].as_str().unwrap().to_owned();
    let key = stack.ready["payer"]["privateKey"].as_str().unwrap().to_owned();
    let scratch = repo_root().join("target/paid-calls");
    fs::create_dir_all(&scratch).unwrap();

    let mut wrong = Vec::new();
    let mut report = Vec::new();
    for case in &cases {
        let local = stack.seller(&case.id);
        let from = origin(&case.url);
        let asset = case.accept["asset"].as_str().unwrap();
        let pay_to = case.accept["payTo"].as_str().unwrap();
        let price = amount(&case.accept).unwrap();
        let say = |w: String| format!("{} ({}): {w}", case.url, case.shape);

        // The curl command, unpaid: a 402 holding the listing's terms.
        let curl = code_block(&case.page, "curl").expect("a curl command").replacen(
            &format!("'{from}"),
            &format!("'{local}"),
            1,
        );
        let answer = Command::new("sh").arg("-c").arg(&curl).output().unwrap();
        let answer = String::from_utf8_lossy(&answer.stdout).into_owned();
        if !answer.starts_with("HTTP/1.1 402") {
            wrong.push(say(format!("curl got {}", answer.lines().next().unwrap_or(""))));
        } else if let Some(offered) = requirements(&answer) {
            let listed = offered["accepts"].as_array().into_iter().flatten().any(|a| {
                a["scheme"] == "exact"
                    && a["network"] == case.accept["network"]
                    && a["asset"].as_str().is_some_and(|x| x.eq_ignore_ascii_case(asset))
                    && a["payTo"].as_str().is_some_and(|x| x.eq_ignore_ascii_case(pay_to))
                    && amount(a) == Some(price)
            });
            if !listed {
                wrong.push(say(format!("the 402's requirements are not the listing's terms: {offered}")));
            }
        } else if case.record["call"]["method"] != "HEAD" {
            wrong.push(say(format!("a 402 without readable requirements: {answer}")));
        }

        // Under v1 the terms are in the 402's body, which a HEAD answer lacks (the
        // clients fail on it): the page says so instead of showing a program.
        if case.record["call"]["method"] == "HEAD" && case.item["x402Version"] != 2 {
            if code_block(&case.page, "pay-js").is_some() || !case.page.contains("an answer to HEAD has no body") {
                wrong.push(say("a v1 HEAD page should say why it has no program, and show none".to_owned()));
            }
            report.push(format!("{}: {} (no program: the page says why)", case.shape, case.url));
            continue;
        }
        // The programs, paid: 200, what the seller saw, and exactly the price moved.
        for (language, id) in [("js", "pay-js"), ("py", "pay-py")] {
            let Some(code) = code_block(&case.page, id) else {
                wrong.push(say(format!("no {id} program on the page")));
                continue;
            };
            let code = code.replacen(&format!("\"{from}"), &format!("\"{local}"), 1);
            let before = (stack.balance(asset, &payer), stack.balance(asset, pay_to));
            let seen_before = stack.seen(&case.id).len();
            let file = scratch.join(format!("{}-{language}.{}", case.id, if language == "js" { "mjs" } else { "py" }));
            let (paid, output) = run_program(language, &code, &file, "EVM_PRIVATE_KEY", &key);
            let after = (stack.balance(asset, &payer), stack.balance(asset, pay_to));
            if !paid {
                wrong.push(say(format!("{id} did not get 200: {output}")));
                continue;
            }
            if before.0 - after.0 != price || after.1 - before.1 != price {
                wrong.push(say(format!(
                    "{id} moved {} from the payer and {} to payTo, not {price}",
                    before.0 - after.0,
                    after.1 - before.1
                )));
            }
            let seen = stack.seen(&case.id);
            match seen.get(seen_before) {
                Some(s) => wrong.extend(check_seen(case, s).into_iter().map(|w| say(format!("{id}: {w}")))),
                None => wrong.push(say(format!("{id}: the seller saw no paid call"))),
            }
        }
        report.push(format!("{}: {} ({} atomic units)", case.shape, case.url, price));
    }

    // A live 402 naming another payTo than the listing's is refused, and nothing moves.
    for (id, case) in &liars {
        let local = stack.seller(id);
        let from = origin(&case.url);
        let asset = case.accept["asset"].as_str().unwrap();
        for (language, block_id) in [("js", "pay-js"), ("py", "pay-py")] {
            let code =
                code_block(&case.page, block_id).unwrap().replacen(&format!("\"{from}"), &format!("\"{local}"), 1);
            let before = stack.balance(asset, &payer);
            let file = scratch.join(format!("{id}-{language}.{}", if language == "js" { "mjs" } else { "py" }));
            let (paid, output) = run_program(language, &code, &file, "EVM_PRIVATE_KEY", &key);
            if paid || stack.balance(asset, &payer) != before || stack.balance(asset, STRANGER) != 0 {
                wrong.push(format!("{id} {block_id}: paid a payTo the listing does not name: {output}"));
            }
            if !output.contains("filtered out by policies") {
                wrong.push(format!("{id} {block_id}: refused for another reason than the listed terms: {output}"));
            }
        }
        if !stack.seen(id).is_empty() {
            wrong.push(format!("{id}: the handler ran unpaid"));
        }
    }
    drop(stack);
    assert!(wrong.is_empty(), "{} problems:\n{}", wrong.len(), wrong.join("\n"));
    let mut log = std::io::stderr();
    let _ = writeln!(
        log,
        "paid calls: {} shapes paid with curl, JavaScript and Python:\n  {}",
        cases.len(),
        report.join("\n  ")
    );
}
