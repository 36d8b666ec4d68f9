//! Query parsing (content/method.md#query) and filters (content/method.md#filters).

use std::fmt;

use serde::Serialize;

use super::assets::{self, Decimal};
use super::normalise::for_each_word;
use catalogue::error::Error;

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

/// Splits a query into tokens: case-fold, split on non-alphanumeric, de-duplicate
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
    /// A network as given (its name, legacy name or CAIP-2 id); an answer states the
    /// CAIP-2 id it resolved to (`networks::resolve`).
    pub network: Option<String>,
    /// Leave out resources that accept payment only on test networks.
    pub exclude_testnets: bool,
    /// Keep only resources whose live 402 the snapshot's probe saw (content/method.md#probe).
    pub answered_402: bool,
    pub limit: usize,
    /// How many of the ordered results come before the first one returned.
    pub offset: usize,
}

impl Default for Filters {
    fn default() -> Self {
        Filters {
            max_price: None,
            network: None,
            exclude_testnets: false,
            answered_402: false,
            limit: DEFAULT_LIMIT,
            offset: 0,
        }
    }
}

/// Filter values as typed by a person or sent by a program; `None` is a filter left out.
#[derive(Debug, Clone, Copy, Default)]
pub struct FilterText<'a> {
    pub max_price: Option<&'a str>,
    pub network: Option<&'a str>,
    pub exclude_testnets: bool,
    pub answered_402: bool,
    pub limit: Option<&'a str>,
    pub offset: Option<&'a str>,
}

/// An offset is at most this many digits, and at most [`MAX_OFFSET`].
pub const OFFSET_MAX_DIGITS: usize = 7;
pub const MAX_OFFSET: usize = 1_000_000;
/// A network filter is at most this many characters.
pub const MAX_NETWORK_CHARS: usize = 100;

/// A filter value that cannot be used. Never clamped, never guessed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FilterError {
    Limit(String),
    Offset(String),
    MaxPrice(String),
    Network(String),
    /// A network named by no listing of the snapshot and not in the asset table: the
    /// snapshot's networks, described for people, so the answer says what would work.
    UnknownNetwork {
        given: String,
        known: Vec<String>,
    },
    /// `answered_402` asked of a snapshot that was not probed: the date it names.
    NotProbed(String),
}

impl fmt::Display for FilterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FilterError::Limit(v) => write!(
                f,
                "invalid limit {v:?}: expected a whole number from 1 to {MAX_LIMIT} (default {DEFAULT_LIMIT})"
            ),
            FilterError::Offset(v) => {
                write!(f, "invalid offset {v:?}: expected a whole number from 0 to {MAX_OFFSET} (default 0)")
            }
            FilterError::MaxPrice(v) => write!(
                f,
                "invalid max_price {v:?}: expected a non-negative decimal number of USD such as 0.01 or $0.01 \
                 (at most {} decimal places, no sign, no exponent)",
                assets::MAX_DECIMALS
            ),
            FilterError::Network(v) => write!(
                f,
                "invalid network {v:?}: expected a network's name (Base), legacy name (base) or CAIP-2 id \
                 (eip155:8453), at most {MAX_NETWORK_CHARS} characters"
            ),
            FilterError::UnknownNetwork { given, known } if known.is_empty() => {
                write!(f, "unknown network {given:?}: no listing in this snapshot names a network")
            }
            FilterError::UnknownNetwork { given, known } => write!(
                f,
                "unknown network {given:?}: the networks in this snapshot are {}; give a name, legacy name or \
                 CAIP-2 id",
                known.join(", ")
            ),
            FilterError::NotProbed(date) => write!(
                f,
                "answered_402 needs a probed snapshot: the snapshot of {date} was not probed, so no listing's live \
                 402 is known; leave the filter out, or ask a snapshot whose manifest names a probe"
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
        Filters::read(FilterText { max_price, network, limit, ..FilterText::default() })
    }

    /// Builds filters from every filter's text, checked in this order: limit, offset,
    /// max_price, network (so each surface reports the same value first).
    pub fn read(text: FilterText) -> Result<Filters, FilterError> {
        let limit = match text.limit {
            None => DEFAULT_LIMIT,
            Some(t) => parse_limit(t)?,
        };
        let offset = match text.offset {
            None => 0,
            Some(t) => parse_offset(t)?,
        };
        let max_price = match text.max_price {
            None => None,
            Some(t) => Some(parse_price(t).ok_or_else(|| FilterError::MaxPrice(t.to_owned()))?),
        };
        let network = match text.network {
            None => None,
            Some(t) => Some(parse_network(t).ok_or_else(|| FilterError::Network(t.to_owned()))?.to_owned()),
        };
        Ok(Filters {
            max_price,
            network,
            exclude_testnets: text.exclude_testnets,
            answered_402: text.answered_402,
            limit,
            offset,
        })
    }
}

