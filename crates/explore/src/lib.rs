//! Explore: retrieval for needs phrased in other words than the listings use (content/explore.md).
//!
//! Explore is not the directory's answer. The method's strict rule is; explore sits
//! beside it, separately versioned, and its results never appear inside a method
//! answer. It ranks the synthesised documents of [`document`] two ways, BM25
//! ([`bm25`]) and dense word vectors ([`dense`]), fuses the two lists by reciprocal
//! rank and nudges the fused list by price, recency and payers ([`fuse`]). Each result
//! publishes its rank in every list that placed it; no fused value is published.

pub mod answer;
pub mod bm25;
pub mod corpus;
pub mod dense;
pub(crate) mod document;
pub mod eval;
pub mod fuse;
pub mod reading;
pub mod spelling;
pub mod translations;
pub mod vectors;
pub mod vocabulary;
pub mod words;

use bm25::Bm25;
use catalogue::timings::phase;
use dense::Dense;
use fuse::{competition_ranks, Facts, Fused};
use method::assets::{AssetTable, Decimal};
use method::index::Index;
use method::networks::{self, KnownNetwork};
use vectors::VectorTable;

/// Covers the document, both retrievers, the fusion and the re-rank, and the vector
/// table. Versioned like the method: minor at least for anything that can move a
/// position.
pub const EXPLORE_VERSION: &str = "2.10.1";

/// How deep each retriever's list goes before fusion.
pub const LIST_DEPTH: usize = 100;

/// The explore index of one snapshot. Document ids are browse-order positions in the
/// method's index, so the method's record files serve explore too.
#[derive(Debug, Clone)]
pub struct Explore {
    pub bm25: Bm25,
    pub dense: Dense,
    pub facts: Vec<Facts>,
    /// The document words a word no document contains may be read as.
    pub spelling: spelling::Spelling,
    /// The networks a need can name (the method's, `networks::known`).
    pub(crate) networks: Vec<KnownNetwork>,
}

/// Both retrievers' lists and the fused order for one query.
#[derive(Debug, Clone)]
pub struct Retrieval {
    /// The constraints read from the need, and the text left for the words.
    pub(crate) reading: reading::Reading,
    pub words: words::Words,
    /// The words ranked by: the query's words, each read as its near spelling when no
    /// document contains it, less those not understood.
    pub(crate) ranked: Vec<String>,
    /// (word, the document word it was read as).
    pub(crate) near_spellings: Vec<(String, String)>,
    /// (word of another language, the vector-table word it was read as): a translation
    /// into a stopword leaves the word out.
    pub(crate) translations: Vec<(String, String)>,
    /// Words with no posting, no near spelling and no vector: left out of both lists.
    pub(crate) not_understood: Vec<String>,
    pub(crate) words_without_vector: Vec<String>,
    /// Ids in BM25 order, at most [`LIST_DEPTH`].
    pub bm25: Vec<u32>,
    /// Ids in dense order through the inverted file, at most [`LIST_DEPTH`].
    pub dense: Vec<u32>,
    pub(crate) lists_read: usize,
    pub(crate) documents_compared: usize,
    /// The union of both lists in final order.
    pub fused: Vec<Fused>,
}

impl Explore {
    pub fn build(index: &Index, table: &VectorTable) -> Explore {
        let corpus = phase("  explore: documents", || corpus::Corpus::of_index(index));
        let payers: Vec<Option<u64>> = index.entries.iter().map(|e| e.figures.unique_payers_30d).collect();
        let recency: Vec<Option<u64>> = index.entries.iter().map(|e| e.figures.days_since_last_call).collect();
        let price: Vec<Option<&Decimal>> = index.entries.iter().map(|e| e.min_price_usd.as_ref()).collect();
        let payers = competition_ranks(&payers, |a, b| b.cmp(a));
        let recency = competition_ranks(&recency, |a, b| a.cmp(b));
        // Prices compare exactly as decimals, never converted.
        let price = competition_ranks(&price, |a, b| a.cmp_exact(b));
        let facts = (0..index.entries.len())
            .map(|i| Facts { payers: payers[i], recency: recency[i], price: price[i] })
            .collect();
        let document_frequency = corpus.document_frequency();
        let mut dense = Dense::build(&corpus, &document_frequency, table);
        // BM25 takes the corpus and keeps its words; the documents' words (a fifth of a
        // gigabyte at a million listings) are gone before the inverted file, which
        // needs only the vectors.
        let bm25 = phase("  explore: bm25", || Bm25::build(corpus, &document_frequency));
        dense.index_vectors();
        let spelling = phase("  explore: spelling", || {
            spelling::Spelling::build(bm25.postings.iter().map(|(w, p)| (w.as_str(), p.len() as u32)))
        });
        let networks = networks::known(index, AssetTable::embedded());
        Explore { bm25, dense, facts, spelling, networks }
    }

