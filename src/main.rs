//! The `x402dir` command line: a thin layer over the library.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};
use x402dir::catalogue::{fetch, import, snapshot, synth};
use x402dir::explore::answer as explore_answer;
use x402dir::explore::eval;
use x402dir::explore::vectors::VectorTable;
use x402dir::explore::Explore;
use x402dir::method::answer::answer;
use x402dir::method::index::Index;
use x402dir::method::query::Filters;
use x402dir::method::Method;
use x402dir::{site, terminal, Error};

#[derive(Parser)]
#[command(name = "x402dir", version, about = "A checkable static directory of paid x402 resources")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Import a catalogue dump (API page, crawler cache or list of items) as a dated snapshot.
    Import {
        /// The dump to import.
        file: PathBuf,
        /// The snapshot's date, YYYY-MM-DD: the date every figure is computed against.
        #[arg(long)]
        date: String,
        /// Folder the snapshot is written to.
        #[arg(long, default_value = snapshot::DEFAULT_DIR)]
        dir: PathBuf,
        /// Replace an existing snapshot of the same date.
        #[arg(long)]
        force: bool,
    },
    /// Build the static site: one dated folder per snapshot, plus the root index.
    Build {
        /// Snapshot file to build (repeatable). Default: every snapshot in --snapshots-dir.
        #[arg(long)]
        snapshot: Vec<PathBuf>,
        /// Build every snapshot in --snapshots-dir (the default when no --snapshot is given).
        #[arg(long, conflicts_with = "snapshot")]
        all: bool,
        /// Folder holding dated snapshots.
        #[arg(long, default_value = snapshot::DEFAULT_DIR)]
        snapshots_dir: PathBuf,
        /// Output folder.
        #[arg(long, default_value = "public")]
        out: PathBuf,
        /// Print how long each phase of the build takes (standard error).
        #[arg(long)]
        timings: bool,
        /// Refuse to build a snapshot whose folder would hold more files than this (a
        /// host's cap per deployment, e.g. 20000; docs/deploy.md).
        #[arg(long)]
        max_files: Option<usize>,
    },
    /// Preview the built site on 127.0.0.1 with netlify.toml's headers and the build's redirects.
    Serve {
        /// Port to listen on (0 picks a free one).
        #[arg(long, default_value_t = x402dir::serve::DEFAULT_PORT)]
        port: u16,
        /// The built site.
        #[arg(long, default_value = "public")]
        dir: PathBuf,
    },
    /// Walk the live discovery catalogue into a dated snapshot (atomic; resumable).
    Fetch {
        /// The discovery endpoint.
        #[arg(long, default_value = x402dir::catalogue::import::CDP_DISCOVERY_URL)]
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
    },
    /// Answer a query by the directory method and print the answer envelope.
    Query {
        /// Snapshot file to answer from (default: the newest in --snapshots-dir).
        #[arg(long)]
        snapshot: Option<PathBuf>,
        /// Folder holding dated snapshots.
        #[arg(long, default_value = snapshot::DEFAULT_DIR)]
        snapshots_dir: PathBuf,
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
        json: bool,
        /// The query words; every usable token must match as a whole word.
        words: Vec<String>,
    },
    /// Serve the snapshot to agents over MCP (JSON-RPC on stdin and stdout): one tool,
    /// find_x402_resource, answering as `query --json` does.
    Mcp {
        /// Snapshot file to answer from (default: the newest in --snapshots-dir).
        #[arg(long)]
        snapshot: Option<PathBuf>,
        /// Folder holding dated snapshots.
        #[arg(long, default_value = snapshot::DEFAULT_DIR)]
        snapshots_dir: PathBuf,
    },
    /// Explore: BM25 and word vectors fused by rank. Not the directory's answer.
    Explore {
        /// Snapshot file to explore (default: the newest in --snapshots-dir).
        #[arg(long)]
        snapshot: Option<PathBuf>,
        /// Folder holding dated snapshots.
        #[arg(long, default_value = snapshot::DEFAULT_DIR)]
        snapshots_dir: PathBuf,
        /// How many results to return, 1 to 50 (default 10).
        #[arg(long, value_name = "N", allow_hyphen_values = true)]
        limit: Option<String>,
        /// Print the JSON envelope instead of a table.
        #[arg(long)]
        json: bool,
        /// The words of the need, in any phrasing.
        words: Vec<String>,
    },
    /// Write a synthetic snapshot of N listings for scale tests, marked synthetic in its header.
    Synth {
        /// How many listings.
        #[arg(long)]
        items: usize,
        /// Seed of the generator: the same seed, count, date and vocabulary give the same bytes.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// The snapshot's date, YYYY-MM-DD (default: today, UTC).
        #[arg(long)]
        date: Option<String>,
        /// Folder the synthetic snapshot is written to (never the real snapshots' folder).
        #[arg(long, default_value = "synthetic")]
        dir: PathBuf,
        /// Folder of the real snapshots whose vocabulary the text is drawn from.
        #[arg(long, default_value = snapshot::DEFAULT_DIR)]
        snapshots_dir: PathBuf,
        /// Replace an existing synthetic snapshot of the same date.
        #[arg(long)]
        force: bool,
    },
    /// Print the words of every stored snapshot's explore documents, sorted, one a line:
    /// the corpus half of the vector table's vocabulary (tools/vectors/regenerate.sh).
    #[command(hide = true)]
    Vocabulary {
        /// Folder holding dated snapshots.
        #[arg(long, default_value = snapshot::DEFAULT_DIR)]
        snapshots_dir: PathBuf,
    },
    /// Judge every ranking by the golden query set: NDCG@10 and recall@10 per class.
    Eval {
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
        #[arg(long, default_value = x402dir::explore::eval::BASELINE_PATH)]
        baseline: PathBuf,
    },
}

