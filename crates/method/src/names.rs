//! Names: where each page and file lives on the published site, and the names derived
//! from a listing (its host, its page's slug) or a word (its file, its bucket). One
//! function or constant for each, so that the address an answer or a page links to and
//! the file the build writes cannot drift apart.
//!
//! A snapshot's pages are folders inside its dated folder (`dir`, ending in `/`): a
//! page's file is `{dir}index.html` and its address `/{date}/{dir}`; the JSON is under
//! `api/` (content/method.md#json, docs/static-api.md).
//!
//! A resource's page name is derived from its URL but can never steer where a file is
//! written: only the host's letters, digits, dots and hyphens survive, and a hash of
//! the whole URL keeps names unique. No part of the URL's path is used.

use sha2::{Digest, Sha256};

use super::DISCOVERY_METHOD_VERSION;
use catalogue::hash::fnv1a32;

/// The snapshot's home page.
pub const HOME_DIR: &str = "";
pub const SEARCH_DIR: &str = "search/";
pub const EXPLORE_DIR: &str = "explore/";
pub const METHOD_DIR: &str = "method/";
pub const CORRECTIONS_DIR: &str = "corrections/";
pub const REPORT_DIR: &str = "report/";
/// The golden-set evaluation, in the folder of the snapshot it was labelled on.
pub const EVALUATION_DIR: &str = "explore/evaluation/";
/// Every resource, in browse order.
pub const BROWSE_DIR: &str = "browse/";
/// The resources new since the previous snapshot (also its Atom feed, `feed.xml`).
pub const NEW_DIR: &str = "new/";
/// Resources with no readable USD price: the price facet past the bands.
pub const NO_USD_PRICE_DIR: &str = "price/no-usd-price/";
/// The JSON APIs' folder (docs/static-api.md).
pub const API_DIR: &str = "api/";
/// At the site's root: every published snapshot, newest first, with where its pages and
/// API are (what a search that found nothing reads to say where the words do match).
pub const SNAPSHOTS_FILE: &str = "snapshots.json";
/// The method API's manifest: a folder holding it is a finished build of its date.
pub const MANIFEST_FILE: &str = "api/manifest.json";
/// The assets every page links to (stylesheet, scripts, icon).
pub const STATIC_DIR: &str = "static/";

/// The address of the folder `dir` of snapshot `date`: `/{date}/{dir}`.
pub fn in_snapshot(date: &str, dir: &str) -> String {
    format!("/{date}/{dir}")
}

/// The file of the page whose folder is `dir` (relative to the folder it is in).
pub fn page_file(dir: &str) -> String {
    format!("{dir}index.html")
}

/// A resource's page: `r/{slug}/`.
pub fn resource_dir(slug: &str) -> String {
    format!("r/{slug}/")
}

/// The address of a resource's page in snapshot `date`.
pub fn resource_page(date: &str, slug: &str) -> String {
    in_snapshot(date, &resource_dir(slug))
}

/// A network's facet, by its folder-safe slug (`facets::network_slug`).
pub fn network_dir(slug: &str) -> String {
    format!("network/{slug}/")
}

/// A price band's facet.
pub fn price_dir(band: &str) -> String {
    format!("price/{band}/")
}

/// A segment's facet.
pub fn segment_dir(id: &str) -> String {
    format!("segment/{id}/")
}

/// Page `page` (from 1) of the listing in folder `dir`: the first page is the folder
/// itself, the others `page/{n}/` inside it.
pub fn listing_page_dir(dir: &str, page: usize) -> String {
    if page == 1 {
        dir.to_owned()
    } else {
        format!("{dir}page/{page}/")
    }
}

/// Record block `block` of the method API (docs/static-api.md, records).
pub fn record_block_file(block: usize) -> String {
    format!("api/records/{block}.json")
}

/// The method's page outside any snapshot, one per method version.
pub fn method_page() -> String {
    format!("/method/{DISCOVERY_METHOD_VERSION}/")
}

/// The folder of the static JSON API's format pages, one per API layout.
pub const STATIC_API_FOLDER: &str = "/static-api/";

/// The static JSON API's format page outside any snapshot (docs/static-api.md), one per
/// API layout (`site::api::method::API_VERSION`, passed in: the layout is the site's).
pub fn static_api_page(api_version: u32) -> String {
    format!("{STATIC_API_FOLDER}{api_version}/")
}

