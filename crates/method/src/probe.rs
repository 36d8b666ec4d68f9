//! The probe file (`content/probes/DATE.json`, content/method.md#probe): what one walk of
//! unpaid requests answered, one result per ranked resource, sorted by resource URL.
//! Facts with their time, never verdicts: a result says what came back, and for each of
//! the listing's payment terms whether the live 402 offered the same, something else
//! (the live value given), or nothing.
//!
//! [`Probe::read`] and [`Probe::from_slice`] check a file against the rules below and
//! say what is wrong, with the result's position and URL.

use std::fmt;
use std::path::{Path, PathBuf};

use catalogue::Error;

use serde::{Deserialize, Serialize};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

/// The probe file's version: major for a removed or retyped field or a changed rule,
/// minor for a changed outcome of the same answer, patch for an added field.
pub const PROBE_VERSION: &str = "1.0.0";

/// The largest probe file [`Probe::read`] accepts: a result is well under 2 KB, and a
/// snapshot holds at most a million listings.
pub const MAX_FILE_BYTES: u64 = 2 << 30;

/// One walk: the snapshot it probed, when it ran, how it named itself and the caps it
/// kept, and one result per ranked resource.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Probe {
    pub probe_version: String,
    /// The probed snapshot's date, YYYY-MM-DD.
    pub snapshot: String,
    /// RFC 3339, UTC, whole seconds: when the first request was made and the last ended.
    pub started: String,
    pub finished: String,
    /// The User-Agent every request sent.
    pub user_agent: String,
    pub limits: Limits,
    /// Sorted by `resource`, one each.
    pub results: Vec<ProbeResult>,
}

/// The caps a walk keeps (content/method.md#probe).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Limits {
    /// Open connections to one host (scheme, host and port) at once.
    pub connections_per_host: u32,
    /// Open connections in all at once.
    pub connections: u32,
    /// One exchange, redirects within the host included: connect, answer and body.
    pub timeout_ms: u64,
    /// Bytes of a body read; the rest is not read (`body_cut`).
    pub body_bytes: u64,
    /// The most bytes and lines of an answer's status line and headers; past either,
    /// the answer is not read (`failure: "other"`).
    pub header_bytes: u64,
    pub headers: u32,
    /// Redirects followed, each within the same scheme, host and port.
    pub redirects: u32,
    /// The longest Retry-After of a 429 that is waited for, once.
    pub retry_after_max_s: u64,
    /// A host whose answers to this many requests in a row never came (`timeout`) is not
    /// asked again in the walk: its other resources are recorded `host_silent`, so one
    /// silent host holding hundreds of listings cannot hold the walk for an hour.
    pub silent_host_after: u32,
}

impl Limits {
    /// The published caps.
    pub const DEFAULT: Limits = Limits {
        connections_per_host: 2,
        connections: 32,
        timeout_ms: 10_000,
        body_bytes: 64 << 10,
        // hyper's HTTP/1 client: its read buffer (8 KB + 100 × 4 KB) and header count.
        header_bytes: 8192 + 4096 * 100,
        headers: 100,
        redirects: 3,
        retry_after_max_s: 60,
        silent_host_after: 3,
    };
}

impl Default for Limits {
    fn default() -> Self {
        Limits::DEFAULT
    }
}

