// The query composer: answers a query in the browser (or Node) from the static JSON API
// of one snapshot (docs/static-api.md), by exactly the rule of the Rust code
// (src/method/): same tokens, same filters, same order, same answer envelope.
// Plain ES module, no dependencies, no build step.

import { WORD, LOWER, LOWER_MULTI } from "./chars.js";
// Every limit, version and sentence of the rule comes from the Rust code, through this
// generated module (src/site/composer_rules.rs): none is spelled here.
import {
  API_VERSION,
  DEFAULT_LIMIT,
  FILTER_ERRORS,
  LIMIT_MAX_DIGITS,
  MAX_DECIMALS,
  MAX_DIGITS,
  MAX_LIMIT,
  MAX_TOKENS,
  METHOD_VERSION,
  MIN_TOKEN_CHARS,
  NETWORK_KEY,
  RULE_JOINED_BY,
  RULE_MAX_PRICE,
  RULE_NETWORK,
  RULE_NO_TOKENS,
  RULE_ORDER,
  RULE_TOKENS,
  TOKEN_FILE_MAX_BYTES,
} from "./rules.js";

export { METHOD_VERSION };

// ---------------------------------------------------------------------------------------
// Character tables. Never the browser's own Unicode (toLowerCase, \p{…}): its version
// differs from Rust's, and one differing character would change an answer. The encoding
// is documented in src/site/chars.rs.

const base36 = (s) => (s.startsWith("-") ? -parseInt(s.slice(1), 36) : parseInt(s, 36));

/** Word-character ranges as [start, end) pairs, flattened and ascending. */
function decodeWordRanges(text) {
  const bounds = [];
  let end = 0;
  for (const pair of text.split(",")) {
    const [gap, len] = pair.split(".").map(base36);
    const start = end + gap;
    end = start + len;
    bounds.push(start, end);
  }
  return Uint32Array.from(bounds);
}

/** Code point -> its lower-case code points, for every code point that changes. */
function decodeLowerMap(runs, multi) {
  const map = new Map();
  let start = 0;
  for (const run of runs.split(",")) {
    const [gap, count, stride, delta] = run.split(".").map(base36);
    start += gap;
    for (let k = 0; k < count; k++) {
      const cp = start + k * stride;
      map.set(cp, [cp + delta]);
    }
  }
  for (const pair of multi.split(",").filter(Boolean)) {
    const [cp, tail] = pair.split(":");
    map.set(base36(cp), tail.split(".").map(base36));
  }
  return map;
}

const WORD_BOUNDS = decodeWordRanges(WORD);
const LOWER_MAP = decodeLowerMap(LOWER, LOWER_MULTI);

/** True when code point `cp` is alphanumeric under the method's rule (Rust's is_alphanumeric). */
function isWordChar(cp) {
  // Binary search for the last range start <= cp.
  let lo = 0;
  let hi = WORD_BOUNDS.length / 2;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (WORD_BOUNDS[mid * 2] <= cp) lo = mid + 1;
    else hi = mid;
  }
  return lo > 0 && cp < WORD_BOUNDS[(lo - 1) * 2 + 1];
}

// ---------------------------------------------------------------------------------------
// Normalising and tokenising (content/method.md#normalisation, #query), as src/method/normalise.rs.

/** Calls emit(word, lengthInCodePoints) for each lower-cased word of `text`, in order. */
function forEachWord(text, emit) {
  let word = "";
  let length = 0;
  // for…of walks code points; a lone surrogate arrives on its own and is in no range.
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    for (const lower of LOWER_MAP.get(cp) ?? [cp]) {
      if (isWordChar(lower)) {
        word += String.fromCodePoint(lower);
        length += 1;
      } else if (length > 0) {
        emit(word, length);
        word = "";
        length = 0;
      }
    }
  }
  if (length > 0) emit(word, length);
}

/** The words of `text`, lower-cased, in order, with repeats. */
export function words(text) {
  const out = [];
  forEachWord(text, (w) => out.push(w));
  return out;
}

