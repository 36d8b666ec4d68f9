//! The catalogue: its items as read (model), the live walk (fetch), dumps turned into
//! snapshots (import), and the stored snapshot format (snapshot).

pub mod fetch;
pub mod import;
pub mod model;
pub mod snapshot;