/// What one resource answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProbeResult {
    /// The listing's URL, as the snapshot gives it (the key; the request's URL is the
    /// one its page shows, with parameters filled in).
    pub resource: String,
    /// RFC 3339, UTC, whole seconds: when the request was sent.
    pub at: String,
    pub outcome: Outcome,
    /// The last answer's status, when one came (after redirects within the host).
    pub status: Option<u16>,
    /// What went wrong, when something did: always with `no_answer`; with a status when
    /// the answer came but its body did not (`timeout`, `reset`), or when it was a
    /// redirect not followed (`redirect_elsewhere`, `too_many_redirects`).
    pub failure: Option<Failure>,
    /// From sending the first request to receiving the last answer's status line and
    /// headers, in milliseconds (a 429 wait left out).
    pub ms_to_first_byte: Option<u64>,
    /// The x402 version of the payment requirements read: 1 (JSON body) or 2
    /// (`PAYMENT-REQUIRED` header).
    pub x402_version: Option<u8>,
    /// The body was longer than `limits.body_bytes` and only that much was read.
    #[serde(default)]
    pub body_cut: bool,
    /// Seconds waited on a 429's Retry-After before the one second request.
    #[serde(default)]
    pub waited_s: Option<u64>,
    /// Each of the listing's payment terms, in the listing's order, beside the live 402's;
    /// empty unless `outcome` is `402_terms`.
    pub terms: Vec<Term>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Outcome {
    /// A 402 whose payment requirements were read as the official SDKs read them.
    #[serde(rename = "402_terms")]
    Terms,
    /// A 402 without readable payment requirements.
    #[serde(rename = "402_unreadable")]
    Unreadable,
    /// Any other status (200 without payment included).
    #[serde(rename = "other_status")]
    OtherStatus,
    /// No answer: `failure` says why.
    #[serde(rename = "no_answer")]
    NoAnswer,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// The exchange took longer than `limits.timeout_ms`.
    Timeout,
    /// The connection was refused.
    Refused,
    /// The host name did not resolve.
    Dns,
    /// The TLS handshake failed.
    Tls,
    /// The connection was reset or closed before the answer or its body ended.
    Reset,
    /// A redirect to another scheme, host or port: not followed.
    RedirectElsewhere,
    /// More than `limits.redirects` redirects.
    TooManyRedirects,
    /// Not asked: its host had let `limits.silent_host_after` requests in a row time out.
    HostSilent,
    /// Anything else: a malformed answer, headers past the caps, a URL that cannot be
    /// requested.
    Other,
}

/// One of the listing's payment terms beside the live 402's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Term {
    pub scheme: Option<String>,
    pub network: Option<String>,
    pub asset: Option<String>,
    /// Atomic units, as a decimal string.
    pub amount: Option<String>,
    pub pay_to: Option<String>,
    pub live: Live,
    /// The live entry's amount and payTo, when `live` is `other`.
    pub offered: Option<Offered>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Live {
    /// A live entry with the same scheme, network and asset asks the same amount to be
    /// paid to the same address.
    Same,
    /// A live entry with the same scheme, network and asset asks another amount or
    /// another address (`offered`).
    Other,
    /// No live entry has the same scheme, network and asset.
    Absent,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offered {
    /// As the live 402 gives it (v1 `maxAmountRequired`, v2 `amount`).
    pub amount: Option<String>,
    pub pay_to: Option<String>,
}

/// A resource's result as its answer row and record publish it (content/method.md#probe):
/// what came back, and only those listed terms the live 402 did not offer as listed
/// (all of them are in the probe file).
#[derive(Debug, Clone, Copy)]
pub struct Seen<'a>(pub &'a ProbeResult);

impl Serialize for Seen<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let r = self.0;
        let otherwise: Vec<&Term> = r.terms_otherwise().collect();
        let mut s = serializer.serialize_struct("Seen", 8)?;
        s.serialize_field("at", &r.at)?;
        s.serialize_field("outcome", &r.outcome)?;
        s.serialize_field("status", &r.status)?;
        s.serialize_field("failure", &r.failure)?;
        s.serialize_field("ms_to_first_byte", &r.ms_to_first_byte)?;
        s.serialize_field("x402_version", &r.x402_version)?;
        s.serialize_field("terms_as_listed", &r.terms_as_listed())?;
        s.serialize_field("terms_otherwise", &otherwise)?;
        s.end()
    }
}

/// A walk's counts, as the build report states them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub probed: usize,
    /// Answered 402 and every listed term was offered as listed.
    pub listed_terms: usize,
    /// Answered 402 with readable requirements, and some listed term was offered
    /// otherwise or not at all.
    pub other_terms: usize,
    pub unreadable_402: usize,
    pub other_status: usize,
    pub no_answer: usize,
}

impl ProbeResult {
    /// What came back, in the words every surface says it (a resource page, the command
    /// line): "Probed 2026-12-07 06:31 UTC: answered 402 in 230 ms; terms as listed."
    pub fn in_words(&self) -> String {
        format!("Probed {}: {}.", when(&self.at), answered(self))
    }

