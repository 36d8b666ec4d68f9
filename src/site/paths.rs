//! Names of things inside the built site.
//!
//! A resource's page name is derived from its URL but can never steer where a file is
//! written: only the host's letters, digits, dots and hyphens survive, and a hash of
//! the whole URL keeps names unique. No part of the URL's path is used.

use sha2::{Digest, Sha256};

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
    let hash: String = Sha256::digest(url.as_bytes()).iter().take(6).map(|b| format!("{b:02x}")).collect();
    if host.is_empty() {
        format!("r-{hash}")
    } else {
        format!("{host}-{hash}")
    }
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

/// Percent-decodes `text` until nothing changes (so `%252e` is seen as `.`), at most
/// a few rounds. Invalid escapes are left as they are.
pub fn percent_decode_fully(text: &str) -> String {
    let mut current = text.to_owned();
    for _ in 0..8 {
        let next = percent_decode_once(&current);
        if next == current {
            break;
        }
        current = next;
    }
    current
}

fn percent_decode_once(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok());
            if let Some(b) = hex {
                out.push(b);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The URL to put in a link's `href`, or `None` when it must be shown as text only.
/// Only absolute http(s) URLs qualify, judged after full percent-decoding, and none
/// with control characters, whitespace or backslashes (which browsers may reinterpret).
pub fn link_target(url: &str) -> Option<String> {
    let decoded = percent_decode_fully(url);
    for candidate in [url, decoded.as_str()] {
        if candidate.chars().any(|c| c.is_control() || c.is_whitespace() || c == '\\') {
            return None;
        }
    }
    let lower = decoded.to_ascii_lowercase();
    let scheme_ok = (lower.starts_with("https://") || lower.starts_with("http://")) && !host_of(&decoded).is_empty();
    scheme_ok.then(|| url.to_owned())
}

#[cfg(test)]
mod link_tests {
    use super::*;

    #[test]
    fn only_http_urls_become_links() {
        assert_eq!(link_target("https://api.example.com/x?y=1").as_deref(), Some("https://api.example.com/x?y=1"));
        assert_eq!(link_target("HTTP://Example.com").as_deref(), Some("HTTP://Example.com"));
        for bad in [
            "javascript:alert(1)",
            "JaVaScRiPt:alert(1)",
            "data:text/html,<script>alert(1)</script>",
            "%6Aavascript:alert(1)",
            "%256Aavascript:alert(1)",
            "https://exa mple.com",
            "https://example.com/\\..\\x",
            "https://example.com/%0a",
            "https:///path-only",
            "//example.com/x",
            "ftp://example.com",
        ] {
            assert_eq!(link_target(bad), None, "{bad}");
        }
    }

    #[test]
    fn decoding_sees_through_double_encoding() {
        assert_eq!(percent_decode_fully("%252e%252e%252f"), "../");
        assert_eq!(percent_decode_fully("%2e%2e%2f"), "../");
        assert_eq!(percent_decode_fully("100%"), "100%");
        assert_eq!(percent_decode_fully("%zz"), "%zz");
    }
}
