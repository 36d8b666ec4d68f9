//! The walk: every ranked resource of a snapshot probed once, with at most
//! `connections_per_host` exchanges to one host and `connections` in all under way, and
//! the results written to the probe file at once, atomically, when the last has ended.
//!
//! Workers, one per connection allowed, take the next resource of a host that has room;
//! hosts take turns (a host whose room is full waits at the back), so one slow host holds
//! at most its own two workers. Memory is the plan and result of each resource plus, per
//! worker, one answer's head (hyper's cap) and at most `body_bytes` of body.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use catalogue::model::Accept;
use catalogue::snapshot::now_rfc3339;
use catalogue::Error;
use method::index::Index;
use method::request::Request;
use method::Method;
use tokio::sync::Notify;

use crate::http::{self, Answer, Plan};
use crate::live;
use method::probe::{Failure, Limits, Outcome, Probe, ProbeResult, PROBE_VERSION};

/// What to probe and where the file goes.
#[derive(Debug, Clone)]
pub struct Options {
    pub snapshot: PathBuf,
    /// The probe file; when None, `probes/DATE.json` beside the snapshot's folder, where
    /// the build reads it (`crate::place`).
    pub out: Option<PathBuf>,
    pub limits: Limits,
}

/// The User-Agent a probe sends: the program, its version and the site that publishes
/// what it saw (content/site.json).
pub fn user_agent(method: &Method) -> String {
    format!("x402dir-probe/{} (+{})", env!("CARGO_PKG_VERSION"), method.site.base_url)
}

/// Probes every ranked resource of the snapshot and writes the probe file; returns its
/// path and contents. A run that fails writes nothing and leaves any earlier file as it was.
pub fn run(options: &Options) -> Result<(PathBuf, Probe), Error> {
    let method = Method::embedded();
    let index = Index::read(&options.snapshot, &method)?;
    let date = index.header.date.clone();
    let out = options.out.clone().unwrap_or_else(|| method::probe::beside(&options.snapshot, &date));
    let user_agent = user_agent(&method);
    let limits = options.limits;
    let client = http::client(&user_agent, &limits).map_err(Error::Walk)?;
    let tasks: Vec<Task> = index
        .entries
        .iter()
        .map(|e| Task {
            resource: e.resource.url.clone(),
            plan: Plan::of(&Request::of(&e.resource, &method)),
            accepts: e.resource.accepts.clone(),
        })
        .collect();
    drop(index);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Error::Walk(format!("cannot start the runtime: {e}")))?;
    let started = now_rfc3339();
    let results = runtime.block_on(probe_all(client, tasks, limits, method));
    let finished = now_rfc3339();
    runtime.shutdown_timeout(Duration::from_secs(1));
    let mut results = results;
    results.sort_by(|a, b| a.resource.cmp(&b.resource));
    let probe = Probe {
        probe_version: PROBE_VERSION.to_owned(),
        snapshot: date,
        started,
        finished,
        user_agent,
        limits,
        results,
    };
    probe.check().map_err(|e| Error::Walk(format!("the probe's own file does not check: {e}")))?;
    write_atomically(&out, &probe.to_bytes())?;
    Ok((out, probe))
}