/// What a filter's text is read without: spaces, tabs and line ends around it.
fn trim_space(text: &str) -> &str {
    text.trim_matches([' ', '\t', '\n', '\r', '\x0c'])
}

/// A price as people write it: `0.01`, `$0.01`, `0.01$`, `0.01 USD` or `0.01 usdc`.
fn parse_price(text: &str) -> Option<Decimal> {
    let mut t = trim_space(text);
    if let Some(rest) = t.strip_prefix('$') {
        t = trim_space(rest);
    } else if let Some(rest) = t.strip_suffix('$') {
        t = trim_space(rest);
    } else {
        let lower = t.to_ascii_lowercase();
        for unit in ["usdc", "usd"] {
            if lower.ends_with(unit) {
                t = trim_space(&t[..t.len() - unit.len()]);
                break;
            }
        }
    }
    Decimal::parse(t)
}

/// A network's text, trimmed, when it can name one: 1 to 100 characters, none a control.
fn parse_network(text: &str) -> Option<&str> {
    let t = trim_space(text);
    let chars = t.chars().count();
    ((1..=MAX_NETWORK_CHARS).contains(&chars) && !t.chars().any(|c| c < ' ' || c == '\u{7f}')).then_some(t)
}

fn parse_whole(text: &str, max_digits: usize) -> Option<usize> {
    if text.is_empty() || text.len() > max_digits || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

fn parse_limit(text: &str) -> Result<usize, FilterError> {
    parse_whole(text, LIMIT_MAX_DIGITS)
        .filter(|n| (1..=MAX_LIMIT).contains(n))
        .ok_or_else(|| FilterError::Limit(text.to_owned()))
}

fn parse_offset(text: &str) -> Result<usize, FilterError> {
    parse_whole(text, OFFSET_MAX_DIGITS)
        .filter(|n| *n <= MAX_OFFSET)
        .ok_or_else(|| FilterError::Offset(text.to_owned()))
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
        let e = Filters::parse(None, Some(" \t "), None).unwrap_err();
        assert!(e.to_string().contains("CAIP-2"));
        let e = Filters::parse(None, Some("base\u{0}"), None).unwrap_err();
        assert!(e.to_string().contains("invalid network"));
        let e = Filters::parse(None, None, Some("100")).unwrap_err();
        assert!(e.to_string().contains("1 to 50"));
        assert_eq!(Filters::parse(None, None, None).unwrap(), Filters::default());
    }

    #[test]
    fn prices_are_read_as_people_write_them() {
        let p = |t: &str| parse_price(t).map(|d| d.to_string());
        for (text, want) in [
            ("0.01", "0.01"),
            ("$0.01", "0.01"),
            ("$ 0.01", "0.01"),
            ("0.01$", "0.01"),
            (" 0.01 USD", "0.01"),
            ("0.5usdc", "0.5"),
            ("1 Usd", "1"),
        ] {
            assert_eq!(p(text).as_deref(), Some(want), "{text:?}");
        }
        for bad in ["$", "USD", "$$1", "$1$", "1 usd usd", "-$1", "$-1", "1 eur", "1 dollars", "1e3"] {
            assert_eq!(p(bad), None, "{bad:?} accepted");
        }
    }

    #[test]
    fn offset_is_a_bounded_whole_number() {
        let f = |t: &str| Filters::read(FilterText { offset: Some(t), ..FilterText::default() }).map(|f| f.offset);
        assert_eq!(f("0"), Ok(0));
        assert_eq!(f("1000000"), Ok(1_000_000));
        for bad in ["", "-1", "1000001", "10000000", "1.0", " 1"] {
            assert!(matches!(f(bad), Err(FilterError::Offset(_))), "{bad:?} accepted");
        }
    }
}
