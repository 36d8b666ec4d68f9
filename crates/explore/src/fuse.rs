//! Reciprocal rank fusion of the BM25 and dense lists, then a cheap re-rank on price,
//! recency and payers (content/explore.md#fusion).
//!
//! Only ranks are combined, never the retrievers' own values, and every rank is
//! published with the result. The arithmetic is IEEE-754 double addition and division
//! done in one fixed order, which JavaScript performs bit for bit the same.

use std::cmp::Ordering;

use serde::Serialize;

/// The `k` of reciprocal rank fusion: a result at rank r contributes 1 / (k + r).
/// Smaller than the customary 60 because the lists here are short (at most 100) and
/// mostly decided in their first ten; content/explore.md records the comparison.
pub const RRF_K: f64 = 10.0;
/// How much the three prior lists (payers, recency, price) count against the two
/// retrievers: an eighth. A power of two, so it multiplies exactly.
pub const PRIOR_WEIGHT: f64 = 0.125;
/// The price list's weight when the need asks for the cheapest (content/explore.md#constraints):
/// as much as a retriever.
pub const CHEAPEST_WEIGHT: f64 = 1.0;

/// What the re-rank reads about a document. Each is a competition rank over the whole
/// index (1 = best, ties share), so comparisons need no decimals or large numbers:
/// most unique payers; fewest days since the last call; lowest USD price. `None` when
/// the figure is unknown.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Facts {
    pub payers: Option<u32>,
    pub recency: Option<u32>,
    pub price: Option<u32>,
}

/// One result's place in every list that decided its position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Ranks {
    pub bm25: Option<u32>,
    pub dense: Option<u32>,
    /// Position after fusing the two retrievers, before the re-rank.
    pub fused: u32,
    /// Among the fused candidates: most payers, most recent call, lowest price.
    pub payers: Option<u32>,
    pub recency: Option<u32>,
    pub price: Option<u32>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fused {
    pub id: u32,
    pub ranks: Ranks,
}

fn reciprocal(rank: Option<u32>) -> f64 {
    match rank {
        Some(r) => 1.0 / (RRF_K + f64::from(r)),
        None => 0.0,
    }
}

/// Fuses two ranked id lists and re-ranks the union; returns it in final order.
/// The price list weighs `price_weight` ([`PRIOR_WEIGHT`], or [`CHEAPEST_WEIGHT`] when
/// the need asks for the cheapest).
pub(crate) fn fuse(bm25: &[u32], dense: &[u32], facts: impl Fn(u32) -> Facts, price_weight: f64) -> Vec<Fused> {
    let mut ids: Vec<u32> = bm25.iter().chain(dense).copied().collect();
    ids.sort_unstable();
    ids.dedup();
    let position = |list: &[u32], id: u32| list.iter().position(|&x| x == id).map(|p| p as u32 + 1);
    struct Candidate {
        id: u32,
        bm25: Option<u32>,
        dense: Option<u32>,
        fused: f64,
        facts: Facts,
    }
    let mut items: Vec<Candidate> = ids
        .into_iter()
        .map(|id| {
            let (bm25, dense) = (position(bm25, id), position(dense, id));
            Candidate { id, bm25, dense, fused: reciprocal(bm25) + reciprocal(dense), facts: facts(id) }
        })
        .collect();
    items.sort_by(|x, y| y.fused.total_cmp(&x.fused).then(x.id.cmp(&y.id)));

    // Prior ranks among the candidates: 1 + how many candidates are strictly better.
    let among = |pick: fn(&Facts) -> Option<u32>, value: Option<u32>| {
        value.map(|v| 1 + items.iter().filter(|i| pick(&i.facts).is_some_and(|o| o < v)).count() as u32)
    };
    let mut out: Vec<(f64, Fused)> = items
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let f = c.facts;
            let ranks = Ranks {
                bm25: c.bm25,
                dense: c.dense,
                fused: i as u32 + 1,
                payers: among(|f| f.payers, f.payers),
                recency: among(|f| f.recency, f.recency),
                price: among(|f| f.price, f.price),
            };
            let prior = reciprocal(ranks.payers) + reciprocal(ranks.recency);
            let value = c.fused + PRIOR_WEIGHT * prior + price_weight * reciprocal(ranks.price);
            (value, Fused { id: c.id, ranks })
        })
        .collect();
    out.sort_by(|x, y| y.0.total_cmp(&x.0).then(x.1.ranks.fused.cmp(&y.1.ranks.fused)));
    out.into_iter().map(|(_, f)| f).collect()
}

/// Competition ranks (1 = best, ties share) of `values`, where `order` puts the better
/// of two values first; `None` stays `None`.
pub(crate) fn competition_ranks<T>(values: &[Option<T>], order: impl Fn(&T, &T) -> Ordering) -> Vec<Option<u32>> {
    let mut known: Vec<&T> = values.iter().flatten().collect();
    known.sort_by(|a, b| order(a, b));
    values.iter().map(|v| v.as_ref().map(|v| known.partition_point(|x| order(x, v).is_lt()) as u32 + 1)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_lists_count_and_agreement_wins() {
        // 7 is second in both lists; 1 and 9 are first in one list only.
        let out = fuse(&[1, 7, 3], &[9, 7, 4], |_| Facts::default(), PRIOR_WEIGHT);
        assert_eq!(out[0].id, 7);
        assert_eq!(
            out[0].ranks,
            Ranks { bm25: Some(2), dense: Some(2), fused: 1, payers: None, recency: None, price: None }
        );
        // 1 and 9 tie on fusion: the lower id first.
        assert_eq!((out[1].id, out[2].id), (1, 9));
    }

    #[test]
    fn priors_nudge_but_only_among_near_ties() {
        let facts = |id: u32| Facts { payers: Some(if id == 9 { 1 } else { 50 }), recency: None, price: None };
        let out = fuse(&[1, 7, 3], &[9, 7, 4], facts, PRIOR_WEIGHT);
        // 9 has the most payers, so it passes its fusion tie with 1, but not 7.
        assert_eq!(out.iter().map(|f| f.id).collect::<Vec<_>>()[..3], [7, 9, 1]);
        assert_eq!(out[1].ranks.payers, Some(1));
        assert_eq!(out[1].ranks.fused, 3);
    }

    #[test]
    fn competition_ranks_share_ties_and_keep_unknowns() {
        let v = [Some(5u64), None, Some(9), Some(5), Some(1)];
        assert_eq!(competition_ranks(&v, |a, b| b.cmp(a)), vec![Some(2), None, Some(1), Some(2), Some(4)]);
        assert_eq!(competition_ranks(&v, |a, b| a.cmp(b)), vec![Some(2), None, Some(4), Some(2), Some(1)]);
    }
}
