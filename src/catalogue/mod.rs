//! The catalogue: its items as read (model), dumps turned into snapshots (import), and
//! the stored snapshot format (snapshot).

pub mod import;
pub mod model;
pub mod snapshot;
