//! Dense retrieval: documents and queries embedded with the word table, searched
//! through a small inverted-file index (content/explore.md#dense).
//!
//! Everything the browser computes is whole-number arithmetic plus one multiplication
//! by a published `f64`, so Rust and JavaScript order results identically:
//! - each word has a whole-number weight (from how many documents contain it; words no
//!   document contains weigh most), published beside its vector;
//! - a query vector is the weighted sum of its words' rows (whole numbers);
//! - a document vector is the weighted sum of the rows of its words, each occurrence
//!   counted (a word the description repeats matters more), scaled to signed bytes
//!   (whole numbers), published with `inv_norm = 1 / |d|` computed here;
//! - similarity is `dot(q, d) * inv_norm` — the cosine times |q|, which is the same for
//!   every document of one query and so does not change the order.
//!
//! The inverted file: the document vectors are clustered by spherical k-means into
//! about √n lists; a query scores the list centroids the same way, reads the
//! [`Ivf::nprobe`] best lists (half of them, at most [`MAX_NPROBE`]), and ranks only
//! their documents.

use std::collections::HashMap;

use super::corpus::Corpus;
use super::vectors::{VectorTable, DIMS};

/// A word's weight: `round(10 · ln(1 + (n + 1) / (df + 1)))`, at least 1.
pub(crate) fn word_weight(documents: usize, containing: usize) -> u32 {
    let x = 10.0 * (1.0 + (documents as f64 + 1.0) / (containing as f64 + 1.0)).ln();
    (x.round() as u32).max(1)
}

/// A vector of signed bytes with its published inverse length.
#[derive(Debug, Clone, PartialEq)]
pub struct ByteVector {
    pub values: [i8; DIMS],
    pub inv_norm: f64,
}

/// The largest component of a published document vector: 31 levels (−15 to 15), not a
/// byte's 255. Measured on the golden set, NDCG@10 is unchanged within noise (0.612
/// against 0.610 over all queries) and the inverted-file lists a query reads are 29 %
/// fewer gzip bytes, because fewer distinct values compress better
/// (content/explore.md#dense).
pub(crate) const DOCUMENT_LEVEL: i8 = 15;

impl ByteVector {
    /// Scales a whole-number vector so its largest component is ±127, rounding half away
    /// from zero, in whole-number arithmetic. `None` for the zero vector.
    pub(crate) fn quantise(x: &[i64; DIMS]) -> Option<ByteVector> {
        ByteVector::quantise_to(x, i8::MAX)
    }

    /// [`ByteVector::quantise`] to ±`level` (at most 127).
    pub(crate) fn quantise_to(x: &[i64; DIMS], level: i8) -> Option<ByteVector> {
        let max = x.iter().map(|v| v.unsigned_abs()).max().unwrap_or(0) as i128;
        if max == 0 {
            return None;
        }
        let level = i128::from(level);
        let mut values = [0i8; DIMS];
        for (out, &v) in values.iter_mut().zip(x) {
            let magnitude = (2 * level * (v.unsigned_abs() as i128) + max) / (2 * max);
            *out = (magnitude as i64 * v.signum()) as i8;
        }
        Some(ByteVector::new(values))
    }

    pub(crate) fn new(values: [i8; DIMS]) -> ByteVector {
        let norm2: i64 = values.iter().map(|&v| i64::from(v) * i64::from(v)).sum();
        let inv_norm = if norm2 == 0 { 0.0 } else { 1.0 / (norm2 as f64).sqrt() };
        ByteVector { values, inv_norm }
    }

    /// `dot(q, self) * inv_norm`: the order-preserving similarity of the module docs.
    pub(crate) fn similarity(&self, q: &[i64; DIMS]) -> f64 {
        let dot: i64 = q.iter().zip(&self.values).map(|(a, &b)| a * i64::from(b)).sum();
        dot as f64 * self.inv_norm
    }

    /// [`ByteVector::similarity`] for a [`feedback_query`], summed in component order.
    pub(crate) fn similarity_moved(&self, moved: &[f64; DIMS]) -> f64 {
        let mut dot = 0.0;
        for (a, &b) in moved.iter().zip(&self.values) {
            dot += a * f64::from(b);
        }
        dot * self.inv_norm
    }
}