/// Exit status: 1 for errors, 2 for usage (clap's), 3 when no source is available.
fn exit_code(e: &Error) -> u8 {
    match e {
        Error::SourceUnavailable { .. } => 3,
        Error::Filter(_) => 2,
        _ => 1,
    }
}

/// mimalloc: the build makes and frees millions of small strings from two threads;
/// with it, a 100,000-listing build is faster and holds less memory than with the
/// system allocator (BENCHMARKS.md, "Scale").
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// mimalloc's `purge_delay` option (its C enum; the Rust bindings do not name it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() -> ExitCode {
    // Memory a phase frees goes back to the system at once rather than 10 ms later:
    // a build frees hundreds of megabytes between phases, and the delay let the next
    // phase's peak stack on the last one's (a million listings: BENCHMARKS.md).
    // SAFETY: sets a plain integer option before any thread is started.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    let cli = Cli::parse();
    let json = matches!(cli.command, Command::Query { json: true, .. } | Command::Explore { json: true, .. });
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
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
    }
}

fn run(command: Command) -> Result<(), Error> {
    match command {
        Command::Import { file, date, dir, force } => {
            let snap = import::import_file(&file, &date)?;
            let path = snap.write_into(&dir, force)?;
            let h = &snap.header;
            println!(
                "imported {} items into {} ({}{})",
                h.item_count,
                path.display(),
                if h.complete { "complete" } else { "partial" },
                h.reported_total.map_or(String::new(), |t| format!(", source reported {t}"))
            );
            Ok(())
        }
        Command::Build { snapshot: paths, all: _, snapshots_dir, out, timings, max_files } => {
            x402dir::timings::report(timings);
            let paths = if paths.is_empty() { snapshot::list(&snapshots_dir)? } else { paths };
            if paths.is_empty() {
                return Err(snapshot::latest(&snapshots_dir).expect_err("no snapshot in an empty list"));
            }
            let started = std::time::Instant::now();
            let built = site::build_limited(&paths, &out, &Method::embedded(), max_files)?;
            for b in &built {
                println!(
                    "built {}: {} resources, {} files in {}",
                    b.date,
                    b.entries,
                    b.files,
                    out.join(&b.date).display()
                );
            }
            println!("done in {:.2} s; open {}", started.elapsed().as_secs_f64(), out.join("index.html").display());
            Ok(())
        }
        Command::Serve { port, dir } => {
            let (config, source) = x402dir::serve::netlify_toml_in(std::path::Path::new("."))?;
            let site = x402dir::serve::Site::load(&dir, &config, &source)?;
            for warning in &site.warnings {
                eprintln!("warning: {warning}");
            }
            let server = x402dir::serve::Server::bind(site, port)?;
            println!("serving {} at {}", dir.display(), server.url());
            // Scripts and tests wait for this line to learn the port.
            std::io::stdout().flush().map_err(|e| Error::io("stdout", e))?;
            server.run()
        }
        Command::Fetch {
            base_url,
            date,
            dir,
            page_size,
            concurrency,
            rate_ms,
            timeout_secs,
            walk_timeout_secs,
            max_tries,
            force,
            allow_incomplete,
            quiet,
        } => {
            let config = fetch::WalkConfig {
                base_url,
                page_size,
                concurrency,
                min_interval: Duration::from_millis(rate_ms),
                request_timeout: Duration::from_secs(timeout_secs),
                walk_timeout: Duration::from_secs(walk_timeout_secs),
                max_tries: max_tries.max(1),
                ..fetch::WalkConfig::default()
            };
            let date = date.unwrap_or_else(today);
            let request = fetch::FetchRequest { config, date, dir, overwrite: force, allow_incomplete };
            let (path, report) = fetch::fetch(&request, &fetch::Progress::for_stderr(quiet))?;
            println!("walked {}", report.summary());
            for note in report.notes() {
                println!("note: {note}");
            }
            println!("wrote {}", path.display());
            Ok(())
        }
        Command::Query { snapshot: path, snapshots_dir, max_price, network, limit, json, words } => {
            let filters = Filters::parse(max_price.as_deref(), network.as_deref(), limit.as_deref())?;
            let (index, method) = load_index(path, &snapshots_dir)?;
            let answer = answer(&index, &method, &words.join(" "), &filters);
            if json {
                println!("{}", serde_json::to_string_pretty(&answer).expect("answers serialise"));
            } else {
                print!("{}", terminal::render(&answer));
            }
            Ok(())
        }
        Command::Mcp { snapshot: path, snapshots_dir } => {
            let method = Method::embedded();
            // Without a snapshot the server still starts: its tool then answers
            // SOURCE_UNAVAILABLE with the fix, and the client can say so.
            let index = load_index(path, &snapshots_dir).map(|(index, _)| index);
            match &index {
                Ok(i) => eprintln!(
                    "x402dir mcp: snapshot {}, {} resources, method {}; reading JSON-RPC on stdin",
                    i.header.date,
                    i.entries.len(),
                    x402dir::method::DISCOVERY_METHOD_VERSION
                ),
                Err(e) => eprintln!("x402dir mcp: no index ({e}); every call will say so"),
            }
            let server = x402dir::mcp::Server::new(index, &method);
            server.run(std::io::stdin().lock(), std::io::stdout().lock()).map_err(|e| Error::io("<stdio>", e))
        }
        Command::Explore { snapshot: path, snapshots_dir, limit, json, words } => {
            let limit = Filters::parse(None, None, limit.as_deref())?.limit;
            let (index, method) = load_index(path, &snapshots_dir)?;
            let table = VectorTable::embedded();
            let explore = Explore::build(&index, table);
            let answer = explore_answer::explore(&explore, &index, &method, table, &words.join(" "), limit);
            if json {
                println!("{}", serde_json::to_string_pretty(&answer).expect("answers serialise"));
            } else {
                print!("{}", terminal::render_explore(&answer));
            }
            Ok(())
        }
        Command::Synth { items, seed, date, dir, snapshots_dir, force } => {
            let same = |a: &std::path::Path, b: &std::path::Path| {
                a.canonicalize().ok().zip(b.canonicalize().ok()).is_some_and(|(a, b)| a == b)
            };
            if same(&dir, &snapshots_dir) {
                return Err(Error::Refused(format!(
                    "refusing to write a synthetic snapshot among the real ones in {}: pass another --dir",
                    dir.display()
                )));
            }
            let date = date.unwrap_or_else(today);
            let day = snapshot::parse_date(&date).map_err(Error::Refused)?;
            let started = std::time::Instant::now();
            let method = Method::embedded();
            let indexes = site::indexes_with_history(&snapshot::list(&snapshots_dir)?, &method)?;
            let entries = || indexes.iter().flat_map(|i| i.entries.iter());
            let vocabulary = synth::Vocabulary::learn(
                entries().filter_map(|e| e.public_description()),
                entries().map(|e| e.resource.url.as_str()),
                entries().flat_map(|e| e.resource.schema_fields.iter().map(String::as_str)),
                entries().flat_map(|e| e.resource.accepts.iter().filter_map(|a| a.amount)),
            );
            if vocabulary.is_empty() {
                return Err(snapshot::latest(&snapshots_dir).err().unwrap_or_else(|| {
                    Error::Refused(format!("no usable text in the snapshots of {}", snapshots_dir.display()))
                }));
            }
            let mut rng = synth::SplitMix::new(seed);
            let counters = synth::counters(items, &mut rng);
            let header = synth::header(&date, items, seed);
            let made = (0..items).map(|i| Ok(synth::item(i, &counters[i], &vocabulary, day, &mut rng)));
            let path = snapshot::write_streaming(&dir, &header, force, made)?;
            println!(
                "wrote {items} synthetic listings to {} in {:.1} s",
                path.display(),
                started.elapsed().as_secs_f64()
            );
            Ok(())
        }
        Command::Vocabulary { snapshots_dir } => {
            let method = Method::embedded();
            let paths = snapshot::list(&snapshots_dir)?;
            let mut words = std::collections::BTreeSet::new();
            for index in site::indexes_with_history(&paths, &method)? {
                for entry in &index.entries {
                    words
                        .extend(x402dir::explore::document::document(entry).into_iter().filter(|w| vocabulary_word(w)));
                }
            }
            let mut out = String::new();
            for w in words {
                out.push_str(&w);
                out.push('\n');
            }
            print!("{out}");
            Ok(())
        }
        Command::Eval { snapshots_dir, json, check, write_baseline, baseline } => {
            let golden = eval::GoldenSet::embedded()?;
            let path = snapshots_dir.join(format!("{}.json", golden.snapshot));
            if !path.exists() {
                return Err(Error::SourceUnavailable {
                    what: format!(
                        "the golden set's snapshot {} is not in {}",
                        golden.snapshot,
                        snapshots_dir.display()
                    ),
                    fix: "run from the repository root, or pass --snapshots-dir with that snapshot".into(),
                });
            }
            let (index, method) = load_index(Some(path), &snapshots_dir)?;
            let evaluation = eval::evaluate(&golden, &index, &method, VectorTable::embedded())?;
            if json {
                println!("{}", serde_json::to_string_pretty(&evaluation).expect("evaluations serialise"));
            } else {
                print!("{}", eval::render(&evaluation));
            }
            if write_baseline {
                let text = serde_json::to_string_pretty(&eval::Baseline::of(&evaluation)).expect("serialises") + "\n";
                std::fs::write(&baseline, text).map_err(|e| Error::io(&baseline, e))?;
                eprintln!("wrote {}", baseline.display());
            }
            if check {
                let text = std::fs::read_to_string(&baseline).map_err(|e| Error::io(&baseline, e))?;
                let base: eval::Baseline =
                    serde_json::from_str(&text).map_err(|e| Error::input(&baseline, e.to_string()))?;
                let regressions = base.regressions(&evaluation);
                if !regressions.is_empty() {
                    return Err(Error::Refused(format!(
                        "{} figure(s) fell below the baseline in {}:\n  {}",
                        regressions.len(),
                        baseline.display(),
                        regressions.join("\n  ")
                    )));
                }
                eprintln!("no figure below the baseline in {}", baseline.display());
            }
            Ok(())
        }
    }
}

