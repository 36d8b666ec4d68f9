//! Ranking (content/method.md#ranking): the one order every surface uses.
//!
//! 1. `match_score`, descending: query tokens found as whole words in the description;
//! 2. `unique_payers_30d`, descending: many paying addresses are harder to manufacture
//!    than many calls from one address;
//! 3. `calls_30d`, descending;
//! 4. `resource`, ascending, in plain byte order, so every run gives one order.
//!
//! A missing counter sorts after every present one, zero included.

use std::cmp::{Ordering, Reverse};

/// What a resource is ordered by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct RankKey<'a> {
    pub(crate) match_score: u32,
    pub(crate) unique_payers_30d: Option<u64>,
    pub(crate) calls_30d: Option<u64>,
    pub(crate) resource: &'a str,
}

/// The rank key as a tuple that sorts ascending into the method's order.
type Ordered<'a> = (Reverse<u32>, Reverse<Option<u64>>, Reverse<Option<u64>>, &'a [u8]);

impl RankKey<'_> {
    fn tuple(&self) -> Ordered<'_> {
        // Option orders None below Some(0), so reversing puts missing counters last.
        (Reverse(self.match_score), Reverse(self.unique_payers_30d), Reverse(self.calls_30d), self.resource.as_bytes())
    }
}

impl Ord for RankKey<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.tuple().cmp(&other.tuple())
    }
}

impl PartialOrd for RankKey<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(m: u32, p: Option<u64>, c: Option<u64>, r: &str) -> RankKey<'_> {
        RankKey { match_score: m, unique_payers_30d: p, calls_30d: c, resource: r }
    }

    #[test]
    fn order_is_match_then_payers_then_calls_then_url() {
        let mut keys = [
            key(1, Some(100), Some(100), "https://e"),
            key(2, Some(1), Some(1), "https://d"),
            key(1, Some(100), Some(500), "https://c"),
            key(1, Some(200), Some(1), "https://b"),
            key(1, Some(100), Some(500), "https://a"),
        ];
        keys.sort();
        let order: Vec<&str> = keys.iter().map(|k| k.resource).collect();
        assert_eq!(order, vec!["https://d", "https://b", "https://a", "https://c", "https://e"]);
    }

    #[test]
    fn payers_outrank_calls() {
        // 1,000 calls from one address rank below 3 calls from 3 addresses.
        assert!(key(0, Some(3), Some(3), "https://z") < key(0, Some(1), Some(1000), "https://a"));
    }

    #[test]
    fn missing_counters_sort_after_zero() {
        assert!(key(0, Some(0), Some(0), "https://z") < key(0, None, None, "https://a"));
        assert!(key(0, Some(0), None, "https://z") < key(0, None, Some(9), "https://a"));
    }

    #[test]
    fn url_tie_break_is_byte_order_not_locale() {
        // Upper-case sorts before lower-case in byte order.
        assert!(key(0, None, None, "https://Z") < key(0, None, None, "https://a"));
        // Multi-byte characters sort by their UTF-8 bytes.
        assert!(key(0, None, None, "https://z") < key(0, None, None, "https://é"));
    }
}
