//! `x402dir build`: the static site, one dated folder per snapshot plus the root index.

use std::path::PathBuf;
use std::time::Instant;

use x402dir::catalogue::snapshot;
use x402dir::method::Method;
use x402dir::{site, timings, Error};

#[derive(clap::Args)]
pub struct Args {
    /// Snapshot file to build (repeatable). Default: every snapshot in --snapshots-dir.
    #[arg(long)]
    snapshot: Vec<PathBuf>,
    /// Build every snapshot in --snapshots-dir (the default when no --snapshot is given).
    #[arg(long, conflicts_with = "snapshot")]
    all: bool,
    /// Folder holding dated snapshots.
    #[arg(long, default_value = snapshot::DEFAULT_DIR)]
    snapshots_dir: PathBuf,
    /// Output folder.
    #[arg(long, default_value = "public")]
    out: PathBuf,
    /// Print how long each phase of the build takes (standard error).
    #[arg(long)]
    timings: bool,
    /// Refuse to build a snapshot whose folder would hold more files than this (a
    /// host's cap per deployment, e.g. 20000; docs/deploy.md).
    #[arg(long)]
    max_files: Option<usize>,
}

pub fn run(args: Args) -> Result<(), Error> {
    // `--all` only says out loud what no --snapshot means.
    let Args { snapshot: paths, all: _, snapshots_dir, out, timings, max_files } = args;
    timings::report(timings);
    let paths = if paths.is_empty() { snapshot::list(&snapshots_dir)? } else { paths };
    if paths.is_empty() {
        return Err(snapshot::latest(&snapshots_dir).expect_err("no snapshot in an empty list"));
    }
    let started = Instant::now();
    let built = site::build_limited(&paths, &out, &Method::embedded(), max_files)?;
    for b in &built {
        println!("built {}: {} resources, {} files in {}", b.date, b.entries, b.files, out.join(&b.date).display());
    }
    println!("done in {:.2} s; open {}", started.elapsed().as_secs_f64(), out.join("index.html").display());
    Ok(())
}