/// The index of a snapshot (default: the newest), judged with the stored snapshots up to
/// it as ownership history.
fn load_index(path: Option<PathBuf>, snapshots_dir: &std::path::Path) -> Result<(Index, Method<'static>), Error> {
    let path = match path {
        Some(p) if !p.exists() => {
            return Err(Error::SourceUnavailable {
                what: format!("snapshot {} does not exist", p.display()),
                fix: "pass an existing snapshot file, or omit --snapshot to use the newest in content/snapshots".into(),
            })
        }
        Some(p) => p,
        None => snapshot::latest(snapshots_dir)?,
    };
    let method = Method::embedded();
    Ok((Index::read(&path, &method)?, method))
}

/// A corpus word worth a vector: has a letter and is not an id (long, or hex-like).
fn vocabulary_word(w: &str) -> bool {
    let chars = w.chars().count();
    let letters = w.chars().filter(|c| c.is_alphabetic()).count();
    let hex_like = chars >= 12 && w.chars().all(|c| c.is_ascii_hexdigit());
    letters > 0 && chars <= 24 && !hex_like && letters * 2 >= chars
}

/// Today's date, UTC, YYYY-MM-DD.
fn today() -> String {
    let today = time::OffsetDateTime::now_utc().date();
    format!("{:04}-{:02}-{:02}", today.year(), today.month() as u8, today.day())
}
