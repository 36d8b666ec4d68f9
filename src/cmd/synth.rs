//! `x402dir synth`: a synthetic snapshot for scale tests, its text drawn from the
//! stored snapshots.

use std::path::PathBuf;
use std::time::Instant;

use catalogue::snapshot;
use catalogue::synth::{Plan, Vocabulary};
use catalogue::Error;

use super::{stored_indexes, today};

#[derive(clap::Args)]
pub struct Args {
    /// How many listings.
    #[arg(long)]
    items: usize,
    /// Seed of the generator: the same seed, count, date and vocabulary give the same bytes.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The snapshot's date, YYYY-MM-DD (default: today, UTC).
    #[arg(long)]
    date: Option<String>,
    /// Folder the synthetic snapshot is written to (never the real snapshots' folder).
    #[arg(long, default_value = "synthetic")]
    dir: PathBuf,
    /// Folder of the real snapshots whose vocabulary the text is drawn from.
    #[arg(long, default_value = snapshot::DEFAULT_DIR)]
    snapshots_dir: PathBuf,
    /// Replace an existing synthetic snapshot of the same date.
    #[arg(long)]
    force: bool,
}

pub fn run(args: Args) -> Result<(), Error> {
    let Args { items, seed, date, dir, snapshots_dir, force } = args;
    let plan = Plan::new(items, seed, date.unwrap_or_else(today), dir, force, &snapshots_dir)?;
    let started = Instant::now();
    let indexes = stored_indexes(&snapshots_dir)?;
    let entries = indexes.iter().flat_map(|i| &i.entries);
    let vocabulary = Vocabulary::of_stored(entries.map(|e| (&e.resource, e.public_description())), &snapshots_dir)?;
    let path = plan.write(&vocabulary)?;
    println!("wrote {items} synthetic listings to {} in {:.1} s", path.display(), started.elapsed().as_secs_f64());
    Ok(())
}
