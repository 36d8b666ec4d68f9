// Explore mode: ranks a need phrased in any words from the snapshot's explore API
// (docs/static-api.md, "Explore"), exactly as `x402dir explore` does (src/explore/):
// BM25 and word-vector lists, fused by reciprocal rank, nudged by payers, recency and
// price. Explore is not the directory's answer; the method's rule (composer.js) is.
//
// Every step is whole-number arithmetic or IEEE-754 double addition, multiplication and
// division in the same order as the Rust code, so the two agree bit for bit.

import {
  SourceUnavailable,
  count,
  el,
  errorView,
  fetchBuckets,
  fill,
  loadManifest,
  need,
  parseFilters,
  pathOf,
  ratioCell,
  labelCells,
  withTableRoles,
  read,
  reader,
  recordsInBlocks,
  resourceCell,
  tokeniseExcept,
} from "./composer.js";
import { EXPLORE_VERSION } from "./rules.js";

export { EXPLORE_VERSION };

const REBUILD = "rebuild and republish this snapshot's folder (x402dir build)";

async function loadExplore(fetchJson) {
  const manifest = await loadManifest(fetchJson);
  const explore = await read(fetchJson, "explore/manifest.json");
  if (explore === null) {
    throw new SourceUnavailable("this snapshot has no explore index (explore/manifest.json is missing)", REBUILD);
  }
  if (explore.explore?.version !== EXPLORE_VERSION) {
    throw new SourceUnavailable(
      `the explore index was built by explore ${explore.explore?.version}, but this page reads explore ` +
        `${EXPLORE_VERSION}; rankings are comparable only under one version`,
      `use the explore.js published in that snapshot's own folder, or ${REBUILD}`,
    );
  }
  return { manifest, explore };
}

/** Rust's explore_words: the method's words, less stopwords (from the explore manifest). */
export function exploreWords(text, stopwords) {
  const stop = new Set(stopwords);
  const { tokens, ...dropped } = tokeniseExcept(text, (w) => stop.has(w));
  return { words: tokens, ...dropped };
}

/** Signed bytes from base64. */
function bytes(text) {
  const raw = atob(text);
  const out = new Int8Array(raw.length);
  for (let i = 0; i < raw.length; i += 1) out[i] = (raw.charCodeAt(i) << 24) >> 24;
  return out;
}

/** dot(q, v) * invNorm: Rust's ByteVector::similarity. */
function similarity(q, invNorm, v) {
  let dot = 0;
  for (let j = 0; j < q.length; j += 1) dot += q[j] * v[j];
  return dot * invNorm;
}

const byValueThenId = (a, b) => b[1] - a[1] || a[0] - b[0];

async function bm25List(fetchJson, explore, words) {
  if (words.length === 0) return [];
  const postings = await fetchBuckets(fetchJson, explore.terms, words);
  const totals = new Map();
  for (const word of words) {
    const flat = postings.get(word) ?? [];
    for (let i = 0; i < flat.length; i += 2) totals.set(flat[i], (totals.get(flat[i]) ?? 0) + flat[i + 1]);
  }
  return [...totals].sort(byValueThenId).slice(0, explore.list_depth).map(([id]) => id);
}

async function denseList(fetchJson, explore, words) {
  const none = { ids: [], missing: [...words], listsRead: 0, compared: 0 };
  if (words.length === 0) return none;
  const rows = await fetchBuckets(fetchJson, explore.words, words);
  const q = new Array(explore.words.dims).fill(0);
  const missing = [];
  let any = false;
  for (const word of words) {
    const row = rows.get(word);
    if (row === null) {
      missing.push(word);
      continue;
    }
    const [weight, text] = row;
    const v = bytes(text);
    for (let j = 0; j < q.length; j += 1) q[j] += weight * v[j];
    any = true;
  }
  if (!any) return { ...none, missing };
  const centroids = await need(fetchJson, explore.ivf.centroids);
  const probed = centroids
    .map(([inv, text], i) => [i, similarity(q, inv, bytes(text))])
    .sort(byValueThenId)
    .slice(0, explore.ivf.nprobe)
    .map(([i]) => i);
  const lists = await Promise.all(probed.map((l) => need(fetchJson, fill(explore.ivf.path, "list", l))));
  const scored = [];
  let compared = 0;
  for (const list of lists) {
    compared += list.length;
    for (const [id, inv, text] of list) {
      const s = similarity(q, inv, bytes(text));
      if (s > 0) scored.push([id, s]);
    }
  }
  scored.sort(byValueThenId);
  return { ids: scored.slice(0, explore.list_depth).map(([id]) => id), missing, listsRead: probed.length, compared };
}