    /// Reads the need's constraints and words, runs both retrievers over the documents
    /// that meet the constraints, and fuses them.
    pub fn retrieve(&self, index: &Index, text: &str, table: &VectorTable) -> Retrieval {
        let reading = reading::read(text, &self.networks);
        let tokens = words::explore_words(&reading.rest);
        let mut ranked: Vec<String> = Vec::new();
        let mut near_spellings = Vec::new();
        let mut translated = Vec::new();
        let mut not_understood = Vec::new();
        let translations = translations::Translations::embedded();
        let known = |w: &str| self.bm25.postings.contains_key(w) || table.get(w).is_some();
        for w in &tokens.words {
            // A word with a vector keeps its meaning for the dense side: a translation,
            // then a near spelling, is sought only for a word with neither postings nor a
            // vector (content/explore.md#translations). Since 2.4.0 a word with accents
            // is then sought without them: as a word of the listings ("pádel" as
            // "padel"), else by its translation ("dólar" as "dolar", "dollar").
            let folded = spelling::fold(w);
            let accented = folded != *w;
            let listed = |f: &str| self.bm25.postings.contains_key(f);
            // Since 2.6.0 a pair rescued by CSLS is a guess: a word one edit from a listing
            // word ("sentimento", "sentiment") is read as that word instead.
            // Since 2.10.0 a pair that reads a word as itself without accents, which no
            // listing has ("música → musica"), reads nothing: the word is sought as a near
            // spelling ("music") instead.
            let english = translations
                .pair(w)
                .filter(|pair| pair.read_as != folded || listed(&folded))
                .or_else(|| (accented && !listed(&folded)).then(|| translations.pair(&folded)).flatten())
                .filter(|pair| !(pair.rescued && self.spelling.nearest(w).is_some()))
                .map(|pair| pair.read_as.as_str());
            let read_as = if known(w) {
                w.clone()
            } else if translations.get(w).is_none() && accented && listed(&folded) {
                near_spellings.push((w.clone(), folded.clone()));
                folded
            } else if let Some(english) = english {
                translated.push((w.clone(), english.to_owned()));
                if words::is_stopword(english) {
                    // "con" is "with": a function word, left out as one.
                    continue;
                }
                english.to_owned()
            } else if let Some(pieces) = words::is_segmented(w)
                .then(|| words::segment(w, |p| translations.get(p).is_some()))
                .filter(|p| !p.is_empty())
            {
                // Since 2.5.0 a run of a script written without spaces is read as the
                // translations of its pieces ("智能合约安全审计": intelligent, contract,
                // security, audit), each listed with its translation.
                for piece in pieces {
                    let english = translations.get(piece).expect("a piece is a translated word");
                    translated.push((piece.to_owned(), english.to_owned()));
                    if !words::is_stopword(english) && !ranked.iter().any(|r| r == english) {
                        ranked.push(english.to_owned());
                    }
                }
                continue;
            } else if let Some(near) = self.spelling.nearest(w) {
                near_spellings.push((w.clone(), near.to_owned()));
                near.to_owned()
            } else if let Some((stem, english)) = (!words::is_segmented(w)).then(|| translations.by_prefix(w)).flatten()
            {
                // Since 2.7.0 a word nothing else reads is read by its stem's pair
                // ("sinyalleri" by "sinyal", signal), which the answer lists as the pair.
                translated.push((stem.to_owned(), english.to_owned()));
                if words::is_stopword(english) {
                    continue;
                }
                english.to_owned()
            } else {
                not_understood.push(w.clone());
                continue;
            };
            if !ranked.contains(&read_as) {
                ranked.push(read_as);
            }
        }
        let c = &reading.constraints;
        let filters = c.filters();
        let allowed = |id: u32| reading::Constraints::allow(&filters, &index.entries[id as usize]);
        let bm25: Vec<u32> =
            self.bm25.search_where(&ranked, LIST_DEPTH, allowed).into_iter().map(|(id, _)| id).collect();
        let (q, words_without_vector) = self.dense.embed_query(&ranked, table);
        let dense = q.map(|q| self.dense.search_where(&q, LIST_DEPTH, false, allowed)).unwrap_or_default();
        let price_weight = if c.cheapest { fuse::CHEAPEST_WEIGHT } else { fuse::PRIOR_WEIGHT };
        let fused = fuse::fuse(&bm25, &dense.ids, |id| self.facts[id as usize], price_weight);
        Retrieval {
            reading,
            words: tokens,
            ranked,
            near_spellings,
            translations: translated,
            not_understood,
            words_without_vector,
            bm25,
            dense: dense.ids,
            lists_read: dense.lists_read,
            documents_compared: dense.documents_compared,
            fused,
        }
    }
}
