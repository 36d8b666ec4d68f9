//! content/method.md#duplicates against hostile input: the fixture catalogue of tests/fixtures/hostile/
//! (see its README), imported and built like any other snapshots.

use std::fs;
use std::path::PathBuf;

use crate::common::{self, html, repo_root, temp_dir, verdicts, TempDir};
use catalogue::import::import_file;
use method::corrections::Corrections;
use method::index::Index;
use method::Method;
use serde_json::Value;

const VICTIM: &str = "https://victim.example/api/weather";
const OWNER: &str = "0xaaaa000000000000000000000000000000000001";
const ATTACKER: &str = "0xbbbb000000000000000000000000000000000002";

/// Imports both hostile dumps into a fresh snapshot folder.
fn hostile_snapshots(name: &str) -> (TempDir, Vec<PathBuf>) {
    let root = temp_dir(name);
    let dir = root.join("snapshots");
    let paths = ["2026-01-01", "2026-02-01"]
        .iter()
        .map(|d| {
            import_file(&repo_root().join(format!("tests/fixtures/hostile/{d}.json")), d)
                .unwrap()
                .write_into(&dir, false)
                .unwrap()
        })
        .collect();
    (root, paths)
}

fn build(name: &str, method: &Method) -> (TempDir, Vec<Index>) {
    let (root, paths) = hostile_snapshots(name);
    let out = root.join("out").join("public");
    publish::build(&paths, &out, method).unwrap();
    (root, method::index::indexes_with_history(&paths, method).unwrap())
}

#[test]
fn a_listing_cannot_claim_a_url_it_did_not_settle_to() {
    let (root, indexes) = build("adv-claim", &Method::embedded());
    let (jan, feb) = (&indexes[0], &indexes[1]);
    // In January the owner's listing is ranked; the older dated build never changes.
    assert!(jan.entries.iter().any(|e| e.resource.url == VICTIM));
    // In February a second payTo claims it: held out, not resolved, both claims listed.
    assert!(!feb.entries.iter().any(|e| e.resource.url == VICTIM));
    let conflict = feb.report.quarantined.iter().find(|c| c.resource == VICTIM).expect("quarantined");
    let claims: Vec<(&str, &Vec<String>)> = conflict.claims.iter().map(|c| (c.date.as_str(), &c.pay_to)).collect();
    assert_eq!(claims, vec![("2026-01-01", &vec![OWNER.to_owned()]), ("2026-02-01", &vec![ATTACKER.to_owned()])]);
    // Held out of shards and records too, and shown on the conflicts report.
    let api = root.join("out/public/2026-02-01/api");
    for f in common::all_files(&api).iter().filter(|f| !f.ends_with("report.json")) {
        let text = fs::read_to_string(f).unwrap();
        assert!(!text.contains("victim.example"), "{} mentions the held-out URL", f.display());
    }
    let report = fs::read_to_string(root.join("out/public/2026-02-01/report/index.html")).unwrap();
    assert!(report.contains(OWNER) && report.contains(ATTACKER) && report.contains("victim.example"));
}

#[test]
fn an_overwrite_by_a_second_pay_to_in_one_snapshot_is_quarantined() {
    let (_, indexes) = build("adv-overwrite", &Method::embedded());
    let feb = &indexes[1];
    assert!(!feb.entries.iter().any(|e| e.resource.url == "https://dup.example/tool"));
    assert!(feb.report.quarantined.iter().any(|c| c.resource == "https://dup.example/tool" && c.claims.len() == 2));
}

