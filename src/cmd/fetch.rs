//! `x402dir fetch`: the live discovery catalogue walked into a dated snapshot.

use std::path::PathBuf;
use std::time::Duration;

use catalogue::Error;
use catalogue::{fetch, import, snapshot};

use super::today;

#[derive(clap::Args)]
pub struct Args {
    /// The discovery endpoint.
    #[arg(long, default_value = import::CDP_DISCOVERY_URL)]
    base_url: String,
    /// The snapshot's date, YYYY-MM-DD (default: today, UTC).
    #[arg(long)]
    date: Option<String>,
    /// Folder the snapshot is written to.
    #[arg(long, default_value = snapshot::DEFAULT_DIR)]
    dir: PathBuf,
    /// Items per page to ask for (the API rounds to 10 and clamps to 20..1000).
    #[arg(long, default_value_t = 1000)]
    page_size: u32,
    /// Pages in flight at once.
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// Least milliseconds between two requests.
    #[arg(long, default_value_t = 500)]
    rate_ms: u64,
    /// Seconds before one request is abandoned (and retried).
    #[arg(long, default_value_t = 30)]
    timeout_secs: u64,
    /// Seconds before the whole walk is stopped (it can be resumed).
    #[arg(long, default_value_t = 1800)]
    walk_timeout_secs: u64,
    /// Tries per page before giving up.
    #[arg(long, default_value_t = 6)]
    max_tries: u32,
    /// Replace an existing snapshot of the same date.
    #[arg(long)]
    force: bool,
    /// Store an incomplete walk, marked incomplete, instead of failing.
    #[arg(long)]
    allow_incomplete: bool,
    /// No progress output.
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: Args) -> Result<(), Error> {
    let config = fetch::WalkConfig {
        base_url: args.base_url,
        page_size: args.page_size,
        concurrency: args.concurrency,
        min_interval: Duration::from_millis(args.rate_ms),
        request_timeout: Duration::from_secs(args.timeout_secs),
        walk_timeout: Duration::from_secs(args.walk_timeout_secs),
        max_tries: args.max_tries.max(1),
        ..fetch::WalkConfig::default()
    };
    let date = args.date.unwrap_or_else(today);
    let request = fetch::FetchRequest {
        config,
        date,
        dir: args.dir,
        overwrite: args.force,
        allow_incomplete: args.allow_incomplete,
    };
    let (path, report) = fetch::fetch(&request, &fetch::Progress::for_stderr(args.quiet))?;
    println!("walked {}", report.summary());
    for note in report.notes() {
        println!("note: {note}");
    }
    println!("wrote {}", path.display());
    Ok(())
}
