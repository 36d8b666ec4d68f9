//! The explore answer: the method's envelope shape (meta, then data), with explore's
//! own version and each result's rank in every list instead of a match_score.

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::fuse::{Ranks, CHEAPEST_WEIGHT, PRIOR_WEIGHT, RRF_K};
use super::reading::Constraints;
use super::vectors::VectorTable;
use super::{Explore, EXPLORE_VERSION, LIST_DEPTH};
use method::answer::{method_ref, RuleRef, SnapshotRef};
use method::index::Index;
use method::names;
use method::view::{Fields, Listing};
use method::{Method, SOURCE_LIMITS};

#[derive(Debug, Clone, Serialize)]
pub struct ExploreAnswer<'a> {
    pub meta: ExploreMeta,
    pub data: Vec<ExploreRow<'a>>,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExploreMeta {
    pub explore: RuleRef,
    /// Explore is not the directory's answer: this names the method that is.
    pub method: RuleRef,
    pub(crate) not_the_method_answer: &'static str,
    pub snapshot: SnapshotRef,
    pub limits: Vec<&'static str>,
    pub query: ExploreQuery,
    pub lists: Lists,
    pub(crate) returned: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct ExploreQuery {
    pub(crate) text: String,
    pub words: Vec<String>,
    pub(crate) dropped_short: Vec<String>,
    /// Function words ("the", "my", ...) explore does not use (content/explore/stopwords.txt).
    pub(crate) dropped_stopwords: Vec<String>,
    pub(crate) dropped_over_limit: Vec<String>,
    /// Ranked words the vector table has no row for: they count for BM25 only.
    pub words_without_vector: Vec<String>,
    /// Constraints read from the words, as shown back ("at most $0.01 per call"); the
    /// phrases they were read from are not among `words`.
    pub read_as: Vec<String>,
    pub(crate) constraints: Constraints,
    pub constraint_phrases: Vec<String>,
    /// Words no document contains, each read as the document word spelt most like it.
    pub near_spellings: Vec<NearSpelling>,
    /// Words of other languages, each read as the English word of the translation table
    /// (left out when that is a stopword).
    pub translations: Vec<NearSpelling>,
    /// Words with no posting, no near spelling and no vector: left out of both lists.
    pub not_understood: Vec<String>,
    /// The words both lists ranked by.
    pub ranked_words: Vec<String>,
    pub(crate) limit: usize,
    pub(crate) rule: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct NearSpelling {
    pub word: String,
    pub read_as: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Lists {
    /// Resources in the BM25 list (at most the depth).
    pub bm25: usize,
    pub dense: usize,
    pub(crate) depth: usize,
    /// Inverted-file lists read, of how many, and how many documents were compared.
    pub dense_lists_read: usize,
    pub dense_lists: usize,
    pub dense_documents_compared: usize,
    /// Candidates fused (the union of both lists).
    pub fused: usize,
}

/// One explore result: its position, the listing, and its rank in every list. Field
/// names and their order are a public contract (content/explore.md#json).
#[derive(Debug, Clone)]
pub struct ExploreRow<'a> {
    pub position: u32,
    pub listing: Listing<'a>,
    pub ranks: Ranks,
}

impl Serialize for ExploreRow<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        const FIELDS: Fields = Fields::Summary;
        let mut s = serializer.serialize_struct("ExploreRow", Listing::field_count(FIELDS) + 2)?;
        s.serialize_field("position", &self.position)?;
        self.listing.write_listed(&mut s, FIELDS)?;
        self.listing.write_figures(&mut s, FIELDS)?;
        s.serialize_field("ranks", &self.ranks)?;
        self.listing.write_shown(&mut s)?;
        s.end()
    }
}

pub fn explore_ref(method: &Method) -> RuleRef {
    RuleRef {
        name: "x402dir explore",
        version: EXPLORE_VERSION,
        url: names::absolute(&method.site.base_url, &names::explore_method_page(EXPLORE_VERSION)),
    }
}

pub const NOT_THE_METHOD_ANSWER: &str = "Explore results are not the directory's answer: the method's strict \
     whole-word rule is. Explore ranks by two retrievers and publishes each one's rank; no ranking here is a \
     judgement of a resource.";

