//! `x402dir build --timings`: how long each phase takes, on standard error, so that a
//! slow build can be read off rather than guessed at.

use std::sync::atomic::{AtomicBool, Ordering};

static ON: AtomicBool = AtomicBool::new(false);

/// Turns the report on or off for the whole process.
pub fn report(on: bool) {
    ON.store(on, Ordering::Relaxed);
}

/// Prints `text` among the phases when the report is on.
pub fn note(text: &str) {
    if ON.load(Ordering::Relaxed) {
        eprintln!("{:>28}  {text}", "");
    }
}

/// Runs `f`, reporting its wall and CPU time under `name` when the report is on.
pub fn phase<T>(name: &str, f: impl FnOnce() -> T) -> T {
    let on = ON.load(Ordering::Relaxed);
    // /proc is read only when the report is on: phases run in every build.
    let (started, cpu_before) = (std::time::Instant::now(), if on { cpu_seconds() } else { None });
    let out = f();
    if on {
        let wall = started.elapsed().as_secs_f64();
        // CPU time beside wall time says whether a phase keeps every core busy.
        let cpu = match (cpu_before, cpu_seconds()) {
            (Some(before), Some(after)) => format!(", cpu {:6.2} s", after - before),
            _ => String::new(),
        };
        eprintln!("{name:>28}: {wall:8.3} s{cpu}{}", memory());
    }
    out
}

/// User and system time of every thread of the process so far, where the system tells
/// (Linux: /proc/self/stat, in ticks of 1/100 s).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name may hold spaces; the fields after its closing parenthesis do not.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = |i: usize| fields.get(i)?.parse::<u64>().ok();
    Some((ticks(11)? + ticks(12)?) as f64 / 100.0)
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
