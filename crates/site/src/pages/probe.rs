//! What the probe found for a resource, as its page says it (content/method.md#probe): a
//! dated fact beside what the listing says, never a verdict. One line, then a line per
//! listed payment term the live 402 offered otherwise or not at all.

use method::probe::{Failure, Live, Outcome, Probe, ProbeResult, Summary, Term};

/// The probe's lines on a resource page.
pub(crate) struct ProbeView {
    /// Whether a probe answered for this resource (else the page says it was not probed).
    pub(crate) probed: bool,
    pub(crate) line: String,
    /// The listed terms the live 402 did not offer as listed.
    pub(crate) differences: Vec<String>,
}

/// The probe's lines for `resource`, from the snapshot's probe file if it has one.
pub(crate) fn probe_view(probe: Option<&Probe>, resource: &str) -> ProbeView {
    let Some(probe) = probe else {
        return ProbeView {
            probed: false,
            line: "Not probed: no probe was run on this snapshot.".into(),
            differences: vec![],
        };
    };
    let Some(r) = probe.result(resource) else {
        return ProbeView {
            probed: false,
            line: format!("Not probed: the probe of {} has no result for this resource.", probe.snapshot),
            differences: vec![],
        };
    };
    if !r.asked() {
        return ProbeView {
            probed: false,
            line: format!(
                "Not asked by the probe of {}: its host had let {} requests in a row go unanswered within 10 s, so its \
                 other resources were not asked.",
                probe.snapshot, probe.limits.silent_host_after
            ),
            differences: vec![],
        };
    }
    ProbeView { probed: true, line: format!("Probed {}: {}.", when(&r.at), answered(r)), differences: differences(r) }
}

/// When the snapshot's probe began, as its search form says it ("2026-12-07 06:30 UTC");
/// `None` when it was not probed, and the form offers no `answered_402`.
pub(crate) fn probed(probe: Option<&Probe>) -> Option<String> {
    probe.map(|p| when(&p.started))
}

/// "2026-12-07 06:31 UTC" from an RFC 3339 UTC time.
fn when(at: &str) -> String {
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

fn differences(r: &ProbeResult) -> Vec<String> {
    r.terms.iter().filter(|t| t.live != Live::Same).map(difference).collect()
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

/// The build report's line: the walk's counts, or that there was none.
pub(crate) struct ProbeCounts {
    /// When the walk started, if there was one.
    pub(crate) started: Option<String>,
    pub(crate) summary: Summary,
}

pub(crate) fn probe_counts(probe: Option<&Probe>) -> ProbeCounts {
    ProbeCounts { started: probe.map(|p| p.started.clone()), summary: probe.map(Probe::summary).unwrap_or_default() }
}
