//! The static JSON API of one snapshot (docs/static-api.md): manifest, per-token
//! posting shards, price ladder, resource records in blocks, and a full answer envelope for
//! every single-token query. The composer reads these and must reach the same answer
//! as the Rust code, so every list here is in the method's order.

use std::collections::{BTreeMap, HashMap};
use std::ops::Range;

use rayon::prelude::*;
use serde::Serialize;
use serde_json::{json, Value};

use catalogue::timings::phase;
use catalogue::Error;
use method::answer::{answer, method_ref, single_word_answer, single_word_ranking, Row, VersionRef};
use method::assets::Decimal;
use method::index::{Entry, Index};
use method::names::{self, bucket, network_key, token_file, ANSWERED_402_KEY, TESTNETS_ONLY_KEY};
use method::networks;
use method::query::{Filters, MIN_TOKEN_CHARS};
use method::view::Listing;
use method::{Method, SOURCE_LIMITS};

use super::{to_bytes, Sink};

/// The layout of the API folder. 2: packs and single-word answers only for words in at
/// least two resources (a word in one resource is answered by that resource's record).
/// 3: records in blocks of [`RECORD_BLOCK`] ids, not a file each; posting lists longer
/// than [`SPLIT_POSTINGS`] split into parts of their own. 4: a pack for every word in two
/// resources or more (its first [`PACK_LEN`] in its own order), split lists named in the
/// manifest and cut into parts of [`PART_POSTINGS`]: a two-word query's rows come in one
/// or two requests where they came in ten. 5: a word in more than [`PACK_LEN`] resources
/// also has its pack's second page ([`NEXT_PACK_LEN`] more of its own order), for the rows
/// of words that meet sparsely.
pub const API_VERSION: u32 = 5;
/// Records per file: ids `block * RECORD_BLOCK ..`. A file per record made the API as
/// many files as the pages again (a million at a million resources); in blocks of 16 it
/// is a sixteenth of that. Blocks of 32 were measured too: a query's rows come from ten
/// blocks or so, and at 32 that was 40 KB a query against 9 KB with a file per record
/// (BENCHMARKS.md, "Scale").
pub(crate) const RECORD_BLOCK: usize = 16;
/// Aim for about this many bytes of postings per shard file.
const TARGET_SHARD_BYTES: usize = 4096;
const MIN_BUCKETS: usize = 8;
/// A posting list longer than this leaves its shard: it is written in parts of its own,
/// and the manifest and its shard say where the parts start. Without it one word in most
/// resources (or the network most of them use) makes one shard a megabyte at a million
/// resources, fetched by every query of a word that shares its bucket.
pub(crate) const SPLIT_POSTINGS: usize = 8192;
/// The postings of one part of a split list. A query of two common words reads both
/// lists whole (the answer counts every match), so parts are large: at 100,000 listings
/// every list is one part, where parts of 8,192 made "ai agent" five requests. A query
/// that also has a rarer word still fetches only the parts holding that word's ids.
pub(crate) const PART_POSTINGS: usize = 32768;
/// The records a pack holds: all of a word's when it is in at most this many resources,
/// else its first this many in its own order (description matches first, then id). A
/// query's rows are the first of its rarest words' lists in nearly that order, so one
/// or two packs hold them instead of a record block each (BENCHMARKS.md, "Requests").
pub(crate) const PACK_LEN: usize = 64;
/// A word in more than [`PACK_LEN`] resources also has a second page: the next this many
/// of its own order. Where two words meet sparsely their ten rows reach past the first
/// page (to place 81 to 134 of the better word's order in five of the bench's twelve
/// queries at 15,000 listings), and took a record block each. A record is about 145 bytes
/// gzipped, so at 15,000 both pages, the manifest and two shards stay within a query's
/// 30 KB (BENCHMARKS.md, "API layout 5", with the layouts measured against it).
pub(crate) const NEXT_PACK_LEN: usize = 112;
/// Words in fewer resources than this get no pack and no single-word answer file: a
/// word in one resource (most are ids in URLs) is answered by that resource's record,
/// and a file per such word would make the file count grow with the catalogue twice over.
pub(crate) const MIN_POSTINGS_FOR_FILES: usize = 2;
/// The browse pack holds the first resources in browse order (a query without tokens).
pub(crate) const BROWSE_PACK_LEN: usize = 50;

