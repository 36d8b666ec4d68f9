//! The Python client of clients/python/, written from the published format page alone
//! (docs/static-api.md, `/static-api/5/`; written against layout 3), against
//! `x402dir query --json` (issue 18): a
//! site is built from the embedded snapshots, a fixed-seed generator makes queries over
//! every snapshot (words of published and withheld descriptions, case and punctuation
//! variants, non-Latin words, 0 to 10 words, valid and invalid filters), the client
//! answers each snapshot's queries in one process from the built folder, the command
//! line answers each query, and the two must be equal as parsed JSON (answer or error,
//! and exit status).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::{json, Value};

use crate::common::prerequisites::{ready, Need};
use crate::common::{repo_root, temp_dir, REAL_DATES};

/// Generated queries per snapshot: 3 × 100, plus the fixed ones of `edge_cases`.
const PER_SNAPSHOT: usize = 100;

/// A small fixed-seed generator (splitmix64): the same queries on every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// One query: its words (the command line joins them with one space) and its filters.
#[derive(Clone, Debug, Default)]
struct Query {
    words: Vec<String>,
    max_price: Option<String>,
    network: Option<String>,
    exclude_testnets: bool,
    answered_402: bool,
    limit: Option<String>,
    offset: Option<String>,
    /// Whether a word of a withheld description went into it.
    withheld_word: bool,
}

impl Query {
    fn text(&self) -> String {
        self.words.join(" ")
    }
    fn to_json(&self) -> Value {
        json!({
            "text": self.text(),
            "max_price": self.max_price,
            "network": self.network,
            "exclude_testnets": self.exclude_testnets,
            "answered_402": self.answered_402,
            "limit": self.limit,
            "offset": self.offset,
        })
    }
    fn cli_args(&self, snapshot: &Path) -> Vec<String> {
        let mut args = vec!["query".to_owned(), "--json".to_owned(), format!("--snapshot={}", snapshot.display())];
        if let Some(v) = &self.max_price {
            args.push(format!("--max-price={v}"));
        }
        if let Some(v) = &self.network {
            args.push(format!("--network={v}"));
        }
        if self.exclude_testnets {
            args.push("--exclude-testnets".into());
        }
        if self.answered_402 {
            args.push("--answered-402".into());
        }
        if let Some(v) = &self.limit {
            args.push(format!("--limit={v}"));
        }
        if let Some(v) = &self.offset {
            args.push(format!("--offset={v}"));
        }
        args.push("--".into());
        args.extend(self.words.iter().cloned());
        args
    }
}

/// The words (split at every non-alphanumeric character) of a text.
fn words_of(text: &str, into: &mut Vec<String>) {
    for w in text.split(|c: char| !c.is_alphanumeric()) {
        if w.chars().count() >= 2 && !into.iter().any(|x| x == w) {
            into.push(w.to_owned());
        }
    }
}

/// The raw descriptions of a snapshot item: its own and those of its payment options.
fn descriptions(item: &Value) -> Vec<&str> {
    let mut out: Vec<&str> = item["description"].as_str().into_iter().collect();
    if let Some(accepts) = item["accepts"].as_array() {
        out.extend(accepts.iter().filter_map(|a| a["description"].as_str()));
    }
    out
}

/// The words of each item's descriptions and URL, and the same for the items whose
/// description is withheld (report.json names them; the snapshot file has the text).
fn word_pools(snapshot: &Path, report: &Path) -> (Vec<Vec<String>>, Vec<Vec<String>>) {
    let snap: Value = serde_json::from_str(&std::fs::read_to_string(snapshot).unwrap()).unwrap();
    let report: Value = serde_json::from_str(&std::fs::read_to_string(report).unwrap()).unwrap();
    let withheld: BTreeSet<&str> =
        report["withheld"].as_array().unwrap().iter().map(|w| w["resource"].as_str().unwrap()).collect();
    let (mut all, mut hidden) = (Vec::new(), Vec::new());
    for item in snap["items"].as_array().unwrap() {
        let resource = item["resource"].as_str().unwrap_or("");
        let mut words = Vec::new();
        for d in descriptions(item) {
            words_of(d, &mut words);
        }
        words_of(resource, &mut words);
        if words.is_empty() {
            continue;
        }
        if withheld.contains(resource) {
            hidden.push(words.clone());
        }
        all.push(words);
    }
    (all, hidden)
}

