//! The files at the site's root, outside any snapshot: the list of dates, the versioned
//! method pages, the JSON Schemas, the `latest/` rewrite, and what crawlers and agents
//! read first.

use std::fs;

use askama::Template;

use super::folder::{FolderItem, FolderPage};
use super::{html, markdown, Chrome};
use crate::agents;
use crate::api::method::API_VERSION;
use crate::output::Output;
use catalogue::error::Error;
use catalogue::snapshot::parse_date;
use explore::eval::{self, GoldenSet};
use explore::EXPLORE_VERSION;
use method::names;
use method::walk::Walk;
use method::{Method, DISCOVERY_METHOD_VERSION};

/// Published at the site root, under `schema/`.
const SCHEMAS: &[(&str, &str)] = &[
    ("answer.schema.json", include_str!("../../../../content/schema/answer.schema.json")),
    ("explore-answer.schema.json", include_str!("../../../../content/schema/explore-answer.schema.json")),
    ("manifest.schema.json", include_str!("../../../../content/schema/manifest.schema.json")),
    ("record.schema.json", include_str!("../../../../content/schema/record.schema.json")),
    ("record-block.schema.json", include_str!("../../../../content/schema/record-block.schema.json")),
];

const GOLDEN_RULES: &str = include_str!("../../../../content/explore/golden/RULES.md");

pub(crate) struct DateLink {
    pub(crate) date: String,
    pub(crate) entries: usize,
    pub(crate) complete: bool,
    /// The manifest's `snapshot.notices`: partial, no usage counters.
    pub(crate) notices: Vec<String>,
}

#[derive(Template)]
#[template(path = "root.html")]
pub(crate) struct RootPage<'a> {
    pub(crate) c: &'a Chrome,
    /// Newest first.
    pub(crate) dates: &'a [DateLink],
    /// The date `latest/` and the CLI lead to: the newest complete snapshot.
    pub(crate) default: String,
    /// The evaluation page, when the golden set's snapshot is published.
    pub(crate) evaluation: Option<String>,
    pub(crate) explore_page: String,
    pub(crate) explore_version: &'static str,
    /// The newest snapshot's walk: when the next walk is due.
    pub(crate) newest_walk: Option<Walk>,
    /// The default snapshot's fixed address, and the list of snapshots as JSON.
    pub(crate) latest: &'static str,
    pub(crate) snapshots_json: String,
    /// The default snapshot's search page: where the root's search box sends its words.
    pub(crate) search_action: String,
    /// Example searches that find something in the default snapshot: (words, link).
    pub(crate) examples: Vec<(String, String)>,
    /// How many resources the default snapshot lists.
    pub(crate) default_entries: usize,
}

/// Words offered as examples on the root page, the first three the default snapshot
/// answers being shown: a visitor's first search should find something.
const EXAMPLE_WORDS: [&str; 8] = ["weather", "image", "news", "swap", "translate", "search", "price", "wallet"];

/// Root files: the list of dates, the versioned method pages, JSON Schemas, the
/// `latest/` rewrite for Netlify (`_redirects`, read from the published folder), and
/// what crawlers and agents read first (`robots.txt`, sitemaps, `llms.txt`). Made from
/// the dated folders in `output`, so they name every build there, not only this one's.
pub fn write_root(output: &Output, method: &Method) -> Result<(), Error> {
    let dates = date_links(output)?;
    let Some(default) = default_date(&dates) else { return Ok(()) };
    let default = default.to_owned();
    // The root pages borrow the default snapshot's stylesheet.
    let chrome = Chrome::outside(&default);
    write_date_list(output, &chrome, &dates, &default)?;
    // Each versioned page's versions, read once from the histories for both uses.
    let versioned = Versioned::all();
    write_method_pages(output, &chrome, &versioned)?;
    for (name, text) in SCHEMAS {
        output.write(&format!("{}{name}", names::SCHEMA_DIR), text.as_bytes())?;
    }
    write_folder_pages(output, &chrome, &versioned, &dates, &default)?;
    // `/latest` moves to the default's home; every address under `/latest/` is read from
    // the default's folder, so a link made there keeps working once the date moves on.
    let (latest, latest_home) = (names::LATEST, names::in_snapshot(&default, names::HOME_DIR));
    let redirects = format!("{} {latest_home} 302\n{latest}* {latest_home}:splat 200\n", latest.trim_end_matches('/'));
    output.write(names::REDIRECTS_FILE, redirects.as_bytes())?;
    write_agent_files(output, &method.site.base_url, &dates, &default)
}

