//! The catalogue: its items as read (model), the live walk (fetch), dumps turned into
//! snapshots (import), the stored snapshot format (snapshot), and synthetic snapshots
//! for scale tests (synth).

pub mod call;
pub mod fetch;
pub mod import;
pub mod model;
pub mod snapshot;
pub mod synth;
