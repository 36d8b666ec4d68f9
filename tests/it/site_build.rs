//! The built site, checked as files on disk (the way mdBook and Zola test theirs).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::prerequisites::{self, Need};
use crate::common::{self, html, real_snapshot, repo_root, temp_dir, verdicts, TempDir, REAL_DATES};
use catalogue::import::import_file;
use explore::answer::explore;
use explore::vectors::VectorTable;
use explore::Explore;
use method::index::Index;
use method::names;
use method::{Method, DISCOVERY_METHOD_VERSION};
use serde_json::{json, Value};
use site::api::method as shards;

/// Every file under `root`, by path relative to it, with its bytes.
fn files_under(root: &Path) -> BTreeMap<String, Vec<u8>> {
    common::all_files(root)
        .into_iter()
        .map(|path| (path.strip_prefix(root).unwrap().to_string_lossy().into_owned(), fs::read(&path).unwrap()))
        .collect()
}

fn real_snapshot_paths() -> Vec<PathBuf> {
    REAL_DATES.iter().map(|d| repo_root().join(format!("content/snapshots/{d}.json"))).collect()
}

fn build_real(name: &str) -> TempDir {
    let out = temp_dir(name).at("public");
    publish::build(&real_snapshot_paths(), &out, &Method::embedded()).unwrap();
    out
}

fn mini_site(name: &str) -> TempDir {
    let dir = temp_dir(name);
    let snap = import_file(&repo_root().join("tests/fixtures/site/mini.json"), "2026-01-10").unwrap();
    let path = snap.write_into(&dir.join("snapshots"), false).unwrap();
    let out = dir.at("public");
    publish::build(&[path], &out, &Method::embedded()).unwrap();
    out
}

fn json_file(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))).unwrap()
}

#[test]
fn mini_site_has_the_expected_tree() {
    let out = mini_site("mini-tree");
    let files = files_under(&out);
    let d = "2026-01-10";
    for expected in [
        "index.html".to_owned(),
        "_redirects".to_owned(),
        format!("method/{DISCOVERY_METHOD_VERSION}/index.html"),
        "schema/answer.schema.json".to_owned(),
        format!("{d}/index.html"),
        format!("{d}/search/index.html"),
        format!("{d}/browse/index.html"),
        format!("{d}/method/index.html"),
        format!("{d}/corrections/index.html"),
        format!("{d}/report/index.html"),
        format!("{d}/network/eip155-8453/index.html"),
        format!("{d}/network/eip155-84532/index.html"),
        format!("{d}/price/up-to-0.001/index.html"),
        format!("{d}/price/no-usd-price/index.html"),
        format!("{d}/segment/weather/index.html"),
        format!("{d}/api/manifest.json"),
        format!("{d}/api/prices.json"),
        format!("{d}/api/report.json"),
        format!("{d}/api/records/0.json"),
        format!("{d}/api/q/weather.json"),
        format!("{d}/static/composer.js"),
        format!("{d}/static/chars.js"),
        format!("{d}/static/search.js"),
        format!("{d}/static/style.css"),
        format!("{d}/static/favicon.svg"),
    ] {
        assert!(files.contains_key(&expected), "missing {expected}");
    }
    // Three records fit one block (ids 0 to 15).
    assert!(!files.contains_key(&format!("{d}/api/records/1.json")));
    let pages: Vec<&String> =
        files.keys().filter(|k| k.starts_with(&format!("{d}/r/")) && *k != &format!("{d}/r/index.html")).collect();
    assert_eq!(pages.len(), 3);
    assert!(files.contains_key(&format!("{d}/r/index.html")), "the folder of resource pages has an index");
    assert_eq!(
        String::from_utf8(files["_redirects"].clone()).unwrap(),
        format!("/latest /{d}/ 302\n/latest/* /{d}/:splat 200\n")
    );
    // Nothing is left over from staging.
    assert!(
        files.keys().all(|k| !k.starts_with('.')),
        "{:?}",
        files.keys().filter(|k| k.starts_with('.')).collect::<Vec<_>>()
    );
}

#[test]
fn mini_site_api_matches_hand_worked_expectations() {
    let site = mini_site("mini-api");
    let api = site.join("2026-01-10/api");
    let manifest = json_file(&api.join("manifest.json"));
    assert_eq!(manifest["counts"], json!({"entries": 3, "withheld": 1, "quarantined": 0, "rejected": 0}));
    let buckets = manifest["shards"]["buckets"].as_u64().unwrap() as u32;
    let posting = |key: &str| -> Value {
        let shard = json_file(&api.join(format!("shards/{}.json", names::bucket(key, buckets as usize))));
        shard[key].clone()
    };
    assert_eq!(posting("weather"), json!([1, 2]));
    assert_eq!(posting("headlines"), json!([3]));
    // The withheld description's words are indexed as listed (flag 1: in the
    // description), so "ask", once only a URL word, now counts toward match_score.
    assert_eq!(posting("ask"), json!([5]));
    assert_eq!(posting("anything"), json!([5]), "withheld words are indexed, as listed");
    assert_eq!(posting("@network:eip155:8453"), json!([0, 2]));
    assert_eq!(posting("@network:eip155:84532"), json!([4]));
    assert_eq!(json_file(&api.join("prices.json")), json!({"ladder": [["0.001", [0]], ["0.02", [1]]]}));
    // The pack of a token holds exactly the records of its postings, in id order.
    let block = json_file(&api.join("records/0.json"));
    let record = |id: usize| block[id].clone();
    assert_eq!(block.as_array().unwrap().iter().map(|r| r["id"].as_u64().unwrap()).collect::<Vec<_>>(), [0, 1, 2]);
    assert_eq!(manifest["records"], json!({"path": "records/{block}.json", "block": 16, "blocks": 1}));
    let pack = json_file(&api.join("packs/weather.json"));
    assert_eq!(pack, json!([record(0), record(1)]));
    assert!(!api.join("packs/anything.json").exists());
    assert_eq!(json_file(&api.join("packs/_browse.json")).as_array().unwrap().len(), 3);
    let r0 = record(0);
    assert_eq!(r0["resource"], "https://wx.example/forecast");
    assert_eq!(r0["calls_per_payer"], json!(1.5));
    assert_eq!(r0["days_since_last_call"], json!(1));
    let r1 = record(1);
    assert_eq!((r1["calls_per_payer"].clone(), r1["days_since_last_call"].clone()), (json!(1), json!(9)));
    let r2 = record(2);
    assert_eq!(r2["description"], Value::Null);
    assert_eq!(r2["description_withheld"]["patterns_matched"].as_u64().map(|n| n >= 1), Some(true));
}

