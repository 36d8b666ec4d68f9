//! BM25 over the explore documents (content/explore.md#words).
//!
//! Each posting carries its term's whole contribution to the document's BM25 value,
//! rounded to thousandths. A query's value for a document is then a plain sum of whole
//! numbers, which the JavaScript composer adds up to exactly the same total: no
//! logarithm or division is left for the browser to compute differently.

use super::corpus::Corpus;
use std::collections::{BTreeMap, HashMap};

/// Term-frequency saturation.
pub(crate) const K1: f64 = 1.2;
/// Length normalisation.
pub(crate) const B: f64 = 0.75;

/// One document containing a term, and the term's contribution in thousandths.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Posting {
    pub id: u32,
    pub weight: u32,
}

#[derive(Debug, Clone, Default)]
pub struct Bm25 {
    /// Postings by term; each list in descending weight, then ascending id.
    pub postings: BTreeMap<String, Vec<Posting>>,
}

impl Bm25 {
    /// Indexes the documents of `corpus` (document `i` gets id `i`); `document_frequency`
    /// is the corpus's, by word id. The corpus is taken so that its words become the
    /// lists' keys without a copy.
    pub(crate) fn build(corpus: Corpus, document_frequency: &[u32]) -> Bm25 {
        use rayon::prelude::*;
        let n = corpus.len();
        let average_length = if n == 0 { 0.0 } else { corpus.total_words() as f64 / n as f64 };
        let idf: Vec<f64> = document_frequency.iter().map(|&df| idf(n, df as usize)).collect();
        // Each list is made at its final size: no list of (id, tf, length) triples first.
        let mut lists: Vec<Vec<Posting>> =
            document_frequency.iter().map(|&df| Vec::with_capacity(df as usize)).collect();
        for id in 0..n {
            let length = corpus.document(id).len();
            for (w, tf) in corpus.term_frequencies(id) {
                let weight = thousandths(idf[w as usize] * saturate(tf, length, average_length));
                lists[w as usize].push(Posting { id: id as u32, weight });
            }
        }
        lists.par_iter_mut().for_each(|list| list.sort_by(|a, b| b.weight.cmp(&a.weight).then(a.id.cmp(&b.id))));
        // The documents go before the map is made: at a million listings they are 100 MB.
        let postings = corpus.into_vocabulary().into_iter().zip(lists).filter(|(_, list)| !list.is_empty()).collect();
        Bm25 { postings }
    }

    /// Documents containing any of `terms`, by descending summed weight, then ascending
    /// id; at most `depth` of them. Terms are read in the order given.
    #[cfg(test)]
    pub(crate) fn search(&self, terms: &[String], depth: usize) -> Vec<(u32, u64)> {
        self.search_where(terms, depth, |_| true)
    }

    /// [`Bm25::search`] over the documents `allowed` lets through, cut after them.
    pub(crate) fn search_where(
        &self,
        terms: &[String],
        depth: usize,
        allowed: impl Fn(u32) -> bool,
    ) -> Vec<(u32, u64)> {
        let mut totals: HashMap<u32, (u64, usize)> = HashMap::new();
        for term in terms {
            for p in self.postings.get(term).map(Vec::as_slice).unwrap_or_default() {
                if allowed(p.id) {
                    let t = totals.entry(p.id).or_default();
                    t.0 += u64::from(p.weight);
                    t.1 += 1;
                }
            }
        }
        let least = min_words(terms.len());
        let mut ranked: Vec<(u32, u64)> =
            totals.into_iter().filter(|(_, (_, n))| *n >= least).map(|(id, (sum, _))| (id, sum)).collect();
        ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        ranked.truncate(depth);
        ranked
    }
}

/// The share of a query's words a document must contain to be in the BM25 list, as a
/// fraction: half (content/explore.md#bm25).
pub const MIN_WORDS_SHARE: (usize, usize) = (1, 2);

/// How many of a query's `m` words a document must contain to be in the BM25 list:
/// [`MIN_WORDS_SHARE`] of them, rounded up. One word of a paraphrase ("coin" of "is this
/// coin a rug pull") is no evidence; both of "token price" are not required.
pub(crate) fn min_words(m: usize) -> usize {
    (m * MIN_WORDS_SHARE.0).div_ceil(MIN_WORDS_SHARE.1)
}

/// Robertson–Spärck Jones weight with Lucene's `1 +` so it is never negative.
fn idf(documents: usize, containing: usize) -> f64 {
    let (n, df) = (documents as f64, containing as f64);
    (1.0 + (n - df + 0.5) / (df + 0.5)).ln()
}

fn saturate(tf: u32, length: usize, average_length: f64) -> f64 {
    let tf = f64::from(tf);
    let norm = if average_length > 0.0 { length as f64 / average_length } else { 1.0 };
    tf * (K1 + 1.0) / (tf + K1 * (1.0 - B + B * norm))
}

fn thousandths(x: f64) -> u32 {
    (x * 1000.0).round().clamp(0.0, u32::MAX as f64) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn build(texts: &[&str]) -> Bm25 {
        let corpus = Corpus::from_documents(texts.iter().map(|t| t.split(' ').map(str::to_owned).collect()).collect());
        let df = corpus.document_frequency();
        Bm25::build(corpus, &df)
    }

    #[test]
    fn rare_terms_weigh_more_and_repeats_saturate() {
        let index = build(&["weather api", "price api", "weather weather weather api", "token api"]);
        let api = &index.postings["api"];
        let weather = &index.postings["weather"];
        // "api" is in every document, "weather" in two: the rarer word weighs more.
        assert!(weather[0].weight > api[0].weight);
        // Three repeats beat one, but by less than three times.
        let w = |id| weather.iter().find(|p| p.id == id).unwrap().weight;
        assert!(w(2) > w(0) && w(2) < 3 * w(0), "{weather:?}");
    }

    #[test]
    fn search_sums_terms_and_breaks_ties_by_id() {
        let index = build(&["alpha beta", "beta alpha", "alpha", "gamma"]);
        let hits = index.search(&["alpha".into(), "beta".into()], 10);
        assert_eq!(hits.iter().map(|h| h.0).collect::<Vec<_>>(), vec![0, 1, 2]);
        assert_eq!(hits[0].1, hits[1].1);
        assert_eq!(index.search(&["alpha".into()], 1).len(), 1);
        assert!(index.search(&["delta".into()], 10).is_empty());
        // Of three words, a document needs two.
        let three = index.search(&["alpha".into(), "beta".into(), "gamma".into()], 10);
        assert_eq!(three.iter().map(|h| h.0).collect::<Vec<_>>(), vec![0, 1]);
        assert_eq!((min_words(1), min_words(2), min_words(3), min_words(4), min_words(5)), (1, 1, 2, 2, 3));
    }
}
