//! Segment labels: neutral topic names assigned by word-boundary keyword rules kept in
//! content/segments.txt, versioned separately from the method (SEGMENT_DEFINITION_VERSION).

use std::sync::OnceLock;

use aho_corasick::AhoCorasick;

use crate::normalise::normalise;
use catalogue::error::Error;

const RULES_FILE: &str = "content/segments.txt";
const RULES_TEXT: &str = include_str!("../../../content/segments.txt");

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Segment {
    pub id: String,
    pub label: String,
    /// Normalised keywords (one or more words each), matched as whole words.
    pub(crate) keywords: Vec<String>,
}

#[derive(Debug, Clone)]
pub struct SegmentRules {
    pub version: String,
    pub segments: Vec<Segment>,
    /// Every keyword, padded with a space on each side (a whole-word match in a
    /// normalised haystack), in one automaton; `owner[i]` is pattern i's segment.
    matcher: AhoCorasick,
    owner: Vec<usize>,
}

impl SegmentRules {
    pub(crate) fn embedded() -> &'static SegmentRules {
        static RULES: OnceLock<SegmentRules> = OnceLock::new();
        RULES.get_or_init(|| SegmentRules::parse(RULES_TEXT).expect("content/segments.txt is valid"))
    }

    pub(crate) fn parse(text: &str) -> Result<SegmentRules, Error> {
        let mut version = None;
        let mut segments: Vec<Segment> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            let bad = |why: String| Error::content(RULES_FILE, n + 1, &why);
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(v) = line.strip_prefix("version = ") {
                version = Some(v.trim().to_owned());
            } else if let Some(rest) = line.strip_prefix('[') {
                let (id, label) = rest.split_once(']').ok_or_else(|| bad("expected `[id] Label`".into()))?;
                let valid =
                    !id.is_empty() && id.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
                if !valid {
                    return Err(bad(format!("segment id {id:?} must be lower-case letters, digits and '-'")));
                }
                if segments.iter().any(|s| s.id == id) {
                    return Err(bad(format!("segment {id} is defined twice")));
                }
                segments.push(Segment { id: id.to_owned(), label: label.trim().to_owned(), keywords: Vec::new() });
            } else {
                let segment =
                    segments.last_mut().ok_or_else(|| bad("keyword before the first `[id] Label` line".into()))?;
                let keyword = normalise(line);
                if keyword.trim().is_empty() {
                    return Err(bad(format!("keyword {line:?} has no letters or digits")));
                }
                segment.keywords.push(keyword.trim().to_owned());
            }
        }
        let version = version.ok_or_else(|| Error::content(RULES_FILE, 0, "no `version = ` line"))?;
        let mut padded = Vec::new();
        let mut owner = Vec::new();
        for (i, s) in segments.iter().enumerate() {
            for k in &s.keywords {
                padded.push(format!(" {k} "));
                owner.push(i);
            }
        }
        let matcher = AhoCorasick::new(&padded)
            .map_err(|e| Error::content(RULES_FILE, 0, &format!("keywords do not compile: {e}")))?;
        Ok(SegmentRules { version, segments, matcher, owner })
    }

    /// The ids of the segments whose keywords occur in the normalised `haystack`, in
    /// the order the rules file lists them.
    pub(crate) fn labels(&self, haystack: &str) -> Vec<String> {
        let mut hit = vec![false; self.segments.len()];
        // Overlapping search: adjacent keywords share the space between them.
        for m in self.matcher.find_overlapping_iter(haystack) {
            hit[self.owner[m.pattern().as_usize()]] = true;
        }
        self.segments.iter().zip(hit).filter(|(_, h)| *h).map(|(s, _)| s.id.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const RULES: &str =
        "version = 2.0.0\n[defi-lending] DeFi lending\nlending\nspark\n[weather] Weather\nweather\nair quality\n";

    #[test]
    fn labels_use_whole_words_only() {
        let r = SegmentRules::parse(RULES).unwrap();
        assert_eq!(r.version, "2.0.0");
        // The substring trap that motivated word boundaries.
        assert!(r.labels(&normalise("Vouchers https://loyalspark.online/api")).is_empty());
        assert_eq!(r.labels(&normalise("Spark protocol lending rates")), vec!["defi-lending"]);
        assert_eq!(r.labels(&normalise("Air-Quality index and weather")), vec!["weather"]);
        // Punctuation is not a boundary a phrase can see: both words must merely be adjacent.
        assert!(r.labels(&normalise("fresh air and quality coffee")).is_empty());
    }

    #[test]
    fn malformed_rules_are_rejected() {
        assert!(SegmentRules::parse("version = 1\nweather\n").is_err());
        assert!(SegmentRules::parse("version = 1\n[Bad Id] x\n").is_err());
        assert!(SegmentRules::parse("version = 1\n[a] A\n!!!\n").is_err());
        assert!(SegmentRules::parse("[a] A\nx\n").is_err());
    }
}
