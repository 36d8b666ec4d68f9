//! Fuzz target `catalogue_item`: bytes → JSON → Resource::from_value (+ one-item index and answer), and import_bytes on the raw bytes.
//! The checks live in fuzz/checks.rs, shared with the corpus replay in tests/it/fuzz_corpus.rs.
#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../checks.rs"]
mod checks;

fuzz_target!(|data: &[u8]| {
    checks::check_catalogue_item(data);
});