/** Words separated by single spaces and padded with one space at each end. */
export function normalise(text) {
  let out = " ";
  forEachWord(text, (w) => {
    out += w + " ";
  });
  return out;
}

/** The tokens of a query and what was left out of them (Rust's `tokenise`). */
export function tokenise(query) {
  const { dropped_stopwords: _, ...out } = tokeniseExcept(query, () => false);
  return out;
}

/**
 * `tokenise`, also leaving out the words `skip` names (Rust's `tokenise_except`, for
 * explore's stopwords): they are returned apart, in query order, and take no place.
 */
export function tokeniseExcept(query, skip) {
  const out = { tokens: [], dropped_short: [], dropped_over_limit: [], dropped_stopwords: [] };
  const seen = new Set();
  forEachWord(query, (w, length) => {
    // A repeat is skipped before it is classified, so it is never reported twice.
    if (seen.has(w)) return;
    seen.add(w);
    if (length < MIN_TOKEN_CHARS) out.dropped_short.push(w);
    else if (skip(w)) out.dropped_stopwords.push(w);
    else if (out.tokens.length >= MAX_TOKENS) out.dropped_over_limit.push(w);
    else out.tokens.push(w);
  });
  return out;
}

// ---------------------------------------------------------------------------------------
// Exact decimals (src/method/assets.rs). Prices are compared as BigInt fractions so that
// no float ever decides whether a resource is inside a price filter.

/** units / 10^scale from well-formed decimal text ("0.01", "5", ".5"). */
function toDecimal(text) {
  const [int, frac = ""] = text.split(".");
  return { units: BigInt((int + frac) || "0"), scale: frac.length };
}

/** Rust's Decimal::parse: digits with at most one point, ≤18 decimals, ≤30 digits; else null. */
function parseDecimal(text) {
  const dot = text.indexOf(".");
  const int = dot < 0 ? text : text.slice(0, dot);
  const frac = dot < 0 ? "" : text.slice(dot + 1);
  const digits = /^[0-9]*$/;
  const ok =
    (int !== "" || frac !== "") &&
    !text.endsWith(".") &&
    digits.test(int) &&
    digits.test(frac) &&
    frac.length <= MAX_DECIMALS &&
    int.length + frac.length <= MAX_DIGITS;
  return ok ? toDecimal(text) : null;
}

/** Rust's Decimal Display: the shortest exact form ("0.01", "5", "0"). */
function formatDecimal({ units, scale }) {
  // Padded so that there is always at least one digit before the point.
  const digits = units.toString().padStart(scale + 1, "0");
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, "");
  return frac ? `${int}.${frac}` : int;
}

/** Exact order of two decimals of any scale: negative, zero or positive. */
function compareDecimals(a, b) {
  const scale = Math.max(a.scale, b.scale);
  const x = a.units * 10n ** BigInt(scale - a.scale);
  const y = b.units * 10n ** BigInt(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---------------------------------------------------------------------------------------
// Filters (content/method.md#filters), as Filters::parse in src/method/query.rs.

/** Rust's `{:?}` of a string, as FilterError quotes the rejected value. */
function debugQuote(text) {
  const escapes = new Map([["\0", "\\0"], ["\t", "\\t"], ["\r", "\\r"], ["\n", "\\n"], ["\\", "\\\\"], ['"', '\\"']]);
  // Rust escapes what it cannot print: controls, format and private-use characters,
  // unassigned code points, separators other than the space, and combining marks.
  // (This only shapes an error message, so the runtime's Unicode tables are acceptable.)
  const unprintable = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Grapheme_Extend}]|(?! )\p{Zs}/u;
  let out = "";
  for (const ch of text) {
    if (escapes.has(ch)) out += escapes.get(ch);
    else if (unprintable.test(ch)) out += `\\u{${ch.codePointAt(0).toString(16)}}`;
    else out += ch;
  }
  return `"${out}"`;
}

function filterError(field, value) {
  const error = new Error(fill(FILTER_ERRORS[field], "value", debugQuote(value)));
  error.code = "INVALID_FILTER";
  error.field = field;
  return error;
}

