//! A typed, forgiving view of one catalogue item.
//!
//! The catalogue is written by many clients and has every oddity listed in the data
//! README: two protocol versions, the description in two places, the price in two
//! fields, empty and huge amounts, counters in odd forms. Parsing never fails
//! on a bad field: the field is dropped, the reason recorded in `drops`, and the rest
//! of the listing kept. Only an item with no usable resource URL is rejected.

use std::collections::HashSet;
use std::sync::{Arc, Mutex, OnceLock};

use serde::Serialize;
use serde_json::Value;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// Longest resource URL kept, in bytes.
pub const MAX_URL_BYTES: usize = 2048;
/// Longest description kept, in characters; longer text is cut and the cut reported.
pub const MAX_DESCRIPTION_CHARS: usize = 4000;
/// Longest service name or tag kept, in characters.
pub const MAX_NAME_CHARS: usize = 200;
pub const MAX_TAGS: usize = 32;
pub const MAX_ACCEPTS: usize = 16;
/// Most schema field names kept per listing, and the longest one, in characters.
pub(crate) const MAX_SCHEMA_FIELDS: usize = 128;
pub(crate) const MAX_SCHEMA_FIELD_CHARS: usize = 64;
/// How deep the schema walk goes; deeper nesting is not read.
const MAX_SCHEMA_DEPTH: usize = 16;

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Resource {
    pub url: String,
    /// The item's `type` field ("http", "object", ...).
    pub kind: Option<Arc<str>>,
    pub x402_version: Option<u64>,
    pub description: Option<String>,
    pub service_name: Option<String>,
    pub tags: Vec<String>,
    pub accepts: Vec<Accept>,
    pub quality: Quality,
    pub last_updated: Option<String>,
    /// Field names of the input/output schemas (v1 `accepts[].outputSchema`, v2
    /// `extensions.bazaar`), first seen first, without repeats. Names only: the
    /// schemas' own descriptions and example values are foreign text nobody screens.
    pub schema_fields: Vec<String>,
    /// How the listing says it is called (method, input parameters); boxed, as most of
    /// a large catalogue's listings leave it out.
    pub call: Option<Box<crate::call::Call>>,
    /// What the listing says a paid call answers; boxed for the same reason.
    pub output: Option<Box<crate::call::Output>>,
    pub drops: Vec<Drop>,
}

/// Values shared rather than copied per listing, at most this many: past it (a
/// catalogue naming a new asset in every listing) each listing keeps its own copy.
const MAX_SHARED: usize = 1 << 16;

/// One copy of a short value many listings repeat (a network, scheme, asset or type):
/// copied into every listing they were a tenth of a million listings' memory.
fn shared(text: Option<String>) -> Option<Arc<str>> {
    static POOL: OnceLock<Mutex<HashSet<Arc<str>>>> = OnceLock::new();
    let text = text?;
    let mut pool = POOL.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner());
    if let Some(known) = pool.get(text.as_str()) {
        return Some(known.clone());
    }
    let value: Arc<str> = Arc::from(text);
    if pool.len() < MAX_SHARED {
        pool.insert(value.clone());
    }
    Some(value)
}

/// One way to pay for the resource.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Accept {
    /// Scheme, network and asset are shared between the listings that name the same
    /// one ([`shared`]): a million listings name a few dozen.
    pub scheme: Option<Arc<str>>,
    pub network: Option<Arc<str>>,
    pub asset: Option<Arc<str>>,
    pub pay_to: Option<String>,
    /// Atomic units (`amount`, or v1's `maxAmountRequired`).
    pub amount: Option<u128>,
    pub mime_type: Option<String>,
    pub(crate) description: Option<String>,
}

/// The catalogue's own counters, unmodified: each is the value sent when that is a
/// non-negative whole JSON number (content/method.md#reading), else `None`; a value of
/// any other kind is also recorded in [`Resource::drops`], never coerced.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Quality {
    pub calls_30d: Option<u64>,
    pub unique_payers_30d: Option<u64>,
    /// Milliseconds since the Unix epoch, UTC.
    pub last_called_at_ms: Option<i64>,
}

/// A field dropped while reading an item, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Drop {
    pub field: String,
    pub reason: String,
}

/// Why an item could not be read at all.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Rejection {
    pub reason: String,
}

struct Reader {
    drops: Vec<Drop>,
}

