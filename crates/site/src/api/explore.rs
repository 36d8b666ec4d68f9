//! The explore API of one snapshot (docs/static-api.md, "Explore"): what the composer's
//! explore mode reads to rank exactly as `x402dir explore` does.
//!
//! - `api/explore/manifest.json`: versions, constants, and where everything is;
//! - `api/explore/terms/{bucket}.json`: BM25 postings, `term -> [id, weight, …]`;
//! - `api/explore/words/{bucket}.json`: `word -> [weight, base64 vector]` for every word
//!   of the vector table (a query's words need only their own buckets);
//! - `api/explore/spelling/{bucket}.json`: `triple -> [word, documents, …]`, the document
//!   words a query word no document contains may be read as, with their document counts;
//! - `api/explore/ivf/centroids.json` and `api/explore/ivf/{list}.json`: the inverted
//!   file, vectors with their published `inv_norm`;
//! - `api/explore/facts/{block}.json`: the re-rank's competition ranks, by id block.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde_json::{json, Value};

use catalogue::Error;
use explore::answer::{
    explore_ref, rule_template, NOT_THE_METHOD_ANSWER, RULE_CONSTRAINTS, RULE_EMPTY, RULE_NOT_UNDERSTOOD,
};
use explore::dense::{ByteVector, FEEDBACK_DOCUMENTS, FEEDBACK_WEIGHT};
use explore::eval::Evaluation;
use explore::fuse::{CHEAPEST_WEIGHT, PRIOR_WEIGHT, RRF_K};
use explore::translations::{self, Pair, Translations};
use explore::vectors::{VectorTable, DIMS, PROVENANCE};
use explore::words::stopwords;
use explore::{Explore, LIST_DEPTH};
use method::answer::method_ref;
use method::index::Index;
use method::Method;

use super::method::RECORD_BLOCK;
use super::{to_bytes, Sink};
use method::names::{self, bucket};

/// Ids per facts file.
pub(crate) const FACTS_BLOCK: usize = 1024;
/// Aim for about this many bytes per term shard.
const TERM_SHARD_BYTES: usize = 16 * 1024;
/// Aim for about this many bytes per word shard: every understood word reads one, and the
/// vectors in it hardly compress (16 KB before explore 2.6.0; content/explore.md#evaluation
/// gives the bytes measured).
const WORD_SHARD_BYTES: usize = 8 * 1024;
/// Aim for about this many bytes per spelling shard: a misspelt word reads one shard per
/// letter triple (eight or so), so they are kept small.
const SPELLING_SHARD_BYTES: usize = 2 * 1024;
/// Aim for about this many bytes per translation shard: a word of another language reads one,
/// and since explore 2.5.0 a run written without spaces one per candidate piece, so they are
/// small (4 KB before 2.5.0; content/explore.md#evaluation gives the bytes measured at 4, 2
/// and 1 KB). 1.5 KB since 2.6.0, whose pairs carry a flag: about as many files as 1 KB
/// made without it.
const TRANSLATION_SHARD_BYTES: usize = 1536;

/// Standard base64 with padding: what `atob` reads.
pub(crate) fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk.iter().enumerate().fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn vector_text(v: &[i8; DIMS]) -> String {
    base64(&v.map(|x| x as u8))
}

fn byte_vector(v: &ByteVector) -> Vec<Value> {
    vec![json!(v.inv_norm), json!(vector_text(&v.values))]
}

fn buckets_for(bytes: usize, target: usize) -> usize {
    (bytes / target).max(1).next_power_of_two()
}

/// The vector table's checksum as its provenance records it.
fn table_sha256() -> Value {
    serde_json::from_str::<Value>(PROVENANCE)
        .ok()
        .and_then(|p| p.pointer("/files_sha256/vectors.i8").cloned())
        .unwrap_or(Value::Null)
}

/// The translation table's checksum, from its provenance.
fn translations_sha256() -> Value {
    serde_json::from_str::<Value>(translations::PROVENANCE)
        .ok()
        .and_then(|p| p.get("translations_sha256").cloned())
        .unwrap_or(Value::Null)
}