const NON_LATIN: [&str; 16] = [
    "天气",
    "天",
    "ΟΔΟΣ",
    "οδος",
    "Straße",
    "STRASSE",
    "İstanbul",
    "istanbul",
    "погода",
    "طقس",
    "🌦️",
    "ＡＰＩ",
    "σίσυφος",
    "ΣΊΣΥΦΟΣ",
    "ﬁnance",
    "STRAẞE",
];
const MAX_PRICES: [&str; 16] = [
    "$0.01",
    "0.01 USD",
    "0.01",
    "0.005usdc",
    "1",
    ".5",
    "0.0030$",
    "007",
    "0.001",
    "100",
    "-1",
    "1e3",
    "5.",
    "1,5",
    "$1$",
    "",
];
const NETWORKS: [&str; 13] = [
    "Base",
    "base-sepolia",
    "eip155:8453",
    "basee",
    "",
    "BASE SEPOLIA",
    " solana ",
    "Solana Devnet",
    "eip155:84532",
    "polygon",
    "ba\tse\u{7}",
    "Ethereum",
    "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
];
const LIMITS: [&str; 7] = ["1", "50", "0", "51", "050", "5 ", "3"];
const OFFSETS: [&str; 6] = ["0", "10", "1000001", "1", "3", "x"];

/// A word as a person might type it: case and punctuation variants.
fn variant(rng: &mut Rng, word: &str) -> String {
    let w = match rng.below(6) {
        0 => word.to_uppercase(),
        1 => {
            let mut c = word.chars();
            c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
        }
        _ => word.to_owned(),
    };
    match rng.below(8) {
        0 => format!("{w},"),
        1 => format!("({w})"),
        2 => format!("{w}!?"),
        3 => format!("\"{w}\""),
        _ => w,
    }
}

fn generate(rng: &mut Rng, all: &[Vec<String>], hidden: &[Vec<String>]) -> Query {
    let mut q = Query::default();
    // Most words come from one item, so that they occur together and the query matches.
    let item = if !hidden.is_empty() && rng.chance(20) {
        q.withheld_word = true;
        rng.pick(hidden)
    } else {
        rng.pick(all)
    };
    let n = if rng.chance(40) { 1 + rng.below(2) } else { rng.below(11) };
    for _ in 0..n {
        let roll = rng.below(100);
        let word = if roll < 12 {
            (*rng.pick(&NON_LATIN)).to_owned()
        } else if roll < 17 {
            (*rng.pick(&["a", "x", "API", "the", "-", "weather-api", "v2"])).to_owned()
        } else if roll < 27 {
            let other = rng.pick(all);
            rng.pick(other).clone()
        } else {
            rng.pick(item).clone()
        };
        q.words.push(variant(rng, &word));
    }
    if rng.chance(25) {
        q.max_price = Some((*rng.pick(&MAX_PRICES)).to_owned());
    }
    if rng.chance(20) {
        q.network = Some((*rng.pick(&NETWORKS)).to_owned());
    }
    q.exclude_testnets = rng.chance(20);
    q.answered_402 = rng.chance(20);
    if rng.chance(25) {
        q.limit = Some((*rng.pick(&LIMITS)).to_owned());
    }
    if rng.chance(15) {
        q.offset = Some((*rng.pick(&OFFSETS)).to_owned());
    }
    q
}

/// Fixed queries at the edges the format page describes: the trimming and suffixes of
/// `max_price`, its digit limits, spelling keys of networks, quoting of odd code points in
/// error messages, and lower-casing that is not one code point to one.
fn edge_cases(date: &str) -> Vec<Query> {
    let q = |text: &str| Query { words: text.split(' ').map(str::to_owned).collect(), ..Query::default() };
    let mut out = Vec::new();
    let prices: &[&str] = if date == "2025-12-31" {
        &[
            "0.000",
            "  $ 0.5 ",
            "5usd",
            "5 USDC",
            "USDC",
            ".",
            "$",
            "0.111111111111111111",
            "0.1111111111111111111",
            "111111111111.111111111111111111",
            "1111111111111.111111111111111111",
            "$5$",
            "\t0.01\n",
            "0x10",
            "\u{ff11}",
            "5usdusd",
            "+1",
            "00000.00100",
        ]
    } else {
        &["0.003", "$0.0030"]
    };
    for p in prices {
        out.push(Query { max_price: Some((*p).to_owned()), ..q("weather") });
    }
    let networks: &[&str] = if date == "2025-12-31" {
        &[
            "\u{200b}",
            "e\u{301}",
            "a\u{ad}b",
            "x\u{2028}y",
            "\u{3000}base",
            "base\u{a0}",
            "'\"\\",
            "\u{e0001}",
            "\u{b3e}",
            "\u{1d165}",
            "BASE__SEPOLIA",
            "-base-",
            "EIP155:8453",
            "solana devnet",
            "Solana_Devnet",
            "İstanbul",
        ]
    } else {
        &["Base Sepolia", "basee", "solana", "base"]
    };
    for n in networks {
        out.push(Query { network: Some((*n).to_owned()), ..q("api") });
    }
    // Only 2025-12-31 is probed: there the filter keeps what answered 402, elsewhere it
    // is an error naming the date.
    for text in ["", "api", "weather", "token", "data", "image", "price", "ai", "x402", "search", "agent", "crypto"] {
        out.push(Query { answered_402: true, ..q(text) });
    }
    out.push(Query { answered_402: true, offset: Some("3".into()), network: Some("base".into()), ..q("") });
    if date == "2025-12-31" {
        for v in ["\u{ff11}", "\u{665}", "010", "001", ""] {
            out.push(Query { limit: Some(v.to_owned()), ..q("api") });
            out.push(Query { offset: Some(v.to_owned()), ..q("api") });
        }
        for t in [
            "İSTANBUL ıstanbul",
            "ǅ ǆ ǈ",
            "ΣΑΣ σας",
            "Ⅻ ⅻ",
            "ﬃ ﬀ",
            "ß ẞ",
            "ＡＰＩ api",
            "a b c d e f g h i j k l m n",
            "one two three four five six seven eight nine ten eleven",
            "x402 x402 X402",
            "\u{345}\u{399} test",
            "データ 数据 데이터",
        ] {
            out.push(q(t));
        }
    }
    out
}