impl Reader {
    fn drop(&mut self, field: impl Into<String>, reason: impl Into<String>) {
        self.drops.push(Drop { field: field.into(), reason: reason.into() });
    }

    /// A text field: absent and null are None; a string is kept (empty counts as
    /// absent); anything else is dropped with a reason.
    fn text(
        &mut self,
        obj: &serde_json::Map<String, Value>,
        key: &str,
        field: &str,
        max_chars: usize,
    ) -> Option<String> {
        match obj.get(key) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => {
                let s = s.trim();
                if s.is_empty() {
                    None
                } else if s.chars().count() > max_chars {
                    self.drop(field, format!("longer than {max_chars} characters; cut to that length"));
                    Some(s.chars().take(max_chars).collect())
                } else {
                    Some(s.to_owned())
                }
            }
            Some(other) => {
                self.drop(field, format!("expected text, found {}", kind_of(other)));
                None
            }
        }
    }

    /// `x402Version`: a whole number, sent as a number or as digits in a string. It is
    /// not a published figure (only read, never shown), and keeps its reading as it was.
    fn version_number(&mut self, obj: &serde_json::Map<String, Value>, key: &str, field: &str) -> Option<u64> {
        let value = obj.get(key)?;
        let parsed = match value {
            Value::Null => return None,
            Value::Number(n) => n.as_u64().or_else(|| {
                // Accept 12.0, never 12.5, a negative, or a NaN-like value.
                n.as_f64().filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= 9.0e15).map(|f| f as u64)
            }),
            Value::String(s) if !s.is_empty() && s.len() <= 20 && s.bytes().all(|b| b.is_ascii_digit()) => {
                s.parse().ok()
            }
            _ => None,
        };
        if parsed.is_none() {
            self.drop(field, format!("expected a non-negative whole number, found {}", describe(value)));
        }
        parsed
    }

    /// A catalogue counter, published as sent (content/method.md#reading): a JSON number
    /// whose value is a whole number from 0 to `u64::MAX`. Absent and null are no
    /// reading. Anything else (text, even digits in text; a negative; a fraction; a
    /// value past `u64::MAX`; a boolean, list or object) is no reading either, and is
    /// dropped with what was found: never coerced, clamped or wrapped.
    fn count(&mut self, obj: &serde_json::Map<String, Value>, key: &str, field: &str) -> Option<u64> {
        let value = obj.get(key)?;
        let what = match value {
            Value::Null => return None,
            Value::Number(n) => match whole_number(n.as_str()) {
                Ok(count) => return Some(count),
                Err(why) => format!("{}, {}", found(value), why.words()),
            },
            other => found(other),
        };
        self.drop(field, format!("expected a non-negative whole JSON number, found {what}"));
        None
    }
}

/// Why a JSON number is not a count.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum NotACount {
    Negative,
    Fraction,
    TooLarge,
    /// Not JSON number syntax (serde_json never makes one; kept so no text is guessed at).
    Unreadable,
}

impl NotACount {
    fn words(self) -> String {
        match self {
            NotACount::Negative => "which is negative".into(),
            NotACount::Fraction => "which is not a whole number".into(),
            NotACount::TooLarge => format!("which is larger than {}", u64::MAX),
            NotACount::Unreadable => "which cannot be read as a number".into(),
        }
    }
}