/// Makes every explore API file and hands them to `sink` section by section (the term
/// lists and the inverted file's lists are hundreds of megabytes at a million listings).
pub(crate) fn write_api_files(
    explore: &Explore,
    index: &Index,
    method: &Method,
    table: &VectorTable,
    sink: Sink,
) -> Result<(), Error> {
    let term_buckets = write_terms(explore, sink)?;
    let word_buckets = write_words(explore, table, sink)?;
    let spelling_buckets = write_spelling(explore, sink)?;
    let translation_buckets = write_translations(explore, sink)?;
    write_ivf(explore, sink)?;
    write_facts(explore, sink)?;
    let buckets = Buckets {
        terms: term_buckets,
        words: word_buckets,
        spelling: spelling_buckets,
        translations: translation_buckets,
    };
    let manifest = manifest(explore, index, method, buckets);
    sink(vec![(names::EXPLORE_MANIFEST.file(&[]), to_bytes(&manifest))])
}

/// Files handed to the sink at a time where a section has many.
const BUCKETS_PER_BATCH: usize = 256;

/// The BM25 postings, `terms/{bucket}.json`, `term -> [id, weight, …]`. Returns the
/// bucket count.
fn write_terms(explore: &Explore, sink: Sink) -> Result<usize, Error> {
    let term_bytes: usize = explore.bm25.postings.iter().map(|(t, p)| t.len() + 8 + p.len() * 10).sum();
    let term_buckets = buckets_for(term_bytes, TERM_SHARD_BYTES);
    // Terms are grouped by bucket first and each bucket's lists copied out only as its
    // file is made, so no second copy of every list is held.
    let mut by_bucket: Vec<Vec<&str>> = vec![Vec::new(); term_buckets];
    for term in explore.bm25.postings.keys() {
        by_bucket[bucket(term, term_buckets)].push(term);
    }
    for (start, buckets) in by_bucket.chunks(BUCKETS_PER_BATCH).enumerate() {
        sink(
            buckets
                .iter()
                .enumerate()
                .map(|(i, terms)| {
                    let shard: BTreeMap<&str, Vec<u32>> = terms
                        .iter()
                        .map(|&t| (t, explore.bm25.postings[t].iter().flat_map(|p| [p.id, p.weight]).collect()))
                        .collect();
                    (names::EXPLORE_TERMS.file(&[&(start * BUCKETS_PER_BATCH + i)]), to_bytes(&shard))
                })
                .collect(),
        )?;
    }
    Ok(term_buckets)
}

/// Every word of the vector table with its weight and vector, `words/{bucket}.json`.
/// Returns the bucket count.
fn write_words(explore: &Explore, table: &VectorTable, sink: Sink) -> Result<usize, Error> {
    let word_buckets = buckets_for(table.len() * (DIMS * 4 / 3 + 24), WORD_SHARD_BYTES);
    // `"word":[weight,"vector"]` as a tuple, not a JSON value a word; the vectors' text
    // made on every core. The table is the same for every snapshot, but not the weights.
    let words: Vec<(&str, &[i8; DIMS])> = table.words().collect();
    let entries: Vec<(&str, (u32, String))> =
        words.par_iter().map(|&(word, row)| (word, (explore.dense.weight(word), vector_text(row)))).collect();
    let mut shards: Vec<BTreeMap<&str, (u32, String)>> = vec![BTreeMap::new(); word_buckets];
    for (word, entry) in entries {
        shards[bucket(word, word_buckets)].insert(word, entry);
    }
    write_shards(&shards, names::EXPLORE_WORDS, sink)?;
    Ok(word_buckets)
}