    /// Each listed term the live 402 offered otherwise or not at all, in words, with both
    /// amounts and addresses.
    pub fn differences_in_words(&self) -> Vec<String> {
        self.terms_otherwise().map(difference).collect()
    }

    /// The listed terms the live 402 offered otherwise or not at all.
    pub fn terms_otherwise(&self) -> impl Iterator<Item = &Term> {
        self.terms.iter().filter(|t| t.live != Live::Same)
    }

    /// Whether a readable 402 offered every listed term as listed.
    pub fn terms_as_listed(&self) -> bool {
        self.outcome == Outcome::Terms && self.terms.iter().all(|t| t.live == Live::Same)
    }

    /// Whether a request was sent: not for the resources of a host found silent.
    pub fn asked(&self) -> bool {
        self.failure != Some(Failure::HostSilent)
    }

    /// Whether the request was answered with a 402, its terms readable or not.
    pub fn answered_402(&self) -> bool {
        matches!(self.outcome, Outcome::Terms | Outcome::Unreadable)
    }
}

impl Probe {
    pub fn summary(&self) -> Summary {
        let mut s = Summary { probed: self.results.len(), ..Summary::default() };
        for r in &self.results {
            match r.outcome {
                Outcome::Terms if r.terms_as_listed() => s.listed_terms += 1,
                Outcome::Terms => s.other_terms += 1,
                Outcome::Unreadable => s.unreadable_402 += 1,
                Outcome::OtherStatus => s.other_status += 1,
                Outcome::NoAnswer => s.no_answer += 1,
            }
        }
        s
    }

    /// The result for a resource URL.
    pub fn result(&self, resource: &str) -> Option<&ProbeResult> {
        self.results.binary_search_by(|r| r.resource.as_str().cmp(resource)).ok().map(|i| &self.results[i])
    }

    /// Reads and checks the probe file at `path`.
    pub fn read(path: &Path) -> Result<Probe, ReadError> {
        let at = |message: String| ReadError { path: Some(path.display().to_string()), message };
        let size = std::fs::metadata(path).map_err(|e| at(e.to_string()))?.len();
        if size > MAX_FILE_BYTES {
            return Err(at(format!("{size} bytes, above the {MAX_FILE_BYTES} a probe file may hold")));
        }
        let bytes = std::fs::read(path).map_err(|e| at(e.to_string()))?;
        Probe::from_slice(&bytes).map_err(|e| at(e.message))
    }

    /// Parses and checks a probe file's bytes.
    pub fn from_slice(bytes: &[u8]) -> Result<Probe, ReadError> {
        let probe: Probe =
            serde_json::from_slice(bytes).map_err(|e| ReadError::new(format!("not a probe file: {e}")))?;
        probe.check()?;
        Ok(probe)
    }

