//! The golden set's evaluation page, in the folder of the snapshot it was labelled on:
//! every ranking judged on the same hand-labelled queries (content/explore.md#evaluation).

use askama::Template;

use super::Chrome;
use explore::eval::{self, fixed, Evaluation, RANKINGS};
use explore::EXPLORE_VERSION;
use method::names;

/// The golden set's figures on this snapshot, and the inverted file they were taken
/// through (the explore index itself is let go before the pages are written).
pub(crate) struct Measured {
    pub(crate) evaluation: Evaluation,
    pub(crate) nprobe: usize,
    pub(crate) lists: usize,
}

pub(crate) struct EvalRow {
    pub(crate) name: String,
    pub(crate) cells: Vec<String>,
}

pub(crate) struct EvalTable {
    pub(crate) caption: String,
    pub(crate) rows: Vec<EvalRow>,
}

pub(crate) struct EvalQuery {
    pub(crate) id: String,
    pub(crate) class: String,
    pub(crate) query: String,
    pub(crate) cells: Vec<String>,
}

#[derive(Template)]
#[template(path = "evaluation.html")]
pub(crate) struct EvaluationPage<'a> {
    pub(crate) c: &'a Chrome,
    pub(crate) queries: usize,
    pub(crate) explore_version: &'static str,
    pub(crate) headers: Vec<String>,
    pub(crate) tables: Vec<EvalTable>,
    pub(crate) rankings: Vec<&'static str>,
    pub(crate) per_query: Vec<EvalQuery>,
    pub(crate) nprobe: usize,
    pub(crate) lists: usize,
    pub(crate) overlap: String,
    pub(crate) rules: String,
    /// Each file of queries and labels: its name and address.
    pub(crate) files: Vec<(String, String)>,
    pub(crate) json: String,
}

pub(crate) fn evaluation_page<'a>(c: &'a Chrome, measured: &Measured) -> EvaluationPage<'a> {
    let e = &measured.evaluation;
    let headers = e
        .classes
        .iter()
        .map(|class| {
            let n = e.table.values().next().and_then(|t| t.get(class)).map_or(0, |f| f.queries);
            format!("{class} ({n})")
        })
        .collect();
    let table = |caption: &str, pick: fn(&eval::Measures) -> u32| EvalTable {
        caption: caption.to_owned(),
        rows: RANKINGS
            .iter()
            .filter_map(|r| e.table.get(*r).map(|t| (r, t)))
            .map(|(r, t)| EvalRow {
                name: (*r).to_owned(),
                cells: e.classes.iter().map(|c| fixed(pick(&t[c]))).collect(),
            })
            .collect(),
    };
    let tables = vec![
        table("NDCG@10 by ranking and query class (queries per class in brackets)", |f| f.ndcg10),
        table("Recall@10 by ranking and query class", |f| f.recall10),
    ];
    let per_query = e
        .per_query
        .iter()
        .map(|q| EvalQuery {
            id: q.id.clone(),
            class: q.class.clone(),
            query: q.query.clone(),
            cells: RANKINGS.iter().map(|r| q.ndcg10.get(r).map_or_else(String::new, |v| fixed(*v))).collect(),
        })
        .collect();
    EvaluationPage {
        c,
        queries: e.queries,
        explore_version: e.explore_version,
        headers,
        tables,
        rankings: RANKINGS.to_vec(),
        per_query,
        nprobe: measured.nprobe,
        lists: measured.lists,
        overlap: fixed(e.ivf_overlap10),
        rules: format!("{}{}", names::explore_method_page(EXPLORE_VERSION), names::GOLDEN_RULES_FILE),
        files: eval::FILES
            .iter()
            .map(|f| {
                let name = f.published.rsplit('/').next().unwrap_or(f.published).to_owned();
                (name, format!("{}{}", names::explore_method_page(EXPLORE_VERSION), f.published))
            })
            .collect(),
        json: names::in_snapshot(&c.date, &names::EXPLORE_EVALUATION.file(&[])),
    }
}
