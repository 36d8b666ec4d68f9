//! The answer envelope (content/method.md#json): the one shape every surface returns.

use std::cmp::Ordering;

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::index::{Entry, Index};
use super::names;
use super::networks;
use super::normalise::contains_word;
use super::query::{tokenise, FilterError, Filters, Tokens};
use super::view::{Fields, Listing};
use super::{Method, DISCOVERY_METHOD_VERSION, SOURCE_LIMITS};

#[derive(Debug, Clone, Serialize)]
pub struct Answer<'a> {
    pub meta: Meta,
    pub data: Vec<Row<'a>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Meta {
    pub method: RuleRef,
    pub segments: VersionRef,
    pub screening: VersionRef,
    pub assets: VersionRef,
    pub snapshot: SnapshotRef,
    /// The three limits of the source, stated in every answer.
    pub limits: Vec<&'static str>,
    pub query: QueryApplied,
    pub total_matched: usize,
    pub returned: usize,
}

/// A published, versioned rule set (the method, or explore) and the page that states it.
#[derive(Debug, Clone, Serialize)]
pub struct RuleRef {
    pub name: &'static str,
    pub version: &'static str,
    pub url: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct VersionRef {
    pub version: String,
}

/// Said of a snapshot whose listings carry no usage counter (content/method.md#ranking).
pub const NO_USAGE_COUNTERS: &str = "no usage counters in this snapshot: ranking falls to match_score, then URL";

/// The snapshot an answer comes from, as every answer, the manifest and every page state it.
#[derive(Debug, Clone, Serialize)]
pub struct SnapshotRef {
    pub date: String,
    pub complete: bool,
    pub(crate) items: usize,
    pub(crate) reported_total: Option<u64>,
    pub(crate) source: String,
    /// False when no listing carries a usage counter (payers or calls).
    pub(crate) usage_counters: bool,
    /// When the snapshot's probe began (RFC 3339, UTC); `None` when it was not probed
    /// (content/method.md#probe).
    pub probed: Option<String>,
    /// What a reader must know before reading an order: that the walk was partial, that
    /// there are no usage counters. Empty for a complete snapshot with counters.
    pub notices: Vec<String>,
}

impl SnapshotRef {
    pub fn of(index: &crate::index::Index) -> SnapshotRef {
        let header = &index.header;
        let notices = header
            .partial_label()
            .into_iter()
            .chain((!index.usage_counters).then(|| NO_USAGE_COUNTERS.to_owned()))
            .collect();
        SnapshotRef {
            date: header.date.clone(),
            complete: header.complete,
            items: header.item_count,
            reported_total: header.reported_total,
            source: header.source.url.clone(),
            usage_counters: index.usage_counters,
            probed: index.probe.as_ref().map(|p| p.started.clone()),
            notices,
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct QueryApplied {
    pub(crate) text: String,
    /// The normalised tokens every result contains as whole words.
    pub tokens: Vec<String>,
    pub token_list_empty: bool,
    pub dropped_short: Vec<String>,
    pub(crate) dropped_over_limit: Vec<String>,
    pub filters: Filters,
    /// The rule applied, in words, so an empty answer explains itself.
    pub rule: String,
}

/// One result: the listing, and how many query tokens its description holds. Field
/// names and their order are a public contract (content/method.md#json).
#[derive(Debug, Clone)]
pub struct Row<'a> {
    pub listing: Listing<'a>,
    pub match_score: u32,
}

impl Serialize for Row<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut s = serializer.serialize_struct("Row", Listing::field_count(Fields::All) + 1)?;
        self.listing.write_listed(&mut s, Fields::All)?;
        s.serialize_field("match_score", &self.match_score)?;
        self.listing.write_figures(&mut s, Fields::All)?;
        self.listing.write_shown(&mut s)?;
        s.end()
    }
}

impl Row<'_> {
    /// Appends to `out` the bytes serde writes for the row of `match_score` whose
    /// listing's [`Listing::members`] are `members`, split at `split`: the listed members,
    /// the match_score, then the figures and how it is shown, as [`Row`]'s `serialize`
    /// places them (the site's test `kept_records_join_the_rows_serde_writes`).
    pub fn write_joined(members: &[u8], split: usize, match_score: u32, out: &mut Vec<u8>) {
        out.push(b'{');
        out.extend_from_slice(&members[..split]);
        out.extend_from_slice(b",\"match_score\":");
        out.extend_from_slice(match_score.to_string().as_bytes());
        out.extend_from_slice(&members[split..]);
        out.push(b'}');
    }
}

impl Answer<'_> {
    /// The bytes serde would write for this answer if its data were the rows in `rows`
    /// (each row's bytes, separated by commas); for an answer made with no rows yet
    /// ([`single_word_ranking`]).
    pub fn to_vec_with_rows(&self, rows: &[u8]) -> Vec<u8> {
        assert!(self.data.is_empty(), "rows are joined into an answer without rows");
        let mut out = serde_json::to_vec(self).expect("an answer serialises");
        // It ends `"data":[]}`, data being the last field: the rows go between the brackets.
        const CLOSE: &[u8] = b"]}";
        assert!(out.ends_with(b"[]}"), "an answer's data is its last field");
        out.truncate(out.len() - CLOSE.len());
        out.reserve(rows.len() + CLOSE.len());
        out.extend_from_slice(rows);
        out.extend_from_slice(CLOSE);
        out
    }
}