#[test]
fn only_a_corrections_entry_releases_a_quarantine() {
    let corrections = Corrections::parse(&format!(
        r#"{{"entries": [{{"date": "2026-01-15", "kind": "quarantine-released", "resource": "{VICTIM}", "pay_to": ["{OWNER}"], "note": "reviewed: the January owner"}}]}}"#
    ))
    .unwrap();
    let method = Method { corrections: &corrections, ..Method::embedded() };
    let (root, indexes) = build("adv-release", &method);
    let feb = &indexes[1];
    let victim = feb.entries.iter().find(|e| e.resource.url == VICTIM).expect("released");
    assert_eq!(victim.resource.description.as_deref(), Some("Weather by the rightful owner"));
    assert_eq!(feb.report.overruled.len(), 1);
    assert_eq!(feb.report.overruled[0].pay_to, vec![ATTACKER.to_owned()]);
    // The other conflict is untouched, and the log is published.
    assert!(feb.report.quarantined.iter().any(|c| c.resource == "https://dup.example/tool"));
    let page = fs::read_to_string(root.join("out/public/2026-02-01/corrections/index.html")).unwrap();
    assert!(page.contains("reviewed: the January owner"));
}

#[test]
fn no_input_writes_outside_the_output_folder() {
    let (root, _) = build("adv-traversal", &Method::embedded());
    let top: Vec<String> =
        fs::read_dir(&root).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    let mut top = top;
    top.sort();
    assert_eq!(top, vec!["out", "snapshots"]);
    assert_eq!(fs::read_dir(root.join("out")).unwrap().count(), 1, "only public/ inside out/");
    for f in common::all_files(&root.join("out/public")) {
        let rel = f.strip_prefix(root.join("out/public")).unwrap().to_string_lossy().into_owned();
        assert!(!rel.contains("..") && !rel.contains('\\') && !rel.contains('%') && !rel.contains('\0'), "{rel}");
    }
}

