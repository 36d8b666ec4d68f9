//! x402dir: a checkable static directory of paid x402 resources.
//!
//! Layers, each using only those before it (content/method.md is what they implement):
//! - [`catalogue`]: catalogue items as read, the live walk, dumps imported, snapshots
//!   stored, synthetic snapshots;
//! - [`method`]: the directory method: normalise, query, rank, figures, screen,
//!   segments, assets, ownership and corrections, the index, the one listing view, the
//!   answer, and the names of every page and file;
//! - [`explore`]: retrieval for needs in other words, beside the method, never its answer;
//! - [`site`]: the static site built from snapshots (pages, JSON APIs, feeds, agents' files);
//! - [`mcp`] and [`serve`]: the same answers for agents over the Model Context Protocol,
//!   and a local preview of the built site with Netlify's headers and redirects.
//!
//! Below them all: [`error`] (one error type), [`config`] (content/site.json), [`hash`]
//! (FNV-1a, shared with the composer) and [`timings`] (`build --timings`). The command
//! line (src/main.rs, src/cmd/) sits on top.

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