/** Rust's is_valid_network_id: a CAIP-2 chain id or a legacy network name. */
export function isValidNetworkId(id) {
  // JavaScript's `$` (without the m flag) matches only at the very end, so no trailing newline slips through.
  return /^[a-z0-9-]{3,8}:[A-Za-z0-9_-]{1,32}$/.test(id) || /^[a-z0-9][a-z0-9-]{0,63}$/.test(id);
}

const LIMIT_DIGITS = new RegExp(`^[0-9]{1,${LIMIT_MAX_DIGITS}}$`);

function parseLimit(text) {
  const n = LIMIT_DIGITS.test(text) ? Number(text) : 0;
  if (n < 1 || n > MAX_LIMIT) throw filterError("limit", text);
  return n;
}

const given = (v) => v !== null && v !== undefined;

/**
 * Validates user-supplied filter text ({max_price, network, limit}, each a string or
 * null/undefined when absent). Throws an Error with code INVALID_FILTER, checking in
 * Rust's order (limit, max_price, network) so the same value is reported.
 */
export function parseFilters({ max_price, network, limit } = {}) {
  const parsedLimit = given(limit) ? parseLimit(limit) : DEFAULT_LIMIT;
  let price = null;
  if (given(max_price)) {
    const decimal = parseDecimal(max_price);
    if (!decimal) throw filterError("max_price", max_price);
    price = formatDecimal(decimal);
  }
  if (given(network) && !isValidNetworkId(network)) throw filterError("network", network);
  return { max_price: price, network: given(network) ? network : null, limit: parsedLimit };
}

// ---------------------------------------------------------------------------------------
// The shard files.

/** FNV-1a, 32 bits, over the UTF-8 bytes of `text`, as an unsigned number. */
export function fnv1a32(text) {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h = Math.imul(h ^ byte, 0x01000193);
  }
  return h >>> 0;
}

/** A flagged posting list (delta * 2 + flag) as ascending ids and their flags. */
export function decodePostings(list) {
  const ids = [];
  const flags = [];
  let id = 0;
  for (const n of list) {
    id += Math.floor(n / 2);
    ids.push(id);
    flags.push(n % 2);
  }
  return { ids, flags };
}

/** A plain delta-encoded id list (a price rung) as ascending ids. */
export function decodeIds(list) {
  let id = 0;
  return list.map((gap) => (id += gap));
}

const networkKey = (caip2) => fill(NETWORK_KEY, "network", caip2);

// ---------------------------------------------------------------------------------------
// Reading the API: failures of the source become SOURCE_UNAVAILABLE, never an empty list.

export class SourceUnavailable extends Error {
  constructor(message, fix) {
    super(message);
    this.fix = fix;
  }
}

const REBUILD =
  "rebuild and republish this snapshot's folder (x402dir build), or open a snapshot date that is published";

/** A fetchJson(path) over HTTP: null for a 404, an exception for any other failure. */
export function httpSource(base) {
  const root = new URL(base, globalThis.location?.href);
  return async (path) => {
    const response = await fetch(new URL(path, root));
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return response.json();
  };
}

/** One API file, or null when it does not exist. */
export async function read(fetchJson, path) {
  try {
    return (await fetchJson(path)) ?? null;
  } catch (e) {
    throw new SourceUnavailable(
      `could not read ${path} of the snapshot's API (${e.message})`,
      `check the connection and retry, or ${REBUILD}`,
    );
  }
}

/** One API file that must exist: the manifest promises every shard, record and the ladder. */
export async function need(fetchJson, path) {
  const value = await read(fetchJson, path);
  if (value === null) throw new SourceUnavailable(`${path} is missing from the snapshot's API folder`, REBUILD);
  return value;
}

export async function loadManifest(fetchJson) {
  const manifest = await read(fetchJson, "manifest.json");
  if (manifest === null) {
    throw new SourceUnavailable("no index for this snapshot: its API folder has no manifest.json", REBUILD);
  }
  const version = manifest.method?.version;
  const layout = manifest.api_version;
  if (version !== METHOD_VERSION || layout !== API_VERSION) {
    throw new SourceUnavailable(
      `the index was built by directory method ${version} (API layout ${layout}), but this composer ` +
        `reads method ${METHOD_VERSION} (API layout ${API_VERSION}); answers are comparable only under ` +
        "one version",
      `use the composer published in that snapshot's own folder (static/composer.js), or ${REBUILD} ` +
        `with method ${METHOD_VERSION}`,
    );
  }
  return manifest;
}