/// Writes `bytes` to a temporary file beside `path`, then renames it over `path`.
fn write_atomically(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

struct Task {
    resource: String,
    plan: Result<Plan, String>,
    accepts: Vec<Accept>,
}

/// What a worker does next.
enum Job {
    /// Ask resource `.1` of host `.0`.
    Ask(usize, usize),
    /// Record these resources as not asked: their host is silent.
    Skip(Vec<usize>),
}

/// Hosts with resources left, in turn.
struct Queue {
    hosts: Vec<Host>,
    /// Hosts with a resource left and room for one more exchange, each once.
    ready: VecDeque<usize>,
}

struct Host {
    tasks: Vec<usize>,
    next: usize,
    in_flight: u32,
    queued: bool,
    /// Requests in a row that timed out; at `limits.silent_host_after` the host is silent.
    timeouts_in_a_row: u32,
}

impl Queue {
    fn new(tasks: &[Task]) -> Queue {
        let mut by_host: HashMap<String, usize> = HashMap::new();
        let mut hosts: Vec<Host> = Vec::new();
        for (i, t) in tasks.iter().enumerate() {
            // A resource that cannot be requested takes no connection: its own "host".
            let key = t.plan.as_ref().map_or_else(|_| format!("unsendable {i}"), Plan::host_key);
            let h = *by_host.entry(key).or_insert_with(|| {
                hosts.push(Host { tasks: Vec::new(), next: 0, in_flight: 0, queued: true, timeouts_in_a_row: 0 });
                hosts.len() - 1
            });
            hosts[h].tasks.push(i);
        }
        let ready = (0..hosts.len()).collect();
        Queue { hosts, ready }
    }

    /// The next resource whose host has room: Some(None) when none has room now but
    /// some are under way, None when every resource is taken. A silent host's resources
    /// are handed out all at once as `Job::Skip`, taking no connection.
    fn take(&mut self, per_host: u32, silent_after: u32) -> Option<Option<Job>> {
        if let Some(h) = self.ready.pop_front() {
            let host = &mut self.hosts[h];
            if silent_after > 0 && host.timeouts_in_a_row >= silent_after {
                let rest = host.tasks[host.next..].to_vec();
                host.next = host.tasks.len();
                host.queued = false;
                return Some(Some(Job::Skip(rest)));
            }
            let task = host.tasks[host.next];
            host.next += 1;
            host.in_flight += 1;
            host.queued = host.in_flight < per_host && host.next < host.tasks.len();
            if host.queued {
                self.ready.push_back(h);
            }
            return Some(Some(Job::Ask(h, task)));
        }
        self.hosts.iter().any(|h| h.next < h.tasks.len()).then_some(None)
    }

    /// An exchange with host `h` ended; `timed_out` when its answer never came.
    fn done(&mut self, h: usize, timed_out: bool) {
        let host = &mut self.hosts[h];
        host.in_flight -= 1;
        host.timeouts_in_a_row = if timed_out { host.timeouts_in_a_row + 1 } else { 0 };
        if !host.queued && host.next < host.tasks.len() {
            host.queued = true;
            self.ready.push_back(h);
        }
    }
}

async fn probe_all(
    client: reqwest::Client,
    tasks: Vec<Task>,
    limits: Limits,
    method: Method<'static>,
) -> Vec<ProbeResult> {
    let queue = Arc::new(Mutex::new(Queue::new(&tasks)));
    let tasks = Arc::new(tasks);
    let wake = Arc::new(Notify::new());
    let results = Arc::new(Mutex::new(Vec::with_capacity(tasks.len())));
    let workers: Vec<_> = (0..limits.connections.max(1))
        .map(|_| {
            let (client, queue, tasks, wake, results) =
                (client.clone(), queue.clone(), tasks.clone(), wake.clone(), results.clone());
            tokio::spawn(async move {
                loop {
                    let notified = wake.notified();
                    let taken = queue
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .take(limits.connections_per_host, limits.silent_host_after);
                    let (h, i) = match taken {
                        None => return,
                        Some(None) => {
                            notified.await;
                            continue;
                        }
                        Some(Some(Job::Skip(rest))) => {
                            let skipped = rest.into_iter().map(|i| not_asked(&tasks[i]));
                            results.lock().unwrap_or_else(|e| e.into_inner()).extend(skipped);
                            wake.notify_waiters();
                            continue;
                        }
                        Some(Some(Job::Ask(h, i))) => (h, i),
                    };
                    let result = probe_one(&client, &tasks[i], &limits, &method).await;
                    let timed_out = result.outcome == Outcome::NoAnswer && result.failure == Some(Failure::Timeout);
                    results.lock().unwrap_or_else(|e| e.into_inner()).push(result);
                    queue.lock().unwrap_or_else(|e| e.into_inner()).done(h, timed_out);
                    wake.notify_waiters();
                }
            })
        })
        .collect();
    for w in workers {
        w.await.expect("a probe worker does not panic");
    }
    let mut results = results.lock().unwrap_or_else(|e| e.into_inner());
    std::mem::take(&mut *results)
}

/// A resource's result before any answer: none yet, as of now.
fn unanswered(task: &Task) -> ProbeResult {
    ProbeResult {
        resource: task.resource.clone(),
        at: now_rfc3339(),
        outcome: Outcome::NoAnswer,
        status: None,
        failure: None,
        ms_to_first_byte: None,
        x402_version: None,
        body_cut: false,
        waited_s: None,
        terms: Vec::new(),
    }
}

/// A resource of a silent host: recorded, not asked.
fn not_asked(task: &Task) -> ProbeResult {
    ProbeResult { failure: Some(Failure::HostSilent), ..unanswered(task) }
}

/// One resource: one exchange, and one more after a 429 whose Retry-After is short enough.
async fn probe_one(client: &reqwest::Client, task: &Task, limits: &Limits, method: &Method<'_>) -> ProbeResult {
    let mut result = unanswered(task);
    let plan = match &task.plan {
        Ok(plan) => plan,
        Err(_) => {
            result.failure = Some(Failure::Other);
            return result;
        }
    };
    let mut answer = http::exchange(client, plan, limits).await;
    if answer.status == Some(429) && answer.failure.is_none() {
        if let Some(wait) = answer.retry_after.as_deref().and_then(|v| http::retry_after(v, limits.retry_after_max_s)) {
            tokio::time::sleep(Duration::from_secs(wait)).await;
            result.waited_s = Some(wait);
            answer = http::exchange(client, plan, limits).await;
        }
    }
    read_answer(&mut result, answer, &task.accepts, method);
    result
}

fn read_answer(result: &mut ProbeResult, answer: Answer, accepts: &[Accept], method: &Method<'_>) {
    result.status = answer.status;
    result.failure = answer.failure;
    result.ms_to_first_byte = answer.ms_to_first_byte;
    result.body_cut = answer.body_cut;
    result.outcome = match answer.status {
        None => {
            result.failure.get_or_insert(Failure::Other);
            result.ms_to_first_byte = None;
            Outcome::NoAnswer
        }
        Some(402) => {
            let body = answer.body_complete.then_some(answer.body.as_slice());
            match live::read(answer.payment_required.as_deref(), body) {
                Some(live) => {
                    result.x402_version = Some(live.version);
                    result.terms = live::compare(accepts, &live, method.assets);
                    Outcome::Terms
                }
                None => Outcome::Unreadable,
            }
        }
        Some(_) => Outcome::OtherStatus,
    };
}
