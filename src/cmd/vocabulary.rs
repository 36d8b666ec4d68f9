//! `x402dir vocabulary` (hidden): the corpus words for tools/vectors/regenerate.sh.

use std::path::PathBuf;

use catalogue::snapshot;
use catalogue::Error;
use explore::vocabulary::{corpus_word_documents, corpus_words};

use super::stored_indexes;

#[derive(clap::Args)]
pub struct Args {
    /// Folder holding dated snapshots.
    #[arg(long, default_value = snapshot::DEFAULT_DIR)]
    snapshots_dir: PathBuf,
    /// Print each word with, after a tab, how many documents contain it
    /// (content/explore/vectors/corpus-documents.tsv, for tools/vectors/translations.sh).
    #[arg(long)]
    documents: bool,
}

pub fn run(args: Args) -> Result<(), Error> {
    let indexes = stored_indexes(&args.snapshots_dir)?;
    if args.documents {
        print!("{}", corpus_word_documents(&indexes));
    } else {
        print!("{}", corpus_words(&indexes));
    }
    Ok(())
}