    /// The file's text: pretty JSON, one key a line, ending in a newline.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = serde_json::to_vec_pretty(self).expect("a probe serialises");
        out.push(b'\n');
        out
    }

    /// Checks the rules a reader relies on; the first broken one is the error.
    pub fn check(&self) -> Result<(), ReadError> {
        let major = self.probe_version.split('.').next();
        let ours = PROBE_VERSION.split('.').next();
        if self.probe_version.split('.').count() != 3 || major != ours {
            return Err(ReadError::new(format!(
                "probe_version {:?}: this reader reads {PROBE_VERSION} and its patches and minors",
                self.probe_version
            )));
        }
        catalogue::snapshot::parse_date(&self.snapshot).map_err(|e| ReadError::new(format!("snapshot: {e}")))?;
        let started = utc("started", &self.started)?;
        let finished = utc("finished", &self.finished)?;
        if finished < started {
            return Err(ReadError::new(format!("finished {} is before started {}", self.finished, self.started)));
        }
        if self.user_agent.trim().is_empty() {
            return Err(ReadError::new("user_agent is empty".to_owned()));
        }
        for (i, r) in self.results.iter().enumerate() {
            let bad = |why: String| ReadError::new(format!("results[{i}] ({}): {why}", r.resource));
            if i > 0 && self.results[i - 1].resource >= r.resource {
                return Err(bad(format!(
                    "not after results[{}] ({}): results are sorted by resource, one each",
                    i - 1,
                    self.results[i - 1].resource
                )));
            }
            utc("at", &r.at).map_err(|e| bad(e.message))?;
            match (r.outcome, r.status) {
                (Outcome::Terms | Outcome::Unreadable, Some(402)) => {}
                (Outcome::Terms | Outcome::Unreadable, s) => {
                    return Err(bad(format!("a 402 outcome with status {s:?}")))
                }
                (Outcome::OtherStatus, Some(s)) if s != 402 && (100..=999).contains(&s) => {}
                (Outcome::OtherStatus, s) => return Err(bad(format!("other_status with status {s:?}"))),
                (Outcome::NoAnswer, None) if r.failure.is_some() => {}
                (Outcome::NoAnswer, s) => {
                    return Err(bad(format!(
                        "no_answer needs a failure and no status (status {s:?}, failure {:?})",
                        r.failure
                    )))
                }
            }
            if r.outcome == Outcome::NoAnswer && r.ms_to_first_byte.is_some() {
                return Err(bad("no_answer with a time to first byte".to_owned()));
            }
            match (r.outcome, r.x402_version) {
                (Outcome::Terms, Some(1 | 2))
                | (Outcome::Unreadable | Outcome::OtherStatus | Outcome::NoAnswer, None) => {}
                (o, v) => return Err(bad(format!("x402_version {v:?} with outcome {o:?}: 1 or 2 for 402_terms only"))),
            }
            if r.outcome != Outcome::Terms && !r.terms.is_empty() {
                return Err(bad("terms are given only with 402_terms".to_owned()));
            }
            if let Some(s) = r.waited_s.filter(|s| *s > self.limits.retry_after_max_s) {
                return Err(bad(format!("waited {s} s, above retry_after_max_s")));
            }
            for (j, t) in r.terms.iter().enumerate() {
                if (t.live == Live::Other) != t.offered.is_some() {
                    return Err(bad(format!("terms[{j}]: `offered` is given exactly when live is \"other\"")));
                }
                if let Some(a) = t.amount.as_deref().filter(|a| a.is_empty() || !a.bytes().all(|b| b.is_ascii_digit()))
                {
                    return Err(bad(format!("terms[{j}]: amount {a:?} is not a whole number of atomic units")));
                }
            }
        }
        Ok(())
    }
}

/// A UTC time written in RFC 3339.
fn utc(field: &str, text: &str) -> Result<OffsetDateTime, ReadError> {
    let t = OffsetDateTime::parse(text, &Rfc3339)
        .map_err(|e| ReadError::new(format!("{field} {text:?} is not an RFC 3339 time: {e}")))?;
    if !t.offset().is_utc() {
        return Err(ReadError::new(format!("{field} {text:?} is not in UTC")));
    }
    Ok(t)
}

/// Why a probe file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadError {
    pub path: Option<String>,
    pub message: String,
}

impl ReadError {
    fn new(message: String) -> ReadError {
        ReadError { path: None, message }
    }
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.path {
            Some(p) => write!(f, "probe file {p}: {}", self.message),
            None => write!(f, "probe file: {}", self.message),
        }
    }
}

impl std::error::Error for ReadError {}

// Where a snapshot's probe file is kept: `probes/DATE.json` beside the snapshots' folder
// (content/probes/ for content/snapshots/), so a snapshot and its probe travel together.
/// The folder of probe files, beside the snapshots' folder.
pub const PROBES_DIR: &str = "probes";

/// The probe file of the snapshot of `date` stored at `snapshot` (`…/snapshots/DATE.json`
/// or `.json.gz` gives `…/probes/DATE.json`).
pub fn beside(snapshot: &Path, date: &str) -> PathBuf {
    let folder = snapshot.parent().unwrap_or(Path::new("."));
    let root = folder.parent().unwrap_or(Path::new("."));
    root.join(PROBES_DIR).join(format!("{date}.json"))
}

/// The probe file beside the snapshot stored at `snapshot`, when there is one: read,
/// checked, and of the snapshot's `date`. A damaged one, or one of another date, is an
/// error naming the file.
pub fn read_beside(snapshot: &Path, date: &str) -> Result<Option<Probe>, Error> {
    let path = beside(snapshot, date);
    match std::fs::symlink_metadata(&path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::io(&path, e)),
        Ok(meta) if !meta.is_file() => return Err(Error::input(&path, "not a regular file: a probe file is a file")),
        Ok(_) => {}
    }
    let probe = Probe::read(&path).map_err(|e| Error::input(&path, e.message))?;
    if probe.snapshot != date {
        return Err(Error::input(&path, format!("probes the snapshot of {}, not {date}", probe.snapshot)));
    }
    Ok(Some(probe))
}

