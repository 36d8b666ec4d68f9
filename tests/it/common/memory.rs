//! Peak memory of a child process, read from the kernel while it runs, with a watchdog
//! that kills the child when its memory passes a bound: a regression then fails the
//! test instead of eating the machine.
//!
//! Linux only: `/proc/<pid>/status` gives `VmHWM`, the kernel's own high-water mark of
//! the child's resident set, polled every millisecond, so only the growth of the last
//! millisecond before the child exits can be missed. (`wait4`'s `ru_maxrss` is no
//! substitute: it counts the forked copy of this large test process before `exec`.)

use std::io::Read;
use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread;
use std::time::{Duration, Instant};

/// The watchdog's bound in the hostile tests: ten times what a child may use.
pub const WATCHDOG_BYTES: u64 = 1 << 30;

/// The binary under test: `X402DIR_BIN` when set (to measure an older build for a
/// before/after figure), else the one cargo built for these tests.
pub fn x402dir_bin() -> PathBuf {
    std::env::var_os("X402DIR_BIN").map_or_else(|| PathBuf::from(env!("CARGO_BIN_EXE_x402dir")), PathBuf::from)
}

/// A field of /proc/<pid>/status in bytes (`VmHWM`, `VmRSS`), if the process is alive.
fn status_bytes(pid: u32, field: &str) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line[field.len() + 1..].trim().trim_end_matches("kB").trim().parse().ok()?;
    Some(kb * 1024)
}

/// How many threads process `pid` runs, if it is alive.
pub fn threads(pid: u32) -> Option<u64> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    text.lines().find_map(|l| l.strip_prefix("Threads:")).and_then(|n| n.trim().parse().ok())
}

/// Watches one child: its peak resident memory so far, and whether it was killed for
/// passing the bound.
pub struct Watch {
    peak: Arc<AtomicU64>,
    killed: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    thread: Option<thread::JoinHandle<()>>,
}

impl Watch {
    /// Polls `pid` every millisecond; past `limit` bytes resident it is killed (SIGKILL).
    pub fn start(pid: u32, limit: u64) -> Watch {
        let (peak, killed, stop) =
            (Arc::new(AtomicU64::new(0)), Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
        let (p, k, s) = (peak.clone(), killed.clone(), stop.clone());
        let thread = thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                let Some(hwm) = status_bytes(pid, "VmHWM:") else { break };
                p.fetch_max(hwm, Ordering::SeqCst);
                if hwm > limit {
                    k.store(true, Ordering::SeqCst);
                    let _ = Command::new("kill").args(["-KILL", &pid.to_string()]).status();
                    break;
                }
                thread::sleep(Duration::from_millis(1));
            }
        });
        Watch { peak, killed, stop, thread: Some(thread) }
    }

    /// The highest resident memory seen, in bytes.
    pub fn peak(&self) -> u64 {
        self.peak.load(Ordering::SeqCst)
    }

    pub fn killed(&self) -> bool {
        self.killed.load(Ordering::SeqCst)
    }

    /// Stops watching; the peak stays readable.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        self.stop();
    }
}

/// How a watched run ended.
pub struct Run {
    pub status: Option<ExitStatus>,
    pub stdout: String,
    pub stderr: String,
    pub peak: u64,
    /// Killed by the watchdog for passing the memory bound.
    pub over_memory: bool,
    /// Killed for running past the time allowed.
    pub over_time: bool,
    pub elapsed: Duration,
}

impl Run {
    pub fn peak_mb(&self) -> f64 {
        self.peak as f64 / (1 << 20) as f64
    }

    /// One line for a failed assertion or the test's output: what happened, peak, time.
    pub fn summary(&self) -> String {
        let peak = match self.peak {
            0 => "not read (ended within a millisecond)".to_owned(),
            _ => format!("{:.0} MB", self.peak_mb()),
        };
        format!(
            "status {:?}, peak {peak}{}{}, {:.1} s; stderr: {}",
            self.status.and_then(|s| s.code()),
            if self.over_memory { " (killed by the watchdog)" } else { "" },
            if self.over_time { " (killed: too slow)" } else { "" },
            self.elapsed.as_secs_f64(),
            self.stderr.trim()
        )
    }
}

fn drain(mut from: impl Read + Send + 'static) -> thread::JoinHandle<String> {
    thread::spawn(move || {
        let mut bytes = Vec::new();
        let _ = from.read_to_end(&mut bytes);
        String::from_utf8_lossy(&bytes).into_owned()
    })
}

/// Runs `command` to its end under the watchdog (`limit` bytes) and a time limit.
pub fn run(command: &mut Command, limit: u64, time_limit: Duration) -> Run {
    let started = Instant::now();
    let mut child: Child =
        command.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("binary runs");
    let mut watch = Watch::start(child.id(), limit);
    let (out, err) = (drain(child.stdout.take().unwrap()), drain(child.stderr.take().unwrap()));
    let mut over_time = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait works") {
            break status;
        }
        if started.elapsed() > time_limit {
            over_time = true;
            let _ = child.kill();
            break child.wait().expect("wait works");
        }
        thread::sleep(Duration::from_millis(5));
    };
    watch.stop();
    let elapsed = started.elapsed();
    let over_memory = watch.killed();
    Run {
        status: (!over_memory && !over_time).then_some(status),
        stdout: out.join().unwrap(),
        stderr: err.join().unwrap(),
        peak: watch.peak(),
        over_memory,
        over_time,
        elapsed,
    }
}