/** The re-rank's facts of `ids`: id -> [payers, recency, price] competition ranks. */
async function facts(fetchJson, explore, ids) {
  const { block, path } = explore.facts;
  const blocks = [...new Set(ids.map((id) => Math.floor(id / block)))];
  const files = await Promise.all(blocks.map((b) => need(fetchJson, fill(path, "block", b))));
  const byBlock = new Map(blocks.map((b, i) => [b, files[i]]));
  return new Map(ids.map((id) => [id, byBlock.get(Math.floor(id / block))[id % block]]));
}

/** Rust's fuse::fuse: reciprocal rank fusion, then the prior nudge. */
function fuse(explore, bm25, dense, factsOf) {
  const k = explore.rrf_k;
  const reciprocal = (rank) => (rank === null ? 0 : 1 / (k + rank));
  const position = (list, id) => {
    const i = list.indexOf(id);
    return i < 0 ? null : i + 1;
  };
  const ids = [...new Set([...bm25, ...dense])].sort((a, b) => a - b);
  const items = ids.map((id) => {
    const b = position(bm25, id);
    const d = position(dense, id);
    return { id, b, d, fused: reciprocal(b) + reciprocal(d), facts: factsOf.get(id) };
  });
  items.sort((x, y) => y.fused - x.fused || x.id - y.id);
  const among = (column, value) =>
    value === null ? null : 1 + items.filter((i) => i.facts[column] !== null && i.facts[column] < value).length;
  const out = items.map((item, i) => {
    const ranks = {
      bm25: item.b,
      dense: item.d,
      fused: i + 1,
      payers: among(0, item.facts[0]),
      recency: among(1, item.facts[1]),
      price: among(2, item.facts[2]),
    };
    const prior = reciprocal(ranks.payers) + reciprocal(ranks.recency) + reciprocal(ranks.price);
    return { value: item.fused + explore.prior_weight * prior, id: item.id, ranks };
  });
  out.sort((x, y) => y.value - x.value || x.ranks.fused - y.ranks.fused);
  return out;
}

function ruleText(explore, words, limit) {
  if (words.length === 0) return explore.rule.empty;
  return explore.rule.template
    .replace("{limit}", String(limit))
    .replace("{words}", words.join(explore.rule.words_joined_by));
}

const ROW_FIELDS = [
  "resource", "service_name", "description", "description_withheld", "min_price_usd", "networks",
  "unique_payers_30d", "calls_30d", "calls_per_payer", "days_since_last_call",
];

async function run(fetchJson, text, limit) {
  const { manifest, explore } = await loadExplore(fetchJson);
  const tokens = exploreWords(text, explore.stopwords);
  const words = tokens.words;
  const [bm25, dense] = await Promise.all([bm25List(fetchJson, explore, words), denseList(fetchJson, explore, words)]);
  const candidates = [...new Set([...bm25, ...dense.ids])];
  const fused = fuse(explore, bm25, dense.ids, await facts(fetchJson, explore, candidates));
  const top = fused.slice(0, limit);
  const records = await recordsInBlocks(fetchJson, explore.records, top.map(({ id }) => id));
  const data = records.map((record, i) => {
    const row = { position: i + 1 };
    for (const field of ROW_FIELDS) row[field] = record[field];
    row.ranks = top[i].ranks;
    row.operator_listing = record.operator_listing;
    row.page = record.page;
    return row;
  });
  return {
    meta: {
      explore: explore.explore,
      method: explore.method,
      not_the_method_answer: explore.not_the_method_answer,
      snapshot: manifest.snapshot,
      limits: manifest.limits,
      query: {
        text,
        words,
        dropped_short: tokens.dropped_short,
        dropped_stopwords: tokens.dropped_stopwords,
        dropped_over_limit: tokens.dropped_over_limit,
        words_without_vector: dense.missing,
        limit,
        rule: ruleText(explore, words, limit),
      },
      lists: {
        bm25: bm25.length,
        dense: dense.ids.length,
        depth: explore.list_depth,
        dense_lists_read: dense.listsRead,
        dense_lists: explore.ivf.lists,
        dense_documents_compared: dense.compared,
        fused: fused.length,
      },
      returned: data.length,
    },
    data,
  };
}

