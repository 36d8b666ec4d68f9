//! The browser composer (static/composer.js, run under Node) and the Rust method must
//! give identical answers — same rows, same order, same figures, same rule text — for
//! generated queries over every embedded snapshot: random token mixes, case and
//! Unicode variants, noise, over-long queries, and valid and invalid filters.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::prerequisites::{self, Need};
use crate::common::{item, repo_root, synthetic_snapshot, temp_dir, Rng, REAL_DATES};
use method::answer::checked_answer;
use method::index::Index;
use method::query::{FilterText, Filters};
use method::{Method, DISCOVERY_METHOD_VERSION};
use serde_json::{json, Value};
use site::{self, api::method as shards};

const NOISE: &[&str] = &[" ", "  ", "-", "/", ".", "!?", "🚀", "→", "\u{200B}", "_", "’", ",", "\t"];
const ODD: &[&str] = &[
    "ΟΔΟΣ",
    "σίσυφος",
    "ΣΊΣΥΦΟΣ",
    "STRASSE",
    "ẞ",
    "İstanbul",
    "Straße",
    "天气",
    "天",
    "٣٤",
    "e\u{301}",
    "ǅ",
    "ﬁ",
    "Ⅻ",
    "x",
    "ä",
    "ÄPI",
    "K",
    "Å",
    "\u{1F600}",
];
const PRICES: &[Option<&str>] = &[
    None,
    None,
    None,
    Some("0"),
    Some("0.001"),
    Some("0.01"),
    Some("00.010"),
    Some(".5"),
    Some("1"),
    Some("0.0005"),
    Some("abc"),
    Some("-1"),
    Some("5."),
    Some("1e3"),
    Some("$0.01"),
    Some(" 0.05 USD"),
    Some("0.5usdc"),
    Some("1$"),
    Some("$"),
    Some("1 eur"),
];
const NETWORKS: &[Option<&str>] = &[
    None,
    None,
    None,
    Some("base"),
    Some("eip155:8453"),
    Some("base-sepolia"),
    Some("eip155:84532"),
    Some("solana"),
    Some("Base"),
    Some("eip155:1"),
    Some("bogus net"),
    Some("BASE  SEPOLIA"),
    Some(" solana_devnet "),
    Some("Solana"),
    Some("basee"),
    Some("eip155:999"),
    Some("polygon"),
    Some(""),
    Some("base\u{7}"),
];
const OFFSETS: &[Option<&str>] = &[
    None,
    None,
    None,
    Some("0"),
    Some("3"),
    Some("10"),
    Some("1000"),
    Some("1000000"),
    Some("1000001"),
    Some("-1"),
    Some("x"),
];
const LIMITS: &[Option<&str>] =
    &[None, None, Some("1"), Some("3"), Some("10"), Some("50"), Some("0"), Some("51"), Some("x"), Some("050")];

fn case_variant(rng: &mut Rng, token: &str) -> String {
    match rng.below(4) {
        0 => token.to_uppercase(),
        1 => {
            let mut c = token.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
        }
        _ => token.to_owned(),
    }
}

fn generate(rng: &mut Rng, vocabulary: &[String], documents: &[Vec<String>], n: usize) -> Vec<Value> {
    (0..n)
        .map(|i| {
            let words = match i % 10 {
                0 => 0,
                1 => 1 + rng.below(2),
                9 => 9 + rng.below(4),
                _ => 1 + rng.below(4),
            };
            // Half the queries take their words from one resource, so AND queries match.
            let document = (i % 2 == 1).then(|| rng.pick(documents).clone());
            let mut text = String::new();
            for _ in 0..words {
                if let Some(doc) = &document {
                    let word = rng.pick(doc).clone();
                    text.push_str(&case_variant(rng, &word));
                    text.push_str(rng.pick::<&str>(NOISE));
                    continue;
                }
                let piece = match rng.below(10) {
                    0 => rng.pick(ODD).to_string(),
                    1 => format!("zz{}q", rng.below(1000)),
                    _ => {
                        let word = rng.pick(vocabulary).clone();
                        case_variant(rng, &word)
                    }
                };
                text.push_str(&piece);
                let noise = rng.pick::<&str>(NOISE);
                text.push_str(noise);
            }
            // Filters (valid and invalid) on a third of the queries.
            let filtered = rng.below(3) == 0;
            json!({
                "text": text,
                "max_price": if filtered { *rng.pick(PRICES) } else { None },
                "network": if filtered { *rng.pick(NETWORKS) } else { None },
                "exclude_testnets": filtered && rng.below(3) == 0,
                "answered_402": filtered && rng.below(3) == 0,
                "limit": if filtered { *rng.pick(LIMITS) } else { None },
                "offset": if filtered { *rng.pick(OFFSETS) } else { None },
            })
        })
        .collect()
}