/// The command line's answer: its exit status and its printed JSON.
fn oracle(snapshot: &Path, q: &Query) -> (i64, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_x402dir"))
        .args(q.cli_args(snapshot))
        .current_dir(repo_root())
        .output()
        .expect("x402dir runs");
    let printed: Value = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("x402dir {:?} printed no JSON ({e}): {}", q, String::from_utf8_lossy(&out.stderr)));
    (i64::from(out.status.code().expect("x402dir exited")), printed)
}

/// The Python client's answers to every query of one snapshot, from one process.
fn python(api: &Path, queries: &[Query], scratch: &Path) -> Vec<(i64, Value)> {
    let batch = scratch.join("queries.json");
    let list: Vec<Value> = queries.iter().map(Query::to_json).collect();
    std::fs::write(&batch, serde_json::to_vec(&list).unwrap()).unwrap();
    let out = Command::new("python3")
        .arg(repo_root().join("clients/python/x402dir_client.py"))
        .arg("--api")
        .arg(api)
        .arg("--batch")
        .arg(&batch)
        .output()
        .expect("python3 runs");
    assert!(out.status.success(), "the Python client failed: {}", String::from_utf8_lossy(&out.stderr));
    let results: Vec<Value> = serde_json::from_slice(&out.stdout).expect("the client prints a JSON list");
    assert_eq!(results.len(), queries.len());
    results.into_iter().map(|r| (r["exit"].as_i64().unwrap(), r["output"].clone())).collect()
}

/// The site of the real snapshots, stored under `dir/snapshots/`, that of 2025-12-31
/// probed (a synthetic probe file beside it): the stored snapshots' paths, by date.
fn build_site(dir: &Path, out: &Path) -> Vec<PathBuf> {
    let method = method::Method::embedded();
    let paths: Vec<PathBuf> = REAL_DATES
        .iter()
        .map(|d| crate::common::real_snapshot(d).write_into(&dir.join("snapshots"), false).unwrap())
        .collect();
    let probed = method::index::Index::read(&paths[1], &method).unwrap();
    crate::common::probes::write_beside(&paths[1], &crate::common::probes::synthetic_probe(&probed, 0x1402));
    publish::build(&paths, out, &method).expect("the site builds");
    paths
}

