//! The golden query set and the measures that judge every ranking by it (content/explore.md#evaluation).
//!
//! `content/explore/golden/golden.json` pairs queries with the resources people
//! labelled relevant (grade 2 answers the need, 1 partly; RULES.md says how). The
//! measures are NDCG@10 and capped recall@10, averaged per query class; the committed
//! baseline holds the figures a change must not fall below.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::reading::Constraints;
use super::vectors::VectorTable;
use super::{Explore, LIST_DEPTH};
use catalogue::Error;
use method::answer::answer;
use method::index::Index;
use method::names;
use method::query::Filters;
use method::Method;

pub static GOLDEN: &str = include_str!("../../../content/explore/golden/golden.json");
/// The `multilingual` class (explore 3, issue 34), written blind in its own file and
/// judged beside golden.json's classes (RULES.md, "The multilingual class").
pub static MULTILINGUAL: &str = include_str!("../../../content/explore/golden/multilingual.json");
/// The held-out classes (issue 34): written blind after explore 2.10.0 and never tuned
/// on (RULES.md, "The held-out classes").
pub static HELDOUT: &str = include_str!("../../../content/explore/golden/heldout.json");
pub static BASELINE: &str = include_str!("../../../content/explore/golden/baseline.json");
pub const BASELINE_PATH: &str = "content/explore/golden/baseline.json";

/// One file of labelled queries: where it is kept, where it is published (in explore's
/// method page's folder), what the site calls it, and its text.
pub struct GoldenFile {
    pub path: &'static str,
    pub published: &'static str,
    pub title: &'static str,
    pub text: &'static str,
}

/// Every file of the golden set, in the order their queries are judged and listed.
pub static FILES: [GoldenFile; 3] = [
    GoldenFile {
        path: "content/explore/golden/golden.json",
        published: names::GOLDEN_SET_FILE,
        title: "Queries and labels (golden.json)",
        text: GOLDEN,
    },
    GoldenFile {
        path: "content/explore/golden/multilingual.json",
        published: names::GOLDEN_MULTILINGUAL_FILE,
        title: "The multilingual class's queries and labels (multilingual.json)",
        text: MULTILINGUAL,
    },
    GoldenFile {
        path: "content/explore/golden/heldout.json",
        published: names::GOLDEN_HELDOUT_FILE,
        title: "The held-out classes' queries and labels (heldout.json)",
        text: HELDOUT,
    },
];

/// Results judged per query.
pub(crate) const CUTOFF: usize = 10;

/// The rankings measured, in the order they are printed.
pub const RANKINGS: [&str; 6] = ["method", "bm25", "dense", "dense_exact", "fused", "explore"];

#[derive(Debug, Clone, Deserialize)]
pub struct GoldenSet {
    pub snapshot: String,
    pub queries: Vec<GoldenQuery>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(from = "GoldenQueryFile")]
pub struct GoldenQuery {
    pub id: String,
    pub class: String,
    pub query: String,
    /// Resource URL → gain grade: 2 answers the need, 1 partly answers it.
    pub relevant: BTreeMap<String, u8>,
    pub note: String,
    /// The golden file that holds it, for an error to name.
    pub file: String,
}

/// A query as the file states it: lists of resources, not numbers attached to them.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GoldenQueryFile {
    id: String,
    class: String,
    query: String,
    #[serde(default)]
    note: String,
    /// The multilingual and held-out classes record the query's language and kind;
    /// they are read, not used by any measure.
    #[serde(default)]
    #[allow(dead_code)]
    language: Option<String>,
    #[serde(default)]
    #[allow(dead_code)]
    kind: Option<String>,
    /// The held-out `agent` queries restate the constraints their labels apply.
    #[serde(default)]
    #[allow(dead_code)]
    constraints: Option<String>,
    answers: Vec<String>,
    partly_answers: Vec<String>,
}

impl From<GoldenQueryFile> for GoldenQuery {
    fn from(f: GoldenQueryFile) -> GoldenQuery {
        let mut relevant: BTreeMap<String, u8> = f.partly_answers.into_iter().map(|u| (u, 1)).collect();
        relevant.extend(f.answers.into_iter().map(|u| (u, 2)));
        GoldenQuery { id: f.id, class: f.class, query: f.query, relevant, note: f.note, file: String::new() }
    }
}

