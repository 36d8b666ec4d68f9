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
/// The facets: every network, price band and segment, each a folder of its own inside.
pub const NETWORKS_DIR: &str = "network/";
pub const PRICES_DIR: &str = "price/";
pub const SEGMENTS_DIR: &str = "segment/";
/// Resources with no readable USD price: the price facet past the bands.
pub const NO_USD_PRICE_DIR: &str = "price/no-usd-price/";
/// The resources new since the previous snapshot, as an Atom feed.
pub const FEED_FILE: &str = "feed.xml";
/// The JSON APIs' folder (docs/static-api.md).
pub const API_DIR: &str = "api/";
/// At the site's root: every published snapshot, newest first, with where its pages and
/// API are (what a search that found nothing reads to say where the words do match).
pub const SNAPSHOTS_FILE: &str = "snapshots.json";
/// The assets every page links to (stylesheet, scripts, icon).
pub const STATIC_DIR: &str = "static/";
/// The assets pages name, in [`STATIC_DIR`].
pub const STYLE_FILE: &str = "style.css";
pub const ICON_FILE: &str = "favicon.svg";
pub const SEARCH_SCRIPT: &str = "search.js";
/// The composer the search page imports, which agents may import too (llms.txt).
pub const COMPOSER_SCRIPT: &str = "composer.js";
pub const EXPLORE_PAGE_SCRIPT: &str = "explore-page.js";
/// A snapshot's place among the others, by the reader's clock: its age, whether it is
/// stale, and the same page in the other snapshots.
pub const SNAPSHOT_SCRIPT: &str = "snapshot.js";
pub const COPY_SCRIPT: &str = "copy.js";

/// The site's root: the list of snapshots.
pub const ROOT: &str = "/";
/// The default snapshot's folder under a fixed address (`_redirects` rewrites it).
pub const LATEST: &str = "/latest/";
/// The site-wide files at the root, besides [`SNAPSHOTS_FILE`].
pub const NOT_FOUND_FILE: &str = "404.html";
pub const REDIRECTS_FILE: &str = "_redirects";
pub const ROBOTS_FILE: &str = "robots.txt";
pub const LLMS_FILE: &str = "llms.txt";
/// The sitemap index, and the sitemap of the pages outside any snapshot.
pub const SITEMAP_FILE: &str = "sitemap.xml";
pub const SITE_SITEMAP_FILE: &str = "sitemap-site.xml";
/// The JSON Schemas' folder at the root.
pub const SCHEMA_DIR: &str = "schema/";

/// The address of a file or folder at the site's root: `/{rel}`.
pub fn at_root(rel: &str) -> String {
    format!("{ROOT}{rel}")
}

/// Sitemap `part` of a snapshot's folder (`sitemap-0.xml` and on).
pub fn sitemap_file(part: usize) -> String {
    format!("sitemap-{part}.xml")
}

/// The address of the folder `dir` of snapshot `date`: `/{date}/{dir}`.
pub fn in_snapshot(date: &str, dir: &str) -> String {
    [ROOT, date, "/", dir].concat()
}

/// The file of the page whose folder is `dir` (relative to the folder it is in).
pub fn page_file(dir: &str) -> String {
    [dir, PAGE_INDEX].concat()
}

/// The folder of the page whose file is `file` ([`page_file`] undone).
pub fn page_dir(file: &str) -> &str {
    file.strip_suffix(PAGE_INDEX).unwrap_or(file)
}

/// The file a page's folder holds.
pub const PAGE_INDEX: &str = "index.html";

/// A resource's page: `r/{slug}/`.
pub fn resource_dir(slug: &str) -> String {
    ["r/", slug, "/"].concat()
}

/// The address of a resource's page in snapshot `date`.
pub fn resource_page(date: &str, slug: &str) -> String {
    in_snapshot(date, &resource_dir(slug))
}

/// A network's facet, by its folder-safe slug (`facets::network_slug`).
pub fn network_dir(slug: &str) -> String {
    [NETWORKS_DIR, slug, "/"].concat()
}

/// A price band's facet.
pub fn price_dir(band: &str) -> String {
    [PRICES_DIR, band, "/"].concat()
}