/// The value of a JSON number, from its text as sent, when that value is a whole number
/// from 0 to `u64::MAX`. serde_json keeps a number's digits as written (its
/// `arbitrary_precision` feature; only the exponent is respelt, `1E3` as `1e+3`), so the
/// value is decided on the decimal text, exactly, never through a float: `12`, `12.0`,
/// `1.2e1` and `1200e-2` are all 12, `-0` is 0, `12.5` and `1e-400` are fractions, `-3`
/// is negative, and `1e400` or `18446744073709551616` are too large.
fn whole_number(text: &str) -> Result<u64, NotACount> {
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let (negative, rest) = match text.strip_prefix('-') {
        Some(rest) => (true, rest),
        None => (false, text),
    };
    let (mantissa, exponent) = match rest.split_once(['e', 'E']) {
        Some((m, e)) => (m, Some(e)),
        None => (rest, None),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if int.is_empty() || !digits(int) || !digits(frac) {
        return Err(NotACount::Unreadable);
    }
    // The exponent, as written; past 18 digits only its sign matters (see below).
    let exponent: Option<i128> = match exponent {
        None => Some(0),
        Some(e) => {
            let (sign, e) = match e.as_bytes().first() {
                Some(b'-') => (-1, &e[1..]),
                Some(b'+') => (1, &e[1..]),
                _ => (1, e),
            };
            if e.is_empty() || !digits(e) {
                return Err(NotACount::Unreadable);
            }
            let e = e.trim_start_matches('0');
            if e.len() > 18 {
                if sign < 0 {
                    None
                } else {
                    Some(i128::MAX)
                }
            } else {
                Some(sign * e.parse::<i128>().unwrap_or(0))
            }
        }
    };
    // The significant digits, without leading zeros.
    let significant: String = int.chars().chain(frac.chars()).skip_while(|&c| c == '0').collect();
    if significant.is_empty() {
        // Zero, whatever its sign or exponent.
        return Ok(0);
    }
    if negative {
        return Err(NotACount::Negative);
    }
    // value = kept × 10^power, where kept ends in a non-zero digit, so the value is
    // whole exactly when power is not negative.
    let kept = significant.trim_end_matches('0');
    let trailing = (significant.len() - kept.len()) as i128;
    let Some(exponent) = exponent else {
        return Err(NotACount::Fraction);
    };
    let power = exponent.saturating_sub(frac.len() as i128).saturating_add(trailing);
    if power < 0 {
        return Err(NotACount::Fraction);
    }
    // u64::MAX has 20 digits.
    if (kept.len() as i128).saturating_add(power) > 20 {
        return Err(NotACount::TooLarge);
    }
    let value = kept.parse::<u128>().map_err(|_| NotACount::TooLarge)? * 10u128.pow(power as u32);
    u64::try_from(value).map_err(|_| NotACount::TooLarge)
}

impl Resource {
    /// Reads one catalogue item. Fails only when there is no usable resource URL.
    pub fn from_value(item: &Value) -> Result<Resource, Rejection> {
        let obj = item
            .as_object()
            .ok_or_else(|| Rejection { reason: format!("item is {}, not an object", kind_of(item)) })?;
        let url = match obj.get("resource") {
            Some(Value::String(s)) => s.trim().to_owned(),
            Some(other) => return Err(Rejection { reason: format!("`resource` is {}, not text", kind_of(other)) }),
            None => return Err(Rejection { reason: "no `resource` field".into() }),
        };
        if url.is_empty() {
            return Err(Rejection { reason: "`resource` is empty".into() });
        }
        if url.len() > MAX_URL_BYTES {
            return Err(Rejection { reason: format!("`resource` is longer than {MAX_URL_BYTES} bytes") });
        }
        if url.chars().any(char::is_control) {
            return Err(Rejection { reason: "`resource` contains control characters".into() });
        }

        let mut r = Reader { drops: Vec::new() };
        let kind = shared(r.text(obj, "type", "type", MAX_NAME_CHARS));
        let x402_version = r.version_number(obj, "x402Version", "x402Version");
        let service_name = r.text(obj, "serviceName", "serviceName", MAX_NAME_CHARS);
        let last_updated = r.text(obj, "lastUpdated", "lastUpdated", 64);
        let tags = read_tags(&mut r, obj.get("tags"));
        let accepts = read_accepts(&mut r, obj.get("accepts"));
        let top_description = r.text(obj, "description", "description", MAX_DESCRIPTION_CHARS);
        // v1 items carry the description only inside accepts[]: use the first non-empty one.
        let description = top_description.or_else(|| accepts.iter().find_map(|a| a.description.clone()));
        let quality = read_quality(&mut r, obj.get("quality"));
        let schema_fields = read_schema_fields(obj);
        let call = crate::call::read_call(obj).map(Box::new);
        let output = crate::call::read_output(obj).map(Box::new);

        Ok(Resource {
            url,
            kind,
            x402_version,
            description,
            service_name,
            tags,
            accepts,
            quality,
            last_updated,
            schema_fields,
            call,
            output,
            drops: r.drops,
        })
    }

    /// The distinct payTo addresses of this listing, sorted, so two listings with the
    /// same owners compare equal whatever the order of their payment options. EVM
    /// addresses compare case-insensitively, so they are lower-cased here.
    pub fn pay_to_set(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .accepts
            .iter()
            .filter_map(|a| a.pay_to.as_ref())
            .map(|p| if p.starts_with("0x") { p.to_ascii_lowercase() } else { p.clone() })
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// JSON Schema keywords and the wrappers the catalogue puts around a schema: structure,
/// not names of fields the API takes or returns.
const SCHEMA_WORDS: &[&str] = &[
    "$schema",
    "$id",
    "$ref",
    "$defs",
    "definitions",
    "type",
    "properties",
    "items",
    "required",
    "description",
    "additionalProperties",
    "enum",
    "const",
    "default",
    "examples",
    "format",
    "title",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "minItems",
    "maxItems",
    "pattern",
    "oneOf",
    "anyOf",
    "allOf",
    "not",
    "nullable",
    "input",
    "output",
    "info",
    "schema",
    "example",
    "body_fields",
    "query_params",
    "header_fields",
    "body_type",
    "discoverable",
    "method",
    "queryParams",
    "bodyFields",
    "headerFields",
    "bodyType",
    "headers",
    "body",
    "data",
    "value",
    "values",
];

fn read_schema_fields(obj: &serde_json::Map<String, Value>) -> Vec<String> {
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    if let Some(Value::Array(accepts)) = obj.get("accepts") {
        for a in accepts.iter().take(MAX_ACCEPTS) {
            if let Some(schema) = a.get("outputSchema") {
                collect_fields(schema, 0, &mut out, &mut seen);
            }
        }
    }
    if let Some(bazaar) = obj.get("extensions").and_then(|e| e.get("bazaar")) {
        collect_fields(bazaar, 0, &mut out, &mut seen);
    }
    out
}

/// Walks a schema (or an example of one) collecting the object keys that name fields.
/// Values are never read as names; `enum`/`examples`/`default` contents are skipped.
fn collect_fields(v: &Value, depth: usize, out: &mut Vec<String>, seen: &mut std::collections::HashSet<String>) {
    if depth > MAX_SCHEMA_DEPTH || out.len() >= MAX_SCHEMA_FIELDS {
        return;
    }
    match v {
        Value::Object(map) => {
            for (key, value) in map {
                if matches!(key.as_str(), "enum" | "const" | "default" | "examples" | "description" | "title") {
                    continue;
                }
                let name = key.trim();
                let usable = !name.is_empty()
                    && name.chars().count() <= MAX_SCHEMA_FIELD_CHARS
                    && !name.chars().any(char::is_control)
                    && !SCHEMA_WORDS.contains(&name);
                if usable && out.len() < MAX_SCHEMA_FIELDS && seen.insert(name.to_owned()) {
                    out.push(name.to_owned());
                }
                collect_fields(value, depth + 1, out, seen);
            }
        }
        Value::Array(items) => {
            for item in items.iter().take(64) {
                collect_fields(item, depth + 1, out, seen);
            }
        }
        _ => {}
    }
}

fn read_tags(r: &mut Reader, value: Option<&Value>) -> Vec<String> {
    let items = match value {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Array(items)) => items,
        Some(other) => {
            r.drop("tags", format!("expected a list of text, found {}", kind_of(other)));
            return Vec::new();
        }
    };
    let mut tags = Vec::new();
    for (i, tag) in items.iter().enumerate() {
        match tag {
            Value::String(s) if !s.trim().is_empty() && s.chars().count() <= MAX_NAME_CHARS => {
                if tags.len() == MAX_TAGS {
                    r.drop("tags", format!("more than {MAX_TAGS} tags; the rest were dropped"));
                    break;
                }
                tags.push(s.trim().to_owned());
            }
            Value::String(s) if s.trim().is_empty() => {}
            other => r.drop(format!("tags[{i}]"), format!("expected short text, found {}", describe(other))),
        }
    }
    tags
}

fn read_accepts(r: &mut Reader, value: Option<&Value>) -> Vec<Accept> {
    let items = match value {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Array(items)) => items,
        Some(other) => {
            r.drop("accepts", format!("expected a list, found {}", kind_of(other)));
            return Vec::new();
        }
    };
    let mut accepts = Vec::new();
    for (i, item) in items.iter().enumerate() {
        if i == MAX_ACCEPTS {
            r.drop("accepts", format!("more than {MAX_ACCEPTS} payment options; the rest were dropped"));
            break;
        }
        let Some(obj) = item.as_object() else {
            r.drop(format!("accepts[{i}]"), format!("expected an object, found {}", kind_of(item)));
            continue;
        };
        let f = |name: &str| format!("accepts[{i}].{name}");
        let amount = read_amount(r, obj, i);
        accepts.push(Accept {
            scheme: shared(r.text(obj, "scheme", &f("scheme"), MAX_NAME_CHARS)),
            network: shared(r.text(obj, "network", &f("network"), MAX_NAME_CHARS)),
            asset: shared(r.text(obj, "asset", &f("asset"), MAX_NAME_CHARS)),
            pay_to: r.text(obj, "payTo", &f("payTo"), MAX_NAME_CHARS),
            amount,
            mime_type: r.text(obj, "mimeType", &f("mimeType"), MAX_NAME_CHARS),
            description: r.text(obj, "description", &f("description"), MAX_DESCRIPTION_CHARS),
        });
    }
    accepts
}

/// Atomic amount: v2 `amount`, else v1 `maxAmountRequired`. Digits only (as text or a
/// whole JSON number), at most 38 of them so it fits exactly in a u128.
fn read_amount(r: &mut Reader, obj: &serde_json::Map<String, Value>, i: usize) -> Option<u128> {
    let (key, value) = ["amount", "maxAmountRequired"].iter().find_map(|k| obj.get(*k).map(|v| (*k, v)))?;
    let digits = match value {
        Value::String(s) => s.as_str(),
        Value::Number(n) => {
            let text = n.as_str();
            if text.bytes().all(|b| b.is_ascii_digit()) {
                text
            } else {
                r.drop(format!("accepts[{i}].{key}"), format!("expected whole atomic units, found {}", clip(text)));
                return None;
            }
        }
        Value::Null => return None,
        other => {
            r.drop(format!("accepts[{i}].{key}"), format!("expected atomic units, found {}", kind_of(other)));
            return None;
        }
    };
    if digits.is_empty() {
        r.drop(format!("accepts[{i}].{key}"), "amount is empty");
        return None;
    }
    if !digits.bytes().all(|b| b.is_ascii_digit()) || digits.len() > 38 {
        r.drop(
            format!("accepts[{i}].{key}"),
            format!("expected up to 38 digits of atomic units, found {}", clip(digits)),
        );
        return None;
    }
    digits.parse().ok()
}

fn read_quality(r: &mut Reader, value: Option<&Value>) -> Quality {
    let obj = match value {
        None | Some(Value::Null) => return Quality::default(),
        Some(Value::Object(obj)) => obj,
        Some(other) => {
            r.drop("quality", format!("expected an object, found {}", kind_of(other)));
            return Quality::default();
        }
    };
    Quality {
        calls_30d: r.count(obj, "l30DaysTotalCalls", "quality.l30DaysTotalCalls"),
        unique_payers_30d: r.count(obj, "l30DaysUniquePayers", "quality.l30DaysUniquePayers"),
        last_called_at_ms: read_timestamp(r, obj.get("lastCalledAt")),
    }
}

/// `lastCalledAt` is seen both as an ISO-8601 (RFC 3339) string and as epoch
/// milliseconds, as a number or as digits in text. A number is read by the same rule as
/// the counters ([`whole_number`]): a negative or fractional epoch is dropped, not rounded.
fn read_timestamp(r: &mut Reader, value: Option<&Value>) -> Option<i64> {
    const FIELD: &str = "quality.lastCalledAt";
    // Between 2000-01-01 and 2200-01-01: anything else is not a real call time.
    const RANGE: std::ops::RangeInclusive<i64> = 946_684_800_000..=7_258_118_400_000;
    const OUT_OF_RANGE: &str = "which is before 2000-01-01 or after 2200-01-01";
    let value = value?;
    let ms: Result<i64, String> = match value {
        Value::Null => return None,
        Value::Number(n) => match whole_number(n.as_str()) {
            Ok(ms) => i64::try_from(ms).map_err(|_| format!("{}, {OUT_OF_RANGE}", found(value))),
            Err(why) => Err(format!("{}, {}", found(value), why.words())),
        },
        Value::String(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => {
            s.parse::<i64>().map_err(|_| format!("{}, {OUT_OF_RANGE}", found(value)))
        }
        Value::String(s) => OffsetDateTime::parse(s, &Rfc3339)
            .map(|t| (t.unix_timestamp_nanos() / 1_000_000) as i64)
            .map_err(|_| format!("{}, which is not an RFC 3339 time", found(value))),
        other => Err(found(other)),
    };
    let ms =
        ms.and_then(|ms| if RANGE.contains(&ms) { Ok(ms) } else { Err(format!("{}, {OUT_OF_RANGE}", found(value))) });
    match ms {
        Ok(ms) => Some(ms),
        Err(what) => {
            r.drop(FIELD, format!("expected an RFC 3339 time or epoch milliseconds, found {what}"));
            None
        }
    }
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// A short rendering of a bad value for a drop reason (never the whole of a huge value).
fn describe(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{:?}", clip(s)),
        Value::Number(n) => clip(n.as_str()),
        other => kind_of(other).to_owned(),
    }
}

/// What was found, for a counter's or a time's drop reason: text quoted and clipped (so
/// digits in text are told from a number), a number as written and clipped, a boolean
/// as written, anything else by its kind.
fn found(v: &Value) -> String {
    match v {
        Value::String(s) => format!("text {:?}", clip(s)),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => clip(n.as_str()),
        other => kind_of(other).to_owned(),
    }
}

fn clip(s: &str) -> String {
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn v1_item_takes_description_and_price_from_accepts() {
        let item = json!({
            "resource": "https://a.example/x", "type": "http", "x402Version": 1,
            "accepts": [
                {"description": "", "maxAmountRequired": "", "network": "base"},
                {"description": "Token analysis", "maxAmountRequired": "10000", "network": "base", "payTo": "0xAB"}
            ],
            "lastUpdated": "2025-12-01T00:00:00Z"
        });
        let r = Resource::from_value(&item).unwrap();
        assert_eq!(r.description.as_deref(), Some("Token analysis"));
        assert_eq!(r.accepts[0].amount, None);
        assert_eq!(r.accepts[1].amount, Some(10_000));
        assert_eq!(
            r.drops,
            vec![Drop { field: "accepts[0].maxAmountRequired".into(), reason: "amount is empty".into() }]
        );
        assert_eq!(r.pay_to_set(), vec!["0xab"]);
    }

    #[test]
    fn v2_item_prefers_top_level_description_and_amount() {
        let item = json!({
            "resource": "https://a.example/y", "x402Version": 2, "description": "Top",
            "accepts": [{"description": "Inner", "amount": "3000", "network": "eip155:8453"}],
            "quality": {"l30DaysTotalCalls": 670, "l30DaysUniquePayers": 668, "lastCalledAt": "2026-08-19T10:00:00.123Z"}
        });
        let r = Resource::from_value(&item).unwrap();
        assert_eq!(r.description.as_deref(), Some("Top"));
        assert_eq!(r.accepts[0].amount, Some(3000));
        assert_eq!(r.quality.calls_30d, Some(670));
        assert_eq!(r.quality.unique_payers_30d, Some(668));
        assert_eq!(r.quality.last_called_at_ms, Some(1_787_133_600_123));
        assert!(r.drops.is_empty());
    }

    #[test]
    fn last_called_at_as_epoch_millis() {
        let item = json!({"resource": "https://a.example", "quality": {"lastCalledAt": 1_787_133_600_123_i64}});
        assert_eq!(Resource::from_value(&item).unwrap().quality.last_called_at_ms, Some(1_787_133_600_123));
    }

    /// An item with `quality` written as JSON text, so numbers reach the reader as written
    /// (arbitrary_precision keeps `12.0` and `-0` as sent, and spells `1e3` `1e+3`).
    fn with_quality(quality: &str) -> Resource {
        let text = format!(r#"{{"resource": "https://a.example/q", "quality": {quality}}}"#);
        Resource::from_value(&serde_json::from_str(&text).unwrap()).unwrap()
    }

    #[test]
    fn whole_numbers_are_decided_on_the_text_exactly() {
        for (text, value) in [
            ("0", 0),
            ("12", 12),
            ("12.0", 12),
            ("12.000", 12),
            ("1.2e1", 12),
            ("1200e-2", 12),
            ("0.5e1", 5),
            ("1e3", 1000),
            ("1E+3", 1000),
            ("-0", 0),
            ("-0.0e5", 0),
            ("0e999999999999999999999999", 0),
            ("18446744073709551615", u64::MAX),
            ("1.8446744073709551615e19", u64::MAX),
        ] {
            assert_eq!(whole_number(text), Ok(value), "{text}");
        }
        for (text, why) in [
            ("-3", NotACount::Negative),
            ("-1e400", NotACount::Negative),
            ("-2.5", NotACount::Negative),
            ("12.5", NotACount::Fraction),
            ("2.5", NotACount::Fraction),
            ("125e-1", NotACount::Fraction),
            ("1e-400", NotACount::Fraction),
            ("1e-9999999999999999999999", NotACount::Fraction),
            ("18446744073709551616", NotACount::TooLarge),
            ("1.8446744073709551616e19", NotACount::TooLarge),
            ("1e20", NotACount::TooLarge),
            ("1e400", NotACount::TooLarge),
            ("1e9999999999999999999999", NotACount::TooLarge),
            ("123456789012345678901234567890", NotACount::TooLarge),
            ("", NotACount::Unreadable),
            ("NaN", NotACount::Unreadable),
            ("1e", NotACount::Unreadable),
            (".5", NotACount::Unreadable),
        ] {
            assert_eq!(whole_number(text), Err(why), "{text}");
        }
    }

    #[test]
    fn good_counters_are_published_as_sent() {
        for (written, value) in
            [("0", 0), ("12", 12), ("12.0", 12), ("1e3", 1000), ("-0", 0), ("18446744073709551615", u64::MAX)]
        {
            let r = with_quality(&format!(r#"{{"l30DaysTotalCalls": {written}, "l30DaysUniquePayers": {written}}}"#));
            assert_eq!((r.quality.calls_30d, r.quality.unique_payers_30d), (Some(value), Some(value)), "{written}");
            assert!(r.drops.is_empty(), "{written}: {:?}", r.drops);
        }
    }

    #[test]
    fn missing_or_null_counters_are_null_and_not_drops() {
        for quality in
            ["{}", r#"{"l30DaysTotalCalls": null, "l30DaysUniquePayers": null, "lastCalledAt": null}"#, "null"]
        {
            let r = with_quality(quality);
            assert_eq!(r.quality, Quality::default(), "{quality}");
            assert!(r.drops.is_empty(), "{quality}: {:?}", r.drops);
        }
    }

    #[test]
    fn bad_counters_are_null_and_dropped_with_what_was_found() {
        let expected = "expected a non-negative whole JSON number, found";
        for (written, found) in [
            (r#""12""#, r#"text "12""#),
            (r#""0""#, r#"text "0""#),
            (r#""""#, r#"text """#),
            ("-3", "-3, which is negative"),
            ("-1", "-1, which is negative"),
            ("2.5", "2.5, which is not a whole number"),
            ("12.5", "12.5, which is not a whole number"),
            ("1E-3", "1e-3, which is not a whole number"),
            ("1e400", "1e+400, which is larger than 18446744073709551615"),
            ("18446744073709551616", "18446744073709551616, which is larger than 18446744073709551615"),
            ("true", "true"),
            ("false", "false"),
            ("{}", "an object"),
            ("[12]", "a list"),
        ] {
            let r = with_quality(&format!(r#"{{"l30DaysTotalCalls": {written}, "l30DaysUniquePayers": 4}}"#));
            assert_eq!(r.quality.calls_30d, None, "{written}");
            // The other counter of the same listing is kept.
            assert_eq!(r.quality.unique_payers_30d, Some(4), "{written}");
            assert_eq!(
                r.drops,
                vec![Drop { field: "quality.l30DaysTotalCalls".into(), reason: format!("{expected} {found}") }],
                "{written}"
            );
            let r = with_quality(&format!(r#"{{"l30DaysUniquePayers": {written}}}"#));
            assert_eq!(r.quality.unique_payers_30d, None, "{written}");
            assert_eq!(r.drops.len(), 1);
            assert_eq!(r.drops[0].field, "quality.l30DaysUniquePayers");
        }
    }

    #[test]
    fn what_was_found_is_clipped() {
        let long_number = "9".repeat(1000);
        let r = with_quality(&format!(r#"{{"l30DaysTotalCalls": {long_number}}}"#));
        assert_eq!(r.quality.calls_30d, None);
        assert_eq!(
            r.drops[0].reason,
            format!(
                "expected a non-negative whole JSON number, found {}…, which is larger than {}",
                "9".repeat(40),
                u64::MAX
            )
        );
        let r = with_quality(&format!(r#"{{"l30DaysUniquePayers": "{}"}}"#, "x".repeat(1000)));
        assert_eq!(
            r.drops[0].reason,
            format!("expected a non-negative whole JSON number, found text \"{}…\"", "x".repeat(40))
        );
    }

    #[test]
    fn last_called_at_keeps_its_forms_and_drops_the_rest() {
        let at = |written: &str| with_quality(&format!(r#"{{"lastCalledAt": {written}}}"#));
        for written in [
            r#""2026-08-19T10:00:00.123Z""#,
            r#""2026-08-19T12:00:00.123+02:00""#,
            "1787133600123",
            "1787133600123.0",
            "1.787133600123e12",
            r#""1787133600123""#,
        ] {
            let r = at(written);
            assert_eq!(r.quality.last_called_at_ms, Some(1_787_133_600_123), "{written}");
            assert!(r.drops.is_empty(), "{written}: {:?}", r.drops);
        }
        assert_eq!(at("null").quality.last_called_at_ms, None);
        assert!(at("null").drops.is_empty());
        let expected = "expected an RFC 3339 time or epoch milliseconds, found";
        for (written, found) in [
            ("-1787133600123", "-1787133600123, which is negative".to_owned()),
            ("1787133600123.5", "1787133600123.5, which is not a whole number".to_owned()),
            ("1e400", format!("1e+400, which is larger than {}", u64::MAX)),
            ("18446744073709551615", "18446744073709551615, which is before 2000-01-01 or after 2200-01-01".to_owned()),
            ("5", "5, which is before 2000-01-01 or after 2200-01-01".to_owned()),
            (r#""yesterday""#, r#"text "yesterday", which is not an RFC 3339 time"#.to_owned()),
            (r#""+1787133600123""#, r#"text "+1787133600123", which is not an RFC 3339 time"#.to_owned()),
            (r#""-1787133600123""#, r#"text "-1787133600123", which is not an RFC 3339 time"#.to_owned()),
            (
                r#""99999999999999999999""#,
                r#"text "99999999999999999999", which is before 2000-01-01 or after 2200-01-01"#.to_owned(),
            ),
            (
                r#""1999-12-31T23:59:59Z""#,
                r#"text "1999-12-31T23:59:59Z", which is before 2000-01-01 or after 2200-01-01"#.to_owned(),
            ),
            ("true", "true".to_owned()),
            ("{}", "an object".to_owned()),
        ] {
            let r = at(written);
            assert_eq!(r.quality.last_called_at_ms, None, "{written}");
            assert_eq!(
                r.drops,
                vec![Drop { field: "quality.lastCalledAt".into(), reason: format!("{expected} {found}") }],
                "{written}"
            );
        }
    }

    #[test]
    fn huge_amounts_are_exact() {
        let item = json!({"resource": "https://a.example", "accepts": [{"maxAmountRequired": "100000000000"}]});
        assert_eq!(Resource::from_value(&item).unwrap().accepts[0].amount, Some(100_000_000_000));
    }

    #[test]
    fn bad_fields_are_dropped_and_the_rest_kept() {
        let item: Value = serde_json::from_str(
            r#"{"resource": "https://a.example/z", "description": 42, "tags": ["ok", 7, ""],
                "accepts": [{"amount": "-5", "network": "base"}, "junk"],
                "quality": {"l30DaysTotalCalls": -3, "l30DaysUniquePayers": 1.5, "lastCalledAt": "yesterday"}}"#,
        )
        .unwrap();
        let r = Resource::from_value(&item).unwrap();
        assert_eq!(r.url, "https://a.example/z");
        assert_eq!(r.tags, vec!["ok"]);
        assert_eq!(r.accepts.len(), 1);
        assert_eq!(r.accepts[0].network.as_deref(), Some("base"));
        assert_eq!(r.quality, Quality::default());
        let fields: Vec<&str> = r.drops.iter().map(|d| d.field.as_str()).collect();
        assert_eq!(
            fields,
            vec![
                "tags[1]",
                "accepts[0].amount",
                "accepts[1]",
                "description",
                "quality.l30DaysTotalCalls",
                "quality.l30DaysUniquePayers",
                "quality.lastCalledAt"
            ]
        );
    }

    #[test]
    fn items_without_a_usable_url_are_rejected() {
        for item in
            [json!({}), json!({"resource": ""}), json!({"resource": 5}), json!("x"), json!({"resource": "a\nb"})]
        {
            assert!(Resource::from_value(&item).is_err(), "{item}");
        }
    }

    #[test]
    fn long_description_is_cut_and_reported() {
        let long = "é".repeat(MAX_DESCRIPTION_CHARS + 10);
        let r = Resource::from_value(&json!({"resource": "https://a.example", "description": long})).unwrap();
        assert_eq!(r.description.unwrap().chars().count(), MAX_DESCRIPTION_CHARS);
        assert_eq!(r.drops[0].field, "description");
    }
}
