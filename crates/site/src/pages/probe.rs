//! What the probe found for a resource, as its page says it (content/method.md#probe): a
//! dated fact beside what the listing says, never a verdict. One line, then a line per
//! listed payment term the live 402 offered otherwise or not at all.

use method::probe::{when, Probe, Summary};

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
    ProbeView { probed: true, line: r.in_words(), differences: r.differences_in_words() }
}

/// When the snapshot's probe began, as its search form says it ("2026-12-07 06:30 UTC");
/// `None` when it was not probed, and the form offers no `answered_402`.
pub(crate) fn probed(probe: Option<&Probe>) -> Option<String> {
    probe.map(|p| when(&p.started))
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