/// A segment's facet.
pub fn segment_dir(id: &str) -> String {
    [SEGMENTS_DIR, id, "/"].concat()
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

/// A kind of file of the JSON APIs: its path under [`API_DIR`], with `{name}` where a
/// value goes. The manifests publish the template (docs/static-api.md); the build
/// writes the file it names with the values filled in, so the two cannot drift apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ApiFile(&'static str);

impl ApiFile {
    /// The template as a manifest gives it, relative to the API's folder.
    pub const fn template(self) -> &'static str {
        self.0
    }

    /// The file, relative to the dated folder, with `values` in the template's
    /// placeholders, in order: `api/shards/7.json`.
    pub fn file(self, values: &[&dyn std::fmt::Display]) -> String {
        use std::fmt::Write as _;
        let mut out = String::from(API_DIR);
        let (mut rest, mut values) = (self.0, values.iter());
        while let Some(open) = rest.find('{') {
            let close = open + rest[open..].find('}').expect("placeholders are closed");
            let value = values.next().unwrap_or_else(|| panic!("a value for each placeholder of {}", self.0));
            out.push_str(&rest[..open]);
            let _ = write!(out, "{value}");
            rest = &rest[close + 1..];
        }
        assert!(values.next().is_none(), "more values than placeholders in {}", self.0);
        out.push_str(rest);
        out
    }
}

/// The method API's files (docs/static-api.md): posting-list shards, the parts of long
/// lists, record blocks, packs, single-word answers, the price ladder, the build report.
pub const SHARDS: ApiFile = ApiFile("shards/{bucket}.json");
pub const SHARD_PARTS: ApiFile = ApiFile("shards/parts/{token_file}/{part}.json");
pub const RECORD_BLOCKS: ApiFile = ApiFile("records/{block}.json");
pub const PACKS: ApiFile = ApiFile("packs/{token_file}.json");
/// A pack's second page. No token file is one character long, so no pack is named `2`.
pub const NEXT_PACKS: ApiFile = ApiFile("packs/2/{token_file}.json");
pub const BROWSE_PACK: ApiFile = ApiFile("packs/_browse.json");
pub const ANSWERS: ApiFile = ApiFile("q/{token_file}.json");
pub const PRICES: ApiFile = ApiFile("prices.json");
/// What happened to every listing that did not become a plain ranked entry (the page
/// is [`REPORT_DIR`]).
pub const REPORT: ApiFile = ApiFile("report.json");
/// The snapshot's probe file, as recorded (content/method.md#probe); only in a probed folder.
pub const PROBE: ApiFile = ApiFile("probe.json");
/// A folder holding its manifest is a finished build of its date.
pub const MANIFEST: ApiFile = ApiFile("manifest.json");

/// Explore's API (docs/static-api.md, "Explore"): its manifest, sharded sections (terms,
/// spelling, translations, words), the inverted file, the facts, the evaluation.
pub const EXPLORE_MANIFEST: ApiFile = ApiFile("explore/manifest.json");
pub const EXPLORE_TERMS: ApiFile = ApiFile("explore/terms/{bucket}.json");
pub const EXPLORE_SPELLING: ApiFile = ApiFile("explore/spelling/{bucket}.json");
pub const EXPLORE_TRANSLATIONS: ApiFile = ApiFile("explore/translations/{bucket}.json");
pub const EXPLORE_WORDS: ApiFile = ApiFile("explore/words/{bucket}.json");
pub const EXPLORE_CENTROIDS: ApiFile = ApiFile("explore/ivf/centroids.json");
pub const EXPLORE_LISTS: ApiFile = ApiFile("explore/ivf/{list}.json");
pub const EXPLORE_FACTS: ApiFile = ApiFile("explore/facts/{block}.json");
pub const EXPLORE_EVALUATION: ApiFile = ApiFile("explore/evaluation.json");

/// Record block `block` of the method API.
pub fn record_block_file(block: usize) -> String {
    RECORD_BLOCKS.file(&[&block])
}

/// The folders of the method's pages and explore's, one page a version.
pub const METHOD_FOLDER: &str = "/method/";
pub const EXPLORE_FOLDER: &str = "/explore/";

/// A page published once per version (`/method/1.4.1/`), in one of METHOD_FOLDER,
/// STATIC_API_FOLDER or EXPLORE_FOLDER: the current version's text, or at an earlier
/// version's address a page saying what replaced it.
pub fn versioned_page(folder: &str, version: &str) -> String {
    format!("{folder}{version}/")
}

/// The method's page outside any snapshot, one per method version.
pub fn method_page() -> String {
    versioned_page(METHOD_FOLDER, DISCOVERY_METHOD_VERSION)
}

/// The folder of the static JSON API's format pages, one per API layout.
pub const STATIC_API_FOLDER: &str = "/static-api/";

/// The static JSON API's format page outside any snapshot (docs/static-api.md), one per
/// API layout (`site::api::method::API_VERSION`, passed in: the layout is the site's).
pub fn static_api_page(api_version: u32) -> String {
    versioned_page(STATIC_API_FOLDER, &api_version.to_string())
}