// What a probe result says, in words (content/method.md#probe).

/// "2026-12-07 06:31 UTC" from an RFC 3339 UTC time.
pub fn when(at: &str) -> String {
    match (at.get(..10), at.get(11..16)) {
        (Some(day), Some(time)) => format!("{day} {time} UTC"),
        _ => at.to_owned(),
    }
}

fn in_ms(r: &ProbeResult) -> String {
    r.ms_to_first_byte.map(|ms| format!(" in {ms} ms")).unwrap_or_default()
}

fn answered(r: &ProbeResult) -> String {
    let ms = in_ms(r);
    match r.outcome {
        Outcome::Terms if r.terms_as_listed() => format!("answered 402{ms}; terms as listed"),
        Outcome::Terms => format!("answered 402{ms}; its terms differ from the listing's"),
        Outcome::Unreadable => format!("answered 402{ms}, without payment terms an x402 client can read"),
        Outcome::OtherStatus => {
            let status = r.status.map(|s| s.to_string()).unwrap_or_default();
            format!(
                "answered HTTP {status}{ms}, not 402{}",
                r.failure.map(|f| format!(" ({})", failure(f))).unwrap_or_default()
            )
        }
        Outcome::NoAnswer => format!("no answer ({})", r.failure.map(failure).unwrap_or("unknown")),
    }
}

fn failure(f: Failure) -> &'static str {
    match f {
        Failure::Timeout => "nothing more within the probe's 10 s",
        Failure::Refused => "connection refused",
        Failure::Dns => "the host name did not resolve",
        Failure::Tls => "the TLS handshake failed",
        Failure::Reset => "the connection was reset",
        Failure::RedirectElsewhere => "redirected to another host, not followed",
        Failure::TooManyRedirects => "more redirects than the probe follows",
        Failure::HostSilent => "not asked",
        Failure::Other => "an answer the probe could not read",
    }
}

