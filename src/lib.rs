//! x402dir: a checkable static directory of paid x402 resources.
//!
//! - [`catalogue`]: catalogue items as read, dumps imported, snapshots stored;
//! - [`method`]: the directory method — normalise, query, rank, figures, screen;
//! - [`site`]: the static site built from a snapshot;
//! - [`mcp`]: the same answers for agents, over the Model Context Protocol;
//! - [`serve`]: a local preview of the built site with Netlify's headers and redirects.

pub mod catalogue;
pub mod config;
pub mod error;
pub mod explore;
pub mod hash;
pub mod mcp;
pub mod method;
pub mod serve;
pub mod site;
pub mod timings;

pub use error::Error;