/// One resource in a posting list: its id, and whether the word is in its description.
pub(crate) type Posting = (u32, bool);

/// Ascending ids with a flag: first `id*2+flag`, then `(gap)*2+flag`.
fn encode_flagged(postings: &[Posting]) -> Vec<u64> {
    let mut prev: Option<u32> = None;
    postings
        .iter()
        .map(|&(id, flag)| {
            let delta = prev.map_or(id, |p| id - p);
            prev = Some(id);
            delta as u64 * 2 + flag as u64
        })
        .collect()
}

fn encode_plain(ids: &[usize]) -> Vec<u64> {
    let mut prev: Option<usize> = None;
    ids.iter()
        .map(|&id| {
            let delta = prev.map_or(id, |p| id - p);
            prev = Some(id);
            delta as u64
        })
        .collect()
}

/// A posting list as its shard holds it: the encoded list, or where the parts of a
/// split list start.
#[derive(Serialize)]
#[serde(untagged)]
enum ShardValue {
    List(Vec<u64>),
    Split { count: usize, from: Vec<u32> },
}

fn shard_value(list: &[Posting]) -> ShardValue {
    if list.len() <= SPLIT_POSTINGS {
        ShardValue::List(encode_flagged(list))
    } else {
        ShardValue::Split { count: list.len(), from: list.chunks(PART_POSTINGS).map(|p| p[0].0).collect() }
    }
}

/// The ids of one page of a word's pack: its postings at `places` of its own order
/// (flagged first, then by id), in id order.
fn pack_ids(list: &[Posting], places: Range<usize>) -> Vec<usize> {
    let own_order = list.iter().filter(|p| p.1).chain(list.iter().filter(|p| !p.1));
    let mut ids: Vec<usize> = own_order.skip(places.start).take(places.len()).map(|p| p.0 as usize).collect();
    ids.sort_unstable();
    ids
}

/// Every posting list of the index: query tokens and network keys. Ids are u32 (a
/// posting is 8 bytes, not 16: the lists of a million listings are tens of millions).
pub fn postings(index: &Index) -> BTreeMap<String, Vec<Posting>> {
    assert!(u32::try_from(index.entries.len()).is_ok(), "more entries than a posting id holds");
    // Entries are cut into runs read in parallel; each run's lists hold ascending ids,
    // and runs are joined in order, so every list comes out ascending.
    const RUN: usize = 4096;
    let runs: Vec<HashMap<&str, Vec<Posting>>> = index
        .entries
        .par_chunks(RUN)
        .enumerate()
        .map(|(run, entries)| {
            let mut lists: HashMap<&str, Vec<Posting>> = HashMap::new();
            for (i, e) in entries.iter().enumerate() {
                let id = (run * RUN + i) as u32;
                // The haystack is normalised text, single spaces between words, so its
                // words are its space-separated pieces (what `for_each_word` would cut);
                // the description's words come first, up to `description_end`.
                let in_description = e.description_haystack().len();
                let mut start = 0;
                for w in e.haystack.split(' ') {
                    let at = start;
                    start += w.len() + 1;
                    if w.is_empty() || w.chars().count() < MIN_TOKEN_CHARS {
                        continue;
                    }
                    let list = lists.entry(w).or_default();
                    // A repeated word keeps its first posting: the earliest place it
                    // occurs, which is in the description if it occurs there at all.
                    if list.last().is_none_or(|&(last, _)| last != id) {
                        list.push((id, at < in_description));
                    }
                }
            }
            lists
        })
        .collect();
    let mut joined: HashMap<&str, Vec<Posting>> = HashMap::new();
    for run in runs {
        for (word, list) in run {
            joined.entry(word).or_default().extend(list);
        }
    }
    // Lists grown by joining runs hold up to twice their length; trimmed, the lists of
    // a million listings are 8 bytes a posting.
    let mut lists: BTreeMap<String, Vec<Posting>> = joined
        .into_iter()
        .map(|(word, mut list)| {
            list.shrink_to_fit();
            (word.to_owned(), list)
        })
        .collect();
    for (id, e) in index.entries.iter().enumerate() {
        for n in &e.networks {
            lists.entry(network_key(n)).or_default().push((id as u32, false));
        }
        if e.testnets_only {
            lists.entry(TESTNETS_ONLY_KEY.to_owned()).or_default().push((id as u32, false));
        }
        if e.answered_402 {
            lists.entry(ANSWERED_402_KEY.to_owned()).or_default().push((id as u32, false));
        }
    }
    lists
}

