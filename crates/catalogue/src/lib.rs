//! The catalogue: its items as read (model), the live walk (fetch), dumps turned into
//! snapshots (import), the stored snapshot format (snapshot), and synthetic snapshots
//! for scale tests (synth).
//!
//! Being the bottom layer, it also holds what every layer above shares: one error type
//! ([`error`]), the FNV-1a hash the composer computes too ([`hash`]) and the build's phase
//! timings ([`timings`]).

pub mod call;
pub mod error;
pub mod fetch;
pub mod hash;
pub mod hidden;
pub mod import;
pub mod model;
pub mod snapshot;
pub mod synth;
pub mod timings;

pub use error::Error;
