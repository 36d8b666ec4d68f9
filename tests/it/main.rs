//! The integration tests, as one test binary (`it`), the way ripgrep and Zola keep theirs:
//! each suite is a module here, so `cargo test` links the crate into one test executable
//! instead of one per suite. Run one suite with `cargo test --release --test it <suite>::`
//! (for example `cargo test --release --test it serve::`).
//!
//! All suites share one process and run on parallel threads: a test passes folders and
//! paths explicitly (never the current directory or the environment), takes its scratch
//! folders from `common::temp_dir` (unique per call) and its ports from the kernel.

mod common;

mod adversarial;
mod calls;
mod cli;
mod codegen;
mod composer_differential;
mod counters;
mod explore;
mod explore_differential;
mod fetch;
mod fuzz_corpus;
mod history;
mod import;
mod incremental;
mod js_suites;
mod layers;
mod links;
mod mcp;
mod mcp_npm;
mod mcp_sdks;
mod method_rules;
mod netlify;
mod no_verdicts;
mod paid_calls;
mod probe;
mod probe_pages;
mod properties;
mod published;
mod python_client;
mod real_data;
mod serve;
mod site_build;
mod weekly;
