//! The static JSON APIs of one snapshot (docs/static-api.md), read by the browser's
//! composer to reach the same answers as the command line:
//!
//! - [`method`]: the method's API (manifest, posting shards, prices, record blocks,
//!   packs, single-word answers), for `x402dir query`;
//! - [`explore`]: the explore API (BM25 terms, word vectors, the inverted file, facts),
//!   for `x402dir explore`.

pub(crate) mod explore;
pub mod method;

use serde::Serialize;

use catalogue::Error;

/// A batch of files (path relative to the date folder, bytes) handed on as soon as it is
/// made, so that a large catalogue's output never sits in memory whole.
pub type Sink<'a> = &'a (dyn Fn(Vec<(String, Vec<u8>)>) -> Result<(), Error> + Sync);

/// An API value as its file holds it: compact JSON.
fn to_bytes(v: &impl Serialize) -> Vec<u8> {
    serde_json::to_vec(v).expect("API values serialise")
}
