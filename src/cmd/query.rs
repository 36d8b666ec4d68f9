//! `x402dir query`: the directory method's answer to a query.

use x402dir::method::answer::answer;
use x402dir::method::query::Filters;
use x402dir::Error;

use super::{terminal, SnapshotChoice};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    source: SnapshotChoice,
    /// Highest USD price per call, inclusive (e.g. 0.01).
    #[arg(long, value_name = "USD", allow_hyphen_values = true)]
    max_price: Option<String>,
    /// Only resources that accept payment on this network (e.g. eip155:8453 or base).
    #[arg(long, value_name = "ID")]
    network: Option<String>,
    /// How many results to return, 1 to 50 (default 10).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    limit: Option<String>,
    /// Print the JSON answer envelope instead of a table.
    #[arg(long)]
    pub json: bool,
    /// The query words; every usable token must match as a whole word.
    words: Vec<String>,
}

pub fn run(args: Args) -> Result<(), Error> {
    // Filters first: a bad filter is a usage error whether or not a snapshot exists.
    let filters = Filters::parse(args.max_price.as_deref(), args.network.as_deref(), args.limit.as_deref())?;
    let (index, method) = args.source.load()?;
    let answer = answer(&index, &method, &args.words.join(" "), &filters);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&answer).expect("answers serialise"));
    } else {
        print!("{}", terminal::render(&answer));
    }
    Ok(())
}
