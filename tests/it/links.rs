//! Every internal link of a built site leads to a file the build wrote: each `href`,
//! `src` and `action` of every page, for the three embedded snapshots and a synthetic
//! one, resolved as a browser resolves it from the page's address (and through the
//! `_redirects` rules for `latest/`), names a file or a folder with an `index.html`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use crate::common::{all_files, html, repo_root, temp_dir, REAL_DATES};
use method::Method;

/// The address a link leads to from the page at `page` (an address ending in `/`), or
/// `None` for a link off the site or within the page.
fn resolve(page: &str, link: &str) -> Option<String> {
    let link = link.replace("&amp;", "&");
    let link = link.split(['#', '?']).next().unwrap_or("");
    let scheme = link.split_once(':').is_some_and(|(s, _)| !s.is_empty() && !s.contains('/'));
    if link.is_empty() || scheme || link.starts_with("//") {
        return None;
    }
    let joined = if link.starts_with('/') { link.to_owned() } else { format!("{page}{link}") };
    // Dot segments, as a browser removes them.
    let mut parts: Vec<&str> = Vec::new();
    for part in joined.split('/').skip(1) {
        match part {
            ".." => {
                parts.pop();
            }
            "." => {}
            other => parts.push(other),
        }
    }
    Some(format!("/{}", parts.join("/")))
}

/// The file an address is served from: `latest/` rewritten to its date as `_redirects`
/// says, a folder's `index.html`, a file as it is.
fn served(address: &str, latest: &str, files: &BTreeSet<String>) -> bool {
    let address = match address.strip_prefix("/latest") {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => format!("{latest}{}", rest.trim_start_matches('/')),
        _ => address.to_owned(),
    };
    let rel = address.trim_start_matches('/');
    if rel.is_empty() || rel.ends_with('/') {
        return files.contains(&format!("{rel}index.html"));
    }
    files.contains(rel) || files.contains(&format!("{rel}/index.html"))
}

#[test]
fn every_internal_link_of_a_built_site_leads_to_a_file() {
    let dir = temp_dir("links");
    let synthetic = dir.join("synthetic");
    let status = Command::new(env!("CARGO_BIN_EXE_x402dir"))
        .args(["synth", "--items", "600", "--seed", "7", "--date", "2026-01-15", "--dir"])
        .arg(&synthetic)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let mut snapshots: Vec<_> =
        REAL_DATES.iter().map(|d| repo_root().join(format!("content/snapshots/{d}.json"))).collect();
    snapshots.push(synthetic.join("2026-01-15.json"));
    let out = dir.join("public");
    publish::build(&snapshots, &out, &Method::embedded()).unwrap();

    let files: BTreeSet<String> =
        all_files(&out).iter().map(|f| f.strip_prefix(&out).unwrap().to_str().unwrap().replace('\\', "/")).collect();
    let redirects = std::fs::read_to_string(out.join("_redirects")).unwrap();
    let latest = redirects.lines().find_map(|l| l.strip_prefix("/latest/* ")).unwrap().split(":splat").next().unwrap();
    let mut checked = 0;
    let mut broken: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files.iter().filter(|f| f.ends_with(".html")) {
        let page = match file.strip_suffix("index.html") {
            Some(folder) => format!("/{folder}"),
            // A page that is not a folder's index (404.html) is served at any address:
            // its links must not depend on where it is read from.
            None => "/nowhere/at/all/".to_owned(),
        };
        let text = std::fs::read_to_string(Path::new(&out).join(file)).unwrap();
        for tag in html::tags(&text) {
            for (name, value) in &tag.attributes {
                if !["href", "src", "action"].contains(&name.as_str()) {
                    continue;
                }
                let Some(address) = resolve(&page, value) else { continue };
                checked += 1;
                if !served(&address, latest, &files) {
                    broken.entry(format!("{value} -> {address}")).or_default().insert(file.clone());
                }
            }
        }
    }
    // The absolute addresses the feeds, sitemaps, robots.txt and llms.txt give, on the
    // site's own host.
    let base = &Method::embedded().site.base_url;
    let mut absolute_checked = 0;
    let absolute = regex::Regex::new(r#"https?://[^\s"<>()\[\]`]+"#).unwrap();
    for file in files.iter().filter(|f| f.ends_with(".xml") || f.ends_with(".txt")) {
        let text = std::fs::read_to_string(Path::new(&out).join(file)).unwrap();
        for found in absolute.find_iter(&text) {
            let Some(address) = found.as_str().strip_prefix(base.as_str()) else { continue };
            let address = address.replace("&amp;", "&");
            // A template for the reader to fill in (llms.txt's `q/{word}.json`).
            if address.contains('{') {
                continue;
            }
            absolute_checked += 1;
            if !served(&resolve("/", &address).unwrap(), latest, &files) {
                broken.entry(format!("{address} (absolute)")).or_default().insert(file.clone());
            }
        }
    }
    let report: Vec<String> = broken
        .iter()
        .take(20)
        .map(|(link, pages)| format!("{link} (on {} pages, e.g. {})", pages.len(), pages.iter().next().unwrap()))
        .collect();
    assert!(broken.is_empty(), "{} links lead nowhere:\n{}", broken.len(), report.join("\n"));
    // Every kind of page was read: the four dated folders, their resource pages, the root.
    for date in REAL_DATES.iter().chain(&["2026-01-15"]) {
        assert!(files.contains(&format!("{date}/index.html")), "{date} built");
    }
    assert!(files.contains("index.html") && files.contains("404.html"));
    assert!(checked > 50_000, "{checked} links checked");
    // Every page is in a sitemap, so there are more absolute addresses than pages.
    let pages = files.iter().filter(|f| f.ends_with("index.html")).count();
    assert!(absolute_checked > pages, "{absolute_checked} absolute addresses checked, {pages} pages");
}

#[test]
fn links_resolve_as_a_browser_resolves_them() {
    assert_eq!(resolve("/2025-12-31/search/", "../browse/").as_deref(), Some("/2025-12-31/browse/"));
    assert_eq!(resolve("/2025-12-31/", "feed.xml").as_deref(), Some("/2025-12-31/feed.xml"));
    assert_eq!(resolve("/a/", "/method/1.4.0/#limits").as_deref(), Some("/method/1.4.0/"));
    assert_eq!(resolve("/a/", "https://example.com/x"), None);
    assert_eq!(resolve("/a/", "#main"), None);
    let files: BTreeSet<String> = ["2025-12-31/index.html", "2025-12-31/api/report.json"].map(str::to_owned).into();
    assert!(served("/latest/", "/2025-12-31/", &files));
    assert!(served("/2025-12-31/api/report.json", "/2025-12-31/", &files));
    assert!(!served("/2025-12-31/browse/", "/2025-12-31/", &files));
}
