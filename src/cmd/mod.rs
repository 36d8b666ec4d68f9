//! The subcommands, a file each: its clap arguments and a `run` that reads them, asks
//! the library and prints. What a command computes belongs to the library; what is
//! here is how the command line reads and says it.

pub mod build;
pub mod eval;
pub mod explore;
pub mod fetch;
pub mod import;
pub mod mcp;
pub mod probe;
pub mod query;
pub mod serve;
pub mod synth;
pub mod terminal;
pub mod vocabulary;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use catalogue::snapshot;
use catalogue::Error;
use method::index::Index;
use method::Method;

/// Reports a command's failure and turns it into the exit status. `json`: the command
/// was asked for JSON, so the error is printed on standard output in JSON as well.
pub fn finish(result: Result<(), Error>, json: bool) -> ExitCode {
    let Err(e) = result else { return ExitCode::SUCCESS };
    if json {
        // The same error shape as the browser composer's.
        let mut error = serde_json::json!({"code": e.code(), "message": e.message()});
        if let Some(fix) = e.fix() {
            error["fix"] = fix.into();
        }
        let body = serde_json::json!({ "error": error });
        println!("{body}");
    }
    eprintln!("error: {e}");
    ExitCode::from(exit_code(&e))
}

/// Exit status: 1 for errors, 2 for usage (clap's), 3 when no source is available.
fn exit_code(e: &Error) -> u8 {
    match e {
        Error::SourceUnavailable { .. } => 3,
        Error::Filter(_) => 2,
        _ => 1,
    }
}

/// Which stored snapshot a command answers from.
#[derive(clap::Args)]
pub struct SnapshotChoice {
    /// Snapshot file to answer from (default: the newest complete one in --snapshots-dir, or the newest when none is complete).
    #[arg(long)]
    snapshot: Option<PathBuf>,
    /// Folder holding dated snapshots.
    #[arg(long, default_value = snapshot::DEFAULT_DIR)]
    snapshots_dir: PathBuf,
}

impl SnapshotChoice {
    /// The index of the chosen snapshot (default: the newest complete one), judged with the stored
    /// snapshots up to it as ownership history.
    pub fn load(self) -> Result<(Index, Method<'static>), Error> {
        load_index(self.snapshot, &self.snapshots_dir)
    }
}

pub fn load_index(path: Option<PathBuf>, snapshots_dir: &Path) -> Result<(Index, Method<'static>), Error> {
    let (stored, history) = match path {
        Some(p) if !p.exists() => return Err(Error::SourceUnavailable {
            what: format!("snapshot {} does not exist", p.display()),
            fix:
                "pass an existing snapshot file, or omit --snapshot to use the newest complete one in content/snapshots"
                    .into(),
        }),
        Some(p) => snapshot::with_histories(&[p])?.remove(0),
        None => snapshot::default_choice(snapshots_dir)?,
    };
    let method = Method::embedded();
    Ok((Index::read_stored(&stored, &history, &method)?, method))
}

/// The index of every snapshot stored in `snapshots_dir`, oldest first.
pub fn stored_indexes(snapshots_dir: &Path) -> Result<Vec<Index>, Error> {
    let method = Method::embedded();
    let paths: Vec<PathBuf> = snapshot::list(snapshots_dir)?.into_iter().map(snapshot::Stored::into_path).collect();
    method::index::indexes_with_history(&paths, &method)
}

/// Today's date, UTC, YYYY-MM-DD.
pub fn today() -> String {
    let today = time::OffsetDateTime::now_utc().date();
    format!("{:04}-{:02}-{:02}", today.year(), today.month() as u8, today.day())
}