impl GoldenSet {
    /// Every file's queries, in the order of [`FILES`]: one set, judged together.
    pub fn embedded() -> Result<GoldenSet, Error> {
        let files: Vec<(&str, &str)> = FILES.iter().map(|f| (f.path, f.text)).collect();
        GoldenSet::parse_files(&files)
    }

    /// Several files of queries on one snapshot, in order; ids are unique across them.
    /// An error names the file that holds the fault.
    pub(crate) fn parse_files(files: &[(&str, &str)]) -> Result<GoldenSet, Error> {
        let mut set: Option<GoldenSet> = None;
        let mut ids = std::collections::HashSet::new();
        for (path, text) in files {
            let mut part: GoldenSet =
                serde_json::from_str(text).map_err(|e| Error::content(path, e.line(), &e.to_string()))?;
            for q in &mut part.queries {
                q.file = path.to_string();
                if q.relevant.is_empty() {
                    return Err(Error::content(path, 0, &format!("{}: lists no resource", q.id)));
                }
                if !ids.insert(q.id.clone()) {
                    return Err(Error::content(path, 0, &format!("{}: the id is used twice", q.id)));
                }
            }
            match &mut set {
                None => set = Some(part),
                Some(set) if set.snapshot == part.snapshot => set.queries.extend(part.queries),
                Some(set) => {
                    let why = format!("labelled on snapshot {}, not {}", part.snapshot, set.snapshot);
                    return Err(Error::content(path, 0, &why));
                }
            }
        }
        set.ok_or_else(|| Error::content(FILES[0].path, 0, "no golden file"))
    }

    /// The snapshot the set was labelled on, in `snapshots_dir`: its figures mean nothing
    /// on another snapshot, so there is no falling back to the newest.
    pub fn snapshot_in(&self, snapshots_dir: &Path) -> Result<PathBuf, Error> {
        let path = catalogue::snapshot::path_in(snapshots_dir, &self.snapshot);
        if !path.exists() {
            return Err(Error::SourceUnavailable {
                what: format!("the golden set's snapshot {} is not in {}", self.snapshot, snapshots_dir.display()),
                fix: "run from the repository root, or pass --snapshots-dir with that snapshot".into(),
            });
        }
        Ok(path)
    }
}

/// NDCG@10: gain 2^grade − 1, discount log2(position + 1), over the ideal order of the
/// labelled grades. Unlabelled results gain nothing.
pub(crate) fn ndcg(results: &[&str], relevant: &BTreeMap<String, u8>) -> f64 {
    let gain = |g: u8| f64::from((1u32 << g) - 1);
    let discount = |i: usize| (i as f64 + 2.0).log2();
    let dcg: f64 = results
        .iter()
        .take(CUTOFF)
        .enumerate()
        .map(|(i, r)| relevant.get(*r).map_or(0.0, |&g| gain(g) / discount(i)))
        .sum();
    let mut ideal: Vec<u8> = relevant.values().copied().collect();
    ideal.sort_unstable_by(|a, b| b.cmp(a));
    let idcg: f64 = ideal.iter().take(CUTOFF).enumerate().map(|(i, &g)| gain(g) / discount(i)).sum();
    if idcg == 0.0 {
        0.0
    } else {
        dcg / idcg
    }
}

/// Labelled resources in the first ten over min(10, labelled).
pub(crate) fn recall(results: &[&str], relevant: &BTreeMap<String, u8>) -> f64 {
    let found = results.iter().take(CUTOFF).filter(|r| relevant.contains_key(**r)).count();
    found as f64 / relevant.len().min(CUTOFF) as f64
}

/// Mean NDCG@10 and recall@10 of one ranking over one class of queries, in thousandths
/// (rounded), so they compare exactly against the baseline. Measures of a ranking, not
/// the method's figures of a resource (`method::figures`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Measures {
    pub ndcg10: u32,
    pub recall10: u32,
    pub queries: usize,
}

