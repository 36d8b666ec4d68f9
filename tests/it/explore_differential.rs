//! Explore in the browser (static/explore.js under Node) and `x402dir explore` must give
//! identical envelopes — same candidates, same ranks in every list, same order, same
//! rule text — for the golden queries and for generated ones, over every embedded
//! snapshot and over a snapshot with synthetic counters (the real December dumps have
//! none), so that the payers and recency nudges are exercised too.

use std::fs;
use std::path::Path;
use std::process::Command;

use crate::common::prerequisites::{self, Need};
use crate::common::{repo_root, temp_dir, Rng, REAL_DATES};
use catalogue::snapshot::Snapshot;
use explore::answer::explore;
use explore::eval::GoldenSet;
use explore::translations::Translations;
use explore::vectors::VectorTable;
use explore::{Explore, EXPLORE_VERSION};
use method::index::Index;
use method::query::Filters;
use method::Method;
use serde_json::{json, Value};

/// English words a need might be phrased in that are unlikely to be in listings.
const PLAIN: &[&str] = &[
    "outdoors",
    "tomorrow",
    "picture",
    "laugh",
    "feel",
    "cheap",
    "fast",
    "money",
    "inbox",
    "song",
    "map",
    "nearby",
    "doctor",
    "recipe",
    "translate",
    "summarise",
    "legit",
    "safe",
    "ocean",
    "xyzzyq",
    "天气",
    "Straße",
];

/// Constraint phrases and their near misses, written as people and agents write them.
const CONSTRAINTS: &[&str] = &[
    "under $0.01",
    "at most 2 cents per call",
    "max 0.5 usdc a request",
    "less than $.05 or less",
    "over $1",
    "<= 3¢",
    "gpt4 usd",
    "on base",
    "paid on Base Sepolia network",
    "via solana",
    "on the base",
    "no testnets",
    "mainnet only",
    "cheapest",
    "lowest price",
    "$",
    "1.",
    "génération vidéo",
    "préço",
    "Straße",
    "noticias del clima",
    "con de",
    // Prices in words (explore 2.3.0) and their near misses.
    "under one cent",
    "under a cent",
    "less than one cent",
    "at most five cents",
    "no more than twenty-five cents per call",
    "below half a cent",
    "up to a penny",
    "two dollars or less",
    "a dollar",
    "more than a cent",
    "under a hundred cents",
    "free",
    "for free",
    "free of charge.",
    "at no cost",
    "gluten-free",
    "free text",
    "free tier",
    "not free",
];

/// Whole queries with prices in words and typos, two in one query among them.
const FIXED: &[&str] = &[
    "image generaton",
    "image generaton under a cent",
    "twiter serch, less than one cent",
    "predicton markets at most five cents",
    "curent wether for free",
    "free weather api",
    "gluten-free recipes",
    "free text search",
    "llm with a free tier",
    "convert a dollar to yen",
    "sentiment, half a cent or less",
    "news up to a penny per call",
    "smart contract secruity under $1, max ten cents",
    "génération de vidéo, no more than twenty-five cents",
    // Pairs rescued by CSLS (explore 2.6.0): with a near spelling ("camara", "sentimento",
    // "rendement") and without ("поиск").
    "camara",
    "análise de sentimento de avaliações escritas",
    "pools de liquidité avec le meilleur rendement",
    "поиск в интернете",
    // Read by a stem's pair (explore 2.7.0): "sinyal", "pagamento"; not by an opening too
    // short ("indir") or rescued ("avalia").
    "kripto al-sat sinyalleri",
    "vou receber pagamentos em reais",
    "indirizzo avaliações",
];