/// The weighted sum of the rows of `words` (a repeated word counts each time), with the
/// words that have no row. `None` when no word has a row.
pub(crate) fn embed<'w>(
    words: impl IntoIterator<Item = &'w str>,
    table: &VectorTable,
    weight: impl Fn(&str) -> u32,
) -> (Option<[i64; DIMS]>, Vec<String>) {
    let mut missing = Vec::new();
    let mut rows = Vec::new();
    for w in words {
        match table.get(w) {
            Some(row) => rows.push((i64::from(weight(w)), row)),
            None => missing.push(w.to_owned()),
        }
    }
    (weighted_sum(rows), missing)
}

/// The sum of `weight · row` over `rows`; `None` when there are none. Queries and
/// documents are embedded by this one sum.
fn weighted_sum<'r>(rows: impl IntoIterator<Item = (i64, &'r [i8; DIMS])>) -> Option<[i64; DIMS]> {
    let mut sum = [0i64; DIMS];
    let mut any = false;
    for (weight, row) in rows {
        for (s, &v) in sum.iter_mut().zip(row) {
            *s += weight * i64::from(v);
        }
        any = true;
    }
    any.then_some(sum)
}

#[derive(Debug, Clone)]
pub struct Dense {
    /// Documents containing each word that has a row in the vector table, for the
    /// weights (a word without a row is given no weight, so it needs none here).
    pub(crate) document_frequency: HashMap<String, usize>,
    pub(crate) documents: usize,
    /// By document id; `None` when none of its words has a row.
    pub vectors: Vec<Option<ByteVector>>,
    pub ivf: Ivf,
}

impl Dense {
    /// Embeds the documents of `corpus` (document `i` gets id `i`); `document_frequency`
    /// is the corpus's, by word id. [`Dense::index_vectors`] then clusters them.
    pub(crate) fn build(corpus: &Corpus, document_frequency: &[u32], table: &VectorTable) -> Dense {
        use rayon::prelude::*;
        let n = corpus.len();
        // Each word's weight and row, looked up once rather than at every occurrence.
        let rows: Vec<Option<(i64, &[i8; DIMS])>> = corpus
            .vocabulary
            .iter()
            .zip(document_frequency)
            .map(|(w, &df)| table.get(w).map(|row| (i64::from(word_weight(n, df as usize)), row)))
            .collect();
        let vectors = catalogue::timings::phase("  explore: embed", || {
            (0..n)
                .into_par_iter()
                .map(|i| {
                    let sum = weighted_sum(corpus.meaning(i).iter().filter_map(|&w| rows[w as usize]))?;
                    ByteVector::quantise_to(&sum, DOCUMENT_LEVEL)
                })
                .collect()
        });
        // A weight counts only for a word with a row (see `embed`), so only those words'
        // frequencies are kept: the corpus's other words (ids in URLs, mostly) were a
        // hundred megabytes at a million listings.
        let document_frequency = corpus
            .vocabulary
            .iter()
            .zip(document_frequency)
            .filter(|(w, _)| table.get(w).is_some())
            .map(|(w, &df)| (w.clone(), df as usize))
            .collect();
        Dense { document_frequency, documents: n, vectors, ivf: Ivf::default() }
    }

    /// Learns the inverted file over the document vectors (left empty by `build`, so
    /// that the caller can let the documents go first).
    pub(crate) fn index_vectors(&mut self) {
        self.ivf = catalogue::timings::phase("  explore: inverted file", || Ivf::build(&self.vectors));
    }

    pub fn weight(&self, word: &str) -> u32 {
        word_weight(self.documents, self.document_frequency.get(word).copied().unwrap_or(0))
    }

    /// The query's vector and its words that have no row.
    pub(crate) fn embed_query(&self, words: &[String], table: &VectorTable) -> (Option<[i64; DIMS]>, Vec<String>) {
        embed(words.iter().map(String::as_str), table, |w| self.weight(w))
    }

