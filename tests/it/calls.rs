//! The call on every resource page (issue 29, "every page checked"): for each resource
//! of the three embedded snapshots and of the hand-written call shapes in
//! tests/fixtures/calls/, the command the page shows is run through `sh` with a
//! stand-in `curl` that prints the arguments it receives, and those arguments are held
//! against the listing as its JSON declares it (read here, apart from the library):
//! no body on GET, HEAD or DELETE; every required parameter present, where the method
//! puts it; JSON values of the declared types; `--globoff` and `--url`; and no hidden
//! character (control, bidirectional override) anywhere in the page.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{Map, Value};

use crate::common::{html, repo_root, temp_dir, REAL_DATES};
use catalogue::hidden::is_hidden;
use catalogue::import::import_file;
use method::index::Index;
use method::names;
use method::Method;

const METHODS: [&str; 7] = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];

/// A parameter the listing requires, as its JSON says.
#[derive(Debug)]
struct Required {
    name: String,
    place: &'static str,
    kind: Option<String>,
}

/// The method and required parameters a raw item declares.
fn declared(item: &Value) -> (Option<String>, Vec<Required>) {
    let place = |key: &str| match key {
        "queryParams" | "query_params" => Some("query"),
        "bodyFields" | "body_fields" | "body" => Some("body"),
        "headerFields" | "header_fields" | "headers" => Some("header"),
        "pathParams" | "path_params" => Some("path"),
        _ => None,
    };
    let method_of = |v: &Value| v.as_str().map(str::to_ascii_uppercase).filter(|m| METHODS.contains(&m.as_str()));
    let mut required = Vec::new();
    if let Some(bazaar) = item.pointer("/extensions/bazaar") {
        let method = bazaar.pointer("/info/input/method").and_then(method_of);
        let schema = bazaar.pointer("/schema/properties/input/properties").and_then(Value::as_object);
        for (key, spec) in schema.into_iter().flatten() {
            let Some(place) = place(key) else { continue };
            for name in spec["required"].as_array().into_iter().flatten().filter_map(Value::as_str) {
                let kind = spec["properties"][name]["type"].as_str().map(str::to_owned);
                required.push(Required { name: name.to_owned(), place, kind });
            }
        }
        return (method, required);
    }
    let input = item["accepts"].as_array().and_then(|a| a.iter().find_map(|a| a.pointer("/outputSchema/input")));
    let Some(input) = input.and_then(Value::as_object) else { return (None, required) };
    for (key, fields) in input {
        let (Some(place), Some(fields)) = (place(key), fields.as_object()) else { continue };
        for (name, spec) in fields {
            if spec["required"] == Value::Bool(true) && !name.trim().is_empty() && name.chars().count() <= 64 {
                required.push(Required { name: name.clone(), place, kind: spec["type"].as_str().map(str::to_owned) });
            }
        }
    }
    (input.get("method").and_then(method_of), required)
}

/// The command in a page's "First request" box, as text.
fn shown_call(page: &str) -> String {
    html::code_block(page, "curl").expect("a request to copy")
}

/// Runs every command through `sh`, with a `curl` that writes its arguments, each
/// ended by a NUL, to standard output: what the shell really hands curl.
fn arguments_as_the_shell_passes_them(commands: &[String], scratch: &Path) -> Vec<Vec<String>> {
    let bin = scratch.join("bin");
    fs::create_dir_all(&bin).unwrap();
    let curl = bin.join("curl");
    fs::write(&curl, "#!/bin/sh\nprintf '%s\\0' \"$@\"\nprintf '\\n'\n").unwrap();
    Command::new("chmod").arg("+x").arg(&curl).status().unwrap();
    // One shell for all: each command's output ends with its own line.
    let script = commands.join("\n") + "\n";
    let mut sh = Command::new("/bin/sh")
        .env("PATH", &bin)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = sh.stdin.take().unwrap();
    let writer = std::thread::spawn(move || std::io::Write::write_all(&mut stdin, script.as_bytes()));
    let out = sh.wait_with_output().unwrap();
    writer.join().unwrap().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let runs: Vec<Vec<String>> =
        text.split("\0\n").filter(|r| !r.is_empty()).map(|r| r.split('\0').map(str::to_owned).collect()).collect();
    assert_eq!(runs.len(), commands.len(), "one argument list a command");
    runs
}