pub(crate) fn bucket_count(lists: &BTreeMap<String, Vec<Posting>>) -> usize {
    // About three bytes per posting once encoded; a split list leaves only its starts.
    let bytes: usize = lists
        .iter()
        .map(|(k, v)| k.len() + 4 + if v.len() <= SPLIT_POSTINGS { v.len() * 3 } else { v.len() / PART_POSTINGS * 8 })
        .sum();
    (bytes / TARGET_SHARD_BYTES).next_power_of_two().max(MIN_BUCKETS)
}

#[derive(Serialize)]
struct Manifest<'a> {
    api_version: u32,
    /// The absolute address of this layout's format page (docs/static-api.md).
    docs: String,
    method: method::answer::RuleRef,
    segments: Value,
    screening: VersionRef,
    assets: VersionRef,
    snapshot: method::answer::SnapshotRef,
    /// The walk's date, when the next is due and when this snapshot turns stale.
    walk: method::walk::Walk,
    limits: &'a [&'a str],
    counts: Value,
    networks: Value,
    shards: Value,
    records: Value,
    packs: Value,
    prices: Value,
    single_token_answers: Value,
    /// Where the snapshot's probe file is, with its version and counts; absent when the
    /// snapshot was not probed (content/method.md#probe).
    #[serde(skip_serializing_if = "Option::is_none")]
    probe: Option<Value>,
}

/// `report.json`: what reading the snapshot left out or changed (the report page's
/// lists), and the resources whose description is withheld, in browse order, so that a
/// program finds them in one request (docs/static-api.md, report.json).
#[derive(Serialize)]
struct ReportFile<'a> {
    #[serde(flatten)]
    report: &'a method::index::Report,
    withheld: Vec<WithheldRow<'a>>,
}

#[derive(Serialize)]
struct WithheldRow<'a> {
    resource: &'a str,
    id: usize,
    page: String,
    description_withheld: &'a method::screen::Withheld,
}

impl<'a> ReportFile<'a> {
    fn of(index: &'a Index, method: &Method) -> ReportFile<'a> {
        let withheld = index
            .entries
            .iter()
            .enumerate()
            .filter_map(|(id, e)| {
                Some(WithheldRow {
                    resource: &e.resource.url,
                    id,
                    page: method::view::page_url(method, index, e),
                    description_withheld: e.withheld.as_deref()?,
                })
            })
            .collect();
        ReportFile { report: &index.report, withheld }
    }
}

/// A resource's record: the listing as its answer row publishes it, less the query's
/// match_score, plus its id and page slug (docs/static-api.md, records): `{`, the
/// listing's members ([`Listing::members`]), then `"id"` and `"slug"`. It keeps where
/// the members split and end, so that the listing's rows in the single-word answers are
/// joined from the same bytes ([`Row::write_joined`]) rather than made again. The tests
/// `records_are_rows_without_the_match_score` and `kept_records_join_the_rows_serde_writes`
/// hold both to what serde writes.
struct Record {
    json: Vec<u8>,
    split: usize,
    members_end: usize,
}

impl Record {
    fn of(e: &Entry, id: usize, index: &Index, method: &Method) -> Record {
        #[derive(Serialize)]
        struct Tail<'s> {
            id: usize,
            slug: &'s str,
        }
        let (members, split) = Listing::of(e, index, method).members();
        // `{"id":…,"slug":…}` less its opening brace ends the record.
        let tail = to_bytes(&Tail { id, slug: &e.slug() });
        let mut json = Vec::with_capacity(members.len() + tail.len() + 1);
        json.push(b'{');
        json.extend_from_slice(&members);
        json.push(b',');
        json.extend_from_slice(&tail[1..]);
        Record { json, split, members_end: 1 + members.len() }
    }

