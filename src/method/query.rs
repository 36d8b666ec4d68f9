//! Query parsing (content/method.md#query) and filters (content/method.md#filters).

use std::fmt;

use serde::Serialize;

use super::assets::{self, Decimal};
use super::normalise::for_each_word;
use crate::error::Error;

/// Tokens shorter than this (in Unicode scalar values) are dropped.
pub const MIN_TOKEN_CHARS: usize = 2;
/// At most this many tokens are kept, the first ones after de-duplication.
pub const MAX_TOKENS: usize = 8;
pub const DEFAULT_LIMIT: usize = 10;
pub const MAX_LIMIT: usize = 50;
/// A limit is at most this many digits (`050` is read, `0050` is not).
pub const LIMIT_MAX_DIGITS: usize = 3;

/// The tokens of a query and what was left out of them, so the answer can say so.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tokens {
    pub tokens: Vec<String>,
    /// Tokens dropped for being shorter than two characters.
    pub dropped_short: Vec<String>,
    /// Tokens dropped because eight were already kept.
    pub dropped_over_limit: Vec<String>,
}

/// Splits a query into tokens: lower-case, split on non-alphanumeric, de-duplicate
/// keeping the first occurrence, drop tokens under two characters, keep the first eight.
pub fn tokenise(query: &str) -> Tokens {
    tokenise_except(query, |_| false).0
}

/// [`tokenise`], also leaving out the words `skip` names (explore's stopwords), which
/// are returned apart, in query order, and take no place among the eight.
pub fn tokenise_except(query: &str, skip: impl Fn(&str) -> bool) -> (Tokens, Vec<String>) {
    let mut out = Tokens { tokens: Vec::new(), dropped_short: Vec::new(), dropped_over_limit: Vec::new() };
    let mut skipped = Vec::new();
    // A set, not a list: a pasted wall of text must not make this quadratic.
    let mut seen: std::collections::HashSet<String> = std::collections::HashSet::new();
    for_each_word(query, |w| {
        if !seen.insert(w.to_owned()) {
            return;
        }
        if w.chars().count() < MIN_TOKEN_CHARS {
            out.dropped_short.push(w.to_owned());
        } else if skip(w) {
            skipped.push(w.to_owned());
        } else if out.tokens.len() >= MAX_TOKENS {
            out.dropped_over_limit.push(w.to_owned());
        } else {
            out.tokens.push(w.to_owned());
        }
    });
    (out, skipped)
}

/// The conjunctive filters of content/method.md#filters, validated.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Filters {
    /// USD per call, inclusive, as the exact decimal the user gave.
    pub max_price: Option<Decimal>,
    /// A network id as given (CAIP-2 or a legacy v1 name).
    pub network: Option<String>,
    pub limit: usize,
}

impl Default for Filters {
    fn default() -> Self {
        Filters { max_price: None, network: None, limit: DEFAULT_LIMIT }
    }
}

/// A filter value that cannot be used. Never clamped, never guessed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilterError {
    Limit(String),
    MaxPrice(String),
    Network(String),
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FilterError::Limit(v) => write!(
                f,
                "invalid limit {v:?}: expected a whole number from 1 to {MAX_LIMIT} (default {DEFAULT_LIMIT})"
            ),
            FilterError::MaxPrice(v) => write!(
                f,
                "invalid max_price {v:?}: expected a non-negative decimal number of USD such as 0.01 \
                 (at most {} decimal places, no sign, no exponent)",
                assets::MAX_DECIMALS
            ),
            FilterError::Network(v) => write!(
                f,
                "invalid network {v:?}: expected a CAIP-2 chain id such as eip155:8453 or a legacy \
                 network name such as base"
            ),
        }
    }
}

impl std::error::Error for FilterError {}

impl From<FilterError> for Error {
    fn from(e: FilterError) -> Error {
        Error::Filter(e.to_string())
    }
}

impl Filters {
    /// Builds filters from user-supplied text, rejecting anything out of range or malformed.
    pub fn parse(max_price: Option<&str>, network: Option<&str>, limit: Option<&str>) -> Result<Filters, FilterError> {
        let limit = match limit {
            None => DEFAULT_LIMIT,
            Some(text) => parse_limit(text)?,
        };
        let max_price = match max_price {
            None => None,
            Some(text) => Some(Decimal::parse(text).ok_or_else(|| FilterError::MaxPrice(text.to_owned()))?),
        };
        let network = match network {
            None => None,
            Some(text) if assets::is_valid_network_id(text) => Some(text.to_owned()),
            Some(text) => return Err(FilterError::Network(text.to_owned())),
        };
        Ok(Filters { max_price, network, limit })
    }
}

fn parse_limit(text: &str) -> Result<usize, FilterError> {
    let bad = || FilterError::Limit(text.to_owned());
    if text.is_empty() || text.len() > LIMIT_MAX_DIGITS || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let n: usize = text.parse().map_err(|_| bad())?;
    if (1..=MAX_LIMIT).contains(&n) {
        Ok(n)
    } else {
        Err(bad())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokenise_lowercases_splits_dedupes_and_drops_short() {
        let t = tokenise("Weather, weather A forecast-API x");
        assert_eq!(t.tokens, vec!["weather", "forecast", "api"]);
        assert_eq!(t.dropped_short, vec!["a", "x"]);
        assert!(t.dropped_over_limit.is_empty());
    }

    #[test]
    fn tokenise_keeps_first_eight_after_dedupe() {
        let t = tokenise("aa bb aa cc dd ee ff gg hh ii jj");
        assert_eq!(t.tokens, vec!["aa", "bb", "cc", "dd", "ee", "ff", "gg", "hh"]);
        assert_eq!(t.dropped_over_limit, vec!["ii", "jj"]);
    }

    #[test]
    fn short_tokens_do_not_use_up_the_eight() {
        let t = tokenise("a b c d e f g h i aa bb");
        assert_eq!(t.tokens, vec!["aa", "bb"]);
    }

    #[test]
    fn token_length_counts_characters_not_bytes() {
        // One Chinese character is three UTF-8 bytes but one character: dropped.
        assert!(tokenise("天").tokens.is_empty());
        assert_eq!(tokenise("天气").tokens, vec!["天气"]);
    }

    #[test]
    fn empty_query_has_no_tokens() {
        assert!(tokenise("").tokens.is_empty());
        assert!(tokenise("!! ? a").tokens.is_empty());
    }

    #[test]
    fn limit_accepts_1_to_50_only() {
        assert_eq!(parse_limit("1"), Ok(1));
        assert_eq!(parse_limit("50"), Ok(50));
        for bad in ["0", "51", "-1", "", "1.5", "ten", " 5", "+5", "0050", "99999999999999999999"] {
            assert!(parse_limit(bad).is_err(), "{bad:?} accepted");
        }
    }

    #[test]
    fn filters_reject_malformed_values_with_clear_errors() {
        let e = Filters::parse(Some("-0.5"), None, None).unwrap_err();
        assert!(e.to_string().contains("max_price"));
        let e = Filters::parse(None, Some("base sepolia"), None).unwrap_err();
        assert!(e.to_string().contains("CAIP-2"));
        let e = Filters::parse(None, None, Some("100")).unwrap_err();
        assert!(e.to_string().contains("1 to 50"));
        assert_eq!(Filters::parse(None, None, None).unwrap(), Filters::default());
    }
}
