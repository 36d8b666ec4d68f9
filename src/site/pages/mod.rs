//! HTML pages of one snapshot, rendered from askama templates.
//!
//! Templates escape every value; the only unescaped HTML is what pulldown-cmark makes
//! of the project's own Markdown (content/method.md, content/corrections.md).

use crate::integrity::Correction;
use askama::Template;

use crate::catalogue::model::Drop;
use crate::explore::eval::{self, fixed, Evaluation, RANKINGS};
use crate::explore::vectors::PROVENANCE;
use crate::explore::EXPLORE_VERSION;
use crate::method::assets::Decimal;
use crate::method::index::{Entry, Index};
use crate::method::{Method, DISCOVERY_METHOD_VERSION, SOURCE_LIMITS};
use crate::site::facets::{Facet, Facets};
use crate::site::paths::link_target;
use crate::terminal::clip;

/// Rows per browse page.
pub const PAGE_SIZE: usize = 50;
const METHOD_MD: &str = include_str!("../../../content/method.md");
const CORRECTIONS_MD: &str = include_str!("../../../content/corrections.md");
const EXPLORE_MD: &str = include_str!("../../../content/explore.md");

/// What every page of a snapshot shows around its content.
pub struct Chrome {
    pub date: String,
    pub complete: bool,
    pub coverage: String,
    /// The snapshot's home, `/<date>/`; `None` on pages outside any snapshot.
    pub home: Option<String>,
    pub static_base: String,
    pub method_path: String,
    pub method_version: &'static str,
    pub limits: &'static [&'static str; 3],
}

impl Chrome {
    pub fn for_index(index: &Index) -> Chrome {
        let h = &index.header;
        let coverage = match h.reported_total {
            Some(t) => format!("{} of the {t} items the source reported", h.item_count),
            None => format!("{} items; the source's total is unknown", h.item_count),
        };
        Chrome {
            date: h.date.clone(),
            complete: h.complete,
            coverage,
            home: Some(format!("/{}/", h.date)),
            static_base: format!("/{}/static/", h.date),
            method_path: method_path(),
            method_version: DISCOVERY_METHOD_VERSION,
            limits: &SOURCE_LIMITS,
        }
    }

    /// For pages outside a snapshot (the root index, the versioned method page), which
    /// borrow the newest snapshot's stylesheet.
    pub fn outside(latest_date: &str) -> Chrome {
        Chrome {
            date: latest_date.to_owned(),
            complete: true,
            coverage: String::new(),
            home: None,
            static_base: format!("/{latest_date}/static/"),
            method_path: method_path(),
            method_version: DISCOVERY_METHOD_VERSION,
            limits: &SOURCE_LIMITS,
        }
    }
}

pub fn method_path() -> String {
    format!("/method/{DISCOVERY_METHOD_VERSION}/")
}

/// One line of a resource table.
pub struct TableRow {
    pub rank: usize,
    pub page: String,
    pub resource: String,
    pub service_name: Option<String>,
    pub description: Option<String>,
    pub withheld: bool,
    pub segments: Vec<String>,
    pub operator_listing: bool,
    pub payers: String,
    pub calls: String,
    /// The ratio, and beside it the two counts it comes from (`(670 calls / 668 payers)`).
    pub calls_per_payer: String,
    pub ratio_counts: String,
    pub days: String,
    pub price: String,
    pub networks: String,
}

fn count(v: Option<u64>) -> String {
    v.map_or_else(|| "—".to_owned(), |n| n.to_string())
}

/// `1.003` and `(670 calls / 668 payers)`: a ratio is never shown without its two
/// counts (empty only when a count is missing).
fn ratio_and_counts(e: &Entry) -> (String, String) {
    let f = &e.figures;
    match (f.calls_per_payer, f.calls_30d, f.unique_payers_30d) {
        (Some(r), Some(c), Some(p)) => (r.fixed(), format!("({c} calls / {p} payers)")),
        (None, Some(c), Some(0)) => ("—".to_owned(), format!("({c} calls / 0 payers)")),
        _ => ("—".to_owned(), String::new()),
    }
}

fn usd(p: Option<Decimal>) -> String {
    p.map_or_else(|| "—".to_owned(), |d| format!("${d}"))
}