fn json_type_fits(kind: &str, value: &Value) -> bool {
    match kind {
        "string" => value.is_string(),
        "integer" => value.is_i64() || value.is_u64(),
        "number" => value.is_number(),
        "boolean" => value.is_boolean(),
        "array" => value.is_array(),
        "object" => value.is_object(),
        "null" => value.is_null(),
        _ => true,
    }
}

/// Percent-encoded as the pages encode names (RFC 3986's unreserved kept).
fn encoded(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Checks one page's call against its listing; what is wrong, in words.
fn check(url: &str, item: &Value, args: &[String]) -> Vec<String> {
    let mut wrong = Vec::new();
    let (method, required) = declared(item);
    let method = method.unwrap_or_else(|| "GET".to_owned());
    let n = args.len();
    if n < 4 || args[..2] != ["-i", "--globoff"] || args[n - 2] != "--url" {
        return vec![format!("not `curl -i --globoff … --url URL`: {args:?}")];
    }
    let target = &args[n - 1];
    if !target.bytes().all(|b| b.is_ascii_graphic()) {
        wrong.push(format!("the URL is not all visible ASCII: {target}"));
    }
    let flags = &args[2..n - 2];
    let flag_values =
        |flag: &str| -> Vec<&String> { flags.windows(2).filter(|w| w[0] == flag).map(|w| &w[1]).collect() };
    let sent_method = match flags.iter().position(|a| a == "-X") {
        Some(i) => flags[i + 1].clone(),
        None if flags.iter().any(|a| a == "--head") => "HEAD".to_owned(),
        None => "GET".to_owned(),
    };
    if sent_method != method {
        wrong.push(format!("sends {sent_method}, the listing declares {method}"));
    }
    let without_body = ["GET", "HEAD", "DELETE", "OPTIONS"].contains(&method.as_str());
    let body_flags = ["--data-raw", "--form-string", "--data-urlencode", "--data", "-d", "-F"];
    if without_body && flags.iter().any(|a| body_flags.contains(&a.as_str())) {
        wrong.push(format!("a {method} with a body"));
    }
    let json: Option<Map<String, Value>> =
        flag_values("--data-raw").first().map(|d| serde_json::from_str(d).expect("the body is JSON"));
    let form: Vec<&String> = flag_values("--form-string").into_iter().chain(flag_values("--data-urlencode")).collect();
    let headers = flag_values("-H");
    let query: Vec<&str> = target.split_once('?').map(|(_, q)| q.split('&').collect()).unwrap_or_default();
    let templates = |name: &str| url.contains(&format!("/:{name}")) || url.contains(&format!("/{{{name}}}"));
    // The x402 exchange's own headers are the paying client's to set, not the caller's.
    let payment_header = |r: &Required| {
        r.place == "header"
            && ["x-payment", "payment-signature", "x-payment-response", "payment-required"]
                .contains(&r.name.to_ascii_lowercase().as_str())
    };
    for r in required.iter().filter(|r| !payment_header(r)) {
        let in_query = query.iter().any(|q| q.starts_with(&format!("{}=", encoded(&r.name))));
        let present = if templates(&r.name) {
            !target.contains(&format!(":{}", r.name))
        } else {
            match r.place {
                "header" => headers.iter().any(|h| h.starts_with(&format!("{}: ", r.name))),
                "body" if without_body => in_query,
                "body" => match &json {
                    Some(fields) => fields.get(&r.name).is_some_and(|v| {
                        let fits = r.kind.as_deref().is_none_or(|k| json_type_fits(k, v));
                        if !fits {
                            wrong.push(format!("{} is {v}, declared {:?}", r.name, r.kind));
                        }
                        true
                    }),
                    None => form.iter().any(|f| f.starts_with(&format!("{}=", encoded(&r.name)))),
                },
                "path" => true,
                _ => in_query,
            }
        };
        if !present {
            wrong.push(format!("the required {} parameter {} is not sent", r.place, r.name));
        }
    }
    wrong
}

/// Every record of every dated folder under `out`, by date and resource URL.
fn records_by_resource(out: &Path) -> BTreeMap<(String, String), Value> {
    let mut records = BTreeMap::new();
    for dated in fs::read_dir(out).unwrap().flatten() {
        let blocks = dated.path().join("api/records");
        for block in fs::read_dir(&blocks).into_iter().flatten().flatten() {
            let list: Value = serde_json::from_slice(&fs::read(block.path()).unwrap()).unwrap();
            for record in list.as_array().unwrap() {
                let date = dated.file_name().to_string_lossy().into_owned();
                records.insert((date, record["resource"].as_str().unwrap().to_owned()), record.clone());
            }
        }
    }
    records
}

/// The record's `call` and `pay_to` (method 1.3.1) against the page's command and the
/// listing: the same method, every required parameter where the command sends it, and
/// each price paid to the address its payment option names.
fn check_record(item: &Value, args: &[String], record: &Value) -> Vec<String> {
    let mut wrong = Vec::new();
    let call = &record["call"];
    let sent_method = match args.iter().position(|a| a == "-X") {
        Some(i) => args[i + 1].clone(),
        None if args.iter().any(|a| a == "--head") => "HEAD".to_owned(),
        None => "GET".to_owned(),
    };
    if call["method"] != Value::String(sent_method.clone()) {
        wrong.push(format!("record says {} and the page sends {sent_method}", call["method"]));
    }
    let (_, required) = declared(item);
    let params = call["params"].as_array().cloned().unwrap_or_default();
    // A path parameter the URL has no place for is a gap the record states; the x402
    // exchange's own headers are the paying client's.
    let exchange = ["x-payment", "payment-signature", "x-payment-response", "payment-required"];
    for r in required.iter().filter(|r| r.place != "path" && !exchange.contains(&r.name.to_ascii_lowercase().as_str()))
    {
        let Some(p) = params.iter().find(|p| p["name"] == Value::String(r.name.clone())) else {
            wrong.push(format!("the record's call leaves out the required {}", r.name));
            continue;
        };
        if p["required"] != Value::Bool(true) {
            wrong.push(format!("the record's call does not send the required {}", r.name));
        }
        let url = args.last().map(String::as_str).unwrap_or("");
        let found = match p["in"].as_str() {
            Some("query") => url.contains(&format!("{}=", encoded(&r.name))),
            Some("header") => args.iter().any(|a| a.starts_with(&format!("{}: ", r.name))),
            Some("body") => args.iter().any(|a| a.contains(&r.name) || a.contains(&encoded(&r.name))),
            Some("path") => true,
            other => {
                wrong.push(format!("{}: in {other:?}", r.name));
                true
            }
        };
        if !found {
            wrong.push(format!("the record puts {} in {} and the page's command does not", r.name, p["in"]));
        }
    }
    let accepts = item["accepts"].as_array().cloned().unwrap_or_default();
    for price in record["prices"].as_array().into_iter().flatten() {
        // An empty payTo is read as none.
        let pay_to = |a: &Value| a["payTo"].as_str().filter(|p| !p.is_empty()).map(str::to_owned);
        let listed = accepts.iter().any(|a| {
            pay_to(a).map(Value::String).unwrap_or(Value::Null) == price["pay_to"]
                && a["network"] == price["network"]
                && a["asset"] == price["asset"]
        });
        if !listed {
            wrong.push(format!("price paid to {} is no payment option of the listing", price["pay_to"]));
        }
    }
    wrong
}

/// The programs that pay (pre#pay-js, pre#pay-py): the command's URL and method, and
/// every exact payment option's payTo on an EVM network in the list they pay by.
fn check_programs(item: &Value, args: &[String], page: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    let v1_head = args.iter().any(|a| a == "--head") && item["x402Version"] != 2;
    let evm_exact: Vec<&Value> = item["accepts"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|a| a["scheme"] == "exact" && a["asset"].is_string())
        .filter(|a| a["payTo"].as_str().is_some_and(|p| !p.is_empty()))
        .filter(|a| a["maxAmountRequired"].as_str().or(a["amount"].as_str()).is_some_and(|n| n.parse::<u128>().is_ok()))
        .filter(|a| {
            a["network"].as_str().is_some_and(|n| n.starts_with("eip155:") || n == "base" || n == "base-sepolia")
        })
        .collect();
    for id in ["pay-js", "pay-py"] {
        let Some(code) = html::code_block(page, id) else {
            if !evm_exact.is_empty() && !v1_head {
                wrong.push(format!("no {id} program, though the listing offers exact on an EVM network"));
            }
            continue;
        };
        let url = args.last().unwrap();
        if !code.contains(&format!("\"{url}\"")) {
            wrong.push(format!("{id} does not call the command's URL {url}"));
        }
        for a in &evm_exact {
            if !code.contains(a["payTo"].as_str().unwrap()) {
                wrong.push(format!("{id} leaves out the payTo {}", a["payTo"]));
            }
        }
        if code.contains("PRIVATE_KEY=0x") || !code.contains("os.environ[") && !code.contains("process.env.") {
            wrong.push(format!("{id} does not read its key from the environment"));
        }
    }
    wrong
}

#[test]
fn every_resource_page_sends_what_its_listing_declares() {
    let dir = temp_dir("calls");
    let calls = import_file(&repo_root().join("tests/fixtures/calls/2026-03-01.json"), "2026-03-01")
        .unwrap()
        .write_into(&dir.join("calls"), false)
        .unwrap();
    let mut snapshots: Vec<PathBuf> =
        REAL_DATES.iter().map(|d| repo_root().join(format!("content/snapshots/{d}.json"))).collect();
    snapshots.push(calls);
    let out = dir.join("public");
    let method = Method::embedded();
    publish::build(&snapshots, &out, &method).unwrap();

    let (mut pages, mut commands, mut items, mut dates) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    for path in &snapshots {
        let raw: Value = serde_json::from_slice(&fs::read(path).unwrap()).unwrap();
        let index = Index::read(path, &method).unwrap();
        let by_url: BTreeMap<&str, &Value> =
            raw["items"].as_array().unwrap().iter().filter_map(|i| Some((i["resource"].as_str()?, i))).collect();
        for e in &index.entries {
            let page_file =
                out.join(index.header.date.as_str()).join(names::page_file(&names::resource_dir(&e.slug())));
            let page = fs::read_to_string(&page_file).unwrap();
            if let Some(c) = page.chars().find(|c| is_hidden(*c)) {
                panic!("{}: U+{:04X} in the page", e.resource.url, c as u32);
            }
            commands.push(shown_call(&page));
            items.push((e.resource.url.clone(), (*by_url.get(e.resource.url.as_str()).expect("the item")).clone()));
            pages.push(page);
            dates.push(index.header.date.clone());
        }
    }
    let args = arguments_as_the_shell_passes_them(&commands, &dir);
    let records = records_by_resource(&out);
    let mut wrong = Vec::new();
    for ((((url, item), args), page), date) in items.iter().zip(&args).zip(&pages).zip(&dates) {
        for w in check(url, item, args) {
            wrong.push(format!("{url}: {w}"));
        }
        let record = records.get(&(date.clone(), url.clone())).expect("a record for every page");
        for w in check_record(item, args, record).into_iter().chain(check_programs(item, args, page)) {
            wrong.push(format!("{url}: {w}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} problems:\n{}",
        wrong.len(),
        wrong.iter().take(30).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(commands.len() > 2000, "{} pages", commands.len());

    // The hostile shapes, one by one.
    let of = |url: &str| args[items.iter().position(|(u, _)| u == url).unwrap()].clone();
    let glob = of("https://calls.example/g[1-20]{a,b}");
    assert_eq!(glob.last().unwrap(), "https://calls.example/g%5B1-20%5D%7Ba,b%7D");
    let option = of("-o/tmp/owned https://calls.example/o");
    assert_eq!(option[option.len() - 2..], ["--url", "-o/tmp/owned%20https://calls.example/o"]);
    let upload = of("https://calls.example/upload");
    assert!(upload.contains(&"title=$(id) `id` !! 'quoted'".to_owned()), "{upload:?}");
    assert!(upload.contains(&"file=@notes.txt".to_owned()) && upload.iter().all(|a| a != "-F"), "{upload:?}");
    let weather = of("https://calls.example/weather");
    assert_eq!(weather.last().unwrap(), "https://calls.example/weather?note=%3Cnote%3E&city=Paris&days=3");
    let ens = of("https://calls.example/ens/:name/{chain}");
    assert_eq!(ens.last().unwrap(), "https://calls.example/ens/vitalik.eth/ethereum");
    let balance = of("https://calls.example/balance");
    assert!(
        balance.contains(&r#"{"account":"0xd8da6bf26964af9d7eed9e03e53415d37aa96045","block":19000000}"#.to_owned())
    );
    // The reversing name is shown escaped, in the title and the heading.
    let reverse = &pages[items.iter().position(|(u, _)| u == "https://calls.example/reverse").unwrap()];
    assert!(reverse.contains("<title>Invoice [U+202E]gpj.exe · x402dir</title>"), "{reverse}");
    assert!(reverse.contains("<h1>Invoice [U+202E]gpj.exe</h1>"));
    // What the listing leaves out or contradicts is said on the page.
    let quote = &pages[items.iter().position(|(u, _)| u == "https://calls.example/quote").unwrap()];
    assert!(quote.contains("is not of its declared type integer"), "{quote}");
    let weather_page = &pages[items.iter().position(|(u, _)| u == "https://calls.example/weather").unwrap()];
    assert!(weather_page.contains("matched the screening list") && !weather_page.contains("Ignore all previous"));
}

#[test]
fn the_check_finds_a_wrong_call() {
    let item = serde_json::json!({"accepts": [{"outputSchema": {"input": {"method": "GET",
        "bodyFields": {"city": {"type": "string", "required": true}}}}}]});
    let args = |words: &[&str]| words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>();
    assert!(check("https://a/w", &item, &args(&["-i", "--globoff", "--url", "https://a/w?city=x"])).is_empty());
    let body = check("https://a/w", &item, &args(&["-i", "--globoff", "--data-raw", "{}", "--url", "https://a/w"]));
    assert_eq!(body.len(), 2, "{body:?}");
    assert_eq!(check("https://a/w", &item, &args(&["-i", "--url", "https://a/w"])).len(), 1);
}

#[test]
fn the_record_check_finds_a_wrong_method_parameter_or_address() {
    let item = serde_json::json!({"accepts": [{"network": "base", "asset": "0xa", "payTo": "0xpay",
        "outputSchema": {"input": {"method": "GET", "queryParams": {"city": {"type": "string", "required": true}}}}}]});
    let args: Vec<String> = ["-i", "--globoff", "--url", "https://a/w?city=x"].map(str::to_owned).to_vec();
    let record = |method: &str, place: &str, pay_to: &str| {
        serde_json::json!({"call": {"method": method, "params": [{"name": "city", "in": place, "required": true}]},
            "prices": [{"network": "base", "asset": "0xa", "pay_to": pay_to}]})
    };
    assert!(check_record(&item, &args, &record("GET", "query", "0xpay")).is_empty());
    assert_eq!(check_record(&item, &args, &record("POST", "query", "0xpay")).len(), 1);
    assert_eq!(check_record(&item, &args, &record("GET", "header", "0xpay")).len(), 1);
    assert_eq!(check_record(&item, &args, &record("GET", "query", "0xother")).len(), 1);
}