/// Per ranking, per class ("all" included).
pub(crate) type Table = BTreeMap<String, BTreeMap<String, Measures>>;

#[derive(Debug, Clone, Serialize)]
pub struct Evaluation {
    pub(crate) snapshot: String,
    pub explore_version: &'static str,
    pub(crate) method_version: &'static str,
    pub queries: usize,
    pub classes: Vec<String>,
    pub table: Table,
    /// Of the dense lists' first ten through the inverted file, how many are in the
    /// exact search's first ten, in thousandths.
    pub ivf_overlap10: u32,
    pub per_query: Vec<QueryResult>,
}

#[derive(Debug, Clone, Serialize)]
pub struct QueryResult {
    pub id: String,
    pub class: String,
    pub query: String,
    pub ndcg10: BTreeMap<&'static str, u32>,
}

fn thousandths(x: f64) -> u32 {
    (x * 1000.0).round() as u32
}

/// Runs every golden query through every ranking over `index`.
pub fn evaluate(set: &GoldenSet, index: &Index, method: &Method, table: &VectorTable) -> Result<Evaluation, Error> {
    evaluate_with(set, index, method, table, &Explore::build(index, table))
}

/// As [`evaluate`], with the explore index already built (the site build has one).
pub fn evaluate_with(
    set: &GoldenSet,
    index: &Index,
    method: &Method,
    table: &VectorTable,
    explore: &Explore,
) -> Result<Evaluation, Error> {
    if set.snapshot != index.header.date {
        return Err(Error::Refused(format!(
            "the golden set is labelled on snapshot {}, not {}",
            set.snapshot, index.header.date
        )));
    }
    let position: HashMap<&str, usize> =
        index.entries.iter().enumerate().map(|(i, e)| (e.resource.url.as_str(), i)).collect();
    for q in &set.queries {
        if let Some(url) = q.relevant.keys().find(|u| !position.contains_key(u.as_str())) {
            let why = format!("{}: {url} is not in the ranked index", q.id);
            return Err(Error::content(&q.file, 0, &why));
        }
    }
    let url = |id: u32| index.entries[id as usize].resource.url.as_str();
    let limit = Filters { limit: CUTOFF, ..Filters::default() };
    let mut sums: BTreeMap<(&str, String), (f64, f64, usize)> = BTreeMap::new();
    let mut per_query = Vec::new();
    let mut overlap = 0usize;
    let mut overlap_of = 0usize;
    for q in &set.queries {
        let r = explore.retrieve(index, &q.query, table);
        // The reference: the same query vector compared with every document.
        let exact: Vec<u32> = explore
            .dense
            .embed_query(&r.ranked, table)
            .0
            .map(|v| {
                let filters = r.reading.constraints.filters();
                let allowed = |id: u32| Constraints::allow(&filters, &index.entries[id as usize]);
                explore.dense.search_where(&v, LIST_DEPTH, true, allowed).ids
            })
            .unwrap_or_default();
        let method_answer = answer(index, method, &q.query, &limit);
        let lists: [(&'static str, Vec<&str>); 6] = [
            ("method", method_answer.data.iter().map(|row| row.listing.resource).collect()),
            ("bm25", r.bm25.iter().map(|&i| url(i)).collect()),
            ("dense", r.dense.iter().map(|&i| url(i)).collect()),
            ("dense_exact", exact.iter().map(|&i| url(i)).collect()),
            ("fused", {
                let mut by_fused = r.fused.clone();
                by_fused.sort_by_key(|f| f.ranks.fused);
                by_fused.iter().map(|f| url(f.id)).collect()
            }),
            ("explore", r.fused.iter().map(|f| url(f.id)).collect()),
        ];
        let top_exact = &exact[..exact.len().min(CUTOFF)];
        overlap += r.dense.iter().take(CUTOFF).filter(|i| top_exact.contains(i)).count();
        overlap_of += top_exact.len();
        let mut scores = BTreeMap::new();
        for (name, list) in &lists {
            let (n, rc) = (ndcg(list, &q.relevant), recall(list, &q.relevant));
            scores.insert(*name, thousandths(n));
            for class in [q.class.clone(), "all".to_owned()] {
                let s = sums.entry((*name, class)).or_default();
                s.0 += n;
                s.1 += rc;
                s.2 += 1;
            }
        }
        per_query.push(QueryResult {
            id: q.id.clone(),
            class: q.class.clone(),
            query: q.query.clone(),
            ndcg10: scores,
        });
    }
    let mut table_out: Table = BTreeMap::new();
    for ((name, class), (n, rc, count)) in sums {
        table_out.entry(name.to_owned()).or_default().insert(
            class,
            Measures {
                ndcg10: thousandths(n / count as f64),
                recall10: thousandths(rc / count as f64),
                queries: count,
            },
        );
    }
    let mut classes: Vec<String> = set.queries.iter().map(|q| q.class.clone()).collect();
    classes.sort();
    classes.dedup();
    classes.push("all".to_owned());
    Ok(Evaluation {
        snapshot: set.snapshot.clone(),
        explore_version: super::EXPLORE_VERSION,
        method_version: method::DISCOVERY_METHOD_VERSION,
        queries: set.queries.len(),
        classes,
        table: table_out,
        ivf_overlap10: (overlap * 1000).checked_div(overlap_of).map_or(1000, |t| t as u32),
        per_query,
    })
}

/// The baseline: per ranking and class, the figures a change must not fall below.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Baseline {
    pub(crate) note: String,
    pub(crate) explore_version: String,
    pub table: Table,
}