/** `template` with `{name}` replaced by `value` (as a function, so a "$" in it stays itself). */
export const fill = (template, name, value) => template.replace(`{${name}}`, () => String(value));
const own = (object, key) => (Object.hasOwn(object, key) ? object[key] : undefined);

/**
 * The values of `keys` from bucketed files (`{ buckets, path }`, bucket
 * fnv1a32(key) % buckets), each file fetched once, in parallel: key -> value or null.
 */
export async function fetchBuckets(fetchJson, { buckets, path }, keys) {
  const bucketOf = new Map(keys.map((key) => [key, fnv1a32(key) % buckets]));
  const wanted = [...new Set(bucketOf.values())];
  const files = await Promise.all(wanted.map((b) => need(fetchJson, fill(path, "bucket", b))));
  const shard = new Map(wanted.map((b, i) => [b, files[i]]));
  // own(): a token such as "constructor" must not find Object.prototype's member.
  return new Map(keys.map((key) => [key, own(shard.get(bucketOf.get(key)), key) ?? null]));
}

/** Ids present in every list (ascending), each with the sum of its flags. */
function intersect(lists) {
  const [first, ...rest] = [...lists].sort((a, b) => a.ids.length - b.ids.length);
  let ids = first.ids;
  let scores = first.flags;
  for (const list of rest) {
    const keptIds = [];
    const keptScores = [];
    let j = 0;
    ids.forEach((id, i) => {
      while (j < list.ids.length && list.ids[j] < id) j += 1;
      if (list.ids[j] === id) {
        keptIds.push(id);
        keptScores.push(scores[i] + list.flags[j]);
      }
    });
    ids = keptIds;
    scores = keptScores;
  }
  return ids.map((id, i) => ({ id, score: scores[i] }));
}

/** Ids whose lowest USD price is at most `maxPrice` (inclusive), from the price ladder. */
function idsWithinPrice(prices, maxPrice) {
  const max = toDecimal(maxPrice);
  const ids = new Set();
  for (const [price, list] of prices.ladder) {
    if (compareDecimals(toDecimal(price), max) <= 0) decodeIds(list).forEach((id) => ids.add(id));
  }
  return ids;
}