/// The words a query word may be read as, by letter triple: `spelling/{bucket}.json`,
/// `triple -> [word, documents, …]`, each word with the number of documents that contain
/// it (content/explore.md#spelling). Returns the bucket count.
fn write_spelling(explore: &Explore, sink: Sink) -> Result<usize, Error> {
    let s = &explore.spelling;
    let digits = |n: u32| n.checked_ilog10().unwrap_or(0) as usize + 1;
    let bytes: usize = s
        .triples
        .iter()
        .map(|(t, ids)| {
            t.len()
                + 6
                + ids
                    .iter()
                    .map(|&i| s.words[i as usize].word.len() + 4 + digits(s.words[i as usize].documents))
                    .sum::<usize>()
        })
        .sum();
    // Small files: a word reads one per triple, so a bucket is read for a few of its words.
    let buckets = (bytes / SPELLING_SHARD_BYTES).max(1).next_power_of_two();
    // Borrowed, not copied into JSON values: a value per word and count held every
    // shard's text several times over at once (600 MB at a million listings).
    let mut shards: Vec<BTreeMap<&str, Offers>> = vec![BTreeMap::new(); buckets];
    for (triple, ids) in &s.triples {
        shards[bucket(triple, buckets)].insert(triple, Offers { ids, spelling: s });
    }
    write_shards(&shards, names::EXPLORE_SPELLING, sink)?;
    Ok(buckets)
}

/// A triple's words as its spelling file lists them: `[word, documents, word, …]`.
#[derive(Clone, Copy)]
struct Offers<'a> {
    ids: &'a [u32],
    spelling: &'a explore::spelling::Spelling,
}

impl serde::Serialize for Offers<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut seq = serializer.serialize_seq(Some(self.ids.len() * 2))?;
        for &i in self.ids {
            let offered = &self.spelling.words[i as usize];
            seq.serialize_element(&offered.word)?;
            seq.serialize_element(&offered.documents)?;
        }
        seq.end()
    }
}

/// The translation table, `translations/{bucket}.json`, `word -> read as`, less the words
/// some document of this snapshot contains (those are never looked up:
/// content/explore.md#translations). Returns the bucket count.
fn write_translations(explore: &Explore, sink: Sink) -> Result<usize, Error> {
    let pairs: Vec<(&str, &Pair)> =
        Translations::embedded().pairs().filter(|(word, _)| !explore.bm25.postings.contains_key(*word)).collect();
    // `"word":["read as",false],`: the flag says the pair was rescued (since 2.6.0).
    let bytes: usize = pairs.iter().map(|(a, p)| a.len() + p.read_as.len() + 15).sum();
    // A word of another language reads one file: small files, like the spelling ones.
    let buckets = (bytes / TRANSLATION_SHARD_BYTES).max(1).next_power_of_two();
    let mut shards: Vec<BTreeMap<&str, (&str, bool)>> = vec![BTreeMap::new(); buckets];
    for (word, pair) in pairs {
        shards[bucket(word, buckets)].insert(word, (pair.read_as.as_str(), pair.rescued));
    }
    write_shards(&shards, names::EXPLORE_TRANSLATIONS, sink)?;
    Ok(buckets)
}

/// Hands `shards` to the sink as the files of `section`, one a bucket, a batch at a time.
fn write_shards<T: serde::Serialize + Sync>(shards: &[T], section: names::ApiFile, sink: Sink) -> Result<(), Error> {
    for (start, batch) in shards.chunks(BUCKETS_PER_BATCH).enumerate() {
        sink(
            batch
                .par_iter()
                .enumerate()
                .map(|(i, shard)| (section.file(&[&(start * BUCKETS_PER_BATCH + i)]), to_bytes(shard)))
                .collect(),
        )?;
    }
    Ok(())
}

/// Bucket counts of the sharded sections.
struct Buckets {
    terms: usize,
    words: usize,
    spelling: usize,
    translations: usize,
}