#[test]
fn the_python_client_answers_as_the_command_line_does() {
    if !ready("python_client", &[Need::Python3]) {
        return;
    }
    let scratch = temp_dir("python-client");
    let site = scratch.join("site");
    let stored = build_site(&scratch, &site);

    let mut rng = Rng(0x1802_2026);
    let (mut compared, mut nonempty, mut withheld_rows, mut errors, mut non_latin) = (0, 0, 0, 0, 0);
    let (mut withheld_queries, mut answered_402) = (0, 0);
    let mut failures = Vec::new();
    for (date, snapshot) in REAL_DATES.iter().zip(&stored) {
        let api = site.join(date).join("api");
        let (all, hidden) = word_pools(snapshot, &api.join("report.json"));
        let mut queries: Vec<Query> = (0..PER_SNAPSHOT).map(|_| generate(&mut rng, &all, &hidden)).collect();
        queries.extend(edge_cases(date));
        let theirs = python(&api, &queries, &scratch);
        // The command line, on two threads (one process per query).
        let ours: Vec<(i64, Value)> = std::thread::scope(|s| {
            let half = queries.len() / 2;
            let (a, b) = queries.split_at(half);
            let snapshot = &snapshot;
            let first = s.spawn(move || a.iter().map(|q| oracle(snapshot, q)).collect::<Vec<_>>());
            let second = s.spawn(move || b.iter().map(|q| oracle(snapshot, q)).collect::<Vec<_>>());
            let mut all = first.join().unwrap();
            all.extend(second.join().unwrap());
            all
        });
        for ((q, want), got) in queries.iter().zip(&ours).zip(&theirs) {
            compared += 1;
            if want != got {
                failures.push(format!(
                    "{date} {:?}\n  x402dir (exit {}): {}\n  python  (exit {}): {}",
                    q, want.0, want.1, got.0, got.1
                ));
                continue;
            }
            let rows = want.1["data"].as_array().map_or(&[][..], Vec::as_slice);
            if !rows.is_empty() {
                nonempty += 1;
            }
            withheld_rows += rows.iter().filter(|r| !r["description_withheld"].is_null()).count();
            if want.1.get("error").is_some() {
                errors += 1;
            }
            if q.words.iter().any(|w| NON_LATIN.iter().any(|n| w.contains(n))) {
                non_latin += 1;
            }
            if q.withheld_word {
                withheld_queries += 1;
            }
            if q.answered_402 && !rows.is_empty() {
                answered_402 += 1;
            }
        }
    }
    eprintln!(
        "python_client: {compared} compared, {} differ; {nonempty} with rows, {withheld_rows} withheld rows, \
         {withheld_queries} queries with a withheld description's words, {errors} errors, {non_latin} non-Latin",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {compared} queries differ; the first:\n{}",
        failures.len(),
        failures.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(compared >= 300, "only {compared} queries compared");
    assert!(nonempty >= 100, "only {nonempty} of {compared} answers had rows");
    assert!(withheld_rows >= 5, "only {withheld_rows} rows had a withheld description");
    assert!(withheld_queries >= 10, "only {withheld_queries} queries held a withheld description's word");
    assert!(errors >= 20, "only {errors} queries were errors");
    assert!(non_latin >= 30, "only {non_latin} queries held a non-Latin word");
    assert!(answered_402 >= 10, "only {answered_402} answered_402 queries had rows");
    let _ = std::fs::remove_dir_all(&scratch);
}

/// The client's word cut (its `Chars`, read from a built chars.js) against Rust's, for
/// every code point alone and for the Greek, German and ligature cases of method 1.4.0.
#[test]
fn the_python_client_cuts_words_as_rust_does_for_every_code_point() {
    if !ready("python_client", &[Need::Python3]) {
        return;
    }
    let scratch = temp_dir("python-client-words");
    let chars_js = repo_root().join("static/chars.js");
    let texts = ["ΣΊΣΥΦΟΣ σίσυφος", "Straße STRAẞE strasse", "ﬁnance", "İstanbul"];
    let script = format!(
        r#"
import sys
sys.path.insert(0, {client:?})
import x402dir_client as c
chars = c.Chars(open({chars:?}, encoding="utf-8").read())
out = []
for cp in range(0x110000):
    if 0xD800 <= cp <= 0xDFFF:
        continue
    out.append(" ".join(chars.words(chr(cp))))
for t in {texts:?}:
    out.append(" ".join(chars.words(t)))
sys.stdout.buffer.write("\n".join(out).encode("utf-8", "surrogatepass"))
"#,
        client = repo_root().join("clients/python").display().to_string(),
        chars = chars_js.display().to_string(),
        texts = texts.map(str::to_owned),
    );
    let file = scratch.join("words.py");
    std::fs::write(&file, script).unwrap();
    let run = std::process::Command::new("python3").arg(&file).output().unwrap();
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = String::from_utf8(run.stdout).unwrap();
    let mut lines = text.split('\n');
    for c in (0..=0x10FFFFu32).filter_map(char::from_u32) {
        let rust = method::normalise::words(c.encode_utf8(&mut [0; 4])).join(" ");
        assert_eq!(lines.next(), Some(rust.as_str()), "U+{:04X}", c as u32);
    }
    let greek: Vec<&str> = texts.iter().map(|_| lines.next().unwrap()).collect();
    assert_eq!(greek, ["σίσυφοσ σίσυφοσ", "strasse strasse strasse", "finance", "i stanbul"]);
    assert_eq!(lines.next(), None);
}