pub fn table_row(rank: usize, e: &Entry, index: &Index) -> TableRow {
    let (calls_per_payer, ratio_counts) = ratio_and_counts(e);
    TableRow {
        rank,
        page: format!("/{}/r/{}/", index.header.date, e.slug()),
        resource: e.resource.url.clone(),
        service_name: e.resource.service_name.clone(),
        description: e.public_description().map(|d| clip(d, 200)),
        withheld: e.withheld.is_some(),
        segments: e.segments.clone(),
        operator_listing: e.operator_listing,
        payers: count(e.figures.unique_payers_30d),
        calls: count(e.figures.calls_30d),
        calls_per_payer,
        ratio_counts,
        days: count(e.figures.days_since_last_call),
        price: usd(e.min_price_usd),
        networks: e.networks.join(", "),
    }
}

pub struct Pager {
    pub page: usize,
    pub pages: usize,
    pub prev: Option<String>,
    pub next: Option<String>,
}

#[derive(Template)]
#[template(path = "home.html")]
pub struct HomePage<'a> {
    pub c: &'a Chrome,
    pub entries: usize,
    pub rows: Vec<TableRow>,
    pub caption: String,
    pub facets: &'a Facets,
    pub api: String,
    pub search_action: String,
    pub networks: &'a [String],
    pub new_since: Option<&'a NewSince>,
}

/// How many resources are new since the previous snapshot (same method version).
pub struct NewSince {
    pub previous: String,
    pub previous_complete: bool,
    pub count: usize,
}

#[derive(Template)]
#[template(path = "search.html")]
pub struct SearchPage<'a> {
    pub c: &'a Chrome,
    pub api: String,
    pub search_action: String,
    pub networks: &'a [String],
}

#[derive(Template)]
#[template(path = "list.html")]
pub struct ListPage<'a> {
    pub c: &'a Chrome,
    pub heading: String,
    pub intro: String,
    pub caption: String,
    pub rows: Vec<TableRow>,
    pub pager: Pager,
    pub facets: &'a Facets,
}

pub struct FigureRow {
    pub name: &'static str,
    pub value: String,
    pub inputs: String,
    pub definition: &'static str,
    pub not_shown: &'static str,
}

pub struct PriceRow {
    pub network: String,
    pub testnet: bool,
    pub scheme: String,
    pub asset: String,
    pub amount: String,
    pub usd: String,
}

pub struct WithheldView {
    pub count: usize,
    pub ids: String,
    pub version: String,
}

pub struct ResourceView {
    pub resource: String,
    /// A link target only for http(s) URLs; anything else is shown as text.
    pub href: Option<String>,
    pub service_name: Option<String>,
    pub description: Option<String>,
    pub withheld: Option<WithheldView>,
    pub figures: Vec<FigureRow>,
    pub prices: Vec<PriceRow>,
    pub segments: Vec<Facet>,
    pub segment_version: String,
    pub operator_listing: bool,
    pub drops: Vec<Drop>,
    pub record: String,
    pub record_id: usize,
    pub record_block: usize,
}

#[derive(Template)]
#[template(path = "resource.html")]
pub struct ResourcePage<'a> {
    pub c: &'a Chrome,
    pub r: ResourceView,
    /// Payers and calls in this and earlier snapshots; `None` with a single snapshot.
    pub history: Option<crate::site::history::HistoryView>,
}