/** The index of the part of a split list that would hold `id` (`from`: each part's first id). */
function partOf(from, id) {
  let lo = 0;
  let hi = from.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (from[mid] <= id) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The parts `wanted` of the split posting list of `key`, decoded and joined in order. A
 * list of only some parts is still the whole list over their id ranges, which is all an
 * intersection with ids inside those ranges needs.
 */
async function fetchParts(fetchJson, shards, key, wanted) {
  const file = await tokenFile(key);
  const parts = await Promise.all(
    wanted.map((part) => need(fetchJson, fill(fill(shards.parts_path, "token_file", file), "part", part))),
  );
  const joined = { ids: [], flags: [] };
  for (const part of parts.map(decodePostings)) {
    joined.ids.push(...part.ids);
    joined.flags.push(...part.flags);
  }
  return joined;
}

/** Every qualifying id with its match_score, unordered. */
async function matches(fetchJson, manifest, tokens, filters) {
  const keys = [...tokens];
  if (filters.network !== null) {
    keys.push(networkKey(canonicalNetwork(manifest, filters.network)));
  }
  const [postings, prices] = await Promise.all([
    keys.length > 0 ? fetchBuckets(fetchJson, manifest.shards, keys) : new Map(),
    filters.max_price !== null ? need(fetchJson, manifest.prices.path) : null,
  ]);
  const values = keys.map((key) => postings.get(key));
  if (values.includes(null)) return { found: [], rarest: null }; // a key absent from its bucket matches nothing
  // A list is in its shard whole (an array), or split ({count, from}: docs/static-api.md).
  const counts = values.map((v) => (Array.isArray(v) ? v.length : v.count));
  const whole = [];
  const split = [];
  values.forEach((v, i) => (Array.isArray(v) ? whole.push(decodePostings(v)) : split.push({ key: keys[i], ...v })));
  split.sort((a, b) => a.count - b.count);
  // With no whole list to narrow by, the shortest split list is read in full.
  if (whole.length === 0 && split.length > 0) {
    const { key, from } = split.shift();
    whole.push(await fetchParts(fetchJson, manifest.shards, key, from.map((_, part) => part)));
  }
  let found = whole.length > 0
    ? intersect(whole)
    : Array.from({ length: manifest.counts.entries }, (_, id) => ({ id, score: 0 }));
  // Of the other split lists, only the parts that could hold a remaining id.
  for (const { key, from } of split) {
    if (found.length === 0) break;
    const wanted = [...new Set(found.map(({ id }) => partOf(from, id)))].sort((a, b) => a - b);
    const list = await fetchParts(fetchJson, manifest.shards, key, wanted);
    found = intersect([{ ids: found.map((m) => m.id), flags: found.map((m) => m.score) }, list]);
  }
  if (prices !== null) {
    const affordable = idsWithinPrice(prices, filters.max_price);
    found = found.filter((m) => affordable.has(m.id));
  }
  // Every result contains every token, so the rarest token's record pack holds them all.
  let rarest = null;
  tokens.forEach((token, i) => {
    if (rarest === null || counts[i] < rarest.count) rarest = { token, count: counts[i] };
  });
  return { found, rarest };
}

const hex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/**
 * The file name of a token's pack or single-token answer (docs/static-api.md): the
 * token when it is at most TOKEN_FILE_MAX_BYTES of a-z0-9; "u-" and the hex of its UTF-8
 * when that is at most as many bytes; else "h-" and the hex SHA-256 of its UTF-8 (Web Crypto).
 */
export async function tokenFile(token) {
  const utf8 = new TextEncoder().encode(token);
  if (utf8.length <= TOKEN_FILE_MAX_BYTES && /^[a-z0-9]+$/.test(token)) return token;
  if (utf8.length <= TOKEN_FILE_MAX_BYTES) return "u-" + hex(utf8);
  return "h-" + hex(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8)));
}

/**
 * The records of `ids`, in order, in as few requests as the packs allow: the rarest
 * token's pack, or the browse pack when every id is in it, else their record blocks.
 */
async function fetchRecords(fetchJson, manifest, ids, rarest) {
  const packs = manifest.packs;
  let packPath = null;
  const packed = (n) => n >= packs.min_postings && n <= packs.max_postings;
  if (rarest !== null && packed(rarest.count)) packPath = fill(packs.path, "token_file", await tokenFile(rarest.token));
  else if (rarest === null && ids.every((id) => id < packs.browse_len)) packPath = packs.browse;
  if (packPath !== null && ids.length > 0) {
    const byId = new Map((await need(fetchJson, packPath)).map((record) => [record.id, record]));
    // A pack missing an id would be a build fault: fall back rather than guess.
    if (ids.every((id) => byId.has(id))) return ids.map((id) => byId.get(id));
  }
  return recordsInBlocks(fetchJson, manifest.records, ids);
}

/**
 * The records of `ids`, in order, from their blocks (`records` of a manifest: a path
 * with {block} and the ids per block), each block fetched once.
 */
export async function recordsInBlocks(fetchJson, records, ids) {
  const blocks = [...new Set(ids.map((id) => Math.floor(id / records.block)))];
  const fetched = await Promise.all(blocks.map((b) => need(fetchJson, fill(records.path, "block", b))));
  const byId = new Map(fetched.flat().map((record) => [record.id, record]));
  return ids.map((id) => {
    if (!byId.has(id)) throw new SourceUnavailable(`record ${id} is missing from its block`, REBUILD);
    return byId.get(id);
  });
}

