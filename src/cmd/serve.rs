//! `x402dir serve`: the built site on 127.0.0.1, with netlify.toml's headers and the
//! build's redirects.

use std::io::Write;
use std::path::{Path, PathBuf};

use catalogue::Error;
use serve::{self, Server, Site};

#[derive(clap::Args)]
pub struct Args {
    /// Port to listen on (0 picks a free one).
    #[arg(long, default_value_t = serve::DEFAULT_PORT)]
    port: u16,
    /// The built site.
    #[arg(long, default_value = "public")]
    dir: PathBuf,
}

pub fn run(args: Args) -> Result<(), Error> {
    let Args { port, dir } = args;
    let (config, source) = serve::netlify_toml_in(Path::new("."))?;
    let site = Site::load(&dir, &config, &source)?;
    for warning in &site.warnings {
        eprintln!("warning: {warning}");
    }
    let server = Server::bind(site, port)?;
    println!("serving {} at {}", dir.display(), server.url());
    // Scripts and tests wait for this line to learn the port.
    std::io::stdout().flush().map_err(|e| Error::io("stdout", e))?;
    server.run()
}
