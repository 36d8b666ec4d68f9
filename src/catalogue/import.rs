//! `x402dir import`: turn a catalogue dump of any known shape into a stored snapshot.
//!
//! Shapes understood:
//! - a raw API page: `{"items": [...], "pagination": {"limit", "offset", "total"}}`;
//! - a crawler cache: `{"resources": [...], "total", "crawledAt", "partial"}`;
//! - a bare array of items.

use std::path::Path;

use serde_json::Value;
use sha2::{Digest, Sha256};

use super::snapshot::{now_rfc3339, parse_date, Header, Snapshot, Source, FORMAT_NAME, FORMAT_VERSION};
use crate::error::Error;

/// The public discovery endpoint every dump was taken from.
pub const CDP_DISCOVERY_URL: &str = "https://api.cdp.coinbase.com/platform/v2/x402/discovery/resources";

/// Largest dump accepted, in bytes (a million items of the live catalogue is ~1.7 GB).
pub const MAX_DUMP_BYTES: u64 = 4 << 30;
/// Most items accepted in one dump.
pub const MAX_ITEMS: usize = 5_000_000;

/// Reads a dump file and builds a snapshot dated `date`.
pub fn import_file(path: &Path, date: &str) -> Result<Snapshot, Error> {
    let size = std::fs::metadata(path).map_err(|e| Error::io(path, e))?.len();
    if size > MAX_DUMP_BYTES {
        return Err(Error::input(path, format!("{size} bytes is more than the {MAX_DUMP_BYTES} a dump may have")));
    }
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("dump").to_owned();
    import_bytes(&bytes, &name, date).map_err(|message| Error::input(path, message))
}