    /// Documents `allowed` lets through, by descending similarity (ties: ascending id),
    /// only those with a positive one, at most `depth`; through the inverted file, or over
    /// every document when `exact` (the reference the evaluation compares the inverted file
    /// with). `documents_compared` counts the documents read, allowed or not.
    pub(crate) fn search_where(
        &self,
        q: &[i64; DIMS],
        depth: usize,
        exact: bool,
        allowed: impl Fn(u32) -> bool,
    ) -> DenseList {
        let (candidates, lists_read): (Vec<u32>, usize) = if exact {
            ((0..self.vectors.len() as u32).collect(), self.ivf.lists.len())
        } else {
            let probed = self.ivf.probe(q);
            (probed.iter().flat_map(|&list| self.ivf.lists[list].iter().copied()).collect(), probed.len())
        };
        let vectors: Vec<(u32, &ByteVector)> = candidates
            .iter()
            .filter(|&&id| allowed(id))
            .filter_map(|&id| self.vectors[id as usize].as_ref().map(|v| (id, v)))
            .collect();
        let documents_compared = candidates.iter().filter(|&&id| self.vectors[id as usize].is_some()).count();
        let first = ranked(vectors.iter().map(|&(id, v)| (id, v.similarity(q))));
        // Pseudo-relevance feedback: the query moves toward its first documents, and the
        // same documents are compared again (content/explore.md#dense).
        let top: Vec<&ByteVector> = first
            .iter()
            .take(FEEDBACK_DOCUMENTS)
            .map(|&(id, _)| self.vectors[id as usize].as_ref().expect("scored, so it has a vector"))
            .collect();
        let mut scored = if top.is_empty() {
            first
        } else {
            let moved = feedback_query(q, &top);
            ranked(vectors.iter().map(|&(id, v)| (id, v.similarity_moved(&moved))))
        };
        scored.truncate(depth);
        DenseList { ids: scored.into_iter().map(|(id, _)| id).collect(), lists_read, documents_compared }
    }
}

/// How many of the first dense results feed back into the query.
pub const FEEDBACK_DOCUMENTS: usize = 3;
/// How much those documents weigh together against the query (each a unit vector): a
/// half. Chosen on the golden set among 0.25, 0.5 and 1 with 3, 5 and 10 documents
/// (content/explore.md#dense).
pub const FEEDBACK_WEIGHT: f64 = 0.5;

/// Positive similarities by descending value, ties by ascending id.
fn ranked(scores: impl Iterator<Item = (u32, f64)>) -> Vec<(u32, f64)> {
    let mut scored: Vec<(u32, f64)> = scores.filter(|(_, s)| *s > 0.0).collect();
    scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    scored
}

/// The query as a unit vector plus [`FEEDBACK_WEIGHT`] shared among the unit vectors of
/// `top`, added in this order, component by component, as IEEE-754 doubles (the browser
/// does the same operations in the same order).
pub(crate) fn feedback_query(q: &[i64; DIMS], top: &[&ByteVector]) -> [f64; DIMS] {
    let norm2: i64 = q.iter().map(|&x| x * x).sum();
    let inv_q = 1.0 / (norm2 as f64).sqrt();
    let share = FEEDBACK_WEIGHT / top.len() as f64;
    let mut moved = [0.0; DIMS];
    for (m, &x) in moved.iter_mut().zip(q) {
        *m = x as f64 * inv_q;
    }
    for v in top {
        for (m, &x) in moved.iter_mut().zip(&v.values) {
            *m += share * (f64::from(x) * v.inv_norm);
        }
    }
    moved
}

/// A dense list and what it took to make it.
#[derive(Debug, Clone, Default)]
pub(crate) struct DenseList {
    /// Ids by descending similarity.
    pub(crate) ids: Vec<u32>,
    pub(crate) lists_read: usize,
    pub(crate) documents_compared: usize,
}

/// An inverted-file index: centroids and the documents nearest each.
#[derive(Debug, Clone, Default)]
pub struct Ivf {
    pub centroids: Vec<ByteVector>,
    /// Document ids per centroid, ascending.
    pub lists: Vec<Vec<u32>>,
    /// How many lists a query reads.
    pub nprobe: usize,
}

