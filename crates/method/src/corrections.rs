//! The corrections log (content/corrections.json, content/method.md#corrections):
//! misattributions and wrongly withheld descriptions corrected on notice, each with its
//! date, and the releases that settle a contested URL's owner.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use catalogue::error::Error;
use catalogue::snapshot;

const CORRECTIONS_JSON: &str = include_str!("../../../content/corrections.json");

/// One entry of the corrections log (content/corrections.json).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Correction {
    pub date: String,
    /// `quarantine-released`, `description-released`, `misattribution` or
    /// `republished` (a published folder's answers changed: content/method.md#published).
    pub kind: String,
    /// The resource concerned; empty for `republished`, which concerns a whole folder.
    #[serde(default)]
    pub resource: String,
    /// For `republished`: the date of the published folder whose answers changed.
    #[serde(default)]
    pub snapshot: Option<String>,
    /// For `description-released`: the pattern that caught the description.
    #[serde(default)]
    pub pattern: Option<String>,
    /// For `republished`: the digest of the folder's new answers (the `answers` of its
    /// lock line, or `explore-answers` when only explore's files change), so an entry
    /// is written for one change and cannot be reused for the next.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answers: Option<String>,
    /// For `quarantine-released`: the payTo addresses found, on review, to own the URL.
    #[serde(default)]
    pub(crate) pay_to: Option<Vec<String>>,
    pub note: String,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Corrections {
    pub(crate) entries: Vec<Correction>,
}

impl Corrections {
    pub(crate) fn embedded() -> &'static Corrections {
        static LOG: OnceLock<Corrections> = OnceLock::new();
        LOG.get_or_init(|| Corrections::parse(CORRECTIONS_JSON).expect("content/corrections.json is valid"))
    }

    pub fn parse(text: &str) -> Result<Corrections, Error> {
        let log: Corrections = serde_json::from_str(text)
            .map_err(|e| Error::content("content/corrections.json", e.line(), &e.to_string()))?;
        for e in &log.entries {
            snapshot::parse_date(&e.date).map_err(|m| Error::content("content/corrections.json", 0, &m))?;
            if e.kind == "republished" {
                let date = e.snapshot.as_deref().ok_or_else(|| {
                    Error::content("content/corrections.json", 0, "a `republished` entry must name its `snapshot` date")
                })?;
                snapshot::parse_date(date).map_err(|m| Error::content("content/corrections.json", 0, &m))?;
            } else if e.resource.is_empty() {
                return Err(Error::content(
                    "content/corrections.json",
                    0,
                    &format!("a `{}` entry must name its `resource`", e.kind),
                ));
            }
            if e.kind == "quarantine-released" && e.pay_to.as_ref().is_none_or(Vec::is_empty) {
                return Err(Error::content(
                    "content/corrections.json",
                    0,
                    &format!("{}: a quarantine release must name the owning pay_to", e.resource),
                ));
            }
        }
        Ok(log)
    }

    /// Newest first, for the corrections page.
    pub fn newest_first(&self) -> Vec<Correction> {
        let mut entries = self.entries.clone();
        entries.sort_by(|a, b| b.date.cmp(&a.date).then(a.resource.cmp(&b.resource)));
        entries
    }

    /// The entries saying the published folder of `date` was republished, oldest first.
    pub fn republications(&self, date: &str) -> Vec<&Correction> {
        let mut found: Vec<&Correction> =
            self.entries.iter().filter(|c| c.kind == "republished" && c.snapshot.as_deref() == Some(date)).collect();
        found.sort_by(|a, b| a.date.cmp(&b.date));
        found
    }

    /// The owner named for `url` by a release dated on or before `date`, if any.
    pub(super) fn release(&self, url: &str, date: &str) -> Option<&Correction> {
        self.entries
            .iter()
            .filter(|c| c.kind == "quarantine-released" && c.resource == url && c.date.as_str() <= date)
            .max_by(|a, b| a.date.cmp(&b.date))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corrections_parse_and_insist_on_an_owner_for_releases() {
        assert!(Corrections::parse(r#"{"entries": []}"#).unwrap().entries.is_empty());
        let bad = r#"{"entries": [{"date": "2026-01-01", "kind": "quarantine-released", "resource": "https://a", "note": "n"}]}"#;
        assert!(Corrections::parse(bad).unwrap_err().to_string().contains("pay_to"));
        let bad_date =
            r#"{"entries": [{"date": "2026-13-01", "kind": "misattribution", "resource": "https://a", "note": "n"}]}"#;
        assert!(Corrections::parse(bad_date).is_err());
        assert!(Corrections::embedded().entries.iter().all(|e| !e.resource.is_empty() || e.snapshot.is_some()));
        let republished =
            r#"{"entries": [{"date": "2026-12-05", "kind": "republished", "snapshot": "2025-12-31", "note": "n"}]}"#;
        let log = Corrections::parse(republished).unwrap();
        assert_eq!(log.republications("2025-12-31").len(), 1);
        assert!(log.republications("2025-12-18").is_empty());
        let unnamed = r#"{"entries": [{"date": "2026-12-05", "kind": "republished", "note": "n"}]}"#;
        assert!(Corrections::parse(unnamed).unwrap_err().to_string().contains("snapshot"));
        let no_resource = r#"{"entries": [{"date": "2026-12-05", "kind": "misattribution", "note": "n"}]}"#;
        assert!(Corrections::parse(no_resource).unwrap_err().to_string().contains("resource"));
    }
}