/** A record as an answer row: without id and slug, with match_score where Rust's Row has it. */
function toRow(record, score) {
  const row = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === "id" || key === "slug") continue;
    row[key] = value;
    if (key === "networks") row.match_score = score;
  }
  return row;
}

/** The rule applied, in words: Rust's rule_text, from the same parts (content/method.md#ranking). */
export function ruleText(tokens, filters) {
  const parts = [];
  if (tokens.length === 0) parts.push(RULE_NO_TOKENS);
  else parts.push(fill(RULE_TOKENS, "tokens", tokens.map((t) => `"${t}"`).join(", ")));
  if (filters.max_price !== null) parts.push(fill(RULE_MAX_PRICE, "max_price", filters.max_price));
  if (filters.network !== null) parts.push(fill(RULE_NETWORK, "network", filters.network));
  parts.push(fill(RULE_ORDER, "limit", filters.limit));
  return parts.join(RULE_JOINED_BY);
}

/**
 * Answers `text` with `filters` ({max_price, network, limit} as text) from `source`:
 * an API base URL ending in "/api/", or an object { fetchJson(path) } resolving to the
 * parsed file or null when it does not exist. Returns Rust's answer envelope, or
 * { error: { code: "SOURCE_UNAVAILABLE", message, fix } }. Throws INVALID_FILTER errors
 * before fetching anything.
 */
export async function query(source, text, filters) {
  const applied = parseFilters(filters);
  const fetchJson = typeof source === "string" ? httpSource(source) : (path) => source.fetchJson(path);
  try {
    return await answer(fetchJson, String(text ?? ""), applied);
  } catch (e) {
    if (!(e instanceof SourceUnavailable)) throw e;
    return { error: { code: "SOURCE_UNAVAILABLE", message: e.message, fix: e.fix } };
  }
}

/** A legacy network name's CAIP-2 id from the manifest's alias table; others unchanged. */
function canonicalNetwork(manifest, network) {
  return own(manifest.networks.aliases, network) ?? network;
}

async function answer(fetchJson, text, given) {
  const manifest = await loadManifest(fetchJson);
  // The answer states the filters as applied: a legacy network name becomes its CAIP-2 id.
  const filters = { ...given, network: given.network === null ? null : canonicalNetwork(manifest, given.network) };
  const tokens = tokenise(text);
  const { found, rarest } = await matches(fetchJson, manifest, tokens.tokens, filters);
  // Ids are browse-order positions, so this is the method's full order (content/method.md#ranking).
  found.sort((a, b) => b.score - a.score || a.id - b.id);
  const top = found.slice(0, filters.limit);
  const records = await fetchRecords(fetchJson, manifest, top.map(({ id }) => id), rarest);
  const data = records.map((record, i) => toRow(record, top[i].score));
  return {
    meta: {
      method: manifest.method,
      segments: manifest.segments,
      screening: manifest.screening,
      assets: manifest.assets,
      snapshot: manifest.snapshot,
      limits: manifest.limits,
      query: {
        text,
        tokens: tokens.tokens,
        token_list_empty: tokens.tokens.length === 0,
        dropped_short: tokens.dropped_short,
        dropped_over_limit: tokens.dropped_over_limit,
        filters,
        rule: ruleText(tokens.tokens, filters),
      },
      total_matched: found.length,
      returned: data.length,
    },
    data,
  };
}

// ---------------------------------------------------------------------------------------
// Rendering. DOM nodes and text only: catalogue text is never parsed as HTML.

/** An element with attributes and children (strings become text nodes; null is skipped). */
export function el(doc, tag, attributes, ...children) {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) node.setAttribute(name, String(value));
  node.append(...children.filter((c) => c !== null && c !== undefined));
  return node;
}

const DASH = "—";
// Links keep only the path, so they work on whichever host serves the site (and a
// relative page URL still parses).
export const pathOf = (url) => new URL(url, "https://host.invalid/").pathname;
export const count = (n) => (n === null || n === undefined ? DASH : String(n));
const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;

/** First 200 characters, as the site's own tables clip descriptions. */
function clip(text, max = 200) {
  const chars = [...text];
  return chars.length <= max ? text : chars.slice(0, max - 1).join("") + "…";
}