/// Most inverted-file lists one query reads.
pub(crate) const MAX_NPROBE: usize = 64;
/// Most inverted-file lists (√n up to a million documents).
pub(crate) const MAX_LISTS: usize = 1024;
/// Most documents the list centres are learnt from.
pub(crate) const MAX_TRAINING: usize = 16_384;

/// Rounds of k-means; enough for the lists to settle on catalogue-sized sets.
const KMEANS_ROUNDS: usize = 12;

impl Ivf {
    pub(crate) fn build(vectors: &[Option<ByteVector>]) -> Ivf {
        use rayon::prelude::*;
        let ids: Vec<u32> = (0..vectors.len() as u32).filter(|&i| vectors[i as usize].is_some()).collect();
        if ids.is_empty() {
            return Ivf::default();
        }
        let k = ((ids.len() as f64).sqrt().ceil() as usize).clamp(1, MAX_LISTS.min(ids.len()));
        // Single precision: half the memory traffic of doubles and twice the lanes, and
        // the centres only decide which list a document goes to.
        let unit = |id: u32| -> [f32; DIMS] {
            let v = vectors[id as usize].as_ref().expect("has a vector");
            let mut out = [0.0; DIMS];
            for (o, &x) in out.iter_mut().zip(&v.values) {
                *o = (f64::from(x) * v.inv_norm) as f32;
            }
            out
        };
        // The centres are learnt from at most MAX_TRAINING documents spread evenly over
        // the id order, so the cost of learning does not grow with the catalogue.
        let training: Vec<[f32; DIMS]> = if ids.len() <= MAX_TRAINING {
            ids.iter().map(|&id| unit(id)).collect()
        } else {
            (0..MAX_TRAINING).map(|i| unit(ids[i * ids.len() / MAX_TRAINING])).collect()
        };
        let centres = learn_centres(&training, k, MAX_BOUNDS);
        // Publish centroids as bytes and assign every document by the published ones,
        // with the same similarity a query uses (a whole-number dot product of bytes).
        let centroids: Vec<ByteVector> = centres
            .iter()
            .map(|c| {
                let mut scaled = [0i64; DIMS];
                for (s, x) in scaled.iter_mut().zip(c) {
                    *s = (f64::from(*x) * 1_000_000.0).round() as i64;
                }
                ByteVector::quantise(&scaled).unwrap_or_else(|| ByteVector::new([0; DIMS]))
            })
            .collect();
        let nearest_list: Vec<usize> = ids
            .par_iter()
            .map(|&id| nearest_centroid(&centroids, &vectors[id as usize].as_ref().expect("has a vector").values))
            .collect();
        let mut lists = vec![Vec::new(); k];
        for (&id, &list) in ids.iter().zip(&nearest_list) {
            lists[list].push(id);
        }
        Ivf { nprobe: k.div_ceil(2).min(MAX_NPROBE), centroids, lists }
    }

    /// The `nprobe` lists whose centroids are most similar to `q` (ties: lower index).
    pub(crate) fn probe(&self, q: &[i64; DIMS]) -> Vec<usize> {
        let mut scored: Vec<(usize, f64)> =
            self.centroids.iter().enumerate().map(|(i, c)| (i, c.similarity(q))).collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        scored.into_iter().take(self.nprobe).map(|(i, _)| i).collect()
    }
}

/// Most similarity bounds kept while the centres are learnt ([`nearest_bounded`]): 32 MB,
/// enough for 100,000 listings; past it every document is compared with every centre.
const MAX_BOUNDS: usize = 8 << 20;