    /// The listing's answer row with `match_score`, appended to `out`.
    fn write_row(&self, match_score: u32, out: &mut Vec<u8>) {
        Row::write_joined(&self.json[1..self.members_end], self.split, match_score, out);
    }
}

/// Up to this many entries, every record is made once and kept while the API is
/// written (100 MB at most); above it, records are made where they are needed.
const RECORD_CACHE: usize = 100_000;
/// Files per batch where each is tens of kilobytes (record blocks, packs): 4,096 of
/// them were 100 MB and more in flight at once.
const LARGE_FILE_BATCH: usize = 512;

/// Makes every API file of the snapshot and hands them to `sink` in batches.
pub(crate) fn write_api_files(index: &Index, method: &Method, sink: Sink) -> Result<(), Error> {
    let lists = phase("api: posting lists", || postings(index));
    let buckets = bucket_count(&lists);
    write_shards(&lists, buckets, sink)?;
    let split: BTreeMap<&str, ShardValue> =
        lists.iter().filter(|(_, l)| l.len() > SPLIT_POSTINGS).map(|(k, l)| (k.as_str(), shard_value(l))).collect();
    write_price_ladder(index, sink)?;
    let records = phase("api: records", || Records::new(index, method));
    phase("api: record blocks", || write_record_blocks(&records, sink))?;
    phase("api: packs and answers", || write_packs_and_answers(&lists, &records, sink))?;
    let browse = 0..index.entries.len().min(BROWSE_PACK_LEN);
    let mut files = vec![
        (names::BROWSE_PACK.file(&[]), records.pack(browse)),
        (names::MANIFEST.file(&[]), to_bytes(&manifest(index, method, buckets, &split))),
        (names::REPORT.file(&[]), to_bytes(&ReportFile::of(index, method))),
    ];
    // The probe file as it was recorded: under the folder's API, so the lock's digest of
    // the answers holds it and it is written once (content/method.md#probe).
    if let Some(p) = &index.probe {
        files.push((names::PROBE.file(&[]), to_bytes(p)));
    }
    sink(files)
}

/// The posting lists: `shards/{bucket}.json`, and the parts of lists longer than
/// [`SPLIT_POSTINGS`] under `shards/parts/`.
fn write_shards(lists: &BTreeMap<String, Vec<Posting>>, buckets: usize, sink: Sink) -> Result<(), Error> {
    let mut files = Vec::new();
    // Each shard's values are made only as its file is: held as JSON trees, the
    // postings of every shard took 50 bytes each (a number is a string here).
    let mut by_bucket: Vec<Vec<(&str, &[Posting])>> = vec![Vec::new(); buckets];
    for (key, list) in lists {
        by_bucket[bucket(key, buckets)].push((key, list));
    }
    for (key, list) in lists.iter().filter(|(_, l)| l.len() > SPLIT_POSTINGS) {
        let parts = list.chunks(PART_POSTINGS).enumerate();
        files.extend(
            parts.map(|(k, part)| (names::SHARD_PARTS.file(&[&token_file(key), &k]), to_bytes(&encode_flagged(part)))),
        );
        if files.len() >= LARGE_FILE_BATCH {
            sink(std::mem::take(&mut files))?;
        }
    }
    for (start, chunk) in by_bucket.chunks(LARGE_FILE_BATCH).enumerate() {
        files.par_extend(chunk.par_iter().enumerate().map(|(i, keys)| {
            let shard: BTreeMap<&str, ShardValue> = keys.iter().map(|&(key, list)| (key, shard_value(list))).collect();
            (names::SHARDS.file(&[&(start * LARGE_FILE_BATCH + i)]), to_bytes(&shard))
        }));
        sink(std::mem::take(&mut files))?;
    }
    Ok(())
}