#[test]
fn two_builds_are_byte_identical() {
    let a = files_under(&build_real("det-a"));
    let b = files_under(&build_real("det-b"));
    assert_eq!(a.len(), b.len());
    let differing: Vec<&String> = a.iter().filter(|(k, v)| b.get(*k) != Some(*v)).map(|(k, _)| k).collect();
    assert!(differing.is_empty(), "{} files differ, e.g. {:?}", differing.len(), &differing[..differing.len().min(5)]);
}

#[test]
fn real_site_covers_every_resource_and_page() {
    let out = build_real("real-cover");
    let root_index = fs::read_to_string(out.join("index.html")).unwrap();
    let indexes = method::index::indexes_with_history(&real_snapshot_paths(), &Method::embedded()).unwrap();
    for (d, idx) in REAL_DATES.iter().zip(&indexes) {
        assert!(root_index.contains(&format!("/{d}/")), "root lists {d}");
        for (id, e) in idx.entries.iter().enumerate() {
            assert!(out.join(format!("{d}/r/{}/index.html", e.slug())).is_file());
            let block = json_file(&out.join(format!("{d}/api/records/{}.json", id / 16)));
            let rec = &block[id % 16];
            assert_eq!((&rec["id"], &rec["resource"]), (&json!(id), &json!(e.resource.url)));
        }
        let pages = idx.entries.len().div_ceil(50);
        assert!(out.join(format!("{d}/browse/page/{pages}/index.html")).is_file() || pages == 1);
        assert!(!out.join(format!("{d}/browse/page/{}/index.html", pages + 1)).exists());
    }
}

#[test]
fn single_token_answers_equal_the_cli_answer() {
    let out = build_real("q-vs-cli");
    for (date, token) in
        [("2025-12-31", "weather"), ("2025-12-31", "twitter"), ("2026-08-20", "ethereum"), ("2025-12-18", "image")]
    {
        let file = json_file(&out.join(format!("{date}/api/q/{}.json", names::token_file(token))));
        let cli = Command::new(env!("CARGO_BIN_EXE_x402dir"))
            .args(["query", "--json", "--snapshot", &format!("content/snapshots/{date}.json"), token])
            .current_dir(repo_root())
            .output()
            .unwrap();
        let cli: Value = serde_json::from_slice(&cli.stdout).unwrap();
        assert_eq!(file, cli, "{date} {token}");
    }
    // A word in one resource has no file of its own: its record answers it.
    assert!(!out.join("2026-08-20/api/q/ens.json").exists());
    assert!(!out.join("2026-08-20/api/packs/ens.json").exists());
}

/// Every word's pack and second page hold the records at their places of the word's own
/// order (description matches first, then id; docs/static-api.md, packs), worked out here
/// from its posting list, so that a client knows from the list alone what a page holds.
/// A wrong page would not show in an answer (the composer takes a missing record from its
/// block), only here.
#[test]
fn a_words_pack_pages_hold_the_places_of_its_own_order() {
    let out = build_real("pack-pages");
    let api = out.join("2025-12-31/api");
    let manifest = json_file(&api.join("manifest.json"));
    let packs = &manifest["packs"];
    assert_eq!((packs["len"].as_u64(), packs["next_len"].as_u64()), (Some(64), Some(112)));
    let ids_of = |path: &Path| -> Option<Vec<u64>> {
        let file = fs::read(path).ok()?;
        let records: Value = serde_json::from_slice(&file).unwrap();
        Some(records.as_array().unwrap().iter().map(|r| r["id"].as_u64().unwrap()).collect())
    };
    let (mut words, mut with_second) = (0, 0);
    for bucket in 0..manifest["shards"]["buckets"].as_u64().unwrap() {
        let shard = json_file(&api.join(format!("shards/{bucket}.json")));
        for (key, list) in shard.as_object().unwrap() {
            let Some(list) = list.as_array().filter(|l| !key.starts_with('@') && l.len() >= 2) else { continue };
            // Decoded as the format page says: element 0 is id × 2 + flag, then gaps.
            let mut postings = Vec::new();
            let mut id = 0;
            for (i, n) in list.iter().map(|n| n.as_u64().unwrap()).enumerate() {
                id = if i == 0 { n / 2 } else { id + n / 2 };
                postings.push((id, n % 2));
            }
            let own_order: Vec<u64> =
                postings.iter().filter(|p| p.1 == 1).chain(postings.iter().filter(|p| p.1 == 0)).map(|p| p.0).collect();
            let page = |places: std::ops::Range<usize>| {
                let mut ids = own_order[places.start.min(own_order.len())..places.end.min(own_order.len())].to_vec();
                ids.sort_unstable();
                ids
            };
            let file = names::token_file(key);
            assert_eq!(ids_of(&api.join(format!("packs/{file}.json"))), Some(page(0..64)), "{key}");
            let second = ids_of(&api.join(format!("packs/2/{file}.json")));
            if own_order.len() > 64 {
                assert_eq!(second, Some(page(64..176)), "{key}");
                with_second += 1;
            } else {
                assert_eq!(second, None, "{key} is in at most 64 resources: no second page");
            }
            words += 1;
        }
    }
    assert!(with_second >= 10 && words > 1000, "{with_second} second pages of {words} packs");
}