/// Explores `text` over an index, returning at most `limit` results.
pub fn explore<'a>(
    explore: &Explore,
    index: &'a Index,
    method: &Method,
    table: &VectorTable,
    text: &str,
    limit: usize,
) -> ExploreAnswer<'a> {
    let r = explore.retrieve(index, text, table);
    let data: Vec<ExploreRow<'a>> = r
        .fused
        .iter()
        .take(limit)
        .enumerate()
        .map(|(i, f)| {
            let e = &index.entries[f.id as usize];
            ExploreRow { position: i as u32 + 1, listing: Listing::of(e, index, method), ranks: f.ranks }
        })
        .collect();
    ExploreAnswer {
        meta: ExploreMeta {
            explore: explore_ref(method),
            method: method_ref(method),
            not_the_method_answer: NOT_THE_METHOD_ANSWER,
            snapshot: SnapshotRef::of(index),
            limits: SOURCE_LIMITS.to_vec(),
            query: ExploreQuery {
                text: text.to_owned(),
                rule: rule_text(&r.words.words, &r.ranked, &r.reading.read_as, limit),
                words: r.words.words,
                dropped_short: r.words.dropped_short,
                dropped_stopwords: r.words.dropped_stopwords,
                dropped_over_limit: r.words.dropped_over_limit,
                words_without_vector: r.words_without_vector,
                read_as: r.reading.read_as,
                constraints: r.reading.constraints,
                constraint_phrases: r.reading.phrases,
                near_spellings: r
                    .near_spellings
                    .into_iter()
                    .map(|(word, read_as)| NearSpelling { word, read_as })
                    .collect(),
                translations: r
                    .translations
                    .into_iter()
                    .map(|(word, read_as)| NearSpelling { word, read_as })
                    .collect(),
                not_understood: r.not_understood,
                ranked_words: r.ranked,
                limit,
            },
            lists: Lists {
                bm25: r.bm25.len(),
                dense: r.dense.len(),
                depth: LIST_DEPTH,
                dense_lists_read: r.lists_read,
                dense_lists: explore.dense.ivf.lists.len(),
                dense_documents_compared: r.documents_compared,
                fused: r.fused.len(),
            },
            returned: data.len(),
        },
        data,
    }
}

/// What explore does with a query that has no usable word.
pub const RULE_EMPTY: &str = "no usable word, so nothing was retrieved (explore lists nothing for an empty query; \
     the method's browse order lists everything)";

/// What explore does when it understood none of the query's words.
pub const RULE_NOT_UNDERSTOOD: &str = "no word was understood (none is in a listing, spelt like a word of one, or in \
     the word-vector table), so nothing was retrieved rather than unrelated listings";

/// The rule in words, with `{limit}`, `{words}` and `{constraints}` to fill in (the
/// composer fills in the same template from the explore manifest).
pub fn rule_template() -> String {
    format!(
        "BM25 over each resource's description, service name, tags, URL host and path, MIME types and schema \
         field names (resources with at least half the words), and word-vector similarity over the same words, each list cut at {LIST_DEPTH}; the two \
         fused by reciprocal rank (1 / ({RRF_K} + rank)), then nudged by rank among the candidates in payers, \
         recency of the last call and price (each 1 / ({RRF_K} + rank), weighted {PRIOR_WEIGHT}; price weighted \
         {CHEAPEST_WEIGHT} when the need asks for the cheapest); first {{limit}} returned; words: {{words}}{{constraints}}"
    )
}

/// How the constraints join the rule: `{read_as}` filled with them, joined by `; `.
pub const RULE_CONSTRAINTS: &str = "; only resources that meet what was read from the words: {read_as}";

/// What explore did with this query, in plain words.
pub(crate) fn rule_text(words: &[String], ranked: &[String], read_as: &[String], limit: usize) -> String {
    if words.is_empty() {
        return RULE_EMPTY.to_owned();
    }
    if ranked.is_empty() {
        return RULE_NOT_UNDERSTOOD.to_owned();
    }
    let constraints =
        if read_as.is_empty() { String::new() } else { RULE_CONSTRAINTS.replace("{read_as}", &read_as.join("; ")) };
    // Limit first: words are letters and digits only, so cannot hold a placeholder.
    rule_template()
        .replace("{limit}", &limit.to_string())
        .replace("{words}", &ranked.join(", "))
        .replace("{constraints}", &constraints)
}