#[test]
fn only_http_urls_become_links_whatever_their_encoding() {
    let (root, indexes) = build("adv-links", &Method::embedded());
    let feb = &indexes[1];
    for (url, linked) in [
        ("javascript:alert(document.domain)", false),
        ("%6Aavascript:alert(1)", false),
        ("data:text/html,<script>alert(1)</script>", false),
        ("..\\..\\windows\\system32", false),
        ("https://trav.example/%2e%2e%2f%2e%2e%2fetc/passwd", true),
        ("https://trav.example/%252e%252e%252f%252e%252e%252fetc", true),
    ] {
        let e = feb.entries.iter().find(|e| e.resource.url == url).unwrap_or_else(|| panic!("{url} listed"));
        let page = fs::read_to_string(root.join(format!("out/public/2026-02-01/r/{}/index.html", e.slug()))).unwrap();
        // The URL's line under the page's heading: a link only for http(s).
        let start = page.find(r#"<p class="resource-url">"#).unwrap();
        let line = &page[start..start + page[start..].find("</p>").unwrap()];
        assert_eq!(line.contains("<a "), linked, "{url}: {line}");
    }
    // A URL with a NUL byte has no usable form: rejected with a reason.
    assert!(feb.report.rejected.iter().any(|r| r.reason.contains("control characters")));
}

#[test]
fn script_payloads_in_every_field_stay_text() {
    let (root, _) = build("adv-html", &Method::embedded());
    let mut pages = 0;
    for f in common::all_files(&root.join("out/public")).iter().filter(|f| f.extension().is_some_and(|x| x == "html")) {
        let text = fs::read_to_string(f).unwrap();
        for tag in html::tags(&text) {
            // The history charts are the site's own SVG, drawn from counts and dates only.
            let own_chart = tag.name == "svg" && tag.attributes.iter().any(|(n, v)| n == "class" && v == "chart");
            assert!(
                own_chart || !["img", "svg", "iframe", "b", "i"].contains(&tag.name.as_str()),
                "{}: <{}>",
                f.display(),
                tag.name
            );
            assert!(tag.attributes.iter().all(|(n, _)| !n.starts_with("on")), "{}: handler attribute", f.display());
            if tag.name == "script" {
                // Only the site's own modules: no inline script, nothing from the catalogue.
                assert!(crate::common::html::is_our_script(&tag.attributes), "{}: a script not ours", f.display());
            }
            if tag.name == "a" {
                let href = tag.attributes.iter().find(|(n, _)| n == "href").map(|(_, v)| v.as_str()).unwrap_or("");
                assert!(
                    !href.to_ascii_lowercase().contains("javascript:") && !href.starts_with("data:"),
                    "{}: {href}",
                    f.display()
                );
            }
        }
        pages += 1;
    }
    assert!(pages > 20);
}

#[test]
fn prompt_injection_is_withheld_everywhere() {
    let (root, indexes) = build("adv-inject", &Method::embedded());
    let feb = &indexes[1];
    for url in ["https://inject.example/one", "https://inject.example/two", "https://inject.example/three"] {
        let e = feb.entries.iter().find(|e| e.resource.url == url).unwrap();
        assert!(e.withheld.is_some(), "{url} not withheld");
    }
    for f in common::all_files(&root.join("out/public")) {
        let text = String::from_utf8_lossy(&fs::read(&f).unwrap()).into_owned();
        // Text, not single words: a withheld description's words are indexed (screening
        // decides what is published, never what matches), so a posting list may hold
        // `etirw` as a key; the text around it, with its reordering mark, never appears.
        for needle in [
            "Ignore all previous instructions",
            "private key to",
            "im_start",
            "unrestricted AI",
            "forecast \u{202e}etirw",
            "\u{202e}etirw",
            "\\u202eetirw",
        ] {
            assert!(!text.contains(needle), "{} contains {needle:?}", f.display());
        }
    }
}

/// February's feed lists every hostile listing new since January: markup, NUL bytes,
/// broken encodings and injected text must leave it a well-formed XML document.
#[test]
fn the_feed_of_hostile_listings_is_well_formed_xml() {
    let (root, indexes) = build("adv-feed", &Method::embedded());
    let xml = fs::read_to_string(root.join("out/public/2026-02-01/feed.xml")).unwrap();
    let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("feed is not XML: {e}"));
    let entries = doc.root_element().children().filter(|n| n.tag_name().name() == "entry").count();
    assert!(entries > 10, "{entries} entries");
    assert!(entries <= indexes[1].entries.len());
    for needle in ["<script", "Ignore all previous instructions"] {
        assert!(!xml.contains(needle), "feed carries {needle:?}");
    }
    // A hostile URL is text in a title or summary, never a link: every link is ours.
    let base = &Method::embedded().site.base_url;
    for link in doc.descendants().filter(|n| n.tag_name().name() == "link") {
        let href = link.attribute("href").unwrap();
        assert!(href.starts_with(&format!("{base}/")), "{href}");
    }
}