/// The path of the first place two JSON values differ.
fn first_difference(a: &Value, b: &Value, path: &str) -> String {
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            for (k, v) in x {
                match y.get(k) {
                    Some(w) if w == v => {}
                    Some(w) => return first_difference(v, w, &format!("{path}.{k}")),
                    None => return format!("{path}.{k} missing on the right"),
                }
            }
            format!("{path}: keys differ")
        }
        (Value::Array(x), Value::Array(y)) if x.len() == y.len() => {
            let i = x.iter().zip(y).position(|(v, w)| v != w).unwrap_or(0);
            first_difference(&x[i], &y[i], &format!("{path}[{i}]"))
        }
        _ => format!("{path}: {a} vs {b}"),
    }
}

/// The composer's answers to `queries` over `api` (through `file`), in order.
fn composer_answers(api: &Path, queries: &[Value], file: &Path) -> Vec<Value> {
    fs::write(file, serde_json::to_vec(queries).unwrap()).unwrap();
    let node = Command::new("node")
        .arg(repo_root().join("tests/js/run_queries.mjs"))
        .arg(api)
        .arg(file)
        .output()
        .expect("node runs (checked by prerequisites::ready)");
    assert!(node.status.success(), "composer failed: {}", String::from_utf8_lossy(&node.stderr));
    let answers: Vec<Value> = serde_json::from_slice(&node.stdout).expect("composer prints a JSON array");
    assert_eq!(answers.len(), queries.len());
    answers
}

/// Rust's answer to one query as run_queries.mjs prints the composer's: the envelope, or
/// the filter error with its message.
fn rust_answer(index: &Index, method: &Method, q: &Value) -> Value {
    let s = |k: &str| q[k].as_str();
    let text = FilterText {
        max_price: s("max_price"),
        network: s("network"),
        exclude_testnets: q["exclude_testnets"].as_bool().unwrap_or(false),
        answered_402: q["answered_402"].as_bool().unwrap_or(false),
        limit: s("limit"),
        offset: s("offset"),
    };
    match Filters::read(text).and_then(|filters| checked_answer(index, method, s("text").unwrap(), &filters)) {
        Ok(answer) => serde_json::to_value(answer).unwrap(),
        Err(e) => json!({"error": {"code": "INVALID_FILTER", "message": e.to_string()}}),
    }
}

/// Queries made of words of withheld descriptions, one to three from one description:
/// screening decides what is published, never what matches, so the composer must find
/// these resources by those words (and count them) exactly as Rust does.
fn withheld_queries(rng: &mut Rng, index: &Index) -> Vec<Value> {
    let mut queries = Vec::new();
    for e in index.entries.iter().filter(|e| e.withheld.is_some()).take(60) {
        let words: Vec<&str> = e.description_haystack().split(' ').filter(|w| w.chars().count() >= 2).collect();
        if words.is_empty() {
            continue;
        }
        let text: Vec<&str> = (0..1 + rng.below(3)).map(|_| *rng.pick(&words)).collect();
        queries.push(json!({"text": text.join(" "), "max_price": null, "network": null, "limit": "50"}));
    }
    queries
}