/// Explore's method page outside any snapshot, one per explore version (explore sits
/// above the method, so it names its version: `explore::EXPLORE_VERSION`).
pub fn explore_method_page(explore_version: &str) -> String {
    format!("/explore/{explore_version}/")
}

/// The absolute address of a site address (`/…`), for answers read off the site.
pub fn absolute(base_url: &str, address: &str) -> String {
    format!("{base_url}{address}")
}

/// The golden set's labelling rules, in explore's method page's folder.
pub const GOLDEN_RULES_FILE: &str = "golden/RULES.md";
/// The golden set's queries and labels, in explore's method page's folder.
pub const GOLDEN_SET_FILE: &str = "golden/golden.json";

/// A site-wide address (`/…/`) as a folder relative to the site's root.
pub fn root_dir(address: &str) -> &str {
    address.trim_start_matches('/')
}

/// The host part of a URL (between `://` and the first `/`, `?` or `#`, without
/// credentials or port), lower-cased. Empty when there is none.
pub fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let authority = rest.split(['/', '?', '#', '\\']).next().unwrap_or("");
    let host_port = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let host = if host_port.starts_with('[') {
        host_port.split_inclusive(']').next().unwrap_or("")
    } else {
        host_port.split(':').next().unwrap_or("")
    };
    host.to_ascii_lowercase()
}

/// A file-system-safe, unique, stable name for a resource's page.
pub fn resource_slug(url: &str) -> String {
    let host: String = host_of(url)
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '-' })
        .take(60)
        .collect();
    let host = host.trim_matches(|c| c == '.' || c == '-');
    let hash: String = catalogue::hash::hex(&Sha256::digest(url.as_bytes())[..6]);
    if host.is_empty() {
        format!("r-{hash}")
    } else {
        format!("{host}-{hash}")
    }
}

/// The bucket of `key` among `buckets` shard files (the manifests' `hash: "fnv1a32"`):
/// the composer computes the same, so the two cannot disagree about a file.
pub fn bucket(key: &str, buckets: usize) -> usize {
    fnv1a32(key) as usize % buckets
}

/// File name of a token's pack and single-token answer: the token itself when it is
/// at most 64 ASCII letters and digits; else `u-` and the hex of its UTF-8 bytes when
/// that is at most 128 characters; else `h-` and the SHA-256 of those bytes, so that no
/// token (catalogue text can hold a 4,000-letter word) makes an over-long file name.
pub fn token_file(token: &str) -> String {
    if token.len() <= 64 && token.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit()) {
        token.to_owned()
    } else if token.len() <= 64 {
        let hex: String = catalogue::hash::hex(token.as_bytes());
        format!("u-{hex}")
    } else {
        let hash: String = catalogue::hash::hex(&Sha256::digest(token.as_bytes()));
        format!("h-{hash}")
    }
}

/// Key for the posting list of the resources that accept payment only on test networks
/// (the `exclude_testnets` filter).
pub const TESTNETS_ONLY_KEY: &str = "@testnets-only";

/// Key for the posting list of a network filter.
pub fn network_key(caip2: &str) -> String {
    format!("@network:{caip2}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_is_extracted_without_credentials_or_port() {
        assert_eq!(host_of("https://user:pw@API.Example.com:8443/a?b#c"), "api.example.com");
        assert_eq!(host_of("http://[::1]:80/x"), "[::1]");
        assert_eq!(host_of("no-scheme/path"), "no-scheme");
    }

    #[test]
    fn slugs_are_safe_and_distinct() {
        let a = resource_slug("https://api.example.com/v1/weather");
        let b = resource_slug("https://api.example.com/v1/forecast");
        assert!(a.starts_with("api.example.com-") && a.len() == "api.example.com-".len() + 12);
        assert_ne!(a, b);
        for hostile in [
            "https://../../etc/passwd",
            "https://%2e%2e%2f/x",
            "..\\..\\x",
            "https://a/b/../../../c",
            "",
            "https://\u{0}/",
        ] {
            let s = resource_slug(hostile);
            assert!(!s.contains('/') && !s.contains('\\') && !s.starts_with('.') && !s.contains('\0'), "{s}");
            assert!(s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-'), "{s}");
        }
    }
}