/// The `k` list centres learnt from the unit vectors `training` by [`KMEANS_ROUNDS`] of
/// k-means from a deterministic start, keeping at most `max_bounds` bounds.
fn learn_centres(training: &[[f32; DIMS]], k: usize, max_bounds: usize) -> Vec<[f32; DIMS]> {
    use rayon::prelude::*;
    // Deterministic start: training documents spread evenly over their order.
    let mut centres: Vec<[f32; DIMS]> = (0..k).map(|c| training[c * training.len() / k]).collect();
    let bounded = training.len().saturating_mul(k) <= max_bounds;
    let mut bounds: Vec<f32> = if bounded { vec![f32::INFINITY; training.len() * k] } else { Vec::new() };
    let mut assignment = vec![0usize; training.len()];
    for _ in 0..KMEANS_ROUNDS {
        // Each document's nearest centre is independent of the others: in parallel.
        if bounded {
            assignment.par_iter_mut().zip(bounds.par_chunks_mut(k)).zip(training).for_each(|((a, bounds), u)| {
                *a = nearest_bounded(&centres, u, *a, bounds);
            });
        } else {
            assignment = training.par_iter().map(|u| nearest_centre(&centres, u)).collect();
        }
        let mut sums = vec![[0.0f64; DIMS]; k];
        for (&c, u) in assignment.iter().zip(training) {
            for (s, &x) in sums[c].iter_mut().zip(u) {
                *s += f64::from(x);
            }
        }
        let mut moves = vec![0.0f32; k];
        for ((centre, sum), moved) in centres.iter_mut().zip(sums).zip(&mut moves) {
            let norm = sum.iter().map(|x| x * x).sum::<f64>().sqrt();
            if norm > 0.0 {
                let before = *centre;
                for (c, s) in centre.iter_mut().zip(sum) {
                    *c = (s / norm) as f32;
                }
                let squares: f64 =
                    before.iter().zip(&*centre).map(|(&a, &b)| (f64::from(a) - f64::from(b)).powi(2)).sum();
                *moved = squares.sqrt() as f32;
            }
        }
        if bounded {
            bounds.par_chunks_mut(k).for_each(|bounds| {
                for (b, m) in bounds.iter_mut().zip(&moves) {
                    *b += m;
                }
            });
        }
    }
    centres
}

/// How far below the similarity to a document's own centre another centre's bound must
/// be for the centre not to be asked: far more than the rounding of a dot product of two
/// unit vectors of 128 single-precision numbers (about 1e-5) over every round.
const BOUND_MARGIN: f64 = 1e-3;

/// The centre nearest the unit vector `u` given the centre it had and an upper bound on
/// its similarity to each centre, which it updates (Elkan's k-means): a centre that moved
/// by `d` changes a unit vector's similarity to it by at most `d`, so the caller adds each
/// centre's move to its bound after a round, and a centre whose bound is [`BOUND_MARGIN`]
/// below the similarity to the document's own centre cannot be the nearest and is not
/// asked. In the first round every bound is infinite, so every centre is asked. The
/// centre found is the one [`nearest_centre`] finds (the same scores, the first of equal
/// ones; a test compares the two), and most documents ask a few centres a round.
fn nearest_bounded(centres: &[[f32; DIMS]], u: &[f32; DIMS], had: usize, bounds: &mut [f32]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, as just asked.
        return unsafe { avx2::nearest_bounded(centres, u, had, bounds) };
    }
    nearest_bounded_with(centres, u, had, bounds)
}

/// [`nearest_bounded`] as any processor runs it.
#[inline(always)]
fn nearest_bounded_with(centres: &[[f32; DIMS]], u: &[f32; DIMS], own: usize, bounds: &mut [f32]) -> usize {
    let own_score = centre_score(&centres[own], u);
    bounds[own] = own_score as f32;
    let floor = own_score - BOUND_MARGIN;
    let mut best = (own, own_score);
    for (c, (centre, bound)) in centres.iter().zip(bounds.iter_mut()).enumerate() {
        if c == own || f64::from(*bound) < floor {
            continue;
        }
        let s = centre_score(centre, u);
        *bound = s as f32;
        if s > best.1 || (s == best.1 && c < best.0) {
            best = (c, s);
        }
    }
    best.0
}

/// The centre nearest the unit vector `u` (learning the lists: their whole cost).
fn nearest_centre(centres: &[[f32; DIMS]], u: &[f32; DIMS]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2, as just asked.
        return unsafe { avx2::nearest_centre(centres, u) };
    }
    nearest(centres, |c| centre_score(c, u))
}

/// The published centroid nearest the byte vector `v`.
fn nearest_centroid(centroids: &[ByteVector], v: &[i8; DIMS]) -> usize {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: as above.
        return unsafe { avx2::nearest_centroid(centroids, v) };
    }
    nearest(centroids, |c| centroid_score(c, v))
}

