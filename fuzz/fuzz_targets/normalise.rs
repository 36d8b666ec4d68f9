//! Fuzz target `normalise`: bytes → text (lossy) → normalise / words / contains_word / normalise_fields invariants.
//! The checks live in fuzz/checks.rs, shared with the corpus replay in tests/it/fuzz_corpus.rs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| {
    checks::check_normalise(data);
});