pub fn resource_view(id: usize, e: &Entry, index: &Index, method: &Method) -> ResourceView {
    let f = &e.figures;
    let figures = vec![
        FigureRow {
            name: "unique_payers_30d",
            value: count(f.unique_payers_30d),
            inputs: "the catalogue's l30DaysUniquePayers, unmodified".into(),
            definition: "Distinct addresses that paid for this resource through the catalogue in the last 30 days.",
            not_shown: "Payments through other facilitators or direct agreements; who the payers are.",
        },
        FigureRow {
            name: "calls_30d",
            value: count(f.calls_30d),
            inputs: "the catalogue's l30DaysTotalCalls, unmodified".into(),
            definition: "Paid calls settled through the catalogue in the last 30 days.",
            not_shown: "Unpaid or off-catalogue use; whether the calls succeeded.",
        },
        FigureRow {
            name: "calls_per_payer",
            value: f.calls_per_payer.map_or_else(|| "—".to_owned(), |r| r.fixed()),
            inputs: format!("{} calls / {} payers", count(f.calls_30d), count(f.unique_payers_30d)),
            definition: "calls_30d divided by unique_payers_30d, rounded half-up to three decimals; empty when no address paid.",
            not_shown: "Why: near 1 can be a campaign, a tool people try once, an onboarding step, or callers who each need one answer; the data cannot tell them apart.",
        },
        FigureRow {
            name: "days_since_last_call",
            value: count(f.days_since_last_call),
            inputs: format!(
                "lastCalledAt {} and the snapshot date {}",
                e.resource.quality.last_called_at_ms.map_or("(absent)".to_owned(), format_ms),
                index.header.date
            ),
            definition: "Whole calendar days (UTC) from the last paid call to the snapshot date; never negative.",
            not_shown: "Whether the service is up now, or used outside this catalogue.",
        },
        FigureRow {
            name: "match_score",
            value: "per query".into(),
            inputs: "the query's tokens and this description".into(),
            definition: "How many of a query's tokens occur as whole words in the description. A word count.",
            not_shown: "Relevance or quality: it is only a count of words.",
        },
    ];
    let prices = e
        .prices(method)
        .iter()
        .map(|p| PriceRow {
            network: if p.network == p.network_id {
                p.network.clone()
            } else {
                format!("{} ({})", p.network, p.network_id)
            },
            testnet: p.testnet,
            scheme: p.scheme.clone().unwrap_or_default(),
            asset: p.asset_symbol.clone().or_else(|| p.asset.clone()).unwrap_or_default(),
            amount: p.amount_atomic.clone(),
            usd: usd(p.usd),
        })
        .collect();
    let segments = e
        .segments
        .iter()
        .map(|id| Facet {
            href: format!("/{}/segment/{id}/", index.header.date),
            label: method.segments.segments.iter().find(|s| &s.id == id).map_or(id.clone(), |s| s.label.clone()),
            count: 0,
        })
        .collect();
    ResourceView {
        resource: e.resource.url.clone(),
        href: link_target(&e.resource.url),
        service_name: e.resource.service_name.clone(),
        description: e.public_description().map(str::to_owned),
        withheld: e.withheld.as_ref().map(|w| WithheldView {
            count: w.patterns_matched,
            ids: w.pattern_ids.join(", "),
            version: w.pattern_list_version.clone(),
        }),
        figures,
        prices,
        segments,
        segment_version: method.segments.version.clone(),
        operator_listing: e.operator_listing,
        drops: e.resource.drops.clone(),
        record: format!("/{}/api/records/{}.json", index.header.date, id / crate::site::api::method::RECORD_BLOCK),
        record_id: id,
        record_block: crate::site::api::method::RECORD_BLOCK,
    }
}

fn format_ms(ms: i64) -> String {
    time::OffsetDateTime::from_unix_timestamp_nanos(ms as i128 * 1_000_000)
        .ok()
        .and_then(|t| t.format(&time::format_description::well_known::Rfc3339).ok())
        .unwrap_or_else(|| ms.to_string())
}

#[derive(Template)]
#[template(path = "markdown.html")]
pub struct MarkdownPage<'a> {
    pub c: &'a Chrome,
    pub heading: String,
    pub html: String,
}

/// Markdown of the project's own content to HTML.
pub fn markdown(md: &str) -> String {
    use pulldown_cmark::{html, Options, Parser};
    let mut out = String::new();
    html::push_html(&mut out, Parser::new_ext(md, Options::ENABLE_TABLES | Options::ENABLE_HEADING_ATTRIBUTES));
    // Tables scroll sideways on a phone, in a region the keyboard can reach (as the
    // templates' tables do), named by the heading they come under.
    let mut wrapped = String::with_capacity(out.len());
    let mut heading = String::from("Table");
    let mut named: Vec<String> = Vec::new();
    for (k, piece) in out.split("<table>").enumerate() {
        if k > 0 {
            // Landmarks want distinct names: a second table under one heading is "(2)".
            let same = named.iter().filter(|h| **h == heading).count();
            let name = if same == 0 { heading.clone() } else { format!("{heading} ({})", same + 1) };
            named.push(heading.clone());
            wrapped.push_str(&format!(
                "<div class=\"table-wrap\" tabindex=\"0\" role=\"region\" aria-label=\"Table: {name}\"><table>"
            ));
        }
        wrapped.push_str(piece);
        if let Some(h) = last_heading_text(piece) {
            heading = h;
        }
    }
    wrapped.replace("</table>", "</table></div>")
}