/// The snapshot a visitor is led to first: the newest complete one, or the newest when
/// none is complete (the same choice as the CLI's, `snapshot::default_choice`).
/// `dates` newest first.
pub(crate) fn default_date(dates: &[DateLink]) -> Option<&str> {
    dates.iter().find(|d| d.complete).or(dates.first()).map(|d| d.date.as_str())
}

/// Every finished build in `output`, newest first, as its manifest describes it.
fn date_links(output: &Output) -> Result<Vec<DateLink>, Error> {
    let mut links = Vec::new();
    for d in built_dates(output)? {
        let path = output.path(names::root_dir(&names::in_snapshot(&d, &names::MANIFEST.file(&[]))))?;
        let manifest: serde_json::Value = serde_json::from_slice(&fs::read(&path).map_err(|e| Error::io(&path, e))?)
            .map_err(|e| Error::input(&path, e.to_string()))?;
        let snapshot = &manifest["snapshot"];
        links.push(DateLink {
            date: d,
            entries: manifest["counts"]["entries"].as_u64().unwrap_or(0) as usize,
            complete: snapshot["complete"].as_bool().unwrap_or(false),
            notices: snapshot["notices"]
                .as_array()
                .map(|n| n.iter().filter_map(|n| n.as_str().map(str::to_owned)).collect())
                .unwrap_or_default(),
        });
    }
    Ok(links)
}