/// The inverted file: its centroids, then each list's documents with their vectors.
fn write_ivf(explore: &Explore, sink: Sink) -> Result<(), Error> {
    let ivf = &explore.dense.ivf;
    let centroids: Vec<Vec<Value>> = ivf.centroids.iter().map(byte_vector).collect();
    let mut files = vec![(names::EXPLORE_CENTROIDS.file(&[]), to_bytes(&centroids))];
    for (l, ids) in ivf.lists.iter().enumerate() {
        let list: Vec<Value> = ids
            .iter()
            .map(|&id| {
                let v = explore.dense.vectors[id as usize].as_ref().expect("listed documents have vectors");
                json!([id, v.inv_norm, vector_text(&v.values)])
            })
            .collect();
        files.push((names::EXPLORE_LISTS.file(&[&l]), to_bytes(&list)));
        if files.len() >= BUCKETS_PER_BATCH {
            sink(std::mem::take(&mut files))?;
        }
    }
    sink(files)
}

/// The re-rank's competition ranks, [`FACTS_BLOCK`] ids a file.
fn write_facts(explore: &Explore, sink: Sink) -> Result<(), Error> {
    sink(
        explore
            .facts
            .chunks(FACTS_BLOCK)
            .enumerate()
            .map(|(b, block)| {
                let rows: Vec<[Option<u32>; 3]> = block.iter().map(|f| [f.payers, f.recency, f.price]).collect();
                (names::EXPLORE_FACTS.file(&[&b]), to_bytes(&rows))
            })
            .collect(),
    )
}

/// The explore manifest: versions, the constants the composer ranks with, and where
/// every other file is (docs/static-api.md, "Explore").
fn manifest(explore: &Explore, index: &Index, method: &Method, buckets: Buckets) -> Value {
    let ivf = &explore.dense.ivf;
    json!({
        "explore": explore_ref(method),
        "method": method_ref(method),
        "not_the_method_answer": NOT_THE_METHOD_ANSWER,
        "snapshot": index.header.date,
        "documents": index.entries.len(),
        "stopwords": stopwords(),
        "list_depth": LIST_DEPTH,
        "rrf_k": RRF_K,
        "prior_weight": PRIOR_WEIGHT,
        "rule": {
            "template": rule_template(),
            "empty": RULE_EMPTY,
            "not_understood": RULE_NOT_UNDERSTOOD,
            "constraints": RULE_CONSTRAINTS,
            "words_joined_by": ", ",
            "read_as_joined_by": "; ",
        },
        "cheapest_weight": CHEAPEST_WEIGHT,
        "terms": {"hash": "fnv1a32", "buckets": buckets.terms, "path": names::EXPLORE_TERMS.template()},
        "spelling": {"hash": "fnv1a32", "buckets": buckets.spelling, "path": names::EXPLORE_SPELLING.template()},
        "translations": {
            "hash": "fnv1a32",
            "buckets": buckets.translations,
            "path": names::EXPLORE_TRANSLATIONS.template(),
            "table_sha256": translations_sha256(),
        },
        "words": {
            "hash": "fnv1a32",
            "buckets": buckets.words,
            "path": names::EXPLORE_WORDS.template(),
            "dims": DIMS,
            "table_sha256": table_sha256(),
        },
        "ivf": {
            "lists": ivf.lists.len(),
            "nprobe": ivf.nprobe,
            "feedback": {"documents": FEEDBACK_DOCUMENTS, "weight": FEEDBACK_WEIGHT},
            "centroids": names::EXPLORE_CENTROIDS.template(),
            "path": names::EXPLORE_LISTS.template(),
        },
        "facts": {"block": FACTS_BLOCK, "path": names::EXPLORE_FACTS.template(), "columns": ["payers", "recency", "price"]},
        "records": {"path": names::RECORD_BLOCKS.template(), "block": RECORD_BLOCK},
    })
}

/// The evaluation's file: indented, as people read it too.
pub(crate) fn evaluation_file(evaluation: &Evaluation) -> (String, Vec<u8>) {
    (names::EXPLORE_EVALUATION.file(&[]), serde_json::to_vec_pretty(evaluation).expect("evaluations serialise"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_matches_rfc4648_vectors() {
        for (input, out) in [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foobar", "Zm9vYmFy")] {
            assert_eq!(base64(input.as_bytes()), out);
        }
        assert_eq!(base64(&[0xff, 0x80, 0x01]), "/4AB");
    }
}