/// The text of the last heading in a piece of rendered HTML (already escaped).
fn last_heading_text(html: &str) -> Option<String> {
    let start = ["<h2", "<h3", "<h4"].iter().filter_map(|tag| html.rfind(tag)).max()?;
    let open_end = start + html[start..].find('>')? + 1;
    let close = open_end + html[open_end..].find("</h")?;
    let mut text = String::new();
    let mut in_tag = false;
    for c in html[open_end..close].chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => text.push(c),
            _ => {}
        }
    }
    Some(text.replace('"', "&quot;"))
}

pub fn method_page(c: &Chrome) -> MarkdownPage<'_> {
    MarkdownPage { c, heading: format!("Method {DISCOVERY_METHOD_VERSION}"), html: markdown(METHOD_MD) }
}

#[derive(Template)]
#[template(path = "corrections.html")]
pub struct CorrectionsPage<'a> {
    pub c: &'a Chrome,
    pub intro: String,
    pub entries: Vec<Correction>,
}

pub fn corrections_page<'a>(c: &'a Chrome, method: &Method) -> CorrectionsPage<'a> {
    CorrectionsPage { c, intro: markdown(CORRECTIONS_MD), entries: method.corrections.newest_first() }
}

pub struct ClaimView {
    pub date: String,
    pub position: usize,
    pub pay_to: String,
    pub last_updated: Option<String>,
}

pub struct ConflictView {
    pub resource: String,
    pub claims: Vec<ClaimView>,
}

pub struct CollapsedView {
    pub resource: String,
    pub kept: usize,
    pub dropped: String,
}

pub struct DropsView {
    pub resource: String,
    pub page: String,
    pub fields: Vec<Drop>,
}

#[derive(Template)]
#[template(path = "report.html")]
pub struct ReportPage<'a> {
    pub c: &'a Chrome,
    pub items: usize,
    pub entries: usize,
    pub withheld: usize,
    pub conflicts: Vec<ConflictView>,
    pub collapsed: Vec<CollapsedView>,
    pub rejected: Vec<crate::method::index::Rejected>,
    pub overruled: Vec<OverruledView>,
    pub drops: Vec<DropsView>,
}

pub struct OverruledView {
    pub resource: String,
    pub position: usize,
    pub pay_to: String,
    pub owner: String,
    pub correction_date: String,
}

pub fn report_page<'a>(c: &'a Chrome, index: &Index) -> ReportPage<'a> {
    let r = &index.report;
    ReportPage {
        c,
        items: index.header.item_count,
        entries: index.entries.len(),
        withheld: index.entries.iter().filter(|e| e.withheld.is_some()).count(),
        conflicts: r
            .quarantined
            .iter()
            .map(|q| ConflictView {
                resource: q.resource.clone(),
                claims: q
                    .claims
                    .iter()
                    .map(|cl| ClaimView {
                        date: cl.date.clone(),
                        position: cl.position,
                        pay_to: if cl.pay_to.is_empty() { "(none)".into() } else { cl.pay_to.join(", ") },
                        last_updated: cl.last_updated.clone(),
                    })
                    .collect(),
            })
            .collect(),
        collapsed: r
            .collapsed
            .iter()
            .map(|k| CollapsedView {
                resource: k.resource.clone(),
                kept: k.kept_position,
                dropped: k.dropped_positions.iter().map(|p| format!("item {p}")).collect::<Vec<_>>().join(", "),
            })
            .collect(),
        rejected: r.rejected.clone(),
        overruled: r
            .overruled
            .iter()
            .map(|o| OverruledView {
                resource: o.resource.clone(),
                position: o.position,
                pay_to: o.pay_to.join(", "),
                owner: o.owner.join(", "),
                correction_date: o.correction_date.clone(),
            })
            .collect(),
        drops: index
            .entries
            .iter()
            .filter(|e| !e.resource.drops.is_empty())
            .map(|e| DropsView {
                resource: e.resource.url.clone(),
                page: format!("/{}/r/{}/", index.header.date, e.slug()),
                fields: e.resource.drops.clone(),
            })
            .collect(),
    }
}

