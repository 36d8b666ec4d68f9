//! `x402dir mcp`: the snapshot served to agents over MCP on stdin and stdout.

use catalogue::Error;
use mcp::Server;
use method::{Method, DISCOVERY_METHOD_VERSION};

use super::SnapshotChoice;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    source: SnapshotChoice,
}

pub fn run(args: Args) -> Result<(), Error> {
    let method = Method::embedded();
    // Without a snapshot the server still starts: its tool then answers
    // SOURCE_UNAVAILABLE with the fix, and the client can say so.
    let index = args.source.load().map(|(index, _)| index);
    match &index {
        Ok(i) => eprintln!(
            "x402dir mcp: snapshot {}, {} resources, method {}; reading JSON-RPC on stdin",
            i.header.date,
            i.entries.len(),
            DISCOVERY_METHOD_VERSION
        ),
        Err(e) => eprintln!("x402dir mcp: no index ({e}); every call will say so"),
    }
    let server = Server::new(index, &method);
    server.run(std::io::stdin().lock(), std::io::stdout().lock()).map_err(|e| Error::io("<stdio>", e))
}
