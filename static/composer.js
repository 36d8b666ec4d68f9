// The query composer: answers a query in the browser (or Node) from the static JSON API
// of one snapshot (docs/static-api.md), by exactly the rule of the Rust code
// (crates/method/src/): same tokens, same filters, same order, same answer envelope.
// Plain ES module, no dependencies, no build step.

import { WORD, LOWER, LOWER_MULTI } from "./chars.js";
// Every limit, version and sentence of the rule comes from the Rust code, through this
// generated module (crates/xtask/src/rules.rs): none is spelled here.
import {
  ANSWERED_402_KEY,
  API_VERSION,
  DEFAULT_LIMIT,
  FILTER_ERRORS,
  HIDDEN,
  LIMIT_MAX_DIGITS,
  MAX_DECIMALS,
  MAX_DIGITS,
  MAX_LIMIT,
  MAX_NETWORK_CHARS,
  MAX_OFFSET,
  MAX_TOKENS,
  METHOD_VERSION,
  MIN_TOKEN_CHARS,
  NETWORK_KEY,
  OFFSET_MAX_DIGITS,
  RULE_ANSWERED_402,
  RULE_EXCLUDE_TESTNETS,
  RULE_FIRST,
  RULE_FROM,
  RULE_JOINED_BY,
  RULE_MAX_PRICE,
  RULE_NETWORK,
  RULE_NO_TOKENS,
  RULE_ORDER,
  RULE_TOKENS,
  TESTNETS_ONLY_KEY,
  TOKEN_FILE_MAX_BYTES,
} from "./rules.js";

export { METHOD_VERSION };

// ---------------------------------------------------------------------------------------
// Character tables. Never the browser's own Unicode (toLowerCase, \p{…}): its version
// differs from Rust's, and one differing character would change an answer. The encoding
// is documented in crates/xtask/src/chars.rs.

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

/** Code point -> its case-folded code points (chars.js LOWER, LOWER_MULTI), for every code point that changes. */
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
// Normalising and tokenising (content/method.md#normalisation, #query), as crates/method/src/normalise.rs.