#[test]
fn no_json_the_build_writes_carries_a_verdict() {
    let out = build_real("verdicts");
    let mut checked = 0;
    for (rel, bytes) in files_under(&out) {
        if rel.ends_with(".json") && !rel.starts_with("schema/") {
            let v: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{rel}: {e}"));
            if rel.contains("/api/shards/") {
                // Keys are indexed words of the catalogue's own text; values only numbers.
                let lists = v.as_object().unwrap();
                assert!(lists.values().all(|l| l.as_array().unwrap().iter().all(Value::is_u64)), "{rel}");
                checked += 1;
                continue;
            }
            if rel.contains("/api/explore/terms/") {
                // Explore's BM25 postings: indexed words as keys, [id, weight, ...] as values.
                let lists = v.as_object().unwrap();
                assert!(lists.values().all(|l| l.as_array().unwrap().iter().all(Value::is_u64)), "{rel}");
                checked += 1;
                continue;
            }
            if rel.contains("/api/explore/spelling/") {
                // Near spellings: letter triples as keys, indexed words of the catalogue's
                // own text as values (explore's term files hold the same words as keys),
                // each followed by the number of documents that contain it.
                let lists = v.as_object().unwrap();
                assert!(lists.keys().all(|k| k.chars().count() == 3), "{rel}");
                assert!(
                    lists.values().all(|l| {
                        let l = l.as_array().unwrap();
                        l.len() % 2 == 0
                            && l.chunks(2).all(|p| {
                                p[0].as_str().is_some_and(|w| !w.is_empty() && !w.contains(' '))
                                    && p[1].as_u64().is_some_and(|n| n >= 1)
                            })
                    }),
                    "{rel}"
                );
                checked += 1;
                continue;
            }
            if rel.contains("/api/explore/words/") {
                // The vector table: words as keys, [weight, base64 vector] as values.
                let rows = v.as_object().unwrap();
                assert!(
                    rows.values().all(|r| r[0].is_u64()
                        && r[1]
                            .as_str()
                            .is_some_and(|b| b.len() == 172
                                && b.bytes().all(|c| c.is_ascii_alphanumeric() || b"+/=".contains(&c)))),
                    "{rel}"
                );
                checked += 1;
                continue;
            }
            if rel.contains("/api/explore/translations/") {
                // The translation table: a word of another language -> [the vector-table
                // word it is read as, whether the pair was rescued] ("seguro" -> ["safe",
                // false]). Words of a dictionary, about no resource; each value must be a
                // word of the vector table and a flag, nothing else.
                let pairs = v.as_object().unwrap();
                let table = explore::vectors::VectorTable::embedded();
                assert!(
                    pairs.iter().all(|(k, p)| !k.contains(' ')
                        && p.as_array().is_some_and(|p| p.len() == 2
                            && p[0].as_str().is_some_and(|w| table.get(w).is_some())
                            && p[1].is_boolean())),
                    "{rel}"
                );
                checked += 1;
                continue;
            }
            let found = verdicts::verdicts_in(&v);
            assert!(found.is_empty(), "{rel}: {found:?}");
            checked += 1;
        }
    }
    assert!(checked > 5_000, "only {checked} JSON files checked");
}

#[test]
fn withheld_description_text_appears_nowhere_in_the_output() {
    let out = build_real("withheld");
    let files = files_under(&out);
    let mut needles = Vec::new();
    let indexes: Vec<Index> = REAL_DATES.iter().map(|d| Index::build(&real_snapshot(d), &Method::embedded())).collect();
    // Text that a published description (of any snapshot) also contains is that
    // provider's to publish: a later listing may have dropped the screened sentence.
    let published: Vec<&str> =
        indexes.iter().flat_map(|i| i.entries.iter().filter_map(|e| e.public_description())).collect();
    for idx in &indexes {
        for e in idx.entries.iter().filter(|e| e.withheld.is_some()) {
            let text = e.resource.description.as_deref().unwrap();
            let chars: Vec<char> = text.chars().collect();
            for w in chars.windows(32).step_by(16) {
                let needle: String = w.iter().collect();
                if !published.iter().any(|p| p.contains(&needle)) {
                    needles.push(needle);
                }
            }
            if chars.len() < 32 {
                needles.push(text.to_owned());
            }
        }
    }
    assert!(needles.len() > 100);
    // HTML escapes quotes and ampersands; JSON escapes quotes: every form is looked for, all
    // at once (one automaton, one pass a file, where a search a needle took a minute).
    let forms: Vec<(String, &String)> = needles
        .iter()
        .flat_map(|n| {
            let html = n
                .replace('&', "&amp;")
                .replace('"', "&quot;")
                .replace('\'', "&#x27;")
                .replace('<', "&lt;")
                .replace('>', "&gt;");
            let json = serde_json::to_string(n).unwrap().trim_matches('"').to_owned();
            [(n.clone(), n), (html, n), (json, n)]
        })
        .collect();
    let automaton = aho_corasick::AhoCorasick::new(forms.iter().map(|(form, _)| form)).unwrap();
    for (rel, bytes) in &files {
        if let Some(found) = automaton.find(bytes) {
            panic!("{rel} contains withheld text {:?}", forms[found.pattern().as_usize()].1);
        }
    }
}

#[test]
fn hostile_text_is_escaped_in_every_page() {
    let dir = temp_dir("hostile-html");
    let items = vec![json!({
        "resource": "javascript:alert(1)//</title><script>alert('u')</script>",
        "description": "<img src=x onerror=alert(1)> \"quoted\" <script>alert('d')</script>",
        "serviceName": "</title><svg onload=alert(2)>",
        "tags": ["<b>tag</b>", "\"><script>alert(3)</script>"],
        "accepts": [{"network": "<i>net</i>", "amount": "1", "asset": "<u>asset</u>", "payTo": "0x1"}]
    })];
    let snap = common::synthetic_snapshot("2026-02-02", items);
    let path = snap.write_into(&dir.join("s"), false).unwrap();
    let out = dir.join("public");
    publish::build(&[path], &out, &Method::embedded()).unwrap();
    let allowed = [
        "html",
        "head",
        "meta",
        "title",
        "link",
        "body",
        "a",
        "header",
        "nav",
        "main",
        "footer",
        "h1",
        "h2",
        "h3",
        "p",
        "ul",
        "ol",
        "li",
        "table",
        "caption",
        "thead",
        "tbody",
        "tr",
        "th",
        "td",
        "div",
        "span",
        "small",
        "strong",
        "code",
        "blockquote",
        "aside",
        "section",
        "article",
        "form",
        "label",
        "input",
        "datalist",
        "option",
        "button",
        "script",
        "noscript",
        "em",
        "pre",
        "hr",
        "details",
        "summary",
        // The limits line's walk dates (templates/limits.html).
        "time",
    ];
    let mut pages = 0;
    for (rel, bytes) in files_under(&out) {
        if !rel.ends_with(".html") {
            continue;
        }
        pages += 1;
        let html = String::from_utf8(bytes).unwrap();
        for tag in html::tags(&html) {
            assert!(allowed.contains(&tag.name.as_str()), "{rel}: unexpected element <{}>", tag.name);
            for (name, value) in &tag.attributes {
                assert!(!name.starts_with("on"), "{rel}: event handler attribute {name}");
                if name == "href" || name == "src" || name == "action" {
                    assert!(
                        value.starts_with('/')
                            || value.starts_with("https://")
                            || value.starts_with("http://")
                            || value.starts_with('#')
                            || !value.contains(':'),
                        "{rel}: {name}={value}"
                    );
                }
            }
            if tag.name == "script" {
                assert!(html::is_our_script(&tag.attributes), "{rel}: a script that is not ours");
            }
        }
    }
    assert!(pages >= 8);
}

