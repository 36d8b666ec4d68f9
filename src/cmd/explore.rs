//! `x402dir explore`: BM25 and word vectors fused by rank, beside the method's answer.

use catalogue::Error;
use explore::answer::explore;
use explore::vectors::VectorTable;
use explore::Explore;
use method::query::Filters;

use super::{terminal, SnapshotChoice};

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    source: SnapshotChoice,
    /// How many results to return, 1 to 50 (default 10).
    #[arg(long, value_name = "N", allow_hyphen_values = true)]
    limit: Option<String>,
    /// Print the JSON envelope instead of a table.
    #[arg(long)]
    pub json: bool,
    /// The words of the need, in any phrasing.
    words: Vec<String>,
}

pub fn run(args: Args) -> Result<(), Error> {
    // The method's limit rule, so both commands refuse the same values.
    let limit = Filters::parse(None, None, args.limit.as_deref())?.limit;
    let (index, method) = args.source.load()?;
    let table = VectorTable::embedded();
    let retrieval = Explore::build(&index, table);
    let answer = explore(&retrieval, &index, &method, table, &args.words.join(" "), limit);
    if args.json {
        println!("{}", serde_json::to_string_pretty(&answer).expect("answers serialise"));
    } else {
        print!("{}", terminal::render_explore(&answer));
    }
    Ok(())
}
