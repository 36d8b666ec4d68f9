//! `cargo xtask codegen [--check]`: writes (or, with --check, compares) the generated
//! files of the repository (crates/xtask/src/lib.rs). Run from anywhere in the checkout.

use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let check = match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["codegen"] => false,
        ["codegen", "--check"] => true,
        _ => {
            eprintln!("usage: cargo xtask codegen [--check]");
            return ExitCode::from(2);
        }
    };
    // The repository's root: two folders above this crate.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut stale = 0;
    for (rel, text) in xtask::generated() {
        let path = root.join(rel);
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        if committed == text {
            println!("{rel}: current");
        } else if check {
            println!("{rel}: stale");
            stale += 1;
        } else if let Err(e) = std::fs::write(&path, &text) {
            eprintln!("error: {}: {e}", path.display());
            return ExitCode::FAILURE;
        } else {
            println!("{rel}: written");
        }
    }
    if stale > 0 {
        eprintln!("error: {stale} generated file(s) stale: run `cargo xtask codegen`");
        return ExitCode::FAILURE;
    }
    ExitCode::SUCCESS
}
