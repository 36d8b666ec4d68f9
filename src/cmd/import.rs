//! `x402dir import`: a catalogue dump turned into a dated snapshot.

use std::path::PathBuf;

use x402dir::catalogue::{import, snapshot};
use x402dir::Error;

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
}

pub fn run(args: Args) -> Result<(), Error> {
    let Args { file, date, dir, force } = args;
    let snap = import::import_file(&file, &date)?;
    let path = snap.write_into(&dir, force)?;
    let h = &snap.header;
    println!(
        "imported {} items into {} ({}{})",
        h.item_count,
        path.display(),
        if h.complete { "complete" } else { "partial" },
        h.reported_total.map_or(String::new(), |t| format!(", source reported {t}"))
    );
    Ok(())
}