fn generate(rng: &mut Rng, vocabulary: &[String], n: usize) -> Vec<Value> {
    let translated: Vec<String> = Translations::embedded().iter().map(|(word, _)| word.to_owned()).collect();
    let unspaced: Vec<&String> = translated.iter().filter(|w| explore::words::is_segmented(w)).collect();
    let mut out = vec![json!({"text": "", "limit": null}), json!({"text": "a b", "limit": null})];
    out.extend(FIXED.iter().map(|text| json!({"text": text, "limit": null})));
    out.push(json!({"text": "weather", "limit": "0"}));
    out.push(json!({"text": "weather", "limit": "51"}));
    while out.len() < n {
        let words = 1 + rng.below(6);
        let mut parts = Vec::new();
        for _ in 0..words {
            let w = match rng.below(9) {
                0 | 1 => PLAIN[rng.below(PLAIN.len())].to_owned(),
                // A word of another language the translation table pairs (some with a
                // stopword), for the translation files.
                8 if rng.below(2) == 0 => translated[rng.below(translated.len())].clone(),
                // Since 2.7.0: such a word with an ending, for the stems' translation files.
                7 if rng.below(2) == 0 => {
                    let ending = ["s", "en", "leri", "ção", "ных"][rng.below(5)];
                    translated[rng.below(translated.len())].clone() + ending
                }
                // Since 2.5.0: a run without spaces glued from pieces of the table and a
                // character that opens none, for segmenting.
                8 => {
                    let mut run = String::new();
                    for _ in 0..1 + rng.below(3) {
                        run.push_str(unspaced[rng.below(unspaced.len())]);
                        if rng.below(3) == 0 {
                            run.push('の');
                        }
                    }
                    run
                }
                // A constraint phrase, from the lists both sides read (explore::reading).
                2 => CONSTRAINTS[rng.below(CONSTRAINTS.len())].to_owned(),
                // A typo, for the near spellings: one character of a word left out, or
                // two neighbours swapped.
                3 => {
                    let mut chars: Vec<char> = vocabulary[rng.below(vocabulary.len())].chars().collect();
                    let at = rng.below(chars.len());
                    if rng.below(2) == 0 && at + 1 < chars.len() {
                        chars.swap(at, at + 1);
                    } else {
                        chars.remove(at);
                    }
                    chars.into_iter().collect()
                }
                _ => vocabulary[rng.below(vocabulary.len())].clone(),
            };
            parts.push(if rng.below(5) == 0 { w.to_uppercase() } else { w });
        }
        let limit = match rng.below(5) {
            0 => json!("50"),
            1 => json!("3"),
            _ => Value::Null,
        };
        out.push(json!({"text": parts.join(if rng.below(3) == 0 { ", " } else { " " }), "limit": limit}));
    }
    out
}

/// The real 2025-12-31 items with synthetic counters (payers, calls, last call),
/// derived from each URL so the file is the same on every run.
fn with_synthetic_counters(dir: &Path) -> std::path::PathBuf {
    let mut snap = Snapshot::read(&repo_root().join("content/snapshots/2025-12-31.json")).unwrap();
    snap.header.date = "2026-01-07".into();
    snap.header.notes.push("synthetic counters for tests: derived from each URL, not observed".into());
    for item in &mut snap.items {
        let url = item["resource"].as_str().unwrap_or("").to_owned();
        let h = catalogue::hash::fnv1a32(&url) as u64;
        if h % 5 != 0 {
            item["quality"] = json!({
                "l30DaysUniquePayers": h % 40,
                "l30DaysTotalCalls": (h % 40) * (1 + h % 7),
                "lastCalledAt": format!("2026-01-{:02}T12:00:00Z", 1 + h % 7),
            });
        }
    }
    let path = dir.join("2026-01-07.json");
    fs::write(&path, snap.to_bytes()).unwrap();
    path
}

fn run_node(api: &Path, queries: &[Value], scratch: &Path) -> Vec<Value> {
    let file = scratch.join("explore-queries.json");
    fs::write(&file, serde_json::to_vec(queries).unwrap()).unwrap();
    let node = Command::new("node")
        .arg(repo_root().join("tests/js/run_explore.mjs"))
        .arg(api)
        .arg(&file)
        .output()
        .expect("node runs (checked by prerequisites::ready)");
    assert!(node.status.success(), "explore.js failed: {}", String::from_utf8_lossy(&node.stderr));
    serde_json::from_slice(&node.stdout).expect("explore.js prints a JSON array")
}

/// Queries made of words of withheld descriptions, one to three from one description:
/// explore, like the method, finds a resource by its withheld words (never shows them).
fn withheld_queries(rng: &mut Rng, index: &Index) -> Vec<Value> {
    let mut queries = Vec::new();
    for e in index.entries.iter().filter(|e| e.withheld.is_some()).take(40) {
        let words: Vec<&str> = e.description_haystack().split(' ').filter(|w| w.chars().count() >= 3).collect();
        if words.is_empty() {
            continue;
        }
        let text: Vec<&str> = (0..1 + rng.below(3)).map(|_| *rng.pick(&words)).collect();
        queries.push(json!({"text": text.join(" "), "limit": "50"}));
    }
    queries
}

