//! The static JSON APIs of one snapshot (docs/static-api.md), read by the browser's
//! composer to reach the same answers as the command line:
//!
//! - [`method`]: the method's API (manifest, posting shards, prices, record blocks,
//!   packs, single-word answers), for `x402dir query`;
//! - [`explore`]: the explore API (BM25 terms, word vectors, the inverted file, facts),
//!   for `x402dir explore`.

pub mod explore;
pub mod method;

use serde::Serialize;

use crate::Error;

/// A batch of files (path relative to the date folder, bytes) handed on as soon as it is
/// made, so that a large catalogue's output never sits in memory whole.
pub type Sink<'a> = &'a (dyn Fn(Vec<(String, Vec<u8>)>) -> Result<(), Error> + Sync);

/// FNV-1a, 32 bits, over the UTF-8 bytes of `key`: the bucket hash of both APIs' shards.
/// Chosen for being a few lines in both languages, so that Rust and the composer cannot
/// disagree about a bucket.
pub fn fnv1a32(key: &str) -> u32 {
    key.bytes().fold(0x811c_9dc5u32, |h, b| (h ^ b as u32).wrapping_mul(0x0100_0193))
}

/// An API value as its file holds it: compact JSON.
fn to_bytes(v: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(v).expect("API values serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv_matches_published_vectors() {
        assert_eq!(fnv1a32(""), 0x811c9dc5);
        assert_eq!(fnv1a32("a"), 0xe40c292c);
        assert_eq!(fnv1a32("foobar"), 0xbf9cf968);
    }
}
