//! The `x402dir` command line: clap and dispatch. Each subcommand is a file in `cmd/`.

mod cmd;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(name = "x402dir", version, about = "A checkable static directory of paid x402 resources")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Import a catalogue dump (API page, crawler cache or list of items) as a dated snapshot.
    Import(cmd::import::Args),
    /// Build the static site: one dated folder per snapshot, plus the root index.
    Build(cmd::build::Args),
    /// Preview the built site on 127.0.0.1 with netlify.toml's headers and the build's redirects.
    Serve(cmd::serve::Args),
    /// Walk the live discovery catalogue into a dated snapshot (atomic; resumable).
    Fetch(cmd::fetch::Args),
    /// Answer a query by the directory method and print the answer envelope.
    Query(cmd::query::Args),
    /// Serve the snapshot to agents over MCP (JSON-RPC on stdin and stdout): one tool,
    /// find_x402_resource, answering as `query --json` does.
    Mcp(cmd::mcp::Args),
    /// Explore: BM25 and word vectors fused by rank. Not the directory's answer.
    Explore(cmd::explore::Args),
    /// Probe every ranked resource once, unpaid, and record what its live 402 answered
    /// beside what it lists (content/method.md#probe).
    Probe(cmd::probe::Args),
    /// Write a synthetic snapshot of N listings for scale tests, marked synthetic in its header.
    Synth(cmd::synth::Args),
    /// Print the words of every stored snapshot's explore documents, sorted, one a line:
    /// the corpus half of the vector table's vocabulary (tools/vectors/regenerate.sh).
    #[command(hide = true)]
    Vocabulary(cmd::vocabulary::Args),
    /// Judge every ranking by the golden query set: NDCG@10 and recall@10 per class.
    Eval(cmd::eval::Args),
}

/// mimalloc: the build makes and frees millions of small strings from two threads;
/// with it, a 100,000-listing build is faster and holds less memory than with the
/// system allocator (BENCHMARKS.md, "Scale").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Has memory the process frees go back to the system at once rather than after
/// mimalloc's delay (a second in its version 3): in a large build, and in a probe, whose
/// peers' answers are read and dropped many at a time. A large build frees hundreds of
/// megabytes between phases, and the delay let the next phase's peak stack on the last
/// one's (a million listings: 2,115 MiB with a 10 ms delay, 1,976 MiB without); a small
/// one frees and takes again within milliseconds, and giving pages back to fault them in
/// again cost 8% of a 15,000-listing build (BENCHMARKS.md, "Against Hugo"). Call before
/// the work starts.
pub(crate) fn return_freed_memory_at_once() {
    /// mimalloc's `purge_delay` option (its C enum; the Rust bindings do not name it).
    const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
    // SAFETY: sets a plain integer option, which mimalloc reads atomically.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
}

fn main() -> ExitCode {
    let command = Cli::parse().command;
    // Asked for a JSON answer, a caller gets its error in JSON too.
    let json = matches!(&command, Command::Query(a) if a.json) || matches!(&command, Command::Explore(a) if a.json);
    let result = match command {
        Command::Import(args) => cmd::import::run(args),
        Command::Build(args) => cmd::build::run(args),
        Command::Serve(args) => cmd::serve::run(args),
        Command::Fetch(args) => cmd::fetch::run(args),
        Command::Query(args) => cmd::query::run(args),
        Command::Mcp(args) => cmd::mcp::run(args),
        Command::Explore(args) => cmd::explore::run(args),
        Command::Probe(args) => cmd::probe::run(args),
        Command::Synth(args) => cmd::synth::run(args),
        Command::Vocabulary(args) => cmd::vocabulary::run(args),
        Command::Eval(args) => cmd::eval::run(args),
    };
    cmd::finish(result, json)
}