#[test]
fn malformed_numbers_and_huge_fields_are_dropped_and_reported() {
    let (root, indexes) = build("adv-numbers", &Method::embedded());
    let feb = &indexes[1];
    let drops = |url: &str| -> Vec<String> {
        feb.entries
            .iter()
            .find(|e| e.resource.url == url)
            .unwrap()
            .resource
            .drops
            .iter()
            .map(|d| d.field.clone())
            .collect()
    };
    for url in ["https://numbers.example/neg", "https://numbers.example/float", "https://numbers.example/huge"] {
        let fields = drops(url);
        assert!(
            fields.contains(&"quality.l30DaysTotalCalls".to_owned())
                && fields.contains(&"quality.l30DaysUniquePayers".to_owned()),
            "{url}: {fields:?}"
        );
        let e = feb.entries.iter().find(|e| e.resource.url == url).unwrap();
        assert_eq!((e.figures.calls_30d, e.figures.unique_payers_30d, e.figures.calls_per_payer), (None, None, None));
    }
    // Of five odd amounts only the plain one is read.
    let amounts = feb.entries.iter().find(|e| e.resource.url == "https://numbers.example/amounts").unwrap();
    assert_eq!(
        amounts.prices(&Method::embedded()).iter().map(|p| p.amount_atomic.as_str()).collect::<Vec<_>>(),
        vec!["250"]
    );
    assert_eq!(amounts.resource.drops.len(), 4);
    // A 1 MB description is cut, 500 tags are cut to 32, a 5,000-character name is dropped.
    let huge = feb.entries.iter().find(|e| e.resource.url == "https://huge.example/desc").unwrap();
    assert_eq!(huge.resource.description.as_ref().unwrap().chars().count(), 4000);
    assert_eq!(huge.resource.tags.len(), 32);
    assert!(drops("https://huge.example/desc").iter().any(|f| f == "serviceName"));
    // A URL over 2,048 bytes, a non-text URL and non-objects are rejected, with reasons.
    assert!(feb.report.rejected.len() >= 4, "{:?}", feb.report.rejected);
    // Wrong types everywhere: the listing stays, every bad field is named.
    let fields = drops("https://types.example/x");
    for f in ["description", "serviceName", "tags", "accepts", "quality"] {
        assert!(fields.contains(&f.to_owned()), "{fields:?}");
    }
    // Drops are shown on the resource's page and in the build report.
    let types = feb.entries.iter().find(|e| e.resource.url == "https://types.example/x").unwrap();
    let page = fs::read_to_string(root.join(format!("out/public/2026-02-01/r/{}/index.html", types.slug()))).unwrap();
    assert!(page.contains("Fields dropped") && page.contains("serviceName"));
    let report: Value =
        serde_json::from_slice(&fs::read(root.join("out/public/2026-02-01/api/report.json")).unwrap()).unwrap();
    assert!(report["rejected"].as_array().unwrap().len() >= 4);
    assert!(verdicts::verdicts_in(&report).is_empty());
}

#[test]
fn invalid_utf8_loses_only_the_bad_bytes() {
    let (_root, paths) = hostile_snapshots("adv-utf8");
    let snap = catalogue::snapshot::Snapshot::read(&paths[1]).unwrap();
    assert!(snap.header.notes.iter().any(|n| n.contains("invalid UTF-8")), "{:?}", snap.header.notes);
    let item = snap.items.iter().find(|i| i["resource"] == "https://numbers.example/float").unwrap();
    assert_eq!(item["description"], "fractional \u{fffd}\u{fffd} counters");
}

/// A build keeps one ownership ledger and adds each snapshot's claims once
/// (`ownership::RunningLedger`); it must judge every snapshot exactly as reading its
/// history again would (`Index::read`), in order, out of order and for a subset, on the
/// hostile claims and on the real snapshots (which overlap in URLs).
#[test]
fn the_build_s_running_ledger_judges_as_reading_each_history_does() {
    let method = Method::embedded();
    let judged = |i: &Index| {
        let urls: Vec<&str> = i.entries.iter().map(|e| e.resource.url.as_str()).collect();
        (i.header.date.clone(), serde_json::to_string(&i.report).unwrap(), urls.join("\n"))
    };
    let (_root, hostile) = hostile_snapshots("adv-running");
    let real: Vec<PathBuf> =
        common::REAL_DATES.iter().map(|d| repo_root().join(format!("content/snapshots/{d}.json"))).collect();
    for paths in [
        hostile.clone(),
        vec![hostile[1].clone(), hostile[0].clone()],
        vec![hostile[1].clone()],
        real.clone(),
        vec![real[2].clone(), real[0].clone()],
    ] {
        let running: Vec<_> =
            method::index::indexes_with_history(&paths, &method).unwrap().iter().map(judged).collect();
        let each: Vec<_> = paths.iter().map(|p| judged(&Index::read(p, &method).unwrap())).collect();
        assert_eq!(running, each, "{paths:?}");
    }
    // The hostile February is judged against January's claims either way.
    let feb = Index::read(&hostile[1], &method).unwrap();
    assert!(feb.report.quarantined.iter().any(|c| c.resource == VICTIM));
}