/** Calls emit(word, lengthInCodePoints) for each case-folded word of `text`, in order. */
function forEachWord(text, emit) {
  let word = "";
  let length = 0;
  // for…of walks code points; a lone surrogate arrives on its own and is in no range.
  for (const ch of text) {
    const cp = ch.codePointAt(0);
    for (const folded of LOWER_MAP.get(cp) ?? [cp]) {
      if (isWordChar(folded)) {
        word += String.fromCodePoint(folded);
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

/** The words of `text`, case-folded, in order, with repeats. */
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
// Exact decimals (crates/method/src/assets.rs). Prices are compared as BigInt fractions so that
// no float ever decides whether a resource is inside a price filter.

/** units / 10^scale from well-formed decimal text ("0.01", "5", ".5"). */
function toDecimal(text) {
  const [int, frac = ""] = text.split(".");
  return { units: BigInt((int + frac) || "0"), scale: frac.length };
}

/** Rust's Decimal::parse: digits with at most one point, ≤18 decimals, ≤30 digits; else null. */
export function parseDecimal(text) {
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
export function formatDecimal({ units, scale }) {
  // Padded so that there is always at least one digit before the point.
  const digits = units.toString().padStart(scale + 1, "0");
  const int = digits.slice(0, digits.length - scale);
  const frac = digits.slice(digits.length - scale).replace(/0+$/, "");
  return frac ? `${int}.${frac}` : int;
}

/** Exact order of two decimals of any scale: negative, zero or positive. */
export function compareDecimals(a, b) {
  const scale = Math.max(a.scale, b.scale);
  const x = a.units * 10n ** BigInt(scale - a.scale);
  const y = b.units * 10n ** BigInt(scale - b.scale);
  return x < y ? -1 : x > y ? 1 : 0;
}

// ---------------------------------------------------------------------------------------
// Filters (content/method.md#filters), as Filters::parse in crates/method/src/query.rs.

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

function filterError(field, value, template = FILTER_ERRORS[field]) {
  const error = new Error(fill(template, "value", debugQuote(value)));
  error.code = "INVALID_FILTER";
  error.field = field;
  return error;
}

/** Rust's trim_space: spaces, tabs and line ends around a filter's text. */
const trimSpace = (text) => text.replace(/^[ \t\n\r\f]+|[ \t\n\r\f]+$/g, "");

/** Rust's parse_price: `0.01`, `$0.01`, `0.01$`, `0.01 USD` or `0.01 usdc`. */
function parsePrice(text) {
  let t = trimSpace(text);
  if (t.startsWith("$")) t = trimSpace(t.slice(1));
  else if (t.endsWith("$")) t = trimSpace(t.slice(0, -1));
  else {
    const unit = ["usdc", "usd"].find((u) => t.replace(/[A-Z]/g, (c) => c.toLowerCase()).endsWith(u));
    if (unit) t = trimSpace(t.slice(0, -unit.length));
  }
  return parseDecimal(t);
}

/** Rust's parse_network: the trimmed text, 1 to MAX_NETWORK_CHARS characters, no control. */
function parseNetwork(text) {
  const t = trimSpace(text);
  const chars = [...t].length;
  return chars >= 1 && chars <= MAX_NETWORK_CHARS && !/[\u0000-\u001f\u007f]/.test(t) ? t : null;
}

/** A whole number of at most `digits` digits and at most `max`, else null (Rust's parse_whole). */
function parseWhole(text, digits, max) {
  if (!new RegExp(`^[0-9]{1,${digits}}$`).test(text)) return null;
  const n = Number(text);
  return n <= max ? n : null;
}

const given = (v) => v !== null && v !== undefined;

/**
 * Validates user-supplied filter text ({max_price, network, limit, offset}, each a string
 * or null/undefined when absent; exclude_testnets and answered_402 booleans). Throws an Error with code
 * INVALID_FILTER, checking in Rust's order (limit, offset, max_price, network) so the
 * same value is reported. Whether the snapshot knows the network is checked by `query`.
 */
export function parseFilters({ max_price, network, exclude_testnets, answered_402, limit, offset } = {}) {
  const parsedLimit = given(limit) ? parseWhole(limit, LIMIT_MAX_DIGITS, MAX_LIMIT) : DEFAULT_LIMIT;
  if (parsedLimit === null || parsedLimit < 1) throw filterError("limit", limit);
  const parsedOffset = given(offset) ? parseWhole(offset, OFFSET_MAX_DIGITS, MAX_OFFSET) : 0;
  if (parsedOffset === null) throw filterError("offset", offset);
  let price = null;
  if (given(max_price)) {
    const decimal = parsePrice(max_price);
    if (!decimal) throw filterError("max_price", max_price);
    price = formatDecimal(decimal);
  }
  let net = null;
  if (given(network)) {
    net = parseNetwork(network);
    if (net === null) throw filterError("network", network);
  }
  return {
    max_price: price,
    network: net,
    exclude_testnets: exclude_testnets === true,
    answered_402: answered_402 === true,
    limit: parsedLimit,
    offset: parsedOffset,
  };
}

/** Rust's networks::spelling_key: ASCII lower case, runs of spaces, `_` and `-` as one `-`. */
export function spellingKey(text) {
  return text
    .replace(/[A-Z]/g, (c) => c.toLowerCase())
    .replace(/[ \t\n\r\f_-]+/g, "-")
    .replace(/^-|-$/g, "");
}

/** Rust's networks::resolve: the known network `text` names, or undefined. */
export function resolveNetwork(known, text) {
  const exact = known.find((n) => n.id === text);
  if (exact) return exact;
  const key = spellingKey(text);
  return known.find((n) => [n.id, n.legacy, n.name].some((form) => form !== null && spellingKey(form) === key));
}

/** Rust's KnownNetwork::described: `Base Sepolia (eip155:84532, testnet)`. */
export function describeNetwork(n) {
  if (n.name === n.id) return n.id;
  return n.testnet ? `${n.name} (${n.id}, testnet)` : `${n.name} (${n.id})`;
}

/** The CAIP-2 id `network` names in the manifest's snapshot, or the INVALID_FILTER error
 * listing the snapshot's networks (Rust's networks::resolve_filter). */
function resolveFilterNetwork(manifest, network) {
  const known = manifest.networks.known;
  const found = resolveNetwork(known, network);
  if (found) return found.id;
  const listed = known.filter((n) => n.resources > 0).map(describeNetwork);
  if (listed.length === 0) throw filterError("network", network, FILTER_ERRORS.no_networks);
  throw filterError("network", network, fill(FILTER_ERRORS.unknown_network, "known", listed.join(", ")));
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

/**
 * How to read a source's files: an API base URL ("https://site/2025-12-31/api/"), what
 * httpSource(base) returns (a function from a path to the parsed file or null), or an
 * object with such a fetchJson method.
 */
export function reader(source) {
  if (typeof source === "string") return httpSource(source);
  if (typeof source === "function") return source;
  if (typeof source?.fetchJson === "function") return (path) => source.fetchJson(path);
  throw new TypeError("a source is an API base URL, httpSource(base), or an object with fetchJson(path)");
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
export async function fetchBuckets(fetchJson, { buckets, path, split }, keys) {
  // A split list's entry is in the manifest too (`shards.split`): its shard is not needed.
  const listed = (key) => (split ? own(split, key) : undefined);
  const bucketOf = new Map(keys.filter((key) => listed(key) === undefined).map((key) => [key, fnv1a32(key) % buckets]));
  const wanted = [...new Set(bucketOf.values())];
  const files = await Promise.all(wanted.map((b) => need(fetchJson, fill(path, "bucket", b))));
  const shard = new Map(wanted.map((b, i) => [b, files[i]]));
  // own(): a token such as "constructor" must not find Object.prototype's member.
  return new Map(keys.map((key) => [key, listed(key) ?? own(shard.get(bucketOf.get(key)), key) ?? null]));
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
  if (filters.network !== null) keys.push(networkKey(filters.network));
  // Absent from the shards when no resource answered 402: then nothing qualifies.
  if (filters.answered_402) keys.push(ANSWERED_402_KEY);
  const wanted = filters.exclude_testnets ? [...keys, TESTNETS_ONLY_KEY] : keys;
  const [postings, prices] = await Promise.all([
    wanted.length > 0 ? fetchBuckets(fetchJson, manifest.shards, wanted) : new Map(),
    filters.max_price !== null ? need(fetchJson, manifest.prices.path) : null,
  ]);
  const values = keys.map((key) => postings.get(key));
  if (values.includes(null)) return { found: [], words: [] }; // a key absent from its bucket matches nothing
  // A list is in its shard whole (an array), or split ({count, from}: docs/static-api.md).
  const counts = values.map((v) => (Array.isArray(v) ? v.length : v.count));
  const whole = [];
  const split = [];
  // Each token's list when it is known whole (what its pack's ids are worked out from).
  const lists = new Map();
  values.forEach((v, i) => {
    if (!Array.isArray(v)) split.push({ key: keys[i], ...v });
    else {
      whole.push(decodePostings(v));
      lists.set(keys[i], whole[whole.length - 1]);
    }
  });
  split.sort((a, b) => a.count - b.count);
  // With no whole list to narrow by, the shortest split list is read in full.
  if (whole.length === 0 && split.length > 0) {
    const { key, from } = split.shift();
    whole.push(await fetchParts(fetchJson, manifest.shards, key, from.map((_, part) => part)));
    lists.set(key, whole[0]);
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
  // Absent from its bucket: no resource accepts payment only on test networks.
  const testnetsOnly = filters.exclude_testnets ? postings.get(TESTNETS_ONLY_KEY) : null;
  if (testnetsOnly && found.length > 0) {
    const list = Array.isArray(testnetsOnly)
      ? decodePostings(testnetsOnly)
      : await fetchParts(fetchJson, manifest.shards, TESTNETS_ONLY_KEY,
        [...new Set(found.map(({ id }) => partOf(testnetsOnly.from, id)))].sort((a, b) => a - b));
    const left = new Set(list.ids);
    found = found.filter((m) => !left.has(m.id));
  }
  // Every result contains every token, so each token's pack may hold some of the rows.
  const words = tokens.map((token, i) => ({ token, count: counts[i], list: lists.get(token) ?? null }));
  return { found, words };
}

/**
 * The ids that meet `filters` ({ max_price: decimal text or null, network: CAIP-2 id or
 * null, exclude_testnets, answered_402 }), as a Set: the method's filters with no token (Rust's
 * `qualifies` with no token), which explore reads from a need's words.
 */
export async function idsMeetingFilters(fetchJson, manifest, filters) {
  const { found } = await matches(fetchJson, manifest, [], filters);
  return new Set(found.map(({ id }) => id));
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
 * The ids of a word's pack and of its second page (docs/static-api.md, packs): its
 * postings at places 0 to `len` − 1 and `len` to `len + nextLen` − 1 of its own order.
 */
function packPages(list, len, nextLen) {
  const order = [];
  for (const flag of [1, 0]) {
    for (let i = 0; i < list.ids.length && order.length < len + nextLen; i += 1) if (list.flags[i] === flag) order.push(list.ids[i]);
  }
  return [new Set(order.slice(0, len)), new Set(order.slice(len))];
}

/**
 * The records of `ids`, in order, in as few requests as the packs allow. The candidates
 * are the pack and the second page of each query word whose list is known whole, and the
 * browse pack (the first ids in browse order). The pack that saves the most requests
 * (record blocks no longer needed, less its own) is taken, the first on a tie, while one
 * saves any; the rest come from their blocks. Any choice gives the same records: this
 * one brings a two-word query's rows in one or two files where a block each took ten.
 */
async function fetchRecords(fetchJson, manifest, ids, words) {
  const { packs, records } = manifest;
  const candidates = [];
  for (const { token, count, list } of words) {
    if (count < packs.min_postings || list === null) continue;
    const file = await tokenFile(token);
    const [first, second] = packPages(list, packs.len, packs.next_len);
    candidates.push({ path: fill(packs.path, "token_file", file), ids: first });
    if (count > packs.len) candidates.push({ path: fill(packs.next_path, "token_file", file), ids: second });
  }
  if (packs.browse_len > 0) candidates.push({ path: packs.browse, ids: { has: (id) => id < packs.browse_len } });
  const blocks = (list) => new Set(list.map((id) => Math.floor(id / records.block))).size;
  let wanted = ids;
  const chosen = [];
  for (;;) {
    let best = null;
    for (const c of candidates) {
      if (chosen.includes(c)) continue;
      const left = wanted.filter((id) => !c.ids.has(id));
      const saved = blocks(wanted) - blocks(left) - 1;
      if (saved > 0 && (best === null || saved > best.saved)) best = { c, left, saved };
    }
    if (best === null) break;
    chosen.push(best.c);
    wanted = best.left;
  }
  const fetched = await Promise.all([
    ...chosen.map((c) => need(fetchJson, c.path)),
    recordsInBlocks(fetchJson, records, wanted),
  ]);
  const byId = new Map(fetched.flat().map((record) => [record.id, record]));
  // A pack missing an id would be a build fault: take its block rather than guess.
  const missing = ids.filter((id) => !byId.has(id));
  if (missing.length > 0) (await recordsInBlocks(fetchJson, records, missing)).forEach((r) => byId.set(r.id, r));
  return ids.map((id) => byId.get(id));
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

/**
 * How many resources of the snapshot have each token as a whole word (0 when none does),
 * as a Map; read from the shards alone. What an empty answer says about each word.
 */
export async function tokenCounts(source, tokens) {
  const fetchJson = reader(source);
  const manifest = await loadManifest(fetchJson);
  const postings = tokens.length > 0 ? await fetchBuckets(fetchJson, manifest.shards, tokens) : new Map();
  return new Map(tokens.map((t) => {
    const v = postings.get(t);
    return [t, v === null || v === undefined ? 0 : Array.isArray(v) ? v.length : v.count];
  }));
}

/** The rule applied, in words: Rust's rule_text, from the same parts (content/method.md#ranking). */
export function ruleText(tokens, filters) {
  const parts = [];
  if (tokens.length === 0) parts.push(RULE_NO_TOKENS);
  else parts.push(fill(RULE_TOKENS, "tokens", tokens.map((t) => `"${t}"`).join(", ")));
  if (filters.max_price !== null) parts.push(fill(RULE_MAX_PRICE, "max_price", filters.max_price));
  if (filters.network !== null) parts.push(fill(RULE_NETWORK, "network", filters.network));
  if (filters.exclude_testnets) parts.push(RULE_EXCLUDE_TESTNETS);
  if (filters.answered_402) parts.push(RULE_ANSWERED_402);
  parts.push(RULE_ORDER);
  parts.push(filters.offset === 0
    ? fill(RULE_FIRST, "limit", filters.limit)
    : fill(fill(RULE_FROM, "limit", filters.limit), "from", filters.offset + 1));
  return parts.join(RULE_JOINED_BY);
}

/**
 * Answers `text` with `filters` ({max_price, network, limit, offset} as text,
 * exclude_testnets a boolean) from `source`: an API base URL ending in "/api/",
 * httpSource(base), or an object { fetchJson(path) } resolving to the parsed file or
 * null when it does not exist (`reader`).
 * Returns Rust's answer envelope, or { error: { code: "SOURCE_UNAVAILABLE", message, fix } }.
 * Throws INVALID_FILTER errors: a malformed value before fetching anything, a network
 * the snapshot does not know once its manifest is read.
 */
export async function query(source, text, filters) {
  const applied = parseFilters(filters);
  const fetchJson = reader(source);
  try {
    return await answer(fetchJson, String(text ?? ""), applied);
  } catch (e) {
    if (!(e instanceof SourceUnavailable)) throw e;
    return { error: { code: "SOURCE_UNAVAILABLE", message: e.message, fix: e.fix } };
  }
}

async function answer(fetchJson, text, given) {
  const manifest = await loadManifest(fetchJson);
  // The answer states the filters as applied: the network as the CAIP-2 id it names.
  const filters = { ...given, network: given.network === null ? null : resolveFilterNetwork(manifest, given.network) };
  if (filters.answered_402 && !manifest.snapshot.probed) {
    // Rust's FilterError::NotProbed: no probe, so no listing's live 402 is known.
    throw filterError("answered_402", manifest.snapshot.date, fill(FILTER_ERRORS.not_probed, "date", manifest.snapshot.date));
  }
  const tokens = tokenise(text);
  const { found, words } = await matches(fetchJson, manifest, tokens.tokens, filters);
  // Ids are browse-order positions, so this is the method's full order (content/method.md#ranking).
  found.sort((a, b) => b.score - a.score || a.id - b.id);
  const top = found.slice(filters.offset, filters.offset + filters.limit);
  const records = await fetchRecords(fetchJson, manifest, top.map(({ id }) => id), words);
  const data = records.map((record, i) => toRow(record, top[i].score));
  return {
    meta: {
      method: manifest.method,
      segments: { version: manifest.segments.version },
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

/** Text with each hidden character (a control, a bidirectional override: HIDDEN, from
 * crates/catalogue/src/hidden.rs) written as a visible escape, `[U+202E]`, as every page
 * the site builds writes it: listing text can neither reverse a title nor hide. */
export function visible(text) {
  return text.replace(HIDDEN_CHARACTER, (c) => `[U+${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}]`);
}
const HIDDEN_CHARACTER = new RegExp(
  `[${HIDDEN.map(([first, last]) => `\\u{${first.toString(16)}}-\\u{${last.toString(16)}}`).join("")}]`,
  "gu",
);

/** An element with attributes and children (strings become text nodes, hidden characters
 * made visible; null is skipped). */
export function el(doc, tag, attributes, ...children) {
  const node = doc.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) node.setAttribute(name, visible(String(value)));
  node.append(...children.filter((c) => c !== null && c !== undefined).map((c) => (typeof c === "string" ? visible(c) : c)));
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
 * counts (empty only when a count is missing), as crates/site/src/pages/mod.rs ratio_and_counts. */
export function ratioAndCounts(row) {
  const { calls_per_payer: ratio, calls_30d: calls, unique_payers_30d: payers } = row;
  if (calls === null || payers === null) return [DASH, ""];
  return [ratio === null ? DASH : ratio.toFixed(3), `(${calls} calls / ${payers} payers)`];
}

/** Rust's short_title (crates/site/src/pages/mod.rs): the URL's host and last path part. */
export function shortTitle(url) {
  const scheme = url.indexOf("://");
  let rest = scheme < 0 ? url : url.slice(scheme + 3);
  const end = rest.search(/[?#]/);
  if (end >= 0) rest = rest.slice(0, end);
  const slash = rest.indexOf("/");
  const host = slash < 0 ? rest : rest.slice(0, slash);
  const last = (slash < 0 ? "" : rest.slice(slash + 1)).split("/").filter((p) => p !== "").at(-1);
  if (host === "") return url;
  return last === undefined ? host : `${host} › ${last}`;
}

/** A row's title, as the site's tables give it: the service's name, else shortTitle. */
export const rowTitle = (row) => (row.service_name ? row.service_name : shortTitle(row.resource));

/** Rust's first_line: the first line with more than spaces and tabs on it, clipped. */
function firstLine(text) {
  const line = text.split(/[\n\r]/).find((l) => /[^ \t]/.test(l));
  return line === undefined ? null : clip(line);
}

function describe(doc, row) {
  if (row.description_withheld !== null) {
    const n = row.description_withheld.patterns_matched;
    return el(doc, "p", { class: "withheld" }, `Description withheld: it matched ${plural(n, "screening pattern")}.`);
  }
  const line = row.description === null ? null : firstLine(row.description);
  return line === null ? null : el(doc, "p", { class: "desc" }, line);
}

/**
 * How rows name what the records give as ids: segment labels and the pages they lead to,
 * network names. Read from the manifest (`rowNames(manifest, segmentHref)`); without one,
 * the ids themselves and no links.
 */
const PLAIN_NAMES = { segment: (id) => ({ label: id, href: null }), network: (id) => ({ name: id, testnet: false }) };

/** The names rows show, from a snapshot's manifest; `segmentHref(id)` gives a segment's page. */
export function rowNames(manifest, segmentHref) {
  const labels = manifest.segments.labels ?? {};
  const known = new Map(manifest.networks.known.map((n) => [n.id, n]));
  return {
    segment: (id) => ({ label: own(labels, id) ?? id, href: segmentHref(id) }),
    network: (id) => {
      const n = known.get(id);
      return n ? { name: n.name, testnet: n.testnet } : { name: id, testnet: false };
    },
  };
}

/** The title (to the resource's page), the URL, the description's first line and the
 * segment chips (to their listings), as templates/table.html draws them. */
export function resourceCell(doc, row, names = PLAIN_NAMES) {
  const chips = (row.segments ?? []).flatMap((id) => {
    const { label, href } = names.segment(id);
    return [href === null ? el(doc, "span", { class: "segment" }, label) : el(doc, "a", { class: "segment", href }, label), " "];
  });
  if (row.operator_listing) chips.push(el(doc, "span", { class: "segment" }, "run by this site's operator"));
  return el(
    doc,
    "td",
    { class: "resource" },
    el(doc, "a", { class: "title", href: pathOf(row.page) }, rowTitle(row)),
    " ",
    el(doc, "span", { class: "url" }, row.resource),
    describe(doc, row),
    ...chips,
  );
}

/** The networks, by name, each test network badged. */
export function networksCell(doc, row, names = PLAIN_NAMES) {
  const parts = row.networks.flatMap((id, i) => {
    const { name, testnet } = names.network(id);
    return [i > 0 ? ", " : null, name, testnet ? " " : null, testnet ? el(doc, "span", { class: "badge testnet" }, "testnet") : null];
  });
  return el(doc, "td", { class: "networks", "data-label": "Networks" }, ...parts);
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
  ["Query words in its description", NUM],
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
    if (i > 1 && cell.getAttribute("data-label") === null && cell.getAttribute("colspan") === null) {
      cell.setAttribute("data-label", labels[i]);
    }
  });
  row.children[0].setAttribute("class", "num rank");
  return row;
}

/** True when the catalogue gave no payers, calls or last call: said once, not as four dashes. */
const noUsage = (row) => row.unique_payers_30d === null && row.calls_30d === null && row.days_since_last_call === null;

function resultRow(doc, row, rank, names) {
  const num = (text) => el(doc, "td", NUM, text);
  const figures = noUsage(row)
    ? [el(doc, "td", { class: "no-usage", colspan: 4 }, "no usage counted")]
    : [num(count(row.unique_payers_30d)), num(count(row.calls_30d)), ratioCell(doc, row, "Calls per payer"), num(count(row.days_since_last_call))];
  const tr = el(
    doc,
    "tr",
    { "data-rank": rank },
    num(String(rank)),
    resourceCell(doc, row, names),
    ...figures,
    num(row.min_price_usd === null ? DASH : `$${row.min_price_usd}`),
    networksCell(doc, row, names),
    num(String(row.match_score)),
  );
  // A row without usage has three cells fewer: its labels skip those columns.
  const labels = COLUMNS.map(([label]) => label);
  return labelCells(tr, figures.length === 1 ? [...labels.slice(0, 3), ...labels.slice(6)] : labels);
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

function resultsTable(doc, answer, names) {
  const { meta, data } = answer;
  const first = meta.query.filters.offset + 1;
  const head = el(doc, "tr", {}, ...COLUMNS.map(([label, attrs]) => el(doc, "th", { scope: "col", ...attrs }, label)));
  return el(
    doc,
    "div",
    { class: "table-wrap" },
    withTableRoles(el(
      doc,
      "table",
      { class: "resources" },
      el(doc, "caption", {}, `Results ${first} to ${first + meta.returned - 1} of ${meta.total_matched}, in the method's order`),
      el(doc, "thead", {}, head),
      el(doc, "tbody", {}, ...data.map((row, i) => resultRow(doc, row, first + i, names))),
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
      meta.returned === 0 || meta.returned === meta.total_matched
        ? `${meta.total_matched} matched, showing ${meta.returned}`
        : `${meta.total_matched} matched, showing ${q.filters.offset + 1} to ${q.filters.offset + meta.returned}`),
  ];
  const after = [
    p("tokens", `Tokens: ${tokens}.`),
    q.dropped_short.length ? p("dropped", `Too short to use: ${q.dropped_short.join(", ")}.`) : null,
    q.dropped_over_limit.length
      ? p("dropped", `Ignored after the first ${MAX_TOKENS}: ${q.dropped_over_limit.join(", ")}.`)
      : null,
    p("rule", `Rule applied: ${q.rule}.`),
    // The source's three limits (meta.limits) are the page's: its limits box states them.
    p("snapshot", `Snapshot of ${snapshot.date}. Method `, methodLink, "."),
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
function view(doc, answerOrError, names) {
  if (answerOrError.error) return errorView(doc, answerOrError.error);
  const { meta, data } = answerOrError;
  if (data.length === 0) {
    // An empty answer is still an answer: it states its rule like any other.
    const notice = el(doc, "p", { class: "empty" }, "No resource matches this query.");
    return ["empty", [notice, ...answerSummary(doc, meta)]];
  }
  const { before, after } = answerParts(doc, meta);
  return ["results", [...before, resultsTable(doc, answerOrError, names), ...after]];
}

/**
 * Shows an answer envelope, or { error: { code, message, fix? } }, in `container`,
 * replacing what was there. Sets data-state to results, empty, unavailable or error.
 * `names` (from `rowNames`) gives segment labels and links and network names.
 */
export function render(container, answerOrError, doc = container.ownerDocument, names = PLAIN_NAMES) {
  const [state, nodes] = view(doc, answerOrError, names);
  container.setAttribute("data-state", state);
  container.replaceChildren(...nodes);
}