/// How near a centre is a unit vector, while the lists are learnt.
#[inline(always)]
fn centre_score(centre: &[f32; DIMS], u: &[f32; DIMS]) -> f64 {
    f64::from(dot_units(centre, u))
}

/// How near a published centroid is a document's byte vector: the similarity a query
/// uses, a whole-number dot product scaled by the centroid's norm.
#[inline(always)]
fn centroid_score(centroid: &ByteVector, v: &[i8; DIMS]) -> f64 {
    f64::from(dot_bytes(&centroid.values, v)) * centroid.inv_norm
}

/// The same two searches compiled for AVX2 where the processor has it: twice the lanes
/// of the SSE2 every x86-64 has. The sums are the same additions in the same order
/// (eight lanes, then the lanes in turn; Rust never fuses a multiply and an add), so
/// the lists are the same bytes on every processor.
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::*;

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn nearest_centre(centres: &[[f32; DIMS]], u: &[f32; DIMS]) -> usize {
        nearest(centres, |c| centre_score(c, u))
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn nearest_bounded(
        centres: &[[f32; DIMS]],
        u: &[f32; DIMS],
        had: usize,
        bounds: &mut [f32],
    ) -> usize {
        nearest_bounded_with(centres, u, had, bounds)
    }

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn nearest_centroid(centroids: &[ByteVector], v: &[i8; DIMS]) -> usize {
        nearest(centroids, |c| centroid_score(c, v))
    }
}

/// The dot product of two byte vectors, exactly (at most 128 · 127² fits an i32), in a
/// form the compiler turns into wide vector instructions.
#[inline(always)]
fn dot_bytes(a: &[i8; DIMS], b: &[i8; DIMS]) -> i32 {
    a.iter().zip(b).map(|(&x, &y)| i32::from(x) * i32::from(y)).sum()
}

/// The dot product of two unit vectors summed in eight lanes: a single running sum
/// would make every addition wait for the one before (floating-point addition is not
/// reordered by the compiler), and this is the whole cost of learning the list centres.
#[inline(always)]
fn dot_units(a: &[f32; DIMS], b: &[f32; DIMS]) -> f32 {
    let mut lanes = [0.0f32; 8];
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        for lane in 0..8 {
            lanes[lane] += x[lane] * y[lane];
        }
    }
    lanes.iter().sum()
}