/// The dates of the finished builds in `output` (folders holding a manifest), newest first.
fn built_dates(output: &Output) -> Result<Vec<String>, Error> {
    let mut dates = Vec::new();
    for entry in fs::read_dir(output.root()).map_err(|e| Error::io(output.root(), e))? {
        let entry = entry.map_err(|e| Error::io(output.root(), e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if parse_date(&name).is_ok() && entry.path().join(names::MANIFEST.file(&[])).is_file() {
            dates.push(name);
        }
    }
    dates.sort_unstable_by(|a, b| b.cmp(a));
    Ok(dates)
}

/// The root's index: every date with its count of resources and its notices.
fn write_date_list(output: &Output, chrome: &Chrome, dates: &[DateLink], default: &str) -> Result<(), Error> {
    let golden = GoldenSet::embedded()?.snapshot;
    let evaluation_page = names::in_snapshot(&golden, names::EVALUATION_DIR);
    let evaluation =
        output.path(names::root_dir(&names::page_file(&evaluation_page)))?.is_file().then_some(evaluation_page);
    let page = RootPage {
        c: chrome,
        dates,
        default: default.to_owned(),
        evaluation,
        explore_page: names::explore_method_page(EXPLORE_VERSION),
        explore_version: EXPLORE_VERSION,
        newest_walk: dates.first().map(|d| Walk::of(&d.date)),
        latest: names::LATEST,
        snapshots_json: names::at_root(names::SNAPSHOTS_FILE),
        search_action: names::in_snapshot(default, names::SEARCH_DIR),
        examples: examples(output, default)?,
        default_entries: dates.iter().find(|d| d.date == default).map_or(0, |d| d.entries),
    };
    output.write(&names::page_file(names::root_dir(names::ROOT)), &html(&page)?)
}

/// The first three of [`EXAMPLE_WORDS`] whose single-word answer in `default` matches
/// something, each with its search link.
fn examples(output: &Output, default: &str) -> Result<Vec<(String, String)>, Error> {
    let mut found = Vec::new();
    for word in EXAMPLE_WORDS {
        let answer = names::in_snapshot(default, &names::ANSWERS.file(&[&names::token_file(word)]));
        let path = output.path(names::root_dir(&answer))?;
        let Ok(bytes) = fs::read(&path) else { continue };
        let answer: serde_json::Value =
            serde_json::from_slice(&bytes).map_err(|e| Error::input(&path, e.to_string()))?;
        if answer["meta"]["total_matched"].as_u64().unwrap_or(0) > 0 {
            let link = format!("{}?q={word}", names::in_snapshot(default, names::SEARCH_DIR));
            found.push((word.to_owned(), link));
        }
        if found.len() == 3 {
            break;
        }
    }
    Ok(found)
}

/// An entry of a folder page that links somewhere.
fn item(label: &str, href: String, note: Option<String>) -> FolderItem {
    FolderItem { label: label.to_owned(), href: Some(href), note }
}

/// Index pages for the root's folders (`method/`, `explore/`, its golden set's folder,
/// `schema/`) and the site's 404 page, which Netlify and `x402dir serve` send for any
/// missing path: it offers the default snapshot's search and every snapshot.
fn write_folder_pages(
    output: &Output,
    chrome: &Chrome,
    versioned: &[Versioned; 3],
    dates: &[DateLink],
    default: &str,
) -> Result<(), Error> {
    let method_page = names::method_page();
    let explore_page = names::explore_method_page(EXPLORE_VERSION);
    let [method_versions, api_layouts, explore_versions] = versioned;
    let folders = [
        (
            names::root_dir(names::METHOD_FOLDER).to_owned(),
            "The directory method".to_owned(),
            "The one rule every answer follows, published under each version.".to_owned(),
            method_versions.items("Version"),
        ),
        (
            names::root_dir(names::STATIC_API_FOLDER).to_owned(),
            "The static JSON API".to_owned(),
            "The format of each snapshot's JSON files, for programs, published under each layout.".to_owned(),
            api_layouts.items("Layout"),
        ),
        (
            names::root_dir(names::EXPLORE_FOLDER).to_owned(),
            "Explore".to_owned(),
            "A separately versioned ranking for needs put in other words; never the directory's answer.".to_owned(),
            explore_versions.items("Version"),
        ),
        (
            format!("{}{}", names::root_dir(&explore_page), names::GOLDEN_DIR),
            "Explore's golden set".to_owned(),
            "The hand-labelled queries explore is measured on, and how they were labelled.".to_owned(),
            std::iter::once(item(
                "Labelling rules (RULES.md)",
                format!("{explore_page}{}", names::GOLDEN_RULES_FILE),
                None,
            ))
            .chain(eval::FILES.iter().map(|f| item(f.title, format!("{explore_page}{}", f.published), None)))
            .collect(),
        ),
        (
            names::SCHEMA_DIR.to_owned(),
            "JSON Schemas".to_owned(),
            "The schemas of the answer envelope, the manifest and the records.".to_owned(),
            SCHEMAS
                .iter()
                .map(|(name, _)| item(name, names::at_root(&format!("{}{name}", names::SCHEMA_DIR)), None))
                .collect(),
        ),
    ];
    for (dir, heading, intro, items) in folders {
        let page = FolderPage { c: chrome, heading, intro, items, not_found: false };
        output.write(&names::page_file(names::root_dir(&dir)), &html(&page)?)?;
    }
    let mut items = vec![item(
        &format!("Search the snapshot of {default}"),
        names::in_snapshot(default, names::SEARCH_DIR),
        Some("the newest complete one".into()),
    )];
    items.extend(dates.iter().map(|d| {
        item(
            &format!("Snapshot of {}", d.date),
            names::in_snapshot(&d.date, names::HOME_DIR),
            Some(d.notices.join("; ")).filter(|n| !n.is_empty()),
        )
    }));
    items.push(item(&format!("The directory method {DISCOVERY_METHOD_VERSION}"), method_page, None));
    let page = FolderPage {
        c: chrome,
        heading: "No page here".to_owned(),
        intro: "Nothing is published at this address. Dated folders never move, so a link that worked once still \
                works with its date; these are the ways in."
            .to_owned(),
        items,
        not_found: true,
    };
    output.write(names::NOT_FOUND_FILE, &html(&page)?)
}

/// The method's page, the static API's format page and explore's page, each under its
/// version, with the golden set explore's evaluation is measured on.
fn write_method_pages(output: &Output, chrome: &Chrome, versioned: &[Versioned]) -> Result<(), Error> {
    let method_dir = names::method_page();
    output.write(&names::page_file(names::root_dir(&method_dir)), &html(&markdown::method_page(chrome))?)?;
    let static_api_dir = names::static_api_page(API_VERSION);
    let static_api = markdown::static_api_page(chrome, API_VERSION);
    output.write(&names::page_file(names::root_dir(&static_api_dir)), &html(&static_api)?)?;
    let explore_dir = names::explore_method_page(EXPLORE_VERSION);
    let explore_dir = names::root_dir(&explore_dir);
    output.write(&names::page_file(explore_dir), &html(&markdown::explore_method_page(chrome))?)?;
    output.write(&format!("{explore_dir}{}", names::GOLDEN_RULES_FILE), GOLDEN_RULES.as_bytes())?;
    for file in &eval::FILES {
        output.write(&format!("{explore_dir}{}", file.published), file.text.as_bytes())?;
    }
    write_superseded_pages(output, chrome, versioned)
}

/// A page published under its version (the method, the static API's format, explore):
/// its address for each version, the current one and those it replaced.
struct Versioned {
    folder: &'static str,
    /// What a version is called in a sentence: "method 1.4.1", "layout 5 of the static JSON API".
    title: fn(&str) -> String,
    current: String,
    /// Newest first, as the page's own version history lists them.
    earlier: Vec<String>,
    /// Where an answer or file says which version made it.
    field: &'static str,
    /// What the current page says of the versions before it.
    history: &'static str,
}

impl Versioned {
    fn all() -> [Versioned; 3] {
        let owned = |versions: Vec<&str>| versions.into_iter().map(str::to_owned).collect();
        [
            Versioned {
                folder: names::METHOD_FOLDER,
                title: |v| format!("method {v}"),
                current: DISCOVERY_METHOD_VERSION.to_owned(),
                earlier: owned(markdown::superseded_method_versions()),
                field: "meta.method.version",
                history: "The current page's version history says what each version changed, and when.",
            },
            Versioned {
                folder: names::STATIC_API_FOLDER,
                title: |v| format!("layout {v} of the static JSON API"),
                current: API_VERSION.to_string(),
                earlier: (1..API_VERSION).rev().map(|n| n.to_string()).collect(),
                field: "api_version, in each manifest",
                history:
                    "The current page's section on versions says how a client tells layouts and method versions apart.",
            },
            Versioned {
                folder: names::EXPLORE_FOLDER,
                title: |v| format!("explore {v}"),
                current: EXPLORE_VERSION.to_owned(),
                earlier: owned(markdown::superseded_explore_versions()),
                field: "meta.explore.version",
                history: "The current page's version history says what each version changed.",
            },
        ]
    }

    fn page(&self, version: &str) -> String {
        names::versioned_page(self.folder, version)
    }

    /// The folder page's entries: the current version, then each it replaced.
    fn items(&self, label: &str) -> Vec<FolderItem> {
        std::iter::once(item(&format!("{label} {} (current)", self.current), self.page(&self.current), None))
            .chain(self.earlier.iter().map(|v| item(&format!("{label} {v}"), self.page(v), Some("superseded".into()))))
            .collect()
    }
}

/// A page at each earlier version's address, so that a link an older answer carries
/// (`meta.method.url`, `meta.explore.url`) or a reviewer cited says what replaced it
/// rather than "not found". Only the current text is published; earlier texts live in the
/// repository's history.
fn write_superseded_pages(output: &Output, chrome: &Chrome, versioned: &[Versioned]) -> Result<(), Error> {
    for kind in versioned {
        let current = (kind.title)(&kind.current);
        let current_page = kind.page(&kind.current);
        for version in &kind.earlier {
            let this = (kind.title)(version);
            let page = FolderPage {
                c: chrome,
                heading: format!("Superseded: {this}"),
                intro: format!(
                    "This address named {this}, which {current} has replaced. Every answer and file says which \
                     version made it ({}), and answers are comparable only under the same version. Only the \
                     current text is published; earlier texts are kept in the project's repository. {}",
                    kind.field, kind.history
                ),
                items: vec![
                    item(&format!("The current text: {current}"), current_page.clone(), None),
                    item("Versions", format!("{current_page}#versions"), None),
                ],
                not_found: false,
            };
            output.write(&names::page_file(names::root_dir(&kind.page(version))), &html(&page)?)?;
        }
    }
    Ok(())
}

/// The sitemap index (naming every date's sitemaps), the site-wide sitemap,
/// `robots.txt` and `llms.txt`; `dates` newest first.
fn write_agent_files(output: &Output, base_url: &str, dates: &[DateLink], default: &str) -> Result<(), Error> {
    let mut sitemaps = Vec::new();
    for d in dates {
        let folder = output.path(&d.date)?;
        let mut files: Vec<String> = fs::read_dir(&folder)
            .map_err(|e| Error::io(&folder, e))?
            .filter_map(|entry| entry.ok()?.file_name().into_string().ok())
            .filter(|name| name.starts_with("sitemap-") && name.ends_with(".xml"))
            .collect();
        // sitemap-2 before sitemap-10.
        files.sort_by_key(|name| (name.len(), name.clone()));
        sitemaps.push((d.date.clone(), files));
    }
    let others: Vec<(String, Vec<String>)> =
        dates.iter().filter(|d| d.date != default).map(|d| (d.date.clone(), d.notices.clone())).collect();
    output.write(names::SITEMAP_FILE, agents::sitemap_index(base_url, &sitemaps).as_bytes())?;
    output.write(names::SITE_SITEMAP_FILE, agents::site_sitemap(base_url).as_bytes())?;
    output.write(names::ROBOTS_FILE, agents::robots(base_url).as_bytes())?;
    output.write(names::SNAPSHOTS_FILE, &snapshot_list(dates, default))?;
    output.write(names::LLMS_FILE, agents::llms_txt(base_url, default, &others).as_bytes())
}

/// `snapshots.json`: the default date, and every date newest first with its counts,
/// notices, walk (the manifest's: a snapshot is stale on any day after its `stale_after`,
/// as its pages say by the reader's clock; content/method.md#limits) and folders. Nothing
/// in it depends on the day it is built.
fn snapshot_list(dates: &[DateLink], default: &str) -> Vec<u8> {
    let snapshots: Vec<serde_json::Value> = dates
        .iter()
        .map(|d| {
            let walk = Walk::of(&d.date);
            serde_json::json!({
                "date": d.date,
                "complete": d.complete,
                "entries": d.entries,
                "notices": d.notices,
                "walk": walk,
                "home": names::in_snapshot(&d.date, names::HOME_DIR),
                "search": names::in_snapshot(&d.date, names::SEARCH_DIR),
                "api": names::in_snapshot(&d.date, names::API_DIR),
            })
        })
        .collect();
    serde_json::to_vec(&serde_json::json!({ "default": default, "snapshots": snapshots }))
        .expect("JSON values serialise")
}
