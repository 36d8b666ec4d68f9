//! `x402dir query`: the directory method's answer to a query.

use catalogue::Error;
use method::answer::checked_answer;
use method::query::{FilterText, Filters};

use super::{terminal, SnapshotChoice};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    source: SnapshotChoice,
    /// Highest USD price per call, inclusive (e.g. 0.01).
    #[arg(long, value_name = "USD", allow_hyphen_values = true)]
    max_price: Option<String>,
    /// Only resources that accept payment on this network: its name (Base), legacy name
    /// (base) or CAIP-2 id (eip155:8453). An unknown one is an error listing the snapshot's.
    #[arg(long, value_name = "NETWORK")]
    network: Option<String>,
    /// Leave out resources that accept payment only on test networks.
    #[arg(long)]
    exclude_testnets: bool,
    /// Keep only resources that answered 402 when the snapshot's probe asked them
    /// (content/probes/DATE.json beside the snapshot); an error for a snapshot not probed.
    #[arg(long = "answered-402")]
    answered_402: bool,
    /// How many results to return, 1 to 50 (default 10).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    limit: Option<String>,
    /// How many of the ordered results to skip first, for the next page (default 0).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    offset: Option<String>,
    /// Print the JSON answer envelope instead of a table.
    #[arg(long)]
    pub json: bool,
    /// The query words; every usable token must match as a whole word.
    words: Vec<String>,
}

pub fn run(args: Args) -> Result<(), Error> {
    // Filters first: a bad filter is a usage error whether or not a snapshot exists.
    let filters = Filters::read(FilterText {
        max_price: args.max_price.as_deref(),
        network: args.network.as_deref(),
        exclude_testnets: args.exclude_testnets,
        answered_402: args.answered_402,
        limit: args.limit.as_deref(),
        offset: args.offset.as_deref(),
    })?;
    let (index, method) = args.source.load()?;
    let answer = checked_answer(&index, &method, &args.words.join(" "), &filters)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&answer).expect("answers serialise"));
    } else {
        print!("{}", terminal::render(&answer));
    }
    Ok(())
}