/// `prices.json`: the ids of each exact lowest USD price, cheapest first.
fn write_price_ladder(index: &Index, sink: Sink) -> Result<(), Error> {
    let mut ladder: BTreeMap<String, (Decimal, Vec<usize>)> = BTreeMap::new();
    for (id, e) in index.entries.iter().enumerate() {
        if let Some(p) = e.min_price_usd {
            ladder.entry(p.to_string()).or_insert_with(|| (p, Vec::new())).1.push(id);
        }
    }
    let mut rungs: Vec<(Decimal, Vec<usize>)> = ladder.into_values().collect();
    rungs.sort_by(|a, b| a.0.cmp_exact(&b.0));
    let rungs: Vec<Value> = rungs.iter().map(|(p, ids)| json!([p.to_string(), encode_plain(ids)])).collect();
    sink(vec![(names::PRICES.file(&[]), to_bytes(&json!({ "ladder": rungs })))])
}

/// The resources' records as bytes. A resource's record goes into its block and into
/// every pack of its words (ten or so). Up to [`RECORD_CACHE`] entries each record is
/// made once and kept (about 1 KB each); past that it is made again for each pack
/// rather than all held at once.
struct Records<'a> {
    index: &'a Index,
    method: &'a Method<'a>,
    cached: Option<Vec<Record>>,
}

impl<'a> Records<'a> {
    fn new(index: &'a Index, method: &'a Method) -> Records<'a> {
        let mut records = Records { index, method, cached: None };
        if index.entries.len() <= RECORD_CACHE {
            records.cached = Some((0..index.entries.len()).into_par_iter().map(|id| records.make(id)).collect());
        }
        records
    }

    fn make(&self, id: usize) -> Record {
        Record::of(&self.index.entries[id], id, self.index, self.method)
    }

    fn bytes(&self, id: usize) -> std::borrow::Cow<'_, [u8]> {
        match &self.cached {
            Some(records) => std::borrow::Cow::Borrowed(&records[id].json),
            None => std::borrow::Cow::Owned(self.make(id).json),
        }
    }

    /// The single-word answer of `token`: its rows joined from the kept records where
    /// they are kept, else made ([`single_word_answer`]); the same bytes either way.
    fn single_word_answer(&self, token: &str, list: &[Posting]) -> Vec<u8> {
        let (index, method) = (self.index, self.method);
        match (&self.cached, single_word_ranking(index, method, token, list)) {
            (Some(records), Some((answer, page))) => {
                let mut rows = Vec::with_capacity(page.iter().map(|&(_, id)| records[id].json.len() + 24).sum());
                for (i, &(score, id)) in page.iter().enumerate() {
                    if i > 0 {
                        rows.push(b',');
                    }
                    records[id].write_row(score, &mut rows);
                }
                answer.to_vec_with_rows(&rows)
            }
            _ => to_bytes(&single_word_answer(index, method, token, list)),
        }
    }

    /// The records of `ids` as a JSON array: their bytes joined.
    fn pack(&self, ids: impl IntoIterator<Item = usize, IntoIter: Clone>) -> Vec<u8> {
        let ids = ids.into_iter();
        // Sized at once where the records are kept: grown as it went, a pack of 176
        // records was copied over seven times.
        let size =
            self.cached.as_ref().map_or(0, |records| ids.clone().map(|id| records[id].json.len() + 1).sum::<usize>());
        let mut out = Vec::with_capacity(size + 2);
        out.push(b'[');
        for (i, id) in ids.enumerate() {
            if i > 0 {
                out.push(b',');
            }
            out.extend_from_slice(&self.bytes(id));
        }
        out.push(b']');
        out
    }
}

/// `records/{block}.json`: [`RECORD_BLOCK`] records a file, by id.
fn write_record_blocks(records: &Records, sink: Sink) -> Result<(), Error> {
    let n = records.index.entries.len();
    let blocks = n.div_ceil(RECORD_BLOCK);
    for start in (0..blocks).step_by(LARGE_FILE_BATCH) {
        let batch = start..(start + LARGE_FILE_BATCH).min(blocks);
        sink(
            batch
                .into_par_iter()
                .map(|b| (names::record_block_file(b), records.pack(b * RECORD_BLOCK..((b + 1) * RECORD_BLOCK).min(n))))
                .collect(),
        )?;
    }
    Ok(())
}

