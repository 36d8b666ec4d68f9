//! `x402dir eval`: every ranking judged by the golden query set, against the committed
//! baseline.

use std::path::PathBuf;

use catalogue::snapshot;
use catalogue::Error;
use explore::eval::{self, Baseline, GoldenSet};
use explore::vectors::VectorTable;

use super::load_index;

#[derive(clap::Args)]
pub struct Args {
    /// Folder holding dated snapshots (the golden set names its snapshot).
    #[arg(long, default_value = snapshot::DEFAULT_DIR)]
    snapshots_dir: PathBuf,
    /// Print the evaluation as JSON (with per-query figures).
    #[arg(long)]
    json: bool,
    /// Fail (exit 1) when any figure falls below the committed baseline.
    #[arg(long)]
    check: bool,
    /// Write the figures as the new baseline.
    #[arg(long, conflicts_with = "check")]
    write_baseline: bool,
    /// The baseline file.
    #[arg(long, default_value = eval::BASELINE_PATH)]
    baseline: PathBuf,
}

pub fn run(args: Args) -> Result<(), Error> {
    let golden = GoldenSet::embedded()?;
    let path = golden.snapshot_in(&args.snapshots_dir)?;
    let (index, method) = load_index(Some(path), &args.snapshots_dir)?;
    let evaluation = eval::evaluate(&golden, &index, &method, VectorTable::embedded())?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&evaluation).expect("evaluations serialise"));
    } else {
        print!("{}", eval::render(&evaluation));
    }
    if args.write_baseline {
        Baseline::of(&evaluation).write(&args.baseline)?;
        eprintln!("wrote {}", args.baseline.display());
    }
    if args.check {
        Baseline::read(&args.baseline)?.check(&evaluation, &args.baseline)?;
        eprintln!("no figure below the baseline in {}", args.baseline.display());
    }
    Ok(())
}