/// Runs `n` generated queries, and one for each of up to 60 withheld descriptions,
/// through the composer over `api` and through Rust over `index`, panicking on the
/// first difference. Returns (queries compared, token queries with results, rows with
/// a withheld description in those results).
fn compare(api: &Path, index: &Index, method: &Method, seed: u64, n: usize, scratch: &Path) -> (usize, usize, usize) {
    let date = &index.header.date;
    // Words that really occur, favouring the common ones so that AND queries match.
    let mut vocabulary: Vec<(usize, String)> =
        shards::postings(index).into_iter().filter(|(k, _)| !k.starts_with('@')).map(|(k, v)| (v.len(), k)).collect();
    vocabulary.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    let vocabulary: Vec<String> = vocabulary.into_iter().take(300).map(|(_, k)| k).collect();
    let mut rng = Rng(seed);
    let documents: Vec<Vec<String>> = index
        .entries
        .iter()
        .map(|e| e.haystack.split(' ').filter(|w| w.chars().count() >= 2).map(str::to_owned).collect())
        .collect();
    let mut queries = generate(&mut rng, &vocabulary, &documents, n);
    queries.extend(withheld_queries(&mut rng, index));
    let answers = composer_answers(api, &queries, &scratch.join(format!("queries-{date}.json")));

    let (mut compared, mut nonempty, mut withheld) = (0, 0, 0);
    for (q, js) in queries.iter().zip(&answers) {
        let rust = rust_answer(index, method, q);
        if *js != rust {
            let urls = |v: &Value| -> Vec<String> {
                v["data"].as_array().map(|d| d.iter().map(|r| r["resource"].to_string()).collect()).unwrap_or_default()
            };
            panic!(
                "{date}: query {q}\n composer: {} matched {:?}\n rust:     {} matched {:?}\n first differing field: {}",
                js["meta"]["total_matched"],
                urls(js),
                rust["meta"]["total_matched"],
                urls(&rust),
                first_difference(js, &rust, "$")
            );
        }
        if rust["data"].as_array().is_some_and(|d| !d.is_empty())
            && !rust["meta"]["query"]["token_list_empty"].as_bool().unwrap()
        {
            nonempty += 1;
            let rows = rust["data"].as_array().unwrap();
            withheld += rows.iter().filter(|r| !r["description_withheld"].is_null()).count();
            assert!(rows.iter().all(|r| r["description_withheld"].is_null() || r["description"].is_null()));
        }
        compared += 1;
    }
    (compared, nonempty, withheld)
}

/// Every test here runs the composer under Node; without Node it skips, saying so.
fn node_ready() -> bool {
    prerequisites::ready("composer differential (static/composer.js under Node)", &[Need::Node])
}

#[test]
fn composer_and_rust_agree_on_generated_queries() {
    if !node_ready() {
        return;
    }
    let out = temp_dir("differential").at("public");
    let paths: Vec<_> = REAL_DATES.iter().map(|d| repo_root().join(format!("content/snapshots/{d}.json"))).collect();
    let method = Method::embedded();
    publish::build(&paths, &out, &method).unwrap();
    let (mut compared, mut nonempty, mut withheld) = (0, 0, 0);
    // The same indexes the build made: each snapshot judged with its history.
    let indexes = method::index::indexes_with_history(&paths, &method).unwrap();
    for (n, (date, index)) in REAL_DATES.iter().zip(&indexes).enumerate() {
        let seed = 0x9E37_79B9_7F4A_7C15 ^ (n as u64 + 1);
        let (c, e, w) = compare(&out.join(date).join("api"), index, &method, seed, 520, out.parent().unwrap());
        compared += c;
        nonempty += e;
        withheld += w;
    }
    assert!(compared >= 1500, "{compared}");
    // The comparison means something only if many queries actually found resources.
    assert!(nonempty >= 300, "only {nonempty} token queries with results");
    // Withheld resources were among the rows compared, found by words of their text.
    assert!(withheld >= 100, "only {withheld} withheld rows compared");
}

/// Real snapshots are too small for any posting list to be split into parts; a
/// synthetic one of 24,000 listings (text drawn from the real dumps' words) has lists
/// longer than `PART_POSTINGS`, common words and networks alike.
#[test]
fn composer_and_rust_agree_where_posting_lists_are_split() {
    if !node_ready() {
        return;
    }
    let scratch = temp_dir("differential-split");
    let synth = Command::new(env!("CARGO_BIN_EXE_x402dir"))
        .current_dir(repo_root())
        .args(["synth", "--items", "24000", "--seed", "7", "--date", "2026-11-01", "--dir"])
        .arg(scratch.join("snapshots"))
        .output()
        .unwrap();
    assert!(synth.status.success(), "{}", String::from_utf8_lossy(&synth.stderr));
    let path = scratch.join("snapshots/2026-11-01.json");
    let out = scratch.join("public");
    let method = Method::embedded();
    publish::build(std::slice::from_ref(&path), &out, &method).unwrap();
    let api = out.join("2026-11-01/api");
    let parts = fs::read_dir(api.join("shards/parts")).map(|d| d.count()).unwrap_or(0);
    assert!(parts >= 3, "only {parts} split lists: the test would not reach the parts");
    let index = method::index::indexes_with_history(std::slice::from_ref(&path), &method).unwrap().remove(0);
    let (compared, nonempty, _) = compare(&api, &index, &method, 0x5EED, 400, &scratch);
    assert!(compared >= 400, "{compared}");
    assert!(nonempty >= 100, "only {nonempty} token queries with results");
}

