//! Fuzz target `query_tokens`: bytes split at NUL → query text, max_price, network, limit → tokenise invariants, Filters::parse, answer.
//! The checks live in fuzz/checks.rs, shared with the corpus replay in tests/it/fuzz_corpus.rs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| {
    checks::check_query_tokens(data);
});