/// Builds a snapshot from the bytes of a dump. `name` is recorded as the source file.
pub fn import_bytes(bytes: &[u8], name: &str, date: &str) -> Result<Snapshot, String> {
    parse_date(date)?;
    let mut notes = Vec::new();
    // Invalid UTF-8 would make the whole dump unreadable; replace the bad bytes with
    // U+FFFD instead, so one broken description loses nothing else, and say so.
    let invalid = bytes.utf8_chunks().filter(|c| !c.invalid().is_empty()).count();
    let lossy;
    let text = if invalid == 0 {
        bytes
    } else {
        notes.push(format!("{invalid} invalid UTF-8 sequences in the dump were replaced with U+FFFD"));
        lossy = String::from_utf8_lossy(bytes).into_owned();
        lossy.as_bytes()
    };
    let value: Value = serde_json::from_slice(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let (shape, items, reported_total, complete, taken_at) = match value {
        Value::Array(items) => {
            notes.push("imported from a bare list of items: the source's total is unknown, so the snapshot is not marked complete".to_owned());
            ("array", items, None, false, None)
        }
        Value::Object(mut obj) => {
            if let Some(Value::Array(items)) = obj.remove("items") {
                let page = obj.get("pagination");
                let total = page.and_then(|p| p.get("total")).and_then(Value::as_u64);
                let offset = page.and_then(|p| p.get("offset")).and_then(Value::as_u64).unwrap_or(0);
                let complete = offset == 0 && total == Some(items.len() as u64);
                if !complete {
                    notes.push(format!(
                        "one API page (offset {offset}) of {} items; the API reported {}",
                        items.len(),
                        total.map_or("no total".to_owned(), |t| format!("a total of {t}"))
                    ));
                }
                ("api-page", items, total, complete, None)
            } else if let Some(Value::Array(items)) = obj.remove("resources") {
                let total = obj.get("total").and_then(Value::as_u64);
                let partial = obj.get("partial").and_then(Value::as_bool).unwrap_or(true);
                let crawled = obj.get("crawledAt").and_then(Value::as_str).map(str::to_owned);
                notes.push(
                    "imported from a crawler cache: its `total` is the crawler's own count, not the API's".to_owned(),
                );
                if partial {
                    notes.push("the crawler marked this sweep partial (cut off before the end)".to_owned());
                }
                let complete = !partial && total == Some(items.len() as u64);
                ("crawler-cache", items, total, complete, crawled)
            } else {
                return Err("expected a catalogue page ({\"items\": [...]}), a crawler cache ({\"resources\": [...]}) or a list of items".into());
            }
        }
        _ => return Err("expected a JSON object or list at the top level".into()),
    };
    if items.len() > MAX_ITEMS {
        return Err(format!("{} items is more than the {MAX_ITEMS} a dump may have", items.len()));
    }
    let sha256 = crate::hash::hex(&Sha256::digest(bytes));
    let recorded_at = now_rfc3339();
    Ok(Snapshot {
        header: Header {
            format: FORMAT_NAME.into(),
            format_version: FORMAT_VERSION,
            date: date.to_owned(),
            source: Source {
                url: CDP_DISCOVERY_URL.into(),
                via: "import".into(),
                file: Some(name.to_owned()),
                shape: Some(shape.into()),
                sha256: Some(sha256),
            },
            taken_at,
            recorded_at,
            reported_total,
            complete,
            item_count: items.len(),
            notes,
        },
        items,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_page_records_total_and_incompleteness() {
        let s = import_bytes(br#"{"items":[{"resource":"https://a"}],"pagination":{"limit":20,"offset":0,"total":15155},"x402Version":2}"#, "p.json", "2026-08-20").unwrap();
        assert_eq!(s.header.source.shape.as_deref(), Some("api-page"));
        assert_eq!(s.header.reported_total, Some(15155));
        assert!(!s.header.complete);
        assert_eq!(s.items.len(), 1);
    }

    #[test]
    fn full_single_page_is_complete() {
        let s = import_bytes(
            br#"{"items":[{"resource":"https://a"}],"pagination":{"limit":20,"offset":0,"total":1}}"#,
            "p.json",
            "2026-08-20",
        )
        .unwrap();
        assert!(s.header.complete);
    }

    #[test]
    fn crawler_cache_uses_partial_flag_and_crawl_time() {
        let s = import_bytes(
            br#"{"resources":[{"resource":"https://a"}],"total":1,"crawledAt":"2025-12-31T00:34:27Z","partial":false}"#,
            "c.json",
            "2025-12-31",
        )
        .unwrap();
        assert!(s.header.complete);
        assert_eq!(s.header.taken_at.as_deref(), Some("2025-12-31T00:34:27Z"));
        let s = import_bytes(
            br#"{"resources":[{"resource":"https://a"}],"total":1,"partial":true}"#,
            "c.json",
            "2025-12-31",
        )
        .unwrap();
        assert!(!s.header.complete);
    }

    #[test]
    fn bare_array_is_never_complete() {
        let s =
            import_bytes(br#"[{"resource":"https://a"},{"resource":"https://b"}]"#, "a.json", "2025-01-01").unwrap();
        assert!(!s.header.complete);
        assert_eq!(s.header.reported_total, None);
        assert_eq!(s.items.len(), 2);
    }

    #[test]
    fn invalid_utf8_is_replaced_not_fatal() {
        let s = import_bytes(
            b"[{\"resource\":\"https://a\",\"description\":\"ok \xff\xfe ok\"},{\"resource\":\"https://b\"}]",
            "u.json",
            "2025-01-01",
        )
        .unwrap();
        assert_eq!(s.items.len(), 2);
        assert_eq!(s.items[0]["description"], "ok \u{fffd}\u{fffd} ok");
        assert!(s.header.notes.iter().any(|n| n.contains("2 invalid UTF-8")), "{:?}", s.header.notes);
        // The checksum is of the bytes as received.
        assert!(s.header.source.sha256.is_some());
    }

    #[test]
    fn deep_nesting_is_a_clear_error() {
        let deep = format!("[{{\"resource\":\"https://a\",\"x\":{}{}}}]", "[".repeat(500), "]".repeat(500));
        let e = import_bytes(deep.as_bytes(), "d.json", "2025-01-01").unwrap_err();
        assert!(e.contains("not valid JSON") && e.contains("recursion limit"), "{e}");
    }

    #[test]
    fn unknown_shapes_and_bad_dates_are_clear_errors() {
        assert!(import_bytes(b"{\"foo\":[]}", "x", "2025-01-01").unwrap_err().contains("expected a catalogue page"));
        assert!(import_bytes(b"42", "x", "2025-01-01").unwrap_err().contains("top level"));
        assert!(import_bytes(b"{\"items\":[", "x", "2025-01-01").unwrap_err().contains("not valid JSON"));
        assert!(import_bytes(b"[]", "x", "2025-1-1").unwrap_err().contains("YYYY-MM-DD"));
    }
}
