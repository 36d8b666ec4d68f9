//! `x402dir import`: a catalogue dump turned into a dated snapshot.

use std::path::PathBuf;

use catalogue::Error;
use catalogue::{import, snapshot};

#[derive(clap::Args)]
pub struct Args {
    /// The dump to import.
    file: PathBuf,
    /// The snapshot's date, YYYY-MM-DD: the date every figure is computed against.
    #[arg(long)]
    date: String,
    /// Folder the snapshot is written to.
    #[arg(long, default_value = snapshot::DEFAULT_DIR)]
    dir: PathBuf,
    /// Replace an existing snapshot of the same date.
    #[arg(long)]
    force: bool,
    /// Store a dump with no items (refused otherwise: it would become latest/).
    #[arg(long)]
    allow_empty: bool,
}

pub fn run(args: Args) -> Result<(), Error> {
    let Args { file, date, dir, force, allow_empty } = args;
    let options = import::Options { overwrite: force, allow_empty };
    let (path, h) = import::import_into(&file, &date, &dir, &options)?;
    let h = &h;
    println!(
        "imported {} items into {} ({}{})",
        h.item_count,
        path.display(),
        if h.complete { "complete" } else { "partial" },
        h.reported_total.map_or(String::new(), |t| format!(", source reported {t}"))
    );
    Ok(())
}