/// For each word in at least [`MIN_POSTINGS_FOR_FILES`] resources, its single-word
/// answer `q/{token_file}.json` and its pack `packs/{token_file}.json`; for a word in
/// more than [`PACK_LEN`], also its pack's second page `packs/2/{token_file}.json`.
fn write_packs_and_answers(lists: &BTreeMap<String, Vec<Posting>>, records: &Records, sink: Sink) -> Result<(), Error> {
    let with_files: Vec<(&String, &Vec<Posting>)> =
        lists.iter().filter(|(k, l)| !k.starts_with('@') && l.len() >= MIN_POSTINGS_FOR_FILES).collect();
    for chunk in with_files.chunks(LARGE_FILE_BATCH) {
        let mut batch: Vec<(String, Vec<u8>)> = chunk
            .par_iter()
            .map(|(token, list)| (names::PACKS.file(&[&token_file(token)]), records.pack(pack_ids(list, 0..PACK_LEN))))
            .collect();
        batch.par_extend(chunk.par_iter().filter(|(_, list)| list.len() > PACK_LEN).map(|(token, list)| {
            let ids = pack_ids(list, PACK_LEN..PACK_LEN + NEXT_PACK_LEN);
            (names::NEXT_PACKS.file(&[&token_file(token)]), records.pack(ids))
        }));
        batch.par_extend(chunk.par_iter().map(|(token, list)| {
            (names::ANSWERS.file(&[&token_file(token)]), records.single_word_answer(token, list))
        }));
        sink(batch)?;
    }
    Ok(())
}