#[test]
fn build_refuses_unsafe_output_folders_and_keeps_the_previous_build_on_failure() {
    let err = publish::build(&real_snapshot_paths()[..1], Path::new("/"), &Method::embedded()).unwrap_err();
    assert!(err.to_string().contains("refusing"), "{err}");
    let out = mini_site("keep-previous");
    let before = files_under(&out);
    let broken = temp_dir("broken-snap").at("2026-01-10.json");
    fs::write(&broken, "{\"header\": {").unwrap();
    assert!(publish::build(&[broken.to_path_buf()], &out, &Method::embedded()).is_err());
    assert_eq!(files_under(&out), before);
}

/// A build refusing folders of more than `max_files` files (`--max-files`).
fn capped(max_files: usize) -> publish::Options {
    publish::Options { max_files: Some(max_files), ..publish::Options::default() }
}

/// `--max-files`: a snapshot over a host's cap is refused, naming the cap, and the
/// previous build of that date stays whole; at or under the cap it builds.
#[test]
fn a_cap_on_files_refuses_the_snapshot_over_it_and_keeps_the_previous_build() {
    let method = Method::embedded();
    let paths = &real_snapshot_paths()[..1];
    let out = temp_dir("max-files").at("public");
    let built = publish::build(paths, &out, &method).unwrap();
    let before = files_under(&out);
    let files = built[0].files;
    let err = publish::build_with(paths, &out, &method, &capped(files - 1)).unwrap_err().to_string();
    assert!(err.contains(&format!("more than {} files", files - 1)) && err.contains("untouched"), "{err}");
    assert_eq!(files_under(&out), before);
    let hidden = |e: fs::DirEntry| {
        let name = e.file_name().to_string_lossy().into_owned();
        name.starts_with('.') && name != publish::incremental::RECORDS_DIR
    };
    assert!(!fs::read_dir(&out).unwrap().any(|e| hidden(e.unwrap())));
    let again = publish::build_with(paths, &out, &method, &capped(files)).unwrap();
    assert_eq!(again[0].files, files);
    assert_eq!(files_under(&out), before);
}

/// The published JSON Schemas describe what the build writes (checked by Python's
/// jsonschema, an implementation independent of this code; CI installs it; without it
/// this test skips, saying so). The snapshot of 2025-12-31 is probed (a synthetic probe
/// file), so rows and records with and without a probe's result are both checked.
#[test]
fn published_json_matches_the_schemas() {
    if !prerequisites::ready("JSON Schema check (tests/check_schemas.py)", &[Need::PythonJsonschema]) {
        return;
    }
    let dir = temp_dir("schemas");
    let stored: Vec<PathBuf> =
        REAL_DATES.iter().map(|d| real_snapshot(d).write_into(&dir.join("snapshots"), false).unwrap()).collect();
    let probed = Index::read(&stored[1], &Method::embedded()).unwrap();
    crate::common::probes::write_beside(&stored[1], &crate::common::probes::synthetic_probe(&probed, 7));
    let out = dir.at("public");
    publish::build(&stored, &out, &Method::embedded()).unwrap();
    let seen = fs::read_to_string(out.join("2025-12-31/api/records/0.json")).unwrap();
    assert!(seen.contains("\"terms_as_listed\""), "the probed snapshot's records carry the probe");
    // Explore envelopes are computed per query, not stored: write some to check.
    let explores = out.parent().unwrap().join("explore-answers");
    fs::create_dir_all(&explores).unwrap();
    let method = Method::embedded();
    let table = VectorTable::embedded();
    let paths: Vec<_> =
        ["2025-12-18", "2025-12-31"].iter().map(|d| repo_root().join(format!("content/snapshots/{d}.json"))).collect();
    let index = method::index::indexes_with_history(&paths, &method).unwrap().remove(1);
    let ex = Explore::build(&index, table);
    for (i, q) in [
        "current conditions outdoors",
        "",
        "the of",
        "token price",
        "xyzzyq 天气",
        "image generation png",
        "curent wether under $0.01 on base, no testnets, cheapest",
        "视频生成",
    ]
    .iter()
    .enumerate()
    {
        let a = explore(&ex, &index, &method, table, q, 50);
        fs::write(explores.join(format!("{i}.json")), serde_json::to_vec(&a).unwrap()).unwrap();
    }
    let run = Command::new("python3").arg(repo_root().join("tests/check_schemas.py")).arg(&out).arg(&explores).output();
    let run = run.expect("python3 runs (checked by prerequisites::ready)");
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!stderr.contains("ModuleNotFoundError"), "install the checker: pip install jsonschema\n{stderr}");
    assert!(run.status.success(), "{stderr}");
    assert!(String::from_utf8_lossy(&run.stdout).contains("JSON files valid"));

    // The check can fail, and a pack record that differs from its block's is checked on its
    // own (the checker validates each distinct record once).
    let pack = out.join("2025-12-31/api/packs/weather.json");
    let mut records: Vec<serde_json::Value> = serde_json::from_slice(&fs::read(&pack).unwrap()).unwrap();
    records[3]["calls_30d"] = serde_json::json!("many");
    fs::write(&pack, serde_json::to_vec(&records).unwrap()).unwrap();
    let run = Command::new("python3").arg(repo_root().join("tests/check_schemas.py")).arg(&out).output().unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(!run.status.success(), "a pack record of the wrong type passed");
    assert!(stderr.contains("packs/weather.json: record-block schema: 3/calls_30d"), "{stderr}");
}