impl Baseline {
    pub fn embedded() -> Result<Baseline, Error> {
        serde_json::from_str(BASELINE).map_err(|e| Error::content(BASELINE_PATH, e.line(), &e.to_string()))
    }

    pub fn of(evaluation: &Evaluation) -> Baseline {
        Baseline {
            note: "Figures in thousandths (545 is 0.545). Written by `x402dir eval --write-baseline`; \
                   CI fails when a figure falls below it."
                .to_owned(),
            explore_version: evaluation.explore_version.to_owned(),
            table: evaluation.table.clone(),
        }
    }

    /// A baseline file, such as the committed [`BASELINE_PATH`].
    pub fn read(path: &Path) -> Result<Baseline, Error> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        serde_json::from_str(&text).map_err(|e| Error::input(path, e.to_string()))
    }

    /// Writes the baseline as pretty JSON with a final newline, as committed.
    pub fn write(&self, path: &Path) -> Result<(), Error> {
        let text = serde_json::to_string_pretty(self).expect("serialises") + "\n";
        std::fs::write(path, text).map_err(|e| Error::io(path, e))
    }

    /// Refuses, naming every figure, when any fell below this baseline (read from
    /// `path`, which the message names).
    pub fn check(&self, evaluation: &Evaluation, path: &Path) -> Result<(), Error> {
        let regressions = self.regressions(evaluation);
        if regressions.is_empty() {
            return Ok(());
        }
        Err(Error::Refused(format!(
            "{} figure(s) fell below the baseline in {}:\n  {}",
            regressions.len(),
            path.display(),
            regressions.join("\n  ")
        )))
    }

    /// Every figure that fell below the baseline, in words; empty when none did.
    pub fn regressions(&self, evaluation: &Evaluation) -> Vec<String> {
        let mut out = Vec::new();
        for (ranking, classes) in &self.table {
            for (class, base) in classes {
                let Some(now) = evaluation.table.get(ranking).and_then(|c| c.get(class)) else {
                    out.push(format!("{ranking}/{class}: in the baseline but not measured"));
                    continue;
                };
                for (what, was, is) in
                    [("NDCG@10", base.ndcg10, now.ndcg10), ("recall@10", base.recall10, now.recall10)]
                {
                    if is < was {
                        out.push(format!("{ranking}/{class}: {what} {} < baseline {}", fixed(is), fixed(was)));
                    }
                }
            }
        }
        out
    }
}

/// Thousandths as `0.123`.
pub fn fixed(t: u32) -> String {
    format!("{}.{:03}", t / 1000, t % 1000)
}