/// The manifest: versions, the snapshot, the source's limits, counts, and where every
/// other file is (docs/static-api.md, `manifest.json`).
fn manifest(index: &Index, method: &Method, buckets: usize, split: &BTreeMap<&str, ShardValue>) -> Manifest<'static> {
    let aliases: BTreeMap<&str, &str> =
        method.assets.networks.iter().map(|n| (n.legacy.as_str(), n.caip2.as_str())).collect();
    let empty = answer(index, method, "", &Filters { limit: 1, ..Filters::default() });
    Manifest {
        api_version: API_VERSION,
        docs: names::absolute(&method.site.base_url, &names::static_api_page(API_VERSION)),
        method: method_ref(method),
        // Results carry segment ids; people read the labels (and facet pages are by id).
        segments: json!({
            "version": empty.meta.segments.version,
            "labels": method.segments.segments.iter().map(|s| (s.id.as_str(), s.label.as_str())).collect::<BTreeMap<_, _>>(),
        }),
        screening: empty.meta.screening,
        assets: empty.meta.assets,
        walk: method::walk::Walk::of(&index.header.date),
        snapshot: empty.meta.snapshot,
        limits: &SOURCE_LIMITS,
        counts: json!({
            "entries": index.entries.len(),
            "withheld": index.entries.iter().filter(|e| e.withheld.is_some()).count(),
            "quarantined": index.report.quarantined.len(),
            "rejected": index.report.rejected.len(),
        }),
        networks: json!({ "aliases": aliases, "known": networks::known(index, method.assets) }),
        shards: json!({
            "hash": "fnv1a32",
            "buckets": buckets,
            "path": names::SHARDS.template(),
            "split_postings": SPLIT_POSTINGS,
            "part_postings": PART_POSTINGS,
            "parts_path": names::SHARD_PARTS.template(),
            // The same entries as in their shards: a query of a common word need not
            // fetch its shard to learn where its parts are.
            "split": split,
        }),
        // Ids are browse order, so the blocks in order are the browse order's pages.
        records: json!({
            "path": names::RECORD_BLOCKS.template(),
            "block": RECORD_BLOCK,
            "blocks": index.entries.len().div_ceil(RECORD_BLOCK),
        }),
        packs: json!({
            "path": names::PACKS.template(),
            "min_postings": MIN_POSTINGS_FOR_FILES,
            "len": PACK_LEN,
            "next_path": names::NEXT_PACKS.template(),
            "next_len": NEXT_PACK_LEN,
            "browse": names::BROWSE_PACK.template(),
            "browse_len": BROWSE_PACK_LEN.min(index.entries.len()),
        }),
        prices: json!({"path": names::PRICES.template()}),
        single_token_answers: json!({
            "path": names::ANSWERS.template(),
            "min_postings": MIN_POSTINGS_FOR_FILES,
            "token_file": "the token itself when it is at most 64 characters a-z and 0-9; else, when its UTF-8 is at most 64 bytes, 'u-' and their lower-case hex; else 'h-' and the lower-case hex SHA-256 of its UTF-8 bytes",
        }),
        probe: index.probe.as_ref().map(|p| {
            json!({
                "path": names::PROBE.template(),
                "probe_version": p.probe_version,
                "started": p.started,
                "counts": p.summary(),
            })
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_files_are_safe_names() {
        assert_eq!(token_file("weather"), "weather");
        assert_eq!(token_file("天气"), "u-e5a4a9e6b094");
        assert_eq!(token_file("ünï"), "u-c3bc6ec3af");
        assert_eq!(token_file(&"a".repeat(64)), "a".repeat(64));
        let long = token_file(&"a".repeat(65));
        assert!(long.starts_with("h-") && long.len() == 66, "{long}");
        assert_eq!(token_file(&"é".repeat(33)), format!("h-{}", token_file(&"é".repeat(33)).trim_start_matches("h-")));
        assert!(token_file(&"é".repeat(32)).starts_with("u-"));
    }

    /// The record is the answer row less its match_score, plus id and slug, byte for
    /// byte: built here the slow way (the row as a JSON tree, edited) for every
    /// resource of the stored snapshots.
    #[test]
    fn records_are_rows_without_the_match_score() {
        let method = Method::embedded();
        let mut checked = 0;
        for file in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/snapshots")).unwrap() {
            let snapshot = catalogue::snapshot::Snapshot::read(&file.unwrap().path()).unwrap();
            let index = Index::build(&snapshot, &method);
            for (id, e) in index.entries.iter().enumerate() {
                let mut row = serde_json::to_value(method::answer::row(e, 7, &index, &method)).unwrap();
                let obj = row.as_object_mut().unwrap();
                assert_eq!(obj.shift_remove("match_score"), Some(json!(7)));
                obj.insert("id".into(), json!(id));
                obj.insert("slug".into(), json!(e.slug()));
                assert_eq!(Record::of(e, id, &index, &method).json, to_bytes(&row), "{}", e.resource.url);
                checked += 1;
            }
        }
        assert!(checked > 2000, "{checked}");
    }

    /// A kept record's rows, and the single-word answers joined from them, are the bytes
    /// serde writes for the rows and answers made afresh: every resource of the stored
    /// snapshots at two match_scores, and every word's answer file of each.
    #[test]
    fn kept_records_join_the_rows_serde_writes() {
        let method = Method::embedded();
        let (mut rows, mut answers) = (0, 0);
        for file in std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../../content/snapshots")).unwrap() {
            let snapshot = catalogue::snapshot::Snapshot::read(&file.unwrap().path()).unwrap();
            let index = Index::build(&snapshot, &method);
            let kept = Records::new(&index, &method);
            assert!(kept.cached.is_some());
            for (id, e) in index.entries.iter().enumerate() {
                for score in [0, 12] {
                    let mut joined = Vec::new();
                    kept.cached.as_ref().unwrap()[id].write_row(score, &mut joined);
                    assert_eq!(joined, to_bytes(&method::answer::row(e, score, &index, &method)), "{}", e.resource.url);
                    rows += 1;
                }
            }
            let made = Records { index: &index, method: &method, cached: None };
            for (token, list) in
                postings(&index).iter().filter(|(k, l)| !k.starts_with('@') && l.len() >= MIN_POSTINGS_FOR_FILES)
            {
                let fresh = to_bytes(&single_word_answer(&index, &method, token, list));
                assert_eq!(kept.single_word_answer(token, list), fresh, "{token}");
                assert_eq!(made.single_word_answer(token, list), fresh, "{token}");
                answers += 1;
            }
        }
        assert!(rows > 4000 && answers > 1000, "{rows} rows, {answers} answers");
    }

    #[test]
    fn postings_encode_gaps_and_flags() {
        assert_eq!(encode_flagged(&[(3, true), (4, false), (10, true)]), vec![7, 2, 13]);
        assert_eq!(encode_plain(&[0, 5, 6]), vec![0, 5, 1]);
    }
}