#[test]
fn composer_reports_source_unavailable_not_an_empty_list() {
    if !node_ready() {
        return;
    }
    let out = temp_dir("differential-unavailable").at("public");
    let method = Method::embedded();
    publish::build(&[repo_root().join("content/snapshots/2026-08-20.json")], &out, &method).unwrap();
    let api = out.join("2026-08-20/api");
    let queries = out.parent().unwrap().join("q.json");
    fs::write(&queries, r#"[{"text": "ens", "max_price": null, "network": null, "limit": null}]"#).unwrap();
    let run = |api: &std::path::Path| -> Value {
        let o = Command::new("node")
            .arg(repo_root().join("tests/js/run_queries.mjs"))
            .arg(api)
            .arg(&queries)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        serde_json::from_slice::<Vec<Value>>(&o.stdout).unwrap().remove(0)
    };
    assert!(run(&api)["data"].as_array().is_some_and(|d| !d.is_empty()));
    // A manifest of another method version: the composer must refuse, not guess.
    let manifest = api.join("manifest.json");
    let text = fs::read_to_string(&manifest).unwrap();
    fs::write(
        &manifest,
        text.replace(&format!("\"version\":\"{DISCOVERY_METHOD_VERSION}\",\"url\""), "\"version\":\"2.0.0\",\"url\""),
    )
    .unwrap();
    assert_eq!(run(&api)["error"]["code"], "SOURCE_UNAVAILABLE");
    fs::remove_file(&manifest).unwrap();
    assert_eq!(run(&api)["error"]["code"], "SOURCE_UNAVAILABLE");
}

/// The rule text, the limits and every filter message, worded in Rust and read by the
/// composer from static/rules.js: the same for no token, one, several and too many,
/// under each filter alone and together, and for each kind of bad value (one with a `$`
/// too, which a careless string replacement would expand).
#[test]
fn composer_states_the_rule_and_filter_errors_as_rust_does() {
    if !node_ready() {
        return;
    }
    let scratch = temp_dir("differential-rules");
    let out = scratch.join("public");
    let method = Method::embedded();
    let path = repo_root().join("content/snapshots/2026-08-20.json");
    publish::build(std::slice::from_ref(&path), &out, &method).unwrap();
    let index = method::index::indexes_with_history(std::slice::from_ref(&path), &method).unwrap().remove(0);
    let texts = ["", "a b !!!", "ens", "Token PRICE", "one two three four five six seven eight nine ten x"];
    let nines = "9".repeat(30);
    let too_many_digits = "9".repeat(31);
    let too_many_decimals = format!("0.{}1", "0".repeat(18));
    let filters: &[[Option<&str>; 3]] = &[
        [None, None, None],
        [Some("0.01"), None, None],
        [Some("00.010"), None, Some("3")],
        [None, Some("base"), None],
        [Some(".5"), Some("eip155:8453"), Some("050")],
        [Some(&nines), None, Some("50")],
        [None, None, Some("0050")],
        [None, None, Some("0")],
        [None, None, Some("$`")],
        [Some(&too_many_digits), None, None],
        [Some(&too_many_decimals), None, None],
        [Some("$'"), None, None],
        [None, Some("$&"), None],
        [None, Some("a\"b\\c\n"), None],
    ];
    let queries: Vec<Value> = texts
        .iter()
        .flat_map(|text| {
            filters.iter().map(move |[max_price, network, limit]| {
                json!({"text": text, "max_price": max_price, "network": network, "limit": limit})
            })
        })
        .collect();
    let answers = composer_answers(&out.join("2026-08-20/api"), &queries, &scratch.join("q.json"));
    let (mut rules, mut errors) = (std::collections::BTreeSet::new(), 0);
    for (q, js) in queries.iter().zip(&answers) {
        let rust = rust_answer(&index, &method, q);
        assert_eq!(*js, rust, "query {q}: first differing field {}", first_difference(js, &rust, "$"));
        match rust["meta"]["query"]["rule"].as_str() {
            Some(rule) => {
                rules.insert(rule.to_owned());
            }
            None => errors += 1,
        }
    }
    // Each set of tokens (the first two texts have none) under each of the six valid
    // filters gave a rule of its own, and each bad value its message.
    assert_eq!(rules.len(), (texts.len() - 1) * 6, "{rules:#?}");
    assert_eq!(errors, texts.len() * 8);
}

/// Normalising under the composer (chars.js) and under Rust, for every code point alone
/// and for every block of 61 consecutive ones (tests/js/run_normalise.mjs): the same
/// text, so folding and the word cut agree on every input character.
#[test]
fn composer_and_rust_normalise_every_code_point_alike() {
    if !node_ready() {
        return;
    }
    let node = Command::new("node")
        .arg(repo_root().join("tests/js/run_normalise.mjs"))
        .output()
        .expect("node runs (checked by prerequisites::ready)");
    assert!(node.status.success(), "{}", String::from_utf8_lossy(&node.stderr));
    let js = String::from_utf8(node.stdout).unwrap();
    let mut js = js.lines();
    let chars: Vec<char> = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
    for c in &chars {
        let rust = method::normalise::normalise(c.encode_utf8(&mut [0; 4]));
        assert_eq!(js.next(), Some(rust.as_str()), "U+{:04X}", *c as u32);
    }
    for block in chars.chunks(61) {
        let text: String = block.iter().collect();
        let rust = method::normalise::normalise(&text);
        assert_eq!(js.next(), Some(rust.as_str()), "the block from U+{:04X}", block[0] as u32);
    }
    assert_eq!(js.next(), None);
}

/// A listing that names ΣΊΣΥΦΟΣ in capitals is found by σίσυφος as a Greek reader types
/// it (ending in ς), and by the capitals; ß and ss, ﬁ and fi find each other: in Rust and
/// in the composer alike.
#[test]
fn composer_and_rust_find_text_by_its_case_folding() {
    if !node_ready() {
        return;
    }
    let scratch = temp_dir("differential-fold");
    let items = vec![
        item("https://sisyphus.example/rock", "ΣΊΣΥΦΟΣ: uphill rock pushing as a service", Some(3), Some(9)),
        item("https://strasse.example/route", "Route planner for every Straße in Berlin", Some(2), Some(5)),
        item("https://fin.example/quote", "ﬁnance quotes, ﬁltered", Some(1), Some(4)),
        item("https://other.example/x", "σίσυφο and strass, words near but not equal", Some(1), Some(1)),
    ];
    let path = synthetic_snapshot("2026-11-02", items).write_into(&scratch.join("snapshots"), false).unwrap();
    let out = scratch.join("public");
    let method = Method::embedded();
    publish::build(std::slice::from_ref(&path), &out, &method).unwrap();
    let index = method::index::indexes_with_history(std::slice::from_ref(&path), &method).unwrap().remove(0);
    let found: &[(&str, &[&str])] = &[
        ("σίσυφος", &["https://sisyphus.example/rock"]),
        ("ΣΊΣΥΦΟΣ", &["https://sisyphus.example/rock"]),
        ("Σίσυφος rock", &["https://sisyphus.example/rock"]),
        ("strasse", &["https://strasse.example/route"]),
        ("STRASSE berlin", &["https://strasse.example/route"]),
        ("straße", &["https://strasse.example/route"]),
        ("STRAẞE", &["https://strasse.example/route"]),
        ("finance", &["https://fin.example/quote"]),
        ("FILTERED", &["https://fin.example/quote"]),
        ("ﬁnance", &["https://fin.example/quote"]),
        ("σισυφος", &[]),
        ("strase", &[]),
    ];
    let queries: Vec<Value> = found
        .iter()
        .map(|(text, _)| json!({"text": text, "max_price": null, "network": null, "limit": "50"}))
        .collect();
    let answers = composer_answers(&out.join("2026-11-02/api"), &queries, &scratch.join("q.json"));
    for ((text, urls), (q, js)) in found.iter().zip(queries.iter().zip(&answers)) {
        let rust = rust_answer(&index, &method, q);
        assert_eq!(*js, rust, "{text}: first differing field {}", first_difference(js, &rust, "$"));
        let got: Vec<&str> = rust["data"].as_array().unwrap().iter().map(|r| r["resource"].as_str().unwrap()).collect();
        assert_eq!(got, *urls, "{text}");
    }
    // The tokens are the folded words, as the answer states them.
    assert_eq!(answers[0]["meta"]["query"]["tokens"], json!(["σίσυφοσ"]));
    assert_eq!(answers[4]["meta"]["query"]["tokens"], json!(["strasse", "berlin"]));
}

/// A probed snapshot (content/method.md#probe): each row and record carries what the probe
/// saw, and the `answered_402` filter keeps the resources that answered 402, identically
/// in the composer and in Rust; the snapshots not probed refuse the filter alike. The
/// probe file is synthetic (tests/it/common/probes.rs): outcomes drawn per resource.
#[test]
fn composer_and_rust_agree_on_a_probed_snapshot() {
    if !node_ready() {
        return;
    }
    let dir = temp_dir("differential-probed");
    let snapshots = dir.join("snapshots");
    let method = Method::embedded();
    let paths: Vec<_> =
        REAL_DATES.iter().map(|d| crate::common::real_snapshot(d).write_into(&snapshots, false).unwrap()).collect();
    let probed = "2025-12-31";
    let index = Index::read(&paths[1], &method).unwrap();
    let probe = crate::common::probes::synthetic_probe(&index, 0x402);
    crate::common::probes::write_beside(&paths[1], &probe);
    let out = dir.join("public");
    publish::build(&paths, &out, &method).unwrap();
    let indexes = method::index::indexes_with_history(&paths, &method).unwrap();
    assert!(indexes[1].probe.is_some() && indexes[0].probe.is_none(), "the build's indexes read the probe beside");
    let answered = indexes[1].entries.iter().filter(|e| e.answered_402).count();
    assert!(answered > 500 && answered < indexes[1].entries.len() - 200, "{answered}");

    for (n, (date, index)) in REAL_DATES.iter().zip(&indexes).enumerate() {
        let (c, nonempty, _) = compare(&out.join(date).join("api"), index, &method, 0x402 + n as u64, 400, &dir);
        assert!(c >= 400 && nonempty >= 60, "{date}: {c} compared, {nonempty} with results");
    }
    // The filter on its own and with words, on the probed date: rows carry the probe,
    // every row answered 402, and the counts agree with the probe file.
    let queries: Vec<Value> = ["", "weather", "api data", "image generation", "token price"]
        .iter()
        .flat_map(|text| [false, true].map(|on| json!({"text": text, "answered_402": on, "limit": "50"})))
        .collect();
    let api = out.join(probed).join("api");
    let answers = composer_answers(&api, &queries, &dir.join("queries-answered.json"));
    for (q, js) in queries.iter().zip(&answers) {
        let rust = rust_answer(&indexes[1], &method, q);
        assert!(*js == rust, "{q}: {}", first_difference(js, &rust, "$"));
        assert_eq!(rust["meta"]["snapshot"]["probed"], "2026-12-07T06:30:00Z");
        for row in rust["data"].as_array().unwrap() {
            let seen = &row["probe"];
            let result = probe.result(row["resource"].as_str().unwrap()).unwrap();
            assert_eq!(seen["outcome"], serde_json::to_value(result.outcome).unwrap());
            assert_eq!(seen["terms_as_listed"], result.terms_as_listed());
            let otherwise = seen["terms_otherwise"].as_array().unwrap();
            assert_eq!(otherwise.len(), result.terms.iter().filter(|t| t.live != method::probe::Live::Same).count());
            if q["answered_402"] == true {
                assert!(result.answered_402(), "{q}: {row}");
            }
        }
    }
    let all =
        |on: bool| answers[queries.iter().position(|q| q["text"] == "" && q["answered_402"] == on).unwrap()].clone();
    assert_eq!(all(true)["meta"]["total_matched"], answered);
    assert_eq!(all(false)["meta"]["total_matched"], indexes[1].entries.len());
    assert!(all(true)["meta"]["query"]["rule"].as_str().unwrap().contains(method::answer::RULE_ANSWERED_402));
    // Not probed: the filter is an error naming the date, in both.
    let q = json!({"text": "weather", "answered_402": true});
    let js = composer_answers(
        &out.join(REAL_DATES[2]).join("api"),
        std::slice::from_ref(&q),
        &dir.join("q-not-probed.json"),
    );
    let rust = rust_answer(&indexes[2], &method, &q);
    assert_eq!(js[0], rust);
    assert!(rust["error"]["message"].as_str().unwrap().contains("the snapshot of 2026-08-20 was not probed"), "{rust}");
}
