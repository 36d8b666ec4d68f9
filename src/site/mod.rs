//! The static site: how resources are named in it (paths).

pub mod paths;