/// Explore's method page outside any snapshot, one per explore version (explore sits
/// above the method, so it names its version: `explore::EXPLORE_VERSION`).
pub fn explore_method_page(explore_version: &str) -> String {
    versioned_page(EXPLORE_FOLDER, explore_version)
}

/// The absolute address of a site address (`/…`), for answers read off the site.
pub fn absolute(base_url: &str, address: &str) -> String {
    [base_url, address].concat()
}

/// The golden set's folder, in explore's method page's folder.
pub const GOLDEN_DIR: &str = "golden/";
/// The golden set's labelling rules, in explore's method page's folder.
pub const GOLDEN_RULES_FILE: &str = "golden/RULES.md";
/// The golden set's queries and labels, in explore's method page's folder.
pub const GOLDEN_SET_FILE: &str = "golden/golden.json";
/// The multilingual class's queries and labels (explore 3), beside golden.json.
pub const GOLDEN_MULTILINGUAL_FILE: &str = "golden/multilingual.json";
/// The held-out classes' queries and labels (issue 34), beside golden.json.
pub const GOLDEN_HELDOUT_FILE: &str = "golden/heldout.json";

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
    slug_of(url, &slug_digest(url))
}

/// The part of [`resource_slug`] that is hashed: the first 48 bits of the URL's SHA-256.
/// An index keeps it per entry (index.rs): a slug is wanted for every row of every list,
/// record and answer that names the resource, and hashing the URL each time (some ten
/// times a listing) was half a percent of a build's samples.
pub fn slug_digest(url: &str) -> [u8; 6] {
    Sha256::digest(url.as_bytes())[..6].try_into().expect("SHA-256 is 32 bytes")
}

/// [`resource_slug`] of `url`, given its [`slug_digest`].
pub fn slug_of(url: &str, digest: &[u8; 6]) -> String {
    // Made in one string (a slug is wanted for every row that names a resource): the
    // host's first 60 characters, each outside [a-z0-9.-] as `-`, trimmed of dots and
    // dashes; then `-` and the digest's hex, or `r-` and it where no host is left.
    let mut slug = String::with_capacity(60 + 1 + 2 * digest.len());
    slug.extend(
        host_of(url).chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '-' }).take(60),
    );
    let end = slug.trim_end_matches(['.', '-']).len();
    slug.truncate(end);
    let start = slug.len() - slug.trim_start_matches(['.', '-']).len();
    slug.drain(..start);
    slug.push_str(if slug.is_empty() { "r-" } else { "-" });
    catalogue::hash::push_hex(&mut slug, digest);
    slug
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

/// Key for the posting list of the resources that answered 402 when the snapshot's probe
/// asked them (the `answered_402` filter); absent from the shards of a snapshot not probed.
pub const ANSWERED_402_KEY: &str = "@answered-402";

/// Key for the posting list of a network filter.
pub fn network_key(caip2: &str) -> String {
    format!("@network:{caip2}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_files_fill_their_templates() {
        assert_eq!(SHARDS.file(&[&7]), "api/shards/7.json");
        assert_eq!(SHARD_PARTS.file(&[&"u-e9", &2]), "api/shards/parts/u-e9/2.json");
        assert_eq!(BROWSE_PACK.file(&[]), "api/packs/_browse.json");
        assert_eq!(MANIFEST.file(&[]), "api/manifest.json");
        assert_eq!(record_block_file(3), "api/records/3.json");
    }

    #[test]
    #[should_panic(expected = "a value for each placeholder")]
    fn an_api_file_needs_each_value() {
        SHARD_PARTS.file(&[&"word"]);
    }

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

    /// A slug is published in every page's address: made in one string, it is what the
    /// rule says, written here as plainly as it reads (content/method.md#json).
    #[test]
    fn slugs_are_the_trimmed_host_and_the_digest() {
        let plain = |url: &str| {
            let host: String = host_of(url)
                .chars()
                .map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '-' { c } else { '-' })
                .take(60)
                .collect();
            let host = host.trim_matches(|c| c == '.' || c == '-');
            let hash: String = slug_digest(url).iter().map(|b| format!("{b:02x}")).collect();
            if host.is_empty() {
                format!("r-{hash}")
            } else {
                format!("{host}-{hash}")
            }
        };
        let long = format!("https://{}.example/x", "a".repeat(70));
        let dots = format!("https://{}b/", ".-".repeat(40));
        for url in [
            "https://api.example.com/v1/weather",
            "https://API.Example.COM:8443/x",
            "https://user:pw@host.example/",
            "https://[::1]:80/",
            "https://..--x--../",
            "https://-/",
            "https://ünïcode.example/",
            "",
            "no scheme at all",
            long.as_str(),
            dots.as_str(),
        ] {
            assert_eq!(resource_slug(url), plain(url), "{url}");
        }
    }
}
