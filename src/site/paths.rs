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
        for hostile in ["https://../../etc/passwd", "https://%2e%2e%2f/x", "..\\..\\x", "https://a/b/../../../c", "", "https://\u{0}/"] {
            let s = resource_slug(hostile);
            assert!(!s.contains('/') && !s.contains('\\') && !s.starts_with('.') && !s.contains('\0'), "{s}");
            assert!(s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'.' || b == b'-'), "{s}");
        }
    }
}