fn difference(t: &Term) -> String {
    let or_unknown = |v: &Option<String>| v.clone().unwrap_or_else(|| "(not given)".into());
    let what = format!("{} on {}, asset {}", or_unknown(&t.scheme), or_unknown(&t.network), or_unknown(&t.asset));
    let listed = format!("{} atomic units to {}", or_unknown(&t.amount), or_unknown(&t.pay_to));
    match (&t.live, &t.offered) {
        (Live::Other, Some(o)) => format!(
            "{what}: the live 402 asks {} atomic units to {}; the listing says {listed}",
            or_unknown(&o.amount),
            or_unknown(&o.pay_to)
        ),
        _ => format!("{what}: the live 402 offers no such payment; the listing says {listed}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_file_sits_beside_the_snapshots_folder() {
        let at = |path: &str| beside(Path::new(path), "2026-12-07");
        assert_eq!(at("content/snapshots/2026-12-07.json"), Path::new("content/probes/2026-12-07.json"));
        assert_eq!(at("content/snapshots/2026-12-07.json.gz"), Path::new("content/probes/2026-12-07.json"));
        assert_eq!(at("/tmp/x/s/2026-12-07.json"), Path::new("/tmp/x/probes/2026-12-07.json"));
    }

    fn result(resource: &str, outcome: Outcome, status: Option<u16>, terms: Vec<Term>) -> ProbeResult {
        ProbeResult {
            resource: resource.into(),
            at: "2026-12-07T06:31:00Z".into(),
            outcome,
            status,
            failure: (outcome == Outcome::NoAnswer).then_some(Failure::Timeout),
            ms_to_first_byte: (outcome != Outcome::NoAnswer).then_some(230),
            x402_version: (outcome == Outcome::Terms).then_some(2),
            body_cut: false,
            waited_s: None,
            terms,
        }
    }

    fn term(live: Live) -> Term {
        Term {
            scheme: Some("exact".into()),
            network: Some("eip155:8453".into()),
            asset: Some("0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913".into()),
            amount: Some("10000".into()),
            pay_to: Some("0xdef".into()),
            live,
            offered: (live == Live::Other)
                .then(|| Offered { amount: Some("10000".into()), pay_to: Some("0xabc".into()) }),
        }
    }

    fn probe(results: Vec<ProbeResult>) -> Probe {
        Probe {
            probe_version: PROBE_VERSION.into(),
            snapshot: "2026-12-07".into(),
            started: "2026-12-07T06:30:00Z".into(),
            finished: "2026-12-07T06:40:00Z".into(),
            user_agent: "x402dir-probe/0.1.0 (+https://x402dir.netlify.app)".into(),
            limits: Limits::DEFAULT,
            results,
        }
    }

    #[test]
    fn a_probe_round_trips_and_counts_its_outcomes() {
        let p = probe(vec![
            result("https://a.example/1", Outcome::Terms, Some(402), vec![term(Live::Same)]),
            result("https://a.example/2", Outcome::Terms, Some(402), vec![term(Live::Same), term(Live::Other)]),
            result("https://a.example/3", Outcome::Unreadable, Some(402), vec![]),
            result("https://a.example/4", Outcome::OtherStatus, Some(200), vec![]),
            result("https://a.example/5", Outcome::NoAnswer, None, vec![]),
            result("https://a.example/6", Outcome::Terms, Some(402), vec![term(Live::Absent)]),
        ]);
        let back = Probe::from_slice(&p.to_bytes()).unwrap();
        assert_eq!(back, p);
        let s = p.summary();
        assert_eq!(
            (s.probed, s.listed_terms, s.other_terms, s.unreadable_402, s.other_status, s.no_answer),
            (6, 1, 2, 1, 1, 1)
        );
        assert_eq!(p.result("https://a.example/4").unwrap().status, Some(200));
        let text = String::from_utf8(p.to_bytes()).unwrap();
        assert!(text.contains(r#""outcome": "402_terms""#) && text.contains(r#""live": "other""#), "{text}");
    }

    #[test]
    fn the_reader_names_what_is_wrong() {
        let unsorted = probe(vec![
            result("https://b.example/", Outcome::OtherStatus, Some(200), vec![]),
            result("https://a.example/", Outcome::OtherStatus, Some(200), vec![]),
        ]);
        let e = Probe::from_slice(&unsorted.to_bytes()).unwrap_err();
        assert!(e.message.contains("results[1] (https://a.example/)") && e.message.contains("sorted"), "{e}");

        let mut wrong_status = probe(vec![result("https://a.example/", Outcome::Terms, Some(200), vec![])]);
        let e = Probe::from_slice(&wrong_status.to_bytes()).unwrap_err();
        assert!(e.message.contains("a 402 outcome with status Some(200)"), "{e}");
        wrong_status.results[0].status = Some(402);
        wrong_status.results[0].terms = vec![Term { offered: None, ..term(Live::Other) }];
        let e = Probe::from_slice(&wrong_status.to_bytes()).unwrap_err();
        assert!(e.message.contains("offered"), "{e}");

        let mut future = probe(vec![]);
        future.probe_version = "2.0.0".into();
        assert!(Probe::from_slice(&future.to_bytes()).unwrap_err().message.contains("probe_version"));
        let mut bad_time = probe(vec![]);
        bad_time.started = "2026-12-07T07:30:00+01:00".into();
        assert!(Probe::from_slice(&bad_time.to_bytes()).unwrap_err().message.contains("not in UTC"));

        let e = Probe::from_slice(br#"{"probe_version":"1.0.0"}"#).unwrap_err();
        assert!(e.message.starts_with("not a probe file: missing field"), "{e}");
        let e = Probe::from_slice(
            &String::from_utf8(probe(vec![]).to_bytes()).unwrap().replace("\"results\": []", "\"results\": [{\"resource\": \"x\", \"at\": \"2026-12-07T06:31:00Z\", \"outcome\": \"maybe\", \"status\": null, \"failure\": null, \"ms_to_first_byte\": null, \"x402_version\": null, \"terms\": []}]").into_bytes(),
        )
        .unwrap_err();
        assert!(e.message.contains("unknown variant `maybe`"), "{e}");
    }
}
