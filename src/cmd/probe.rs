//! `x402dir probe`: one unpaid request per ranked resource of a snapshot, and what each
//! answered beside what it lists, written to the probe file (content/method.md#probe).

use std::path::PathBuf;

use catalogue::Error;
use method::probe::Limits;
use probe::walk;

#[derive(clap::Args)]
pub struct Args {
    /// The snapshot whose ranked resources are probed.
    #[arg(long)]
    snapshot: PathBuf,
    /// Where the probe file goes (default: probes/DATE.json beside the snapshot's folder,
    /// content/probes/ for content/snapshots/, where the build reads it).
    #[arg(long)]
    out: Option<PathBuf>,
}

pub fn run(args: Args) -> Result<(), Error> {
    // A hostile peer's answers are read up to the caps and dropped, 32 at a time: kept a
    // second by the allocator, they stacked up to twice the memory the caps allow
    // (tests/it/probe.rs, `memory_stays_bounded_whatever_the_peers_send`).
    crate::return_freed_memory_at_once();
    let options = walk::Options { snapshot: args.snapshot, out: args.out, limits: Limits::DEFAULT };
    let (path, probe) = walk::run(&options)?;
    let s = probe.summary();
    println!(
        "probed {} resources of {}: answered 402 with the listed terms {}, other terms {}, 402 unreadable {}, \
         another status {}, no answer {}",
        s.probed, probe.snapshot, s.listed_terms, s.other_terms, s.unreadable_402, s.other_status, s.no_answer
    );
    println!("wrote {}", path.display());
    Ok(())
}