/// The table as text: one row per ranking, NDCG@10 and recall@10 per class.
pub fn render(evaluation: &Evaluation) -> String {
    let mut out = format!(
        "golden set: {} queries on snapshot {} · explore {} · method {}\n",
        evaluation.queries, evaluation.snapshot, evaluation.explore_version, evaluation.method_version
    );
    out.push_str(&format!("{:<12}", "ranking"));
    for class in &evaluation.classes {
        let count = evaluation.table.values().next().and_then(|c| c.get(class)).map_or(0, |f| f.queries);
        out.push_str(&format!(" {:>19}", format!("{class} ({count})")));
    }
    out.push('\n');
    out.push_str(&format!("{:<12}", ""));
    for _ in &evaluation.classes {
        out.push_str(&format!(" {:>19}", "NDCG@10  recall@10"));
    }
    out.push('\n');
    for ranking in RANKINGS {
        let Some(classes) = evaluation.table.get(ranking) else { continue };
        out.push_str(&format!("{ranking:<12}"));
        for class in &evaluation.classes {
            let f = classes[class];
            out.push_str(&format!(" {:>19}", format!("{}    {}", fixed(f.ndcg10), fixed(f.recall10))));
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "dense through the inverted file keeps {} of the exact search's first ten\n",
        fixed(evaluation.ivf_overlap10)
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, u8)]) -> BTreeMap<String, u8> {
        pairs.iter().map(|(u, g)| (u.to_string(), *g)).collect()
    }

    #[test]
    fn ndcg_by_hand() {
        let rel = labels(&[("a", 2), ("b", 1)]);
        assert_eq!(ndcg(&["a", "b"], &rel), 1.0);
        assert_eq!(ndcg(&[], &rel), 0.0);
        // b then a: (1/log2 2 + 3/log2 3) / (3/log2 2 + 1/log2 3)
        let expected = (1.0 + 3.0 / 3f64.log2()) / (3.0 + 1.0 / 3f64.log2());
        assert!((ndcg(&["b", "a"], &rel) - expected).abs() < 1e-12);
        // An unlabelled first result pushes both down one place.
        let pushed = (3.0 / 3f64.log2() + 1.0 / 2.0) / (3.0 + 1.0 / 3f64.log2());
        assert!((ndcg(&["x", "a", "b"], &rel) - pushed).abs() < 1e-12);
    }

    #[test]
    fn a_fault_in_a_golden_file_names_that_file() {
        let query = |id: &str, answers: &str| {
            format!(r#"{{"id": "{id}", "class": "c", "query": "q", "answers": [{answers}], "partly_answers": []}}"#)
        };
        let file = |queries: &[String]| format!(r#"{{"snapshot": "2025-12-31", "queries": [{}]}}"#, queries.join(","));
        let first = file(&[query("a1", r#""https://a.example/""#)]);
        let twice = file(&[query("a1", r#""https://b.example/""#)]);
        let empty = file(&[query("b1", "")]);
        let set = GoldenSet::parse_files(&[("one.json", &first), ("two.json", &file(&[query("b1", r#""u""#)]))]);
        assert_eq!(set.unwrap().queries.len(), 2);
        for (second, why) in [(&twice, "a1: the id is used twice"), (&empty, "b1: lists no resource")] {
            let err = GoldenSet::parse_files(&[("one.json", &first), ("two.json", second)]).unwrap_err().to_string();
            assert!(err.contains("two.json") && err.contains(why), "{err}");
        }
    }

    #[test]
    fn recall_is_capped_at_ten() {
        let many: Vec<(String, u8)> = (0..40).map(|i| (format!("r{i}"), 1)).collect();
        let rel: BTreeMap<String, u8> = many.into_iter().collect();
        let first_ten: Vec<String> = (0..10).map(|i| format!("r{i}")).collect();
        let refs: Vec<&str> = first_ten.iter().map(String::as_str).collect();
        assert_eq!(recall(&refs, &rel), 1.0);
        assert_eq!(recall(&refs[..5], &rel), 0.5);
        assert_eq!(recall(&["a"], &labels(&[("a", 2), ("b", 1)])), 0.5);
    }
}