/// Compares explore.js and Rust on `queries`; returns (answers with rows, answers the
/// re-rank reordered, rows with a withheld description).
fn compare(date: &str, index: &Index, api: &Path, queries: &[Value], scratch: &Path) -> (usize, usize, usize) {
    let method = Method::embedded();
    let table = VectorTable::embedded();
    let ex = Explore::build(index, table);
    let answers = run_node(api, queries, scratch);
    assert_eq!(answers.len(), queries.len());
    let (mut nonempty, mut nudged, mut withheld) = (0, 0, 0);
    for (q, js) in queries.iter().zip(&answers) {
        let rust = match Filters::parse(None, None, q["limit"].as_str()) {
            Ok(f) => {
                serde_json::to_value(explore(&ex, index, &method, table, q["text"].as_str().unwrap(), f.limit)).unwrap()
            }
            Err(e) => json!({"error": {"code": "INVALID_FILTER", "message": e.to_string()}}),
        };
        assert_eq!(js, &rust, "{date}: query {q} differs\n composer: {js:.2000}\n rust: {rust:.2000}");
        if let Some(rows) = rust["data"].as_array().filter(|d| !d.is_empty()) {
            nonempty += 1;
            withheld += rows.iter().filter(|r| !r["description_withheld"].is_null()).count();
            // A row placed ahead of a row with a better fused rank: the nudge acted.
            let fused: Vec<u64> = rows.iter().map(|r| r["ranks"]["fused"].as_u64().unwrap()).collect();
            if fused.windows(2).any(|w| w[0] > w[1]) {
                nudged += 1;
            }
        }
    }
    (nonempty, nudged, withheld)
}

/// Every test here runs explore.js under Node; without Node it skips, saying so.
fn node_ready() -> bool {
    prerequisites::ready("explore differential (static/explore.js under Node)", &[Need::Node])
}

#[test]
fn explore_js_and_rust_agree() {
    if !node_ready() {
        return;
    }
    let scratch = temp_dir("explore-differential");
    let out = scratch.join("public");
    let method = Method::embedded();
    let mut paths: Vec<_> =
        REAL_DATES.iter().map(|d| repo_root().join(format!("content/snapshots/{d}.json"))).collect();
    let synthetic_dir = scratch.join("synthetic");
    fs::create_dir_all(&synthetic_dir).unwrap();
    paths.push(with_synthetic_counters(&synthetic_dir));
    publish::build(&paths, &out, &method).unwrap();
    let indexes = method::index::indexes_with_history(&paths, &method).unwrap();
    let golden: Vec<Value> =
        GoldenSet::embedded().unwrap().queries.iter().map(|q| json!({"text": q.query, "limit": null})).collect();
    let (mut total_nonempty, mut total_withheld) = (0, 0);
    for (n, (path, index)) in paths.iter().zip(&indexes).enumerate() {
        let date = index.header.date.clone();
        let ex = Explore::build(index, VectorTable::embedded());
        let vocabulary: Vec<String> =
            ex.bm25.postings.iter().filter(|(_, p)| p.len() >= 2).map(|(t, _)| t.clone()).collect();
        let mut rng = Rng(0x51ED_2701_A5A5_0001 ^ (n as u64 + 1));
        let mut queries = golden.clone();
        queries.extend(generate(&mut rng, &vocabulary, 160));
        queries.extend(withheld_queries(&mut rng, index));
        let (nonempty, nudged, withheld) = compare(&date, index, &out.join(&date).join("api"), &queries, &scratch);
        total_nonempty += nonempty;
        total_withheld += withheld;
        if path.starts_with(&synthetic_dir) {
            assert!(nudged >= 10, "{date}: the priors reordered only {nudged} answers");
        }
    }
    assert!(total_nonempty >= 600, "only {total_nonempty} answers had rows");
    assert!(total_withheld >= 100, "only {total_withheld} withheld rows compared");
}

#[test]
fn explore_js_reports_a_missing_or_foreign_index_as_unavailable() {
    if !node_ready() {
        return;
    }
    let scratch = temp_dir("explore-unavailable");
    let out = scratch.join("public");
    publish::build(&[repo_root().join("content/snapshots/2026-08-20.json")], &out, &Method::embedded()).unwrap();
    let api = out.join("2026-08-20/api");
    let q = [json!({"text": "token balance", "limit": null})];
    assert!(run_node(&api, &q, &scratch)[0]["data"].as_array().is_some_and(|d| !d.is_empty()));
    let manifest = api.join("explore/manifest.json");
    let text = fs::read_to_string(&manifest).unwrap();
    fs::write(&manifest, text.replace(&format!("\"version\":\"{EXPLORE_VERSION}\""), "\"version\":\"9.0.0\"")).unwrap();
    assert_eq!(run_node(&api, &q, &scratch)[0]["error"]["code"], "SOURCE_UNAVAILABLE");
    fs::remove_file(&manifest).unwrap();
    assert_eq!(run_node(&api, &q, &scratch)[0]["error"]["code"], "SOURCE_UNAVAILABLE");
}
