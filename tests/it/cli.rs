//! The `x402dir` binary: exit codes, errors and output, run as a user would.

use std::fs;
use std::process::{Command, Output};

use crate::common::{repo_root, temp_dir};
use serde_json::Value;

fn x402dir(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_x402dir")).args(args).current_dir(repo_root()).output().expect("binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn every_subcommand_has_help() {
    for sub in [
        &["--help"][..],
        &["query", "--help"],
        &["import", "--help"],
        &["build", "--help"],
        &["fetch", "--help"],
        &["serve", "--help"],
        &["mcp", "--help"],
        &["probe", "--help"],
    ] {
        let o = x402dir(sub);
        assert!(o.status.success(), "{sub:?}");
        assert!(stdout(&o).contains("Usage:"), "{sub:?}");
    }
}

#[test]
fn query_json_answers_from_the_newest_complete_snapshot() {
    // Worked out here from the stored headers, so that it holds when the weekly run adds a
    // snapshot: the newest whose walk was complete, never a newer partial one such as
    // 2026-08-20 (content/method.md#limits).
    let mut complete: Vec<String> = fs::read_dir(repo_root().join("content/snapshots"))
        .unwrap()
        .filter_map(|e| {
            let path = e.unwrap().path();
            let name = path.file_name()?.to_str()?.strip_suffix(".json")?.to_owned();
            catalogue::snapshot::read_header(&path).ok().filter(|h| h.complete).map(|_| name)
        })
        .collect();
    complete.sort();
    let newest_complete = complete.last().expect("a complete snapshot is stored");
    assert!(complete.iter().any(|d| d == "2025-12-31") && newest_complete != "2026-08-20");
    let o = x402dir(&["query", "--json", "ethereum"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["meta"]["snapshot"]["date"], newest_complete.as_str());
    assert_eq!(v["meta"]["snapshot"]["complete"], true);

    // The answer's shape, from the 2025-12-31 snapshot (which has no usage counters).
    let o = x402dir(&["query", "--json", "--snapshot", "content/snapshots/2025-12-31.json", "ethereum"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["meta"]["snapshot"]["usage_counters"], false);
    assert_eq!(v["meta"]["snapshot"]["notices"], serde_json::json!([method::answer::NO_USAGE_COUNTERS]));
    assert_eq!(v["meta"]["method"]["version"], method::DISCOVERY_METHOD_VERSION);
    assert_eq!(v["meta"]["query"]["tokens"], serde_json::json!(["ethereum"]));
    assert_eq!(v["meta"]["limits"].as_array().unwrap().len(), 3);
    let data = v["data"].as_array().unwrap();
    assert_eq!(v["meta"]["returned"].as_u64().unwrap() as usize, data.len());
    assert!(v["meta"]["total_matched"].as_u64().unwrap() >= data.len() as u64);
    for row in data {
        for key in [
            "resource",
            "match_score",
            "unique_payers_30d",
            "calls_30d",
            "calls_per_payer",
            "days_since_last_call",
            "description",
            "description_withheld",
        ] {
            assert!(row.get(key).is_some(), "missing {key}");
        }
    }
}

#[test]
fn a_query_that_matches_nothing_is_a_success_with_the_rule() {
    let o = x402dir(&["query", "--json", "zzqqxxnotaword"]);
    assert_eq!(o.status.code(), Some(0));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["data"], serde_json::json!([]));
    assert_eq!(v["meta"]["total_matched"], 0);
    assert!(v["meta"]["query"]["rule"].as_str().unwrap().contains("zzqqxxnotaword"));
    let o = x402dir(&["query", "zzqqxxnotaword"]);
    assert!(stdout(&o).contains("No resource matches this rule"));
}

#[test]
fn no_snapshot_is_source_unavailable_with_exit_3() {
    let empty = temp_dir("cli-empty");
    let o = x402dir(&["query", "--snapshots-dir", empty.to_str().unwrap(), "weather"]);
    assert_eq!(o.status.code(), Some(3));
    let err = stderr(&o);
    assert!(err.starts_with("error: SOURCE_UNAVAILABLE"), "{err}");
    assert!(err.contains("x402dir fetch") && err.contains("import"), "says what would fix it: {err}");
    assert_eq!(err.lines().count(), 1, "one-line error");
    let o = x402dir(&["query", "--json", "--snapshot", "/nonexistent/2025-01-01.json", "weather"]);
    assert_eq!(o.status.code(), Some(3));
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["error"]["code"], "SOURCE_UNAVAILABLE");
    assert!(v["error"]["message"].as_str().unwrap().contains("does not exist"));
    assert!(v["error"]["fix"].as_str().unwrap().contains("--snapshot"));
}

#[test]
fn bad_filter_values_are_clear_errors_not_clamped() {
    for (args, needle) in [
        (&["query", "--limit", "0", "x"][..], "limit"),
        (&["query", "--limit", "51", "x"], "limit"),
        (&["query", "--limit", "abc", "x"], "limit"),
        (&["query", "--max-price", "-1", "x"], "max_price"),
        (&["query", "--max-price", "1e-3", "x"], "max_price"),
        (&["query", "--network", "base\u{7}", "x"], "network"),
        (&["query", "--offset", "-1", "x"], "offset"),
    ] {
        let o = x402dir(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.starts_with("error: invalid ") && err.contains(needle), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1);
    }
    // A network no listing names and the table lacks: refused with the ones it could be.
    let o = x402dir(&["query", "--network", "Base Mainnet", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o).trim_end(),
        "error: unknown network \"Base Mainnet\": the networks in this snapshot are Base (eip155:8453), Base Sepolia \
         (eip155:84532, testnet), Solana (solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp); give a name, legacy name or CAIP-2 id"
    );
}

#[test]
fn import_writes_a_snapshot_and_refuses_to_clobber() {
    let dir = temp_dir("cli-import");
    let dump = repo_root().join("tests/fixtures/catalogue/cdp-discovery-page_2026-08-20_agentcount.json");
    let d = dir.to_str().unwrap();
    let o = x402dir(&["import", dump.to_str().unwrap(), "--date", "2026-08-20", "--dir", d]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("imported 20 items"));
    let before = std::fs::read(dir.join("2026-08-20.json")).unwrap();
    let o = x402dir(&["import", dump.to_str().unwrap(), "--date", "2026-08-20", "--dir", d]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--force"));
    assert_eq!(std::fs::read(dir.join("2026-08-20.json")).unwrap(), before);
    // A bad input loses nothing and says what is wrong.
    let junk = dir.join("junk.json");
    std::fs::write(&junk, "{\"items\": [").unwrap();
    let o = x402dir(&["import", junk.to_str().unwrap(), "--date", "2026-08-21", "--dir", d]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("not valid JSON"));
    assert!(!dir.join("2026-08-21.json").exists());
    let o = x402dir(&["import", dump.to_str().unwrap(), "--date", "2026-02-30", "--dir", d]);
    assert!(stderr(&o).contains("YYYY-MM-DD"));
    // And the imported snapshot answers queries.
    let o = x402dir(&["query", "--json", "--snapshots-dir", d, "ens"]);
    let v: Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert!(v["meta"]["total_matched"].as_u64().unwrap() > 0);
}

#[test]
fn terminal_output_states_limits_rule_and_counts() {
    let o = x402dir(&["query", "--snapshot", "content/snapshots/2025-12-31.json", "weather"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.contains("snapshot 2025-12-31"));
    assert!(out.contains("rule: every token (\"weather\")"));
    assert!(out.contains("limit 1: The catalogue counts only payments settled through it"));
    assert!(out.contains("matched "));
    assert!(!out.contains('\u{1b}'), "no raw escape characters from catalogue text");
}

#[test]
fn synth_writes_a_marked_reproducible_snapshot_and_never_among_the_real_ones() {
    let dir = temp_dir("cli-synth");
    let run = |sub: &str| {
        x402dir(&[
            "synth",
            "--items",
            "400",
            "--seed",
            "3",
            "--date",
            "2026-11-30",
            "--force",
            "--dir",
            dir.join(sub).to_str().unwrap(),
        ])
    };
    let (a, b) = (run("a"), run("b"));
    assert!(a.status.success() && b.status.success(), "{}", stderr(&a));
    let bytes = |sub: &str| std::fs::read(dir.join(sub).join("2026-11-30.json")).unwrap();
    assert_eq!(bytes("a"), bytes("b"), "same seed, same bytes");
    let snap = catalogue::snapshot::Snapshot::read(&dir.join("a/2026-11-30.json")).unwrap();
    assert_eq!(snap.items.len(), 400);
    assert_eq!(snap.header.source.via, "synth");
    assert!(snap.header.notes[0].starts_with("SYNTHETIC"));
    // Every URL distinct, every item readable, counters present.
    let urls: std::collections::HashSet<&str> = snap.items.iter().map(|i| i["resource"].as_str().unwrap()).collect();
    assert_eq!(urls.len(), 400);
    assert!(snap.items.iter().all(|i| i["quality"]["l30DaysUniquePayers"].is_u64()));
    // It answers queries like any snapshot.
    let o = x402dir(&["query", "--json", "--snapshot", dir.join("a/2026-11-30.json").to_str().unwrap(), "api"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Written among the real snapshots, it would be built into the real site: refused.
    let o = x402dir(&["synth", "--items", "10", "--dir", "content/snapshots"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("among the real ones"), "{}", stderr(&o));
}

/// A probed snapshot: each row says under its description what the probe saw and, for a
/// live 402 that asks otherwise, both terms, with the live answer's text made printable
/// (a live 402 is foreign text: its payTo may carry escape sequences).
#[test]
fn terminal_rows_say_what_the_probe_saw() {
    use method::probe::{Live, Offered, Outcome};
    let dir = temp_dir("cli-probed");
    let snapshot = crate::common::real_snapshot("2025-12-31").write_into(&dir.join("snapshots"), false).unwrap();
    let index = method::index::Index::read(&snapshot, &method::Method::embedded()).unwrap();
    let mut probe = crate::common::probes::synthetic_probe(&index, 3);
    let url = "https://api.x402app.org/weather";
    let r = probe.results.iter_mut().find(|r| r.resource == url).unwrap();
    (r.outcome, r.status, r.failure, r.ms_to_first_byte, r.x402_version) =
        (Outcome::Terms, Some(402), None, Some(230), Some(2));
    r.terms = vec![method::probe::Term {
        scheme: Some("exact".into()),
        network: Some("base".into()),
        asset: Some("0xUSDC".into()),
        amount: Some("1000".into()),
        pay_to: Some("0xListed".into()),
        live: Live::Other,
        offered: Some(Offered { amount: Some("1000".into()), pay_to: Some("0xLive\u{1b}[2J\u{202e}".into()) }),
    }];
    crate::common::probes::write_beside(&snapshot, &probe);
    let o = x402dir(&["query", "--snapshot", snapshot.to_str().unwrap(), "--limit", "50", "weather"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let row = out.lines().position(|l| l.ends_with(url)).unwrap_or_else(|| panic!("{out}"));
    let lines: Vec<&str> = out.lines().skip(row + 2).take(2).map(str::trim).collect();
    assert_eq!(lines[0], "Probed 2026-12-07 06:31 UTC: answered 402 in 230 ms; its terms differ from the listing's.");
    assert_eq!(
        lines[1],
        "exact on base, asset 0xUSDC: the live 402 asks 1000 atomic units to 0xLive\u{fffd}[2J\u{fffd}; the listing says \
         1000 atomic units to 0xListed"
    );
    assert!(!out.contains('\u{1b}') && !out.contains('\u{202e}'));
    // Every row of a probed snapshot says it; a snapshot not probed says nothing of it.
    let shown: usize = out.lines().find_map(|l| l.split("showing ").nth(1)).unwrap().trim().parse().unwrap();
    assert_eq!(out.lines().filter(|l| l.trim_start().starts_with("Probed 2026-12-07")).count(), shown);
    let plain = stdout(&x402dir(&["query", "--snapshot", "content/snapshots/2025-12-31.json", "weather"]));
    assert!(!plain.contains("Probed"));
}

#[test]
fn vocabulary_counts_the_documents_that_hold_each_word() {
    // Made-up words, so the counts are known by hand: "zebracorn" in two listings (twice
    // in one, counted once), "quaggafish" in one.
    let dir = temp_dir("cli-vocabulary");
    let fixture = repo_root().join("tests/fixtures/catalogue/cdp-discovery-page_2026-08-20_agentcount.json");
    let mut dump: Value = serde_json::from_slice(&fs::read(fixture).unwrap()).unwrap();
    let items = dump["items"].as_array_mut().unwrap();
    items.truncate(3);
    items[0]["description"] = "zebracorn prices, zebracorn alerts".into();
    items[1]["description"] = "a zebracorn feed".into();
    items[2]["description"] = "quaggafish sightings".into();
    let page = dir.join("page.json");
    fs::write(&page, serde_json::to_vec(&dump).unwrap()).unwrap();
    let snapshots = dir.join("snapshots");
    let o = x402dir(&["import", page.to_str().unwrap(), "--date", "2026-08-20", "--dir", snapshots.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let d = snapshots.to_str().unwrap();
    let counted = stdout(&x402dir(&["vocabulary", "--documents", "--snapshots-dir", d]));
    let count = |word: &str| counted.lines().find_map(|l| l.strip_prefix(&format!("{word}\t"))).map(str::to_owned);
    assert_eq!(count("zebracorn").as_deref(), Some("2"), "{counted}");
    assert_eq!(count("quaggafish").as_deref(), Some("1"));
    assert_eq!(count("sightings").as_deref(), Some("1"));
    // The same words, in the same order, as the plain list the vector table is made from.
    let words = stdout(&x402dir(&["vocabulary", "--snapshots-dir", d]));
    let first_column: String = counted.lines().map(|l| l.split('\t').next().unwrap().to_owned() + "\n").collect();
    assert_eq!(first_column, words);
    assert!(words.lines().count() > 5);
}
