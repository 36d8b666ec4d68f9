//! `x402dir vocabulary` (hidden): the corpus words for tools/vectors/regenerate.sh.

use std::path::PathBuf;

use catalogue::snapshot;
use catalogue::Error;
use explore::vocabulary::corpus_words;

use super::stored_indexes;

#[derive(clap::Args)]
pub struct Args {
    /// Folder holding dated snapshots.
    #[arg(long, default_value = snapshot::DEFAULT_DIR)]
    snapshots_dir: PathBuf,
}

pub fn run(args: Args) -> Result<(), Error> {
    print!("{}", corpus_words(&stored_indexes(&args.snapshots_dir)?));
    Ok(())
}