/** "1.003" and "(670 calls / 668 payers)": a ratio is never shown without its two
 * counts (empty only when a count is missing), as src/site/pages/mod.rs ratio_and_counts. */
export function ratioAndCounts(row) {
  const { calls_per_payer: ratio, calls_30d: calls, unique_payers_30d: payers } = row;
  if (calls === null || payers === null) return [DASH, ""];
  return [ratio === null ? DASH : ratio.toFixed(3), `(${calls} calls / ${payers} payers)`];
}

function describe(doc, row) {
  if (row.description_withheld !== null) {
    const n = row.description_withheld.patterns_matched;
    return el(doc, "p", { class: "withheld" }, `Description withheld: it matched ${plural(n, "screening pattern")}.`);
  }
  return row.description === null ? null : el(doc, "p", { class: "desc" }, clip(row.description));
}

export function resourceCell(doc, row) {
  return el(
    doc,
    "td",
    { class: "resource" },
    el(doc, "a", { href: pathOf(row.page) }, row.resource),
    row.service_name === null ? null : el(doc, "span", { class: "service" }, ` ${row.service_name}`),
    describe(doc, row),
  );
}

function segmentsCell(doc, row) {
  const labels = row.operator_listing ? [...row.segments, "run by this site's operator"] : row.segments;
  const tags = labels.flatMap((label) => [el(doc, "span", { class: "segment" }, label), " "]);
  return el(doc, "td", { class: "segments" }, ...tags);
}

const NUM = { class: "num" };
const COLUMNS = [
  ["#", NUM],
  ["Resource", {}],
  ["Payers (30 d)", NUM],
  ["Calls (30 d)", NUM],
  ["Calls per payer", NUM],
  ["Days since last call", NUM],
  ["Lowest USD price", NUM],
  ["Networks", {}],
  ["Segments", {}],
  ["match_score", NUM],
];

/** The ratio, its two counts beside it in a span of their own (so a narrow screen can
 * put them on a line below), as the site's tables show it (templates/table.html). */
export function ratioCell(doc, row, label) {
  const [ratio, counts] = ratioAndCounts(row);
  const attrs = { class: "num ratio", "data-label": label };
  if (counts === "") return el(doc, "td", attrs, ratio);
  return el(doc, "td", attrs, ratio, " ", el(doc, "span", { class: "ratio-counts" }, counts));
}

/** Labels each cell but the rank and the resource with its column's name, which a
 * narrow screen shows beside the value when the table becomes one block per row. */
export function labelCells(row, labels) {
  [...row.children].forEach((cell, i) => {
    if (i > 1 && cell.getAttribute("data-label") === null) cell.setAttribute("data-label", labels[i]);
  });
  row.children[0].setAttribute("class", "num rank");
  return row;
}

function resultRow(doc, row, rank) {
  const num = (text) => el(doc, "td", NUM, text);
  const tr = el(
    doc,
    "tr",
    { "data-rank": rank },
    num(String(rank)),
    resourceCell(doc, row),
    num(count(row.unique_payers_30d)),
    num(count(row.calls_30d)),
    ratioCell(doc, row, "Calls per payer"),
    num(count(row.days_since_last_call)),
    num(row.min_price_usd === null ? DASH : `$${row.min_price_usd}`),
    el(doc, "td", {}, row.networks.join(", ")),
    segmentsCell(doc, row),
    num(String(row.match_score)),
  );
  return labelCells(tr, COLUMNS.map(([label]) => label));
}

const TABLE_ROLES = { table: "table", thead: "rowgroup", tbody: "rowgroup", tr: "row", th: "columnheader", td: "cell" };

/** Names each part of a resource table by its ARIA role. On a phone the stylesheet lays
 * the table out as blocks, and some browsers then forget it is a table unless told. */
export function withTableRoles(node) {
  const tag = String(node.tagName ?? node.tag ?? "").toLowerCase();
  if (TABLE_ROLES[tag] && node.setAttribute) node.setAttribute("role", TABLE_ROLES[tag]);
  for (const child of node.children ?? []) withTableRoles(child);
  return node;
}