/// How many query tokens occur as whole words in the entry's description.
pub fn match_score(entry: &Entry, tokens: &[String]) -> u32 {
    tokens.iter().filter(|t| contains_word(entry.description_haystack(), t)).count() as u32
}

/// True when the entry passes every token and filter.
pub fn qualifies(entry: &Entry, tokens: &[String], filters: &Filters) -> bool {
    if !tokens.iter().all(|t| contains_word(&entry.haystack, t)) {
        return false;
    }
    if let Some(network) = &filters.network {
        if !entry.networks.iter().any(|n| n == network) {
            return false;
        }
    }
    if filters.exclude_testnets && entry.testnets_only {
        return false;
    }
    if filters.answered_402 && !entry.answered_402 {
        return false;
    }
    if let Some(max) = &filters.max_price {
        match &entry.min_price_usd {
            Some(price) if price.cmp_exact(max) != Ordering::Greater => {}
            _ => return false,
        }
    }
    true
}

/// Answers a query over an index, by the method's rule, with no relaxed second search.
/// A network the snapshot does not know is refused, with the networks it does know
/// (content/method.md#filters): what every surface (CLI, MCP, composer) answers.
pub fn checked_answer<'a>(
    index: &'a Index,
    method: &Method,
    text: &str,
    filters: &Filters,
) -> Result<Answer<'a>, FilterError> {
    let network = match &filters.network {
        Some(n) => Some(networks::resolve_filter(index, method.assets, n)?),
        None => None,
    };
    if filters.answered_402 && index.probe.is_none() {
        return Err(FilterError::NotProbed(index.header.date.clone()));
    }
    Ok(answer_resolved(index, method, text, &Filters { network, ..filters.clone() }))
}

/// [`checked_answer`], reading a network the snapshot does not know as one no listing
/// names (so it matches nothing): for callers that checked, or build, their filters.
pub fn answer<'a>(index: &'a Index, method: &Method, text: &str, filters: &Filters) -> Answer<'a> {
    let network =
        filters.network.as_deref().map(|n| networks::resolve_filter(index, method.assets, n).unwrap_or(n.to_owned()));
    answer_resolved(index, method, text, &Filters { network, ..filters.clone() })
}

/// The answer, its network filter already a CAIP-2 id: the answer states the filters as
/// applied.
fn answer_resolved<'a>(index: &'a Index, method: &Method, text: &str, filters: &Filters) -> Answer<'a> {
    let tokens = tokenise(text);
    let mut matched: Vec<(u32, &Entry)> = index
        .entries
        .iter()
        .filter(|e| qualifies(e, &tokens.tokens, filters))
        .map(|e| (match_score(e, &tokens.tokens), e))
        .collect();
    matched.sort_by(|(sa, a), (sb, b)| a.rank_key(*sa).cmp(&b.rank_key(*sb)));
    envelope(index, method, text, tokens, filters, matched)
}

/// The answer of a one-word query, from that word's posting list (browse-order ids,
/// each with whether the word is in the description) instead of a scan of every entry:
/// what the build uses to write a file per word. Identical to [`answer`] with default
/// filters; a word the tokeniser would read differently takes the scan.
pub fn single_word_answer<'a>(index: &'a Index, method: &Method, word: &str, postings: &[(u32, bool)]) -> Answer<'a> {
    match single_word_ranking(index, method, word, postings) {
        Some((mut answer, page)) => {
            answer.data = page.into_iter().map(|(score, id)| row(&index.entries[id], score, index, method)).collect();
            answer
        }
        None => answer(index, method, word, &Filters::default()),
    }
}

/// [`single_word_answer`] with its rows not yet made: the answer with no data, and each
/// row's (match_score, browse-order id) in order; `None` where the tokeniser reads the
/// word otherwise. For a build that has every listing's members already
/// ([`Answer::to_vec_with_rows`]).
pub fn single_word_ranking<'a>(
    index: &'a Index,
    method: &Method,
    word: &str,
    postings: &[(u32, bool)],
) -> Option<(Answer<'a>, Vec<(u32, usize)>)> {
    let tokens = tokenise(word);
    if tokens.tokens != [word] {
        return None;
    }
    // Browse order is the order of rank_key(0): within one match_score, ids are in rank order.
    let mut ids: Vec<(u32, usize)> = postings.iter().map(|&(id, d)| (u32::from(d), id as usize)).collect();
    ids.sort_by_key(|&(score, id)| (std::cmp::Reverse(score), id));
    Some(unfilled(index, method, word, tokens, &Filters::default(), ids))
}

