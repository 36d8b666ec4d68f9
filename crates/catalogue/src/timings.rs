//! `x402dir build --timings`: how long each phase takes, on standard error, so that a
//! slow build can be read off rather than guessed at.

use std::sync::atomic::{AtomicBool, Ordering};

static ON: AtomicBool = AtomicBool::new(false);

/// Turns the report on or off for the whole process.
pub fn report(on: bool) {
    ON.store(on, Ordering::Relaxed);
}

/// Runs `f`, reporting its wall time under `name` when the report is on.
pub fn phase<T>(name: &str, f: impl FnOnce() -> T) -> T {
    let started = std::time::Instant::now();
    let out = f();
    if ON.load(Ordering::Relaxed) {
        eprintln!("{name:>28}: {:8.3} s{}", started.elapsed().as_secs_f64(), memory());
    }
    out
}

/// Resident and peak memory so far, where the system tells (Linux: /proc/self/status).
fn memory() -> String {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else { return String::new() };
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok()
    };
    match (field("VmRSS:"), field("VmHWM:")) {
        (Some(rss), Some(peak)) => format!("   (resident {} MB, peak {} MB)", rss / 1024, peak / 1024),
        _ => String::new(),
    }
}
