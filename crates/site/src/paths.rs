//! Links to the listings' own URLs: which may be put in an `href`, judged after full
//! percent-decoding (content/method.md#duplicates).

use method::names::host_of;

/// Percent-decodes `text` until nothing changes (so `%252e` is seen as `.`), at most
/// a few rounds. Invalid escapes are left as they are.
pub(crate) fn percent_decode_fully(text: &str) -> String {
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
pub(crate) fn link_target(url: &str) -> Option<String> {
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
