//! content/method.md#counters, end to end: a hand-written dump with bad `quality`
//! counters (tests/fixtures/counters/dump.json) is imported and built with the binary, as
//! a user would. A bad counter is `null` in every answer (query --json, the API records,
//! the resource's page) and is listed as a dropped field with its reason (report.json,
//! the report page, the resource's page); good counters beside it are published as sent.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::{repo_root, temp_dir, verdicts, TempDir};
use serde_json::{json, Value};

const DATE: &str = "2026-03-10";
const COUNT: &str = "expected a non-negative whole JSON number, found";
const TIME: &str = "expected an RFC 3339 time or epoch milliseconds, found";

fn x402dir(args: &[&str]) -> Output {
    let o =
        Command::new(env!("CARGO_BIN_EXE_x402dir")).args(args).current_dir(repo_root()).output().expect("binary runs");
    assert!(o.status.success(), "{args:?}: {}", String::from_utf8_lossy(&o.stderr));
    o
}

/// The dump imported as a snapshot and built into a site: (snapshot, site root).
fn imported_and_built(name: &str) -> (TempDir, PathBuf, PathBuf) {
    let dir = temp_dir(name);
    let dump = repo_root().join("tests/fixtures/counters/dump.json");
    let snapshots = dir.join("snapshots");
    x402dir(&["import", dump.to_str().unwrap(), "--date", DATE, "--dir", snapshots.to_str().unwrap()]);
    let snapshot = snapshots.join(format!("{DATE}.json"));
    let out = dir.join("public");
    x402dir(&["build", "--snapshot", snapshot.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    (dir, snapshot, out)
}

fn json_file(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

/// The fixture's case names (the last part of each URL), in dump order.
fn url(case: &str) -> String {
    format!("https://counters.example/{case}")
}

/// One case of the fixture: its name (the end of its URL), what it must publish as
/// (calls_30d, unique_payers_30d, calls_per_payer, days_since_last_call), and the drops
/// it must report as (field, reason).
type Case = (&'static str, [Value; 4], Vec<(&'static str, String)>);

fn expected() -> Vec<Case> {
    let calls = "quality.l30DaysTotalCalls";
    let payers = "quality.l30DaysUniquePayers";
    let at = "quality.lastCalledAt";
    let n = Value::Null;
    vec![
        ("good", [json!(670), json!(668), json!(1.003), json!(1)], vec![]),
        ("text", [n.clone(), json!(5), n.clone(), n.clone()], vec![(calls, format!(r#"{COUNT} text "12""#))]),
        (
            "negative",
            [json!(40), n.clone(), n.clone(), n.clone()],
            vec![(payers, format!("{COUNT} -3, which is negative"))],
        ),
        (
            "fraction",
            [n.clone(), json!(2), n.clone(), n.clone()],
            vec![(calls, format!("{COUNT} 2.5, which is not a whole number"))],
        ),
        (
            "huge",
            [n.clone(), json!(7), n.clone(), n.clone()],
            vec![(calls, format!("{COUNT} 1e+400, which is larger than 18446744073709551615"))],
        ),
        ("boolean", [json!(9), n.clone(), n.clone(), n.clone()], vec![(payers, format!("{COUNT} true"))]),
        ("object", [n.clone(), json!(3), n.clone(), n.clone()], vec![(calls, format!("{COUNT} an object"))]),
        // Whole JSON numbers written another way: published as their values.
        ("whole-forms", [json!(12), json!(1000), json!(0.012), json!(1)], vec![]),
        (
            "time-negative",
            [json!(3), json!(3), json!(1), n.clone()],
            vec![(at, format!("{TIME} -1773050400000, which is negative"))],
        ),
        (
            "time-fraction",
            [json!(3), json!(3), json!(1), n.clone()],
            vec![(at, format!("{TIME} 1773050400000.5, which is not a whole number"))],
        ),
        (
            "time-text",
            [json!(3), json!(3), json!(1), n.clone()],
            vec![(at, format!(r#"{TIME} text "last tuesday", which is not an RFC 3339 time"#))],
        ),
        // Missing or null: no reading, and nothing dropped.
        ("missing", [n.clone(), n.clone(), n.clone(), n.clone()], vec![]),
        ("null", [n.clone(), n.clone(), n.clone(), n.clone()], vec![]),
    ]
}

const FIGURES: [&str; 4] = ["calls_30d", "unique_payers_30d", "calls_per_payer", "days_since_last_call"];

/// Rows keyed by their `resource`.
fn by_resource(rows: &[Value]) -> BTreeMap<String, Value> {
    rows.iter().map(|r| (r["resource"].as_str().unwrap().to_owned(), r.clone())).collect()
}

fn check_figures(rows: &BTreeMap<String, Value>, surface: &str) {
    for (case, figures, _) in expected() {
        let row = rows.get(&url(case)).unwrap_or_else(|| panic!("{surface}: no row for {case}"));
        for (name, want) in FIGURES.iter().zip(&figures) {
            // Present as a key, null or not: a missing figure is `null`, never left out.
            assert_eq!(row.get(*name), Some(want), "{surface}: {case}.{name}");
        }
    }
}

/// The text of a page with its markup removed and the entities askama writes decoded.
fn page_text(html: &str) -> String {
    let mut text = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    crate::common::html::unescape(&text)
}

/// The value shown beside a figure's name in a resource page's table of figures.
fn figure_on_page(html: &str, name: &str) -> String {
    // The row that names the field (beside its definition), and its Value cell.
    let at = html.find(&format!("(<code>{name}</code>)")).unwrap_or_else(|| panic!("no figure {name}"));
    let row = &html[html[..at].rfind("<tr").unwrap()..];
    let cell = &row[row.find(r#"data-label="Value">"#).unwrap() + r#"data-label="Value">"#.len()..];
    let cell = &cell[..cell.find("</td>").unwrap()];
    page_text(cell).trim().to_owned()
}

#[test]
fn bad_counters_are_null_everywhere_and_reported_as_dropped_fields() {
    let (_dir, snapshot, out) = imported_and_built("counters");
    let api = out.join(DATE).join("api");
    let cases = expected();

    // The answers of `query --json`.
    let o = x402dir(&["query", "--snapshot", snapshot.to_str().unwrap(), "--json", "--limit", "50", ""]);
    let answer: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(answer["meta"]["total_matched"], json!(cases.len()));
    check_figures(&by_resource(answer["data"].as_array().unwrap()), "query --json");
    // A word query answers with the same figures.
    let o = x402dir(&["query", "--snapshot", snapshot.to_str().unwrap(), "--json", "counter", "text"]);
    let answer: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(answer["data"][0]["resource"], url("text"));
    assert_eq!((&answer["data"][0]["calls_30d"], &answer["data"][0]["unique_payers_30d"]), (&Value::Null, &json!(5)));

    // The API records: every resource is in block 0 (16 to a block).
    let records = json_file(&api.join("records/0.json"));
    let records = by_resource(records.as_array().unwrap());
    assert_eq!(records.len(), cases.len());
    check_figures(&records, "records/0.json");

    // report.json lists exactly the cases with drops, each with its reasons, by id.
    let report = json_file(&api.join("report.json"));
    let dropped = report["dropped_fields"].as_array().expect("report.json has dropped_fields");
    let listed: BTreeMap<String, &Value> =
        dropped.iter().map(|d| (d["resource"].as_str().unwrap().to_owned(), d)).collect();
    for (case, _, drops) in &cases {
        let want: Vec<Value> = drops.iter().map(|(field, reason)| json!({"field": field, "reason": reason})).collect();
        match listed.get(&url(case)) {
            None => assert!(want.is_empty(), "report.json: {case} not listed, expected {want:?}"),
            Some(entry) => {
                assert_eq!(entry["fields"], json!(want), "report.json: {case}");
                assert_eq!(entry["id"], records[&url(case)]["id"], "report.json: {case}'s id is its record's");
            }
        }
    }
    assert_eq!(listed.len(), cases.iter().filter(|(_, _, d)| !d.is_empty()).count());
    assert!(verdicts::verdicts_in(&report).is_empty(), "{:?}", verdicts::verdicts_in(&report));

    // The report page names each dropped field with its reason.
    let report_page = page_text(&fs::read_to_string(out.join(DATE).join("report/index.html")).unwrap());
    for (case, _, drops) in &cases {
        for (field, reason) in drops {
            assert!(report_page.contains(&format!("{field}: {reason}")), "report page: {case}: {field}: {reason}");
        }
    }

    // Each resource's page: the figures as published (— for null) and its dropped fields.
    for (case, figures, drops) in &cases {
        // The record links its page by full URL: the path from the date on is the folder.
        let link = records[&url(case)]["page"].as_str().unwrap();
        let page = &link[link.find(&format!("/{DATE}/r/")).unwrap() + 1..];
        let html = fs::read_to_string(out.join(page).join("index.html")).unwrap();
        for (name, want) in FIGURES.iter().zip(figures) {
            let shown = match want {
                Value::Null => "—".to_owned(),
                // Pages show the ratio with three decimals.
                v if *name == "calls_per_payer" => format!("{:.3}", v.as_f64().unwrap()),
                v => v.to_string(),
            };
            assert_eq!(figure_on_page(&html, name), shown, "page of {case}: {name}");
        }
        let text = page_text(&html);
        assert_eq!(text.contains("Fields dropped while reading this listing"), !drops.is_empty(), "page of {case}");
        for (field, reason) in drops {
            assert!(text.contains(&format!("{field}: {reason}")), "page of {case}: {field}: {reason}");
        }
    }
}