/// The envelope around `matched` (every qualifying entry, in final order).
fn envelope<'a>(
    index: &'a Index,
    method: &Method,
    text: &str,
    tokens: Tokens,
    filters: &Filters,
    matched: Vec<(u32, &'a Entry)>,
) -> Answer<'a> {
    let (mut answer, page) = unfilled(index, method, text, tokens, filters, matched);
    answer.data = page.into_iter().map(|(score, e)| row(e, score, index, method)).collect();
    answer
}

/// The envelope around `matched` (every qualifying entry, in final order, each as
/// whatever the caller makes its row from) with no rows yet, and the page of `matched`
/// that are its rows.
fn unfilled<'a, T>(
    index: &'a Index,
    method: &Method,
    text: &str,
    tokens: Tokens,
    filters: &Filters,
    mut matched: Vec<(u32, T)>,
) -> (Answer<'a>, Vec<(u32, T)>) {
    let total_matched = matched.len();
    matched.drain(..filters.offset.min(total_matched));
    matched.truncate(filters.limit);
    let answer = Answer {
        meta: Meta {
            method: method_ref(method),
            segments: VersionRef { version: method.segments.version.clone() },
            screening: VersionRef { version: method.screen.version.clone() },
            assets: VersionRef { version: method.assets.version.clone() },
            snapshot: SnapshotRef::of(index),
            limits: SOURCE_LIMITS.to_vec(),
            query: QueryApplied {
                text: text.to_owned(),
                token_list_empty: tokens.tokens.is_empty(),
                rule: rule_text(&tokens.tokens, filters),
                tokens: tokens.tokens,
                dropped_short: tokens.dropped_short,
                dropped_over_limit: tokens.dropped_over_limit,
                filters: filters.clone(),
            },
            total_matched,
            returned: matched.len(),
        },
        data: Vec::new(),
    };
    (answer, matched)
}

pub fn method_ref(method: &Method) -> RuleRef {
    RuleRef {
        name: "x402dir directory method",
        version: DISCOVERY_METHOD_VERSION,
        url: names::absolute(&method.site.base_url, &names::method_page()),
    }
}

/// A result row for an entry.
pub fn row<'a>(e: &'a Entry, match_score: u32, index: &'a Index, method: &Method) -> Row<'a> {
    Row { listing: Listing::of(e, index, method), match_score }
}

/// The rule's wording, one part for each thing the answer did, joined by
/// [`RULE_JOINED_BY`]: tokens (or none), each filter given, then the order
/// (content/method.md#query, #filters, #ranking). The composer fills in the same parts
/// (static/rules.js is generated from these), so the two cannot word it differently.
pub const RULE_NO_TOKENS: &str = "no usable query token, so every ranked resource is listed in browse order";
/// `{tokens}`: each token in double quotes, joined by `", "`.
pub const RULE_TOKENS: &str = "every token ({tokens}) must occur as a whole word in the description, service name, \
     URL or tags; no stemming, synonyms or partial words";
pub const RULE_MAX_PRICE: &str = "lowest USD-stablecoin price at most {max_price} per call";
pub const RULE_NETWORK: &str = "accepts payment on network {network}";
pub const RULE_EXCLUDE_TESTNETS: &str = "accepts payment on a network that is not a test network";
pub const RULE_ANSWERED_402: &str = "answered 402 when the snapshot's probe asked it";
pub const RULE_ORDER: &str = "ordered by match_score, then unique_payers_30d, then calls_30d (each descending), \
     then resource URL";
pub const RULE_FIRST: &str = "first {limit} returned";
/// `{from}`: the place of the first result returned, counted from 1.
pub const RULE_FROM: &str = "{limit} returned from place {from}";
pub const RULE_JOINED_BY: &str = "; ";

/// The rule applied to this query, in plain words.
pub(crate) fn rule_text(tokens: &[String], filters: &Filters) -> String {
    let mut parts = Vec::new();
    if tokens.is_empty() {
        parts.push(RULE_NO_TOKENS.to_owned());
    } else {
        let quoted: Vec<String> = tokens.iter().map(|t| format!("\"{t}\"")).collect();
        parts.push(RULE_TOKENS.replace("{tokens}", &quoted.join(", ")));
    }
    if let Some(max) = &filters.max_price {
        parts.push(RULE_MAX_PRICE.replace("{max_price}", &max.to_string()));
    }
    if let Some(network) = &filters.network {
        parts.push(RULE_NETWORK.replace("{network}", network));
    }
    if filters.exclude_testnets {
        parts.push(RULE_EXCLUDE_TESTNETS.to_owned());
    }
    if filters.answered_402 {
        parts.push(RULE_ANSWERED_402.to_owned());
    }
    parts.push(RULE_ORDER.to_owned());
    let limit = filters.limit.to_string();
    parts.push(match filters.offset {
        0 => RULE_FIRST.replace("{limit}", &limit),
        offset => RULE_FROM.replace("{limit}", &limit).replace("{from}", &(offset + 1).to_string()),
    });
    parts.join(RULE_JOINED_BY)
}