function resultsTable(doc, answer) {
  const { meta, data } = answer;
  const head = el(doc, "tr", {}, ...COLUMNS.map(([label, attrs]) => el(doc, "th", { scope: "col", ...attrs }, label)));
  return el(
    doc,
    "div",
    { class: "table-wrap" },
    withTableRoles(el(
      doc,
      "table",
      { class: "resources" },
      el(doc, "caption", {}, `Results 1 to ${meta.returned} of ${meta.total_matched}, in the method's order`),
      el(doc, "thead", {}, head),
      el(doc, "tbody", {}, ...data.map((row, i) => resultRow(doc, row, i + 1))),
    )),
  );
}

/**
 * What every answer states, empty or not, split in two: what to read before the rows
 * (the snapshot's notices and the counts) and what explains them, shown after the rows
 * so that on a phone the results come first (tokens, rule, snapshot, limits).
 */
function answerSummary(doc, meta) {
  const all = answerParts(doc, meta);
  return [...all.before, ...all.after];
}

function answerParts(doc, meta) {
  const { query: q, snapshot } = meta;
  const p = (cls, ...children) => el(doc, "p", { class: cls }, ...children);
  const tokens = q.token_list_empty
    ? "none usable, so every resource is listed"
    : q.tokens.map((t) => `"${t}"`).join(", ");
  const methodLink = el(doc, "a", { href: pathOf(meta.method.url) }, meta.method.version);
  const before = [
    // Partial, no usage counters: said before the order is read (content/method.md#limits).
    ...snapshot.notices.map((n) => el(doc, "p", { class: "notice" }, el(doc, "strong", {}, n))),
    el(doc, "p", { class: "counts", "data-total": meta.total_matched, "data-returned": meta.returned },
      `${meta.total_matched} matched, showing ${meta.returned}`),
  ];
  const after = [
    p("tokens", `Tokens: ${tokens}.`),
    q.dropped_short.length ? p("dropped", `Too short to use: ${q.dropped_short.join(", ")}.`) : null,
    q.dropped_over_limit.length
      ? p("dropped", `Ignored after the first ${MAX_TOKENS}: ${q.dropped_over_limit.join(", ")}.`)
      : null,
    p("rule", `Rule applied: ${q.rule}.`),
    p("snapshot", `Snapshot of ${snapshot.date}. Method `, methodLink, "."),
    el(doc, "ul", { class: "limits" }, ...meta.limits.map((limit) => el(doc, "li", {}, limit))),
  ].filter(Boolean);
  return { before, after };
}

export function errorView(doc, { code, message, fix }) {
  if (code === "SOURCE_UNAVAILABLE") {
    const box = el(doc, "div", { class: "unavailable", role: "alert" },
      el(doc, "p", {}, el(doc, "strong", {}, "Source unavailable")),
      el(doc, "p", { class: "message" }, message),
      el(doc, "p", { class: "fix" }, `To fix: ${fix}`));
    return ["unavailable", [box]];
  }
  return ["error", [el(doc, "p", { class: "error", role: "alert", "data-code": code }, message)]];
}

/** The state name and nodes for an answer or an error. */
function view(doc, answerOrError) {
  if (answerOrError.error) return errorView(doc, answerOrError.error);
  const { meta, data } = answerOrError;
  if (data.length === 0) {
    // An empty answer is still an answer: it states its rule like any other.
    const notice = el(doc, "p", { class: "empty" }, "No resource matches this query.");
    return ["empty", [notice, ...answerSummary(doc, meta)]];
  }
  const { before, after } = answerParts(doc, meta);
  return ["results", [...before, resultsTable(doc, answerOrError), ...after]];
}

/**
 * Shows an answer envelope, or { error: { code, message, fix? } }, in `container`,
 * replacing what was there. Sets data-state to results, empty, unavailable or error.
 */
export function render(container, answerOrError, doc = container.ownerDocument) {
  const [state, nodes] = view(doc, answerOrError);
  container.setAttribute("data-state", state);
  container.replaceChildren(...nodes);
}