/**
 * Explores `text` from `source` (an API base URL ending in "/api/", or { fetchJson(path) }
 * resolving to parsed JSON or null): Rust's explore envelope, or { error: {
 * code: "SOURCE_UNAVAILABLE", message, fix } }. A bad limit throws INVALID_FILTER first.
 */
export async function explore(source, text, { limit } = {}) {
  const applied = parseFilters({ limit });
  const fetchJson = reader(source);
  try {
    return await run(fetchJson, String(text ?? ""), applied.limit);
  } catch (e) {
    if (!(e instanceof SourceUnavailable)) throw e;
    return { error: { code: "SOURCE_UNAVAILABLE", message: e.message, fix: e.fix } };
  }
}

// ---------------------------------------------------------------------------------------
// Rendering: text nodes only.

const NUM = { class: "num" };
const rank = (r) => (r === null ? "—" : String(r));

function exploreRow(doc, row) {
  const num = (text) => el(doc, "td", NUM, text);
  const tr = el(
    doc,
    "tr",
    { "data-position": row.position },
    num(String(row.position)),
    resourceCell(doc, row),
    num(rank(row.ranks.bm25)),
    num(rank(row.ranks.dense)),
    num(String(row.ranks.fused)),
    num(count(row.unique_payers_30d)),
    ratioCell(doc, row, "Calls per payer"),
    num(count(row.days_since_last_call)),
    num(row.min_price_usd === null ? "—" : `$${row.min_price_usd}`),
  );
  return labelCells(tr, COLUMNS);
}

const COLUMNS = [
  "#", "Resource", "BM25 rank", "Dense rank", "Fused rank", "Payers (30 d)", "Calls per payer",
  "Days since last call", "Lowest USD price",
];

function exploreView(doc, answer) {
  const { meta, data } = answer;
  const q = meta.query;
  const p = (cls, ...children) => el(doc, "p", { class: cls }, ...children);
  const summary = [
    p("not-method", meta.not_the_method_answer),
    ...meta.snapshot.notices.map((n) => el(doc, "p", { class: "notice" }, el(doc, "strong", {}, n))),
    p("tokens", `Words: ${q.words.length ? q.words.join(", ") : "none usable"}.`),
    q.words_without_vector.length ? p("dropped", `No word vector for: ${q.words_without_vector.join(", ")}.`) : null,
    p("rule", `How this list was made: ${q.rule}.`),
    el(doc, "p", { class: "counts", "data-returned": meta.returned },
      `BM25 list ${meta.lists.bm25}, dense list ${meta.lists.dense} (${meta.lists.dense_lists_read} of ` +
        `${meta.lists.dense_lists} clusters read), ${meta.lists.fused} candidates; showing ${meta.returned}`),
    p("snapshot", `Snapshot of ${meta.snapshot.date}. Explore `,
      el(doc, "a", { href: pathOf(meta.explore.url) }, meta.explore.version), ", beside method ",
      el(doc, "a", { href: pathOf(meta.method.url) }, meta.method.version), "."),
    el(doc, "ul", { class: "limits" }, ...meta.limits.map((limit) => el(doc, "li", {}, limit))),
  ].filter(Boolean);
  if (data.length === 0) return ["empty", [p("empty", "Nothing retrieved for these words."), ...summary]];
  const head = el(doc, "tr", {}, ...COLUMNS.map((label) => el(doc, "th", { scope: "col" }, label)));
  const table = el(doc, "div", { class: "table-wrap" },
    withTableRoles(el(doc, "table", { class: "resources explore" },
      el(doc, "caption", {}, `Explore results 1 to ${meta.returned}, with each list's rank`),
      el(doc, "thead", {}, head),
      el(doc, "tbody", {}, ...data.map((row) => exploreRow(doc, row))))));
  return ["results", [...summary, table]];
}

/** Shows an explore envelope or an error in `container`; sets data-state. */
export function renderExplore(container, answerOrError, doc = container.ownerDocument) {
  const [state, nodes] = answerOrError.error ? errorView(doc, answerOrError.error) : exploreView(doc, answerOrError);
  container.setAttribute("data-state", state);
  container.replaceChildren(...nodes);
}
