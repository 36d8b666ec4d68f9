//! Explore: retrieval for needs phrased in other words than the listings use (SPEC §5).
//!
//! Explore is not the directory's answer. The method's strict rule is; explore sits
//! beside it, separately versioned, and its results never appear inside a method
//! answer. It ranks the synthesised documents of [`document`] two ways, BM25
//! ([`bm25`]) and dense word vectors ([`dense`]), fuses the two lists by reciprocal
//! rank and nudges the fused list by price, recency and payers ([`fuse`]). Each result
//! publishes its rank in every list that placed it; no fused value is published.

pub mod answer;
pub mod bm25;
pub mod dense;
pub mod document;
pub mod eval;
pub mod fuse;
pub mod vectors;
pub mod words;

use crate::method::index::Index;
use bm25::Bm25;
use dense::Dense;
use fuse::{competition_ranks, Facts, Fused};
use vectors::VectorTable;

/// Covers the document, both retrievers, the fusion and the re-rank, and the vector
/// table. Versioned like the method: minor at least for anything that can move a
/// position.
pub const EXPLORE_VERSION: &str = "1.0.0";

/// How deep each retriever's list goes before fusion.
pub const LIST_DEPTH: usize = 100;

/// The explore index of one snapshot. Document ids are browse-order positions in the
/// method's index, so the method's record files serve explore too.
#[derive(Debug, Clone)]
pub struct Explore {
    pub bm25: Bm25,
    pub dense: Dense,
    pub facts: Vec<Facts>,
}

/// Both retrievers' lists and the fused order for one query.
#[derive(Debug, Clone)]
pub struct Retrieval {
    pub words: words::Words,
    pub words_without_vector: Vec<String>,
    /// Ids in BM25 order, at most [`LIST_DEPTH`].
    pub bm25: Vec<u32>,
    /// Ids in dense order through the inverted file, at most [`LIST_DEPTH`].
    pub dense: Vec<u32>,
    pub lists_read: usize,
    pub documents_compared: usize,
    /// The union of both lists in final order.
    pub fused: Vec<Fused>,
}

impl Explore {
    pub fn build(index: &Index, table: &VectorTable) -> Explore {
        let documents: Vec<Vec<String>> = index.entries.iter().map(document::document).collect();
        let payers: Vec<Option<u64>> = index.entries.iter().map(|e| e.figures.unique_payers_30d).collect();
        let recency: Vec<Option<u64>> = index.entries.iter().map(|e| e.figures.days_since_last_call).collect();
        // Prices compare exactly as decimals: rank them by sorting, not by converting.
        let mut priced: Vec<(usize, &crate::method::assets::Decimal)> =
            index.entries.iter().enumerate().filter_map(|(i, e)| e.min_price_usd.as_ref().map(|p| (i, p))).collect();
        priced.sort_by(|a, b| a.1.cmp_exact(b.1));
        let mut price = vec![None; index.entries.len()];
        let mut rank = 0u32;
        for (k, (i, p)) in priced.iter().enumerate() {
            if k == 0 || priced[k - 1].1.cmp_exact(p).is_ne() {
                rank = k as u32 + 1;
            }
            price[*i] = Some(rank);
        }
        let payers = competition_ranks(&payers, true);
        let recency = competition_ranks(&recency, false);
        let facts = (0..index.entries.len())
            .map(|i| Facts { payers: payers[i], recency: recency[i], price: price[i] })
            .collect();
        Explore { bm25: Bm25::build(&documents), dense: Dense::build(&documents, table), facts }
    }

    /// Runs both retrievers and fuses them. `exact_dense` compares every document
    /// instead of reading the inverted file (for the evaluation's reference).
    pub fn retrieve(&self, text: &str, table: &VectorTable, exact_dense: bool) -> Retrieval {
        let tokens = words::explore_words(text);
        let bm25: Vec<u32> = self.bm25.search(&tokens.words, LIST_DEPTH).into_iter().map(|(id, _)| id).collect();
        let (q, words_without_vector) = self.dense.embed_query(&tokens.words, table);
        let (mut dense, mut lists_read, mut documents_compared) = (Vec::new(), 0, 0);
        if let Some(q) = q {
            if exact_dense {
                lists_read = self.dense.ivf.lists.len();
                documents_compared = self.dense.vectors.iter().flatten().count();
            } else {
                let probed = self.dense.ivf.probe(&q);
                lists_read = probed.len();
                documents_compared = probed.iter().map(|&l| self.dense.ivf.lists[l].len()).sum();
            }
            dense = self.dense.search(&q, LIST_DEPTH, exact_dense).into_iter().map(|(id, _)| id).collect();
        }
        let fused = fuse::fuse(&bm25, &dense, |id| self.facts[id as usize]);
        Retrieval { words: tokens, words_without_vector, bm25, dense, lists_read, documents_compared, fused }
    }
}