pub struct DateLink {
    pub date: String,
    pub entries: usize,
    pub complete: bool,
}

#[derive(Template)]
#[template(path = "root.html")]
pub struct RootPage<'a> {
    pub c: &'a Chrome,
    /// Newest first.
    pub dates: Vec<DateLink>,
    /// The evaluation page, when the golden set's snapshot is published.
    pub evaluation: Option<String>,
}

pub fn explore_path() -> String {
    format!("/explore/{EXPLORE_VERSION}/")
}

#[derive(Template)]
#[template(path = "explore.html")]
pub struct ExplorePage<'a> {
    pub c: &'a Chrome,
    pub api: String,
    pub action: String,
    pub explore_path: String,
    pub explore_version: &'static str,
    /// The evaluation page, when this snapshot carries the golden set.
    pub evaluation: Option<String>,
}

#[derive(Template)]
#[template(path = "explore_method.html")]
pub struct ExploreMethodPage<'a> {
    pub c: &'a Chrome,
    pub version: &'static str,
    pub html: String,
    pub provenance: Vec<(String, String)>,
}

pub fn explore_method_page(c: &Chrome) -> ExploreMethodPage<'_> {
    let provenance = match serde_json::from_str::<serde_json::Value>(PROVENANCE) {
        Ok(serde_json::Value::Object(map)) => {
            map.into_iter().map(|(k, v)| (k, v.as_str().map_or_else(|| v.to_string(), str::to_owned))).collect()
        }
        _ => Vec::new(),
    };
    ExploreMethodPage { c, version: EXPLORE_VERSION, html: markdown(EXPLORE_MD), provenance }
}

pub struct EvalRow {
    pub name: String,
    pub cells: Vec<String>,
}

pub struct EvalTable {
    pub caption: String,
    pub rows: Vec<EvalRow>,
}

pub struct EvalQuery {
    pub id: String,
    pub class: String,
    pub query: String,
    pub cells: Vec<String>,
}

#[derive(Template)]
#[template(path = "evaluation.html")]
pub struct EvaluationPage<'a> {
    pub c: &'a Chrome,
    pub queries: usize,
    pub explore_version: &'static str,
    pub headers: Vec<String>,
    pub tables: Vec<EvalTable>,
    pub rankings: Vec<&'static str>,
    pub per_query: Vec<EvalQuery>,
    pub nprobe: usize,
    pub lists: usize,
    pub overlap: String,
    pub rules: String,
    pub golden: String,
    pub json: String,
}

pub fn evaluation_page<'a>(c: &'a Chrome, e: &Evaluation, nprobe: usize, lists: usize) -> EvaluationPage<'a> {
    let headers = e
        .classes
        .iter()
        .map(|class| {
            let n = e.table.values().next().and_then(|t| t.get(class)).map_or(0, |f| f.queries);
            format!("{class} ({n})")
        })
        .collect();
    let table = |caption: &str, pick: fn(&eval::Figures) -> u32| EvalTable {
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
        nprobe,
        lists,
        overlap: fixed(e.ivf_overlap10),
        rules: format!("{}golden/RULES.md", explore_path()),
        golden: format!("{}golden/golden.json", explore_path()),
        json: "../../api/explore/evaluation.json".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_tables_scroll_in_regions_named_by_their_heading() {
        let md = "## The `max_price` filter\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n| c |\n|---|\n| 3 |\n\n### Next\n\n| d |\n|---|\n| 4 |\n";
        let html = markdown(md);
        let labels: Vec<&str> =
            html.split("aria-label=\"").skip(1).map(|rest| &rest[..rest.find('"').unwrap()]).collect();
        assert_eq!(labels, ["Table: The max_price filter", "Table: The max_price filter (2)", "Table: Next"]);
        assert_eq!(html.matches("<div class=\"table-wrap\" tabindex=\"0\" role=\"region\"").count(), 3);
        assert_eq!(html.matches("</table></div>").count(), 3);
    }
}