/// The index of the item with the greatest `score` (the first on a tie).
#[inline(always)]
fn nearest<T>(items: &[T], score: impl Fn(&T) -> f64) -> usize {
    let mut best = (0, f64::NEG_INFINITY);
    for (i, item) in items.iter().enumerate() {
        let s = score(item);
        if s > best.1 {
            best = (i, s);
        }
    }
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Unit vectors gathered around `groups` directions, `noise` apart, from a fixed seed.
    fn clustered(n: usize, groups: usize, noise: f64, seed: u64) -> Vec<[f32; DIMS]> {
        let mut state = seed;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
        };
        let directions: Vec<[f64; DIMS]> = (0..groups).map(|_| std::array::from_fn(|_| next())).collect();
        (0..n)
            .map(|i| {
                let d = &directions[i % groups];
                let v: [f64; DIMS] = std::array::from_fn(|j| d[j] + noise * next());
                let norm = v.iter().map(|x| x * x).sum::<f64>().sqrt();
                std::array::from_fn(|j| (v[j] / norm) as f32)
            })
            .collect()
    }

    #[test]
    fn a_centre_equal_to_the_own_one_and_before_it_is_the_nearest() {
        let v = clustered(3, 3, 0.9, 6);
        let centres = [v[0], v[1], v[0]];
        let mut bounds = [f32::INFINITY; 3];
        assert_eq!(nearest_bounded_with(&centres, &v[0], 2, &mut bounds), 0);
        assert_eq!(nearest_centre(&centres, &v[0]), 0);
        // A bound below the own centre's similarity keeps a centre from being asked.
        let own = centre_score(&centres[1], &v[1]) as f32;
        let mut bounds = [own - 0.01, f32::INFINITY, f32::INFINITY];
        assert_eq!(nearest_bounded_with(&[v[1], v[1], v[2]], &v[1], 1, &mut bounds), 1);
        assert_eq!(bounds[0], own - 0.01, "not asked, so not updated");
    }

    #[test]
    fn bounds_learn_the_same_centres_as_asking_every_centre() {
        // The last but one: copies of five vectors, so centres start equal and tie (as
        // listings with one description do), and the first of equal ones must be kept.
        let cases = [
            (3_000, 40, 0.9, 55, 1),
            (2_000, 7, 0.9, 45, 2),
            (500, 500, 0.9, 23, 3),
            (600, 5, 0.0, 20, 5),
            (1, 1, 0.9, 1, 4),
        ];
        for (n, groups, noise, k, seed) in cases {
            let training = clustered(n, groups, noise, seed);
            let plain = learn_centres(&training, k, 0);
            let bounded = learn_centres(&training, k, usize::MAX);
            assert!(plain == bounded, "n {n}, k {k}: the centres differ");
        }
    }

    #[test]
    fn quantising_rounds_half_away_from_zero_in_whole_numbers() {
        let mut x = [0i64; DIMS];
        x[0] = 254;
        x[1] = -127;
        x[2] = 1; // 127 * 1 / 254 = 0.5 -> 1
        x[3] = -3; // -1.5 -> -2
        let v = ByteVector::quantise(&x).unwrap();
        assert_eq!(&v.values[..4], &[127, -64, 1, -2]);
        assert!(ByteVector::quantise(&[0; DIMS]).is_none());
        // To ±15: 254 → 15, -127 → -7.5 → -8, 9 → 0.53 → 1, 8 → 0.47 → 0.
        x[2] = 9;
        x[3] = 8;
        let v = ByteVector::quantise_to(&x, 15).unwrap();
        assert_eq!(&v.values[..4], &[15, -8, 1, 0]);
    }

    /// The AVX2 searches must pick what the portable ones pick, ties and all, or the
    /// inverted file would differ by processor. Pseudo-random vectors, many near ties.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn the_avx2_searches_choose_as_the_portable_ones_do() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            eprintln!("skipped: this processor has no AVX2");
            return;
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let unit = |next: &mut dyn FnMut() -> u64| -> [f32; DIMS] {
            let mut v = [0.0f32; DIMS];
            v.iter_mut().for_each(|x| *x = ((next() % 2001) as f32 - 1000.0) / 1000.0);
            let norm = v.iter().map(|x| x * x).sum::<f32>().sqrt();
            v.map(|x| x / norm)
        };
        let bytes = |next: &mut dyn FnMut() -> u64| -> [i8; DIMS] { [0; DIMS].map(|_: i8| (next() % 7) as i8 - 3) };
        let centres: Vec<[f32; DIMS]> = (0..97).map(|_| unit(&mut next)).collect();
        let centroids: Vec<ByteVector> = (0..97).map(|_| ByteVector::new(bytes(&mut next))).collect();
        for _ in 0..2000 {
            let u = unit(&mut next);
            let portable = nearest(&centres, |c| centre_score(c, &u));
            assert_eq!(unsafe { avx2::nearest_centre(&centres, &u) }, portable);
            let v = bytes(&mut next);
            let portable = nearest(&centroids, |c| centroid_score(c, &v));
            assert_eq!(unsafe { avx2::nearest_centroid(&centroids, &v) }, portable);
        }
    }

    #[test]
    fn rarer_words_weigh_more() {
        assert!(word_weight(1000, 0) > word_weight(1000, 10));
        assert!(word_weight(1000, 10) > word_weight(1000, 900));
        assert!(word_weight(1000, 1000) >= 1);
    }

    #[test]
    fn similarity_orders_by_cosine() {
        let mut a = [0i8; DIMS];
        a[0] = 100;
        let mut b = [0i8; DIMS];
        b[0] = 50;
        b[1] = 50;
        let (a, b) = (ByteVector::new(a), ByteVector::new(b));
        let mut q = [0i64; DIMS];
        q[0] = 7;
        assert!(a.similarity(&q) > b.similarity(&q));
        // Length of the document does not matter, only direction.
        let mut a2 = [0i8; DIMS];
        a2[0] = 3;
        assert_eq!(ByteVector::new(a2).similarity(&q), a.similarity(&q));
    }
}
