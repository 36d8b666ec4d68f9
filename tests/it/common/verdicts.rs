//! content/method.md#never-published: nothing published is a score, grade, rating, quality ranking, intent label
//! or verdict. This walks any JSON value and reports every key or authored value that
//! carries one.

use serde_json::Value;

/// Key fragments that name a judgement. `match_score` is the one allowed "score": it is
/// a word count, defined as such on the method page.
const VERDICT_KEY_FRAGMENTS: &[&str] = &[
    "score",
    "grade",
    "rating",
    "quality",
    "trust",
    "suspicious",
    "suspect",
    "recommend",
    "verdict",
    "farming",
    "spam",
    "scam",
    "fraud",
    "risk",
    "reputation",
    "legit",
    "safe",
    "honest",
    "fake",
    "sybil",
    "wash",
    "intent",
    "abuse",
    "malicious",
    "credib",
    "reliab",
    "best",
    "worst",
    "badge",
    "tier",
    "flagged",
];
const ALLOWED_KEYS: &[&str] = &["match_score"];

/// Authored values that would be a verdict if we published them.
const VERDICT_VALUES: &[&str] = &[
    "farming",
    "suspicious",
    "trusted",
    "untrusted",
    "trustworthy",
    "scam",
    "spam",
    "fraud",
    "fraudulent",
    "fake",
    "sybil",
    "wash trading",
    "low quality",
    "high quality",
    "recommended",
    "not recommended",
    "risky",
    "safe",
    "unsafe",
    "malicious",
    "legit",
    "legitimate",
    "verified",
    "bot",
];

/// Keys whose values are foreign text (the providers' words or the user's query), not ours.
const FOREIGN_TEXT_KEYS: &[&str] = &[
    "description",
    "service_name",
    "resource",
    "page",
    "text",
    "tags",
    "tokens",
    "dropped_short",
    "dropped_over_limit",
];

pub fn verdicts_in(value: &Value) -> Vec<String> {
    let mut found = Vec::new();
    walk(value, "$", None, &mut found);
    found
}

fn walk(v: &Value, path: &str, key: Option<&str>, found: &mut Vec<String>) {
    match v {
        Value::Object(map) => {
            for (k, child) in map {
                let lower = k.to_ascii_lowercase();
                if !ALLOWED_KEYS.contains(&lower.as_str()) && VERDICT_KEY_FRAGMENTS.iter().any(|f| lower.contains(f)) {
                    found.push(format!("{path}.{k}: verdict-like key"));
                }
                walk(child, &format!("{path}.{k}"), Some(k), found);
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                walk(child, &format!("{path}[{i}]"), key, found);
            }
        }
        Value::String(s) => {
            if key.is_some_and(|k| FOREIGN_TEXT_KEYS.contains(&k)) {
                return;
            }
            let lower = s.trim().to_ascii_lowercase();
            if VERDICT_VALUES.contains(&lower.as_str()) {
                found.push(format!("{path}: verdict-like value {s:?}"));
            }
        }
        _ => {}
    }
}

#[test]
fn the_checker_catches_verdicts() {
    let bad = serde_json::json!({"data": [{"trust_score": 3, "quality": "farming", "labels": ["suspicious"], "match_score": 1}]});
    let found = verdicts_in(&bad);
    assert_eq!(found.len(), 4, "{found:?}");
    let ok = serde_json::json!({"data": [{"match_score": 2, "description": "a safe, trusted API", "segments": ["weather"]}]});
    assert!(verdicts_in(&ok).is_empty());
}