#[test]
fn netlify_config_sets_a_strict_csp_and_caching() {
    let text = fs::read_to_string(repo_root().join("netlify.toml")).unwrap();
    let config: toml::Value = toml::from_str(&text).unwrap();
    assert_eq!(config["build"]["publish"].as_str(), Some("public"));
    // A deploy publishes only the dates the committed lock covers (content/method.md#published).
    assert_eq!(config["build"]["command"].as_str(), Some("cargo run --release -- build --locked"));
    let headers = config["headers"].as_array().unwrap();
    let value = |path: &str, name: &str| -> String {
        headers
            .iter()
            .find(|h| h["for"].as_str() == Some(path))
            .and_then(|h| h["values"][name].as_str())
            .unwrap_or_default()
            .to_owned()
    };
    let csp = value("/*", "Content-Security-Policy");
    assert!(csp.contains("default-src 'none'") && csp.contains("script-src 'self'"), "{csp}");
    assert!(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval"), "{csp}");
    assert!(value("/20*", "Cache-Control").contains("immutable"));
    assert!(value("/latest/*", "Cache-Control").contains("max-age=300"));
}

/// The CSP forbids inline script and style, so no page may need them.
#[test]
fn pages_carry_no_inline_script_or_style() {
    let out = build_real("no-inline");
    for (rel, bytes) in files_under(&out) {
        if !rel.ends_with(".html") {
            continue;
        }
        let html = String::from_utf8(bytes).unwrap();
        // A title is text: markup in it shows as tags in the browser's tab.
        let title = &html[html.find("<title>").unwrap() + 7..html.find("</title>").unwrap()];
        assert!(!title.contains('<') && title.ends_with(" · x402dir"), "{rel}: title {title:?}");
        for tag in html::tags(&html) {
            if tag.name == "script" {
                assert!(tag.attributes.iter().any(|(n, _)| n == "src"), "{rel}: inline script");
            }
            assert!(tag.name != "style", "{rel}: inline style element");
            assert!(
                tag.attributes.iter().all(|(n, _)| n != "style" && !n.starts_with("on")),
                "{rel}: inline style or handler"
            );
        }
    }
}

/// The build writes a single-word answer per word from its posting list, not by scanning
/// every entry (which made the build quadratic); both must give the same envelope, for
/// every word of a real snapshot.
#[test]
fn single_word_answers_from_postings_equal_the_scan_for_every_word() {
    use method::answer::{answer, single_word_answer};
    use method::query::Filters;
    let method = Method::embedded();
    let index = Index::build(&real_snapshot("2025-12-31"), &method);
    let lists = shards::postings(&index);
    let mut compared = 0;
    for (word, list) in lists.iter().filter(|(k, _)| !k.starts_with('@')) {
        let fast = serde_json::to_value(single_word_answer(&index, &method, word, list)).unwrap();
        let scan = serde_json::to_value(answer(&index, &method, word, &Filters::default())).unwrap();
        assert_eq!(fast, scan, "{word}");
        compared += 1;
    }
    assert!(compared > 3_000, "{compared}");
}

/// The addresses in `<loc>` elements of an XML text, unescaped.
fn locs(xml: &str) -> Vec<String> {
    xml.split("<loc>").skip(1).map(|s| s[..s.find("</loc>").unwrap()].replace("&amp;", "&")).collect()
}

#[test]
fn sitemaps_list_every_page_and_only_pages_that_exist() {
    let out = build_real("sitemaps");
    let base = Method::embedded().site.base_url.clone();
    let local = |url: &str| -> PathBuf {
        let rel = url.strip_prefix(&base).unwrap_or_else(|| panic!("{url} is not under {base}"));
        let path = out.join(rel.trim_start_matches('/'));
        if rel.ends_with('/') {
            path.join("index.html")
        } else {
            path
        }
    };
    let robots = fs::read_to_string(out.join("robots.txt")).unwrap();
    assert!(robots.contains(&format!("Sitemap: {base}/sitemap.xml\n")), "{robots}");
    let index = locs(&fs::read_to_string(out.join("sitemap.xml")).unwrap());
    for d in REAL_DATES {
        // Every page of the snapshot's folder, from its files, against its sitemaps.
        let pages: Vec<PathBuf> = files_under(&out.join(d))
            .into_keys()
            .filter(|k| k.ends_with("index.html"))
            .map(|k| out.join(d).join(k))
            .collect();
        let listed: Vec<PathBuf> = index
            .iter()
            .filter(|u| u.starts_with(&format!("{base}/{d}/sitemap-")))
            .flat_map(|u| locs(&fs::read_to_string(local(u)).unwrap()))
            .map(|u| local(&u))
            .collect();
        let (mut pages, mut listed_sorted) = (pages.clone(), listed.clone());
        pages.sort();
        listed_sorted.sort();
        assert_eq!(listed.len(), pages.len(), "{d}: one address per page, none twice");
        assert_eq!(listed_sorted, pages, "{d}");
    }
    for u in locs(&fs::read_to_string(out.join("sitemap-site.xml")).unwrap()) {
        assert!(local(&u).is_file(), "{u}");
    }
}

#[test]
fn llms_txt_links_to_files_that_exist() {
    let out = build_real("llms");
    let base = Method::embedded().site.base_url.clone();
    let text = fs::read_to_string(out.join("llms.txt")).unwrap();
    assert!(text.starts_with("# x402dir\n\n> "), "{text}");
    let links: Vec<&str> = text
        .split(&format!("{base}/"))
        .skip(1)
        .map(|s| s.split(|c: char| c == ')' || c == '`' || c.is_whitespace()).next().unwrap())
        .filter(|rel| !rel.contains('{') && !rel.starts_with("latest/"))
        .collect();
    assert!(links.len() >= 10, "{links:?}");
    for link in links {
        let link = link.trim_end_matches(['.', ',', ';']);
        let (rel, fragment) = link.split_once('#').unwrap_or((link, ""));
        let path = out.join(rel);
        let path = if rel.is_empty() || rel.ends_with('/') { path.join("index.html") } else { path };
        assert!(path.is_file(), "llms.txt links to {rel}, which the build did not write");
        // A link into a page names a place the page has.
        if !fragment.is_empty() {
            let page = fs::read_to_string(&path).unwrap();
            assert!(page.contains(&format!(r#"id="{fragment}""#)), "llms.txt links to {link}: no such id");
        }
    }
    // The default snapshot (the newest complete one) is the one named, and its manifest is
    // the first link to read; the newer partial one is listed with its label.
    assert!(text.contains(&format!("{base}/2025-12-31/api/manifest.json")));
    assert!(!text.contains(&format!("{base}/2026-08-20/api/manifest.json")));
    assert!(text.contains(&format!("[2026-08-20]({base}/2026-08-20/) (partial: 20 of 15,155 listings)")), "{text}");
}

/// The best snapshot first, honestly labelled (content/method.md#limits): with today's
/// snapshots, the root and `latest/` lead to 2025-12-31, the newest complete one, not to
/// the newer 20-listing page of 2026-08-20, which stays published and says it is partial
/// on its pages, in its manifest and on the root; a snapshot without usage counters says
/// the order falls to match_score, then URL.
#[test]
fn the_root_and_latest_lead_to_the_newest_complete_snapshot_and_labels_the_rest() {
    let out = build_real("default");
    let redirects = fs::read_to_string(out.join("_redirects")).unwrap();
    assert_eq!(redirects, "/latest /2025-12-31/ 302\n/latest/* /2025-12-31/:splat 200\n");
    let root = fs::read_to_string(out.join("index.html")).unwrap();
    assert!(root.contains(r#"Searches above use <a href="/2025-12-31/">2025-12-31</a>"#), "{root}");
    assert!(root.contains(r#"<form id="root-search" role="search" action="/2025-12-31/search/""#), "{root}");
    let item = |date: &str| {
        let start = root.find(&format!(r#"<li><a href="/{date}/">"#)).unwrap();
        root[start..start + root[start..].find("</li>").unwrap()].to_owned()
    };
    assert!(item("2026-08-20").contains("partial: 20 of 15,155 listings"), "{}", item("2026-08-20"));
    assert!(!item("2026-08-20").contains("the default"));
    assert!(item("2025-12-31").contains("the default"));
    assert!(!item("2025-12-31").contains("partial"));
    let manifest = |date: &str| -> serde_json::Value {
        serde_json::from_slice(&fs::read(out.join(format!("{date}/api/manifest.json"))).unwrap()).unwrap()
    };
    let partial = manifest("2026-08-20");
    assert_eq!(partial["snapshot"]["usage_counters"], true);
    assert_eq!(partial["snapshot"]["notices"], serde_json::json!(["partial: 20 of 15,155 listings"]));
    let december = manifest("2025-12-31");
    assert_eq!(december["snapshot"]["usage_counters"], false);
    assert_eq!(december["snapshot"]["notices"], serde_json::json!([method::answer::NO_USAGE_COUNTERS]));
    // Every page of a snapshot says it, above its content (the limits box opens the page).
    for (date, notice) in
        [("2026-08-20", "partial: 20 of 15,155 listings"), ("2025-12-31", method::answer::NO_USAGE_COUNTERS)]
    {
        for page in ["index.html", "search/index.html", "browse/index.html"] {
            let html = fs::read_to_string(out.join(date).join(page)).unwrap();
            let said = html.find(&format!(r#"<p class="notice"><strong>{notice}</strong></p>"#));
            let main = html.find("<h1").unwrap();
            assert!(
                said.is_some_and(|at| at < html[main..].find("<table").map_or(usize::MAX, |t| main + t)),
                "{date}/{page}"
            );
        }
    }
}

/// Issue 17: every resource page opens with how to call it, built from the listing
/// alone. Counted against the raw 2025-12-31 catalogue read here directly (not through
/// `catalogue::call`): each ranked listing whose input schema names an HTTP method shows
/// it, every page shows its payTo and a request to copy above the limits and the
/// description, and a listing's body fields become the request's JSON body.
#[test]
fn resource_pages_open_with_the_price_the_method_the_pay_to_and_a_request_to_copy() {
    let out = build_real("call");
    let raw: Value =
        serde_json::from_slice(&fs::read(repo_root().join("content/snapshots/2025-12-31.json")).unwrap()).unwrap();
    let index = Index::read(&repo_root().join("content/snapshots/2025-12-31.json"), &Method::embedded()).unwrap();
    let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"];
    let (mut stated, mut with_body) = (0, 0);
    for e in &index.entries {
        let item =
            raw["items"].as_array().unwrap().iter().rev().find(|i| i["resource"] == e.resource.url.as_str()).unwrap();
        let input =
            item["accepts"].as_array().and_then(|a| a.iter().find_map(|a| a["outputSchema"]["input"].as_object()));
        let method = input
            .and_then(|i| i.get("method"))
            .and_then(Value::as_str)
            .map(str::to_ascii_uppercase)
            .filter(|m| methods.contains(&m.as_str()));
        let page = fs::read_to_string(
            out.join("2025-12-31").join(format!("r/{}/index.html", names::resource_slug(&e.resource.url))),
        )
        .unwrap();
        let call = page.find(r#"<section aria-labelledby="call-h" class="call">"#).expect("a call section");
        assert!(call < page.find(r#"<aside class="limits""#).unwrap() && call < page.find(r#"id="desc-h""#).unwrap());
        assert!(
            page.contains(r#"<pre class="copy" id="curl" tabindex="0"><code>curl -i --globoff "#),
            "{}",
            e.resource.url
        );
        for pay_to in e.resource.accepts.iter().filter_map(|a| a.pay_to.as_deref()).filter(|p| !p.is_empty()) {
            assert!(page.contains(pay_to), "{}: payTo {pay_to}", e.resource.url);
        }
        if let Some(m) = &method {
            stated += 1;
            assert!(page.contains(&format!("HTTP method: <code>{m}</code>")), "{}", e.resource.url);
        }
        // What the request sends is checked page by page in tests/it/calls.rs.
        if input.and_then(|i| i.get("bodyFields").or(i.get("body_fields"))).and_then(Value::as_object).is_some() {
            with_body += 1;
        }
    }
    // The catalogue README: a method for 1,360 of the 1,400 December listings.
    assert!(stated >= 1300, "{stated} pages state a method");
    assert!(with_body >= 600, "{with_body} pages send body fields");
}

/// Issue 17, part 7: no hole in the site. Every folder a visitor reaches by trimming a
/// URL has an index page (the API's inner folders are files for programs, and are left
/// out), the root has a 404 page that offers the default snapshot's search and every
/// snapshot, and a facet value no resource has is not a link to an empty table.
#[test]
fn every_folder_has_an_index_page_and_the_404_page_offers_ways_in() {
    let out = build_real("folders");
    let mut folders = 0;
    let mut dirs = vec![out.to_path_buf()];
    let mut all = Vec::new();
    while let Some(dir) = dirs.pop() {
        let site_dirs =
            |e: &fs::DirEntry| e.file_type().unwrap().is_dir() && e.file_name() != publish::incremental::RECORDS_DIR;
        for entry in fs::read_dir(&dir).unwrap().map(Result::unwrap).filter(site_dirs) {
            dirs.push(entry.path());
        }
        all.push(dir);
    }
    for dir in all.iter().filter(|d| d.as_path() != out.path()) {
        let rel = dir.strip_prefix(&out).unwrap().to_string_lossy().into_owned();
        let in_api = rel.split('/').nth(1) == Some("api") && rel.split('/').count() > 2;
        if in_api {
            continue;
        }
        folders += 1;
        assert!(dir.join("index.html").is_file(), "no index page in /{rel}/");
    }
    assert!(folders > 1500, "{folders}");
    for (dir, says) in [
        ("2025-12-31/network", "Resources by network"),
        ("2025-12-31/price", "Resources by lowest USD price per call"),
        ("2025-12-31/segment", "Resources by segment"),
        ("2025-12-31/browse/page", "Page 2"),
        ("2025-12-31/r", "Browse all"),
        ("2025-12-31/api", "manifest.json"),
        ("method", &format!("Version {DISCOVERY_METHOD_VERSION} (current)")),
        ("schema", "answer.schema.json"),
    ] {
        let page = fs::read_to_string(out.join(dir).join("index.html")).unwrap();
        assert!(page.contains(says), "/{dir}/ does not say {says:?}");
    }
    let missing = fs::read_to_string(out.join("404.html")).unwrap();
    assert!(missing.contains(r#"<a href="/2025-12-31/search/">Search the snapshot of 2025-12-31</a>"#), "{missing}");
    for d in REAL_DATES {
        assert!(missing.contains(&format!(r#"<a href="/{d}/">Snapshot of {d}</a>"#)), "{d}");
    }
    // 2026-08-20's twenty listings leave price bands empty: shown with 0, not linked.
    let home = fs::read_to_string(out.join("2026-08-20/index.html")).unwrap();
    assert!(home.contains(r#"<li>Over $1 <span class="num">0</span>"#), "an empty band is listed as text");
    assert!(!home.contains(r#"price/over-1/">"#), "an empty band is not a link");
    let prices = fs::read_to_string(out.join("2026-08-20/price/index.html")).unwrap();
    assert!(prices.contains(r#"<li>Over $1 <span class="num">0</span>"#) && !prices.contains(r#"price/over-1/">"#));
}

/// A killed build leaves hidden `.staging-*` and `.old-*` folders; the next build
/// deletes those of builds no longer running (and keeps a running one's), and deletes
/// the folder it replaces after the new one is in place.
#[test]
fn leftovers_of_killed_builds_and_the_replaced_folder_are_deleted() {
    let scratch = temp_dir("leftovers");
    let snap = import_file(&repo_root().join("tests/fixtures/site/mini.json"), "2026-01-10").unwrap();
    let path = snap.write_into(&scratch.join("snapshots"), false).unwrap();
    let out = scratch.join("public");
    let build = || {
        let o = Command::new(env!("CARGO_BIN_EXE_x402dir"))
            // --rebuild: each build replaces the folder, even where it could be kept.
            .args(["build", "--no-lock", "--rebuild", "--snapshot"])
            .arg(&path)
            .arg("--out")
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
    };
    build();
    // What kill -9 leaves: a staging folder and a replaced one, of a process that is gone
    // (no pid is this large), and a staging folder of a build still running (this one).
    let dead = 99_999_999;
    let left = [format!(".staging-2026-01-10-{dead}"), format!(".old-2026-01-10-{dead}.0")];
    let running = format!(".staging-2026-01-10-{}", std::process::id());
    for name in left.iter().chain([&running]) {
        fs::create_dir_all(out.join(name).join("r/x")).unwrap();
        fs::write(out.join(name).join("r/x/index.html"), "left over").unwrap();
    }
    let before = files_under(&out.join("2026-01-10"));
    let (stdout, _) = build();
    assert!(stdout.contains("built 2026-01-10"), "{stdout}");
    let mut hidden: Vec<String> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with('.') && n != publish::incremental::RECORDS_DIR)
        .collect();
    hidden.sort();
    assert_eq!(hidden, [running], "the running build's folder is kept, the rest deleted");
    assert_eq!(files_under(&out.join("2026-01-10")), before, "the rebuilt folder is whole");
}

/// `value` holds `example` (docs/static-api.md's examples): every key the example names,
/// with the same value; `complete` also wants every key of `value` in the example (but
/// inside `labels`, which the page cuts short). `pending` names example keys the build
/// may not have yet, by path (`records.blocks`).
fn holds(value: &Value, example: &Value, complete: bool, at: &str, pending: &[&str]) -> Result<(), String> {
    match (value, example) {
        (Value::Object(v), Value::Object(e)) => {
            for (k, ev) in e {
                let path = if at.is_empty() { k.clone() } else { format!("{at}.{k}") };
                match v.get(k) {
                    Some(vv) => holds(vv, ev, complete && k != "labels", &path, pending)?,
                    None if pending.contains(&path.as_str()) => {}
                    None => return Err(format!("{path}: in the example, not in the built file")),
                }
            }
            match v.keys().find(|k| complete && !e.contains_key(*k)) {
                Some(k) => Err(format!("{at}.{k}: in the built file, not in the example")),
                None => Ok(()),
            }
        }
        (Value::Array(v), Value::Array(e)) if v.len() == e.len() => v
            .iter()
            .zip(e)
            .enumerate()
            .try_for_each(|(i, (v, e))| holds(v, e, complete, &format!("{at}[{i}]"), pending)),
        _ if value == example => Ok(()),
        _ => Err(format!("{at}: built {value}, example {example}")),
    }
}

#[test]
fn every_earlier_version_s_address_says_what_replaced_it() {
    let out = build_real("superseded");
    let page = |address: &str| fs::read_to_string(out.join(names::root_dir(address)).join("index.html"));
    let method_now = names::method_page();
    let explore_now = names::explore_method_page(explore::EXPLORE_VERSION);
    let api_now = names::static_api_page(shards::API_VERSION);
    // Versions the histories name (content/method.md and content/explore.md), and layouts.
    for (earlier, current) in [
        ("/method/1.0.0/", &method_now),
        ("/method/1.4.0/", &method_now),
        ("/explore/1.0.0/", &explore_now),
        ("/explore/2.3.1/", &explore_now),
        ("/explore/2.10.0/", &explore_now),
        ("/static-api/1/", &api_now),
        ("/static-api/4/", &api_now),
    ] {
        let text = page(earlier).unwrap_or_else(|e| panic!("{earlier}: {e}"));
        assert!(text.contains("<h1>Superseded: "), "{earlier}");
        assert!(text.contains(&format!("href=\"{current}\"")), "{earlier} links to {current}");
        assert!(text.contains(&format!("href=\"{current}#versions\"")), "{earlier}");
        // The page under the current version is the text itself, with the anchor linked.
        let now = page(current).unwrap();
        assert!(!now.contains("Superseded") && now.contains("id=\"versions\""), "{current}");
    }
    // No page for a version no history names, nor for the one after the current.
    for never in ["/method/0.9.0/", "/explore/2.10.9/", "/explore/3.0.0/"] {
        assert!(page(never).is_err(), "{never}");
    }
    let api_next = names::static_api_page(shards::API_VERSION + 1);
    assert!(page(&api_next).is_err(), "{api_next}");
    // The folder pages list every version, the current one first.
    let explore_folder = page("/explore/").unwrap();
    let first = explore_folder.find(&format!("href=\"{explore_now}\"")).unwrap();
    assert!(first < explore_folder.find("href=\"/explore/2.10.0/\"").unwrap());
    assert!(explore_folder.contains("href=\"/explore/1.0.0/\""));
    let method_folder = page("/method/").unwrap();
    assert!(
        method_folder.contains("href=\"/method/1.3.1/\"") && method_folder.contains(&format!("href=\"{method_now}\""))
    );
    assert!(page("/static-api/").unwrap().contains("href=\"/static-api/2/\""));
}

/// Issue 18: the static API's format is a page of the site at its layout's address,
/// linked from llms.txt, the method page and every manifest; every section heading of
/// docs/static-api.md is on it with its contents entry; its links land; and its
/// examples (each marked `<!-- example: FILE [complete | #N] -->`) are the built files.
#[test]
fn the_static_api_page_is_published_linked_and_its_examples_are_real() {
    let out = build_real("static-api");
    let base = Method::embedded().site.base_url.clone();
    let address = names::static_api_page(shards::API_VERSION);
    assert_eq!(address, "/static-api/5/");
    let page = fs::read_to_string(out.join(names::root_dir(&address)).join("index.html")).unwrap();
    let md = fs::read_to_string(repo_root().join("docs/static-api.md")).unwrap();
    let ids: Vec<&str> = md
        .lines()
        .filter(|l| l.starts_with("## "))
        .map(|l| l.rsplit_once("{#").and_then(|(_, id)| id.strip_suffix('}')).unwrap_or_else(|| panic!("no id: {l}")))
        .collect();
    assert!(ids.len() >= 15, "{ids:?}");
    for id in &ids {
        assert!(page.contains(&format!("<h2 id=\"{id}\">")), "no section {id}");
        assert!(page.contains(&format!("<li><a href=\"#{id}\">")), "no contents entry for {id}");
    }
    // Every link into the site lands on a built file, and on its anchor.
    let mut links = 0;
    for href in page.split("href=\"").skip(1).map(|s| &s[..s.find('"').unwrap()]) {
        let Some(rel) = href.strip_prefix('/') else { continue };
        let (rel, anchor) = rel.split_once('#').unwrap_or((rel, ""));
        let file = if rel.is_empty() || rel.ends_with('/') { out.join(rel).join("index.html") } else { out.join(rel) };
        assert!(file.is_file(), "the page links to {href}, which the build did not write");
        if !anchor.is_empty() {
            let target = if rel.is_empty() { page.clone() } else { fs::read_to_string(&file).unwrap() };
            assert!(target.contains(&format!("id=\"{anchor}\"")), "{href}: no such anchor");
        }
        links += 1;
    }
    assert!(links >= 10, "{links}");
    for anchor in page.split("href=\"#").skip(1).map(|s| &s[..s.find('"').unwrap()]) {
        assert!(page.contains(&format!("id=\"{anchor}\"")), "#{anchor}: no such anchor");
    }
    // Linked from llms.txt, the method page and every manifest.
    let absolute = names::absolute(&base, &address);
    assert!(fs::read_to_string(out.join("llms.txt")).unwrap().contains(&format!("]({absolute})")));
    let method = fs::read_to_string(out.join(names::root_dir(&names::method_page())).join("index.html")).unwrap();
    assert!(method.contains(&format!("href=\"{address}\"")), "the method page does not link the format page");
    for d in REAL_DATES {
        assert_eq!(json_file(&out.join(d).join(names::MANIFEST.file(&[])))["docs"], absolute.as_str(), "{d}");
    }
    // The examples are the built files, every key of them.
    let pending: [&str; 0] = [];
    let mut examples = 0;
    for block in md.split("<!-- example: ").skip(1) {
        let (marker, rest) = block.split_once(" -->").unwrap();
        let (file, mode) = marker.split_once(' ').unwrap_or((marker, ""));
        let json = rest.split_once("```json\n").unwrap().1;
        let json = json[..json.find("```").unwrap()].lines().map(str::trim_start).collect::<Vec<_>>().join("\n");
        let example: Value = serde_json::from_str(&json).unwrap_or_else(|e| panic!("{file}: {e}"));
        let mut built = json_file(&out.join(file));
        if let Some(n) = mode.strip_prefix('#') {
            built = built[n.parse::<usize>().unwrap()].clone();
        }
        holds(&built, &example, mode == "complete", "", &pending).unwrap_or_else(|e| panic!("{file}: {e}"));
        examples += 1;
    }
    assert!(examples >= 6, "{examples}");
}
