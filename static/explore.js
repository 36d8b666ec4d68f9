// Explore mode: ranks a need phrased in any words from the snapshot's explore API
// (docs/static-api.md, "Explore"), exactly as `x402dir explore` does (crates/explore/src/):
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
  parseDecimal,
  formatDecimal,
  compareDecimals,
  resolveNetwork,
  describeNetwork,
  idsMeetingFilters,
} from "./composer.js";
import {
  EXPLORE_VERSION,
  EXPLORE_BM25_MIN_WORDS_SHARE,
  EXPLORE_CAP_BEFORE,
  EXPLORE_FLOOR_BEFORE,
  EXPLORE_DOLLAR_UNITS,
  EXPLORE_CENT_UNITS,
  EXPLORE_NUMBER_WORDS,
  EXPLORE_TENS_WORDS,
  EXPLORE_ONE_WORDS,
  EXPLORE_HALF_WORDS,
  EXPLORE_FREE,
  EXPLORE_FREE_APART,
  EXPLORE_FREE_NOT_AFTER,
  EXPLORE_FREE_NOT_BEFORE,
  EXPLORE_CAP_AFTER,
  EXPLORE_PER,
  EXPLORE_NETWORK_BEFORE,
  EXPLORE_NETWORK_AFTER,
  EXPLORE_NO_TESTNETS,
  EXPLORE_CHEAPEST,
  EXPLORE_READ_MAX_PRICE,
  EXPLORE_READ_NETWORK,
  EXPLORE_READ_NO_TESTNETS,
  EXPLORE_READ_CHEAPEST,
  SPELLING_MIN_CHARS,
  SPELLING_MIN_DICE,
  SPELLING_ANY_DICE_EDITS,
  SPELLING_ANY_DICE_MIN_CHARS,
  SPELLING_EDIT_COST,
  SPELLING_MAX_WEIGHED_EDITS,
  SPELLING_FOLD,
  EXPLORE_UNSPACED_SCRIPTS,
  EXPLORE_SEGMENT_MAX_CHARS,
  EXPLORE_PREFIX_MIN_CHARS,
  EXPLORE_PREFIX_SHARE,
} from "./rules.js";
import { EXPLORE_FUNCTION_WORDS } from "./function-words.js";

export { EXPLORE_VERSION };

const FUNCTION_WORDS = new Set(EXPLORE_FUNCTION_WORDS.split(" "));

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

const unspaced = (ch) => {
  const c = ch.codePointAt(0);
  return EXPLORE_UNSPACED_SCRIPTS.some(([lo, hi]) => c >= lo && c <= hi);
};

/** Rust's words::cut_scripts: a space wherever a script written without spaces meets another. */
export function cutScripts(text) {
  let out = "";
  let last = null;
  for (const ch of text) {
    const now = unspaced(ch);
    if (last !== null && last !== now) out += " ";
    last = now;
    out += ch;
  }
  return out;
}

/** Rust's words::is_segmented: a word with a character of a script written without spaces. */
export const isSegmented = (word) => [...word].some(unspaced);

/** Rust's words::segment: forward maximum matching, pieces of 2 to EXPLORE_SEGMENT_MAX_CHARS
 * characters that isPiece accepts; a character that opens none is skipped. */
export function segment(word, isPiece) {
  const chars = [...word];
  const pieces = [];
  let i = 0;
  while (i < chars.length) {
    let taken = 0;
    for (let n = Math.min(EXPLORE_SEGMENT_MAX_CHARS, chars.length - i); n >= 2; n -= 1) {
      const piece = chars.slice(i, i + n).join("");
      if (isPiece(piece)) {
        pieces.push(piece);
        taken = n;
        break;
      }
    }
    i += taken === 0 ? 1 : taken;
  }
  return pieces;
}

/** Rust's words::segment_candidates: every piece segment may look up. */
export function segmentCandidates(word) {
  const chars = [...word];
  const out = [];
  for (let i = 0; i < chars.length; i += 1) {
    for (let n = Math.min(EXPLORE_SEGMENT_MAX_CHARS, chars.length - i); n >= 2; n -= 1) out.push(chars.slice(i, i + n).join(""));
  }
  return out;
}

/** The openings Rust's Translations::by_prefix may read a word by, longest first: of at
 * least EXPLORE_PREFIX_MIN_CHARS characters and EXPLORE_PREFIX_SHARE of the word. */
export function prefixCandidates(word) {
  const chars = [...word];
  const [share, of] = EXPLORE_PREFIX_SHARE;
  const out = [];
  for (let n = chars.length - 1; n >= EXPLORE_PREFIX_MIN_CHARS && n * of >= chars.length * share; n -= 1) {
    out.push(chars.slice(0, n).join(""));
  }
  return out;
}

/** Rust's explore_words: the method's words, less stopwords (from the explore manifest)
 * and function words of other languages (function-words.js). */
export function exploreWords(text, stopwords) {
  const stop = new Set(stopwords);
  const { tokens, ...dropped } = tokeniseExcept(cutScripts(text), (w) => stop.has(w) || FUNCTION_WORDS.has(w));
  return { words: tokens, ...dropped };
}

// ---------------------------------------------------------------------------------------
// Constraints in the words (Rust's explore::reading): the same scanner and phrase lists.

const isDigit = (c) => c !== undefined && c >= "0" && c <= "9";
const isAsciiLetter = (c) => c !== undefined && /^[A-Za-z]$/.test(c);

function scan(chars) {
  const out = [];
  let i = 0;
  while (i < chars.length) {
    const c = chars[i];
    if (isDigit(c) || (c === "." && isDigit(chars[i + 1]))) {
      const start = i;
      while (isDigit(chars[i])) i += 1;
      if (chars[i] === "." && isDigit(chars[i + 1])) {
        i += 1;
        while (isDigit(chars[i])) i += 1;
      }
      out.push({ kind: "number", text: chars.slice(start, i).join(""), start, end: i });
    } else if (isAsciiLetter(c)) {
      const start = i;
      while (isAsciiLetter(chars[i])) i += 1;
      const text = chars.slice(start, i).join("").replace(/[A-Z]/g, (x) => x.toLowerCase());
      out.push({ kind: "letters", text, start, end: i });
    } else {
      if (c === "$" || c === "¢" || c === "<" || c === "≤" || c === "=") out.push({ kind: "symbol", text: c, start: i, end: i + 1 });
      i += 1;
    }
  }
  return out;
}

function phraseAt(tokens, at, phrase) {
  const words = phrase.split(" ");
  const fits = words.every((w, k) => tokens[at + k]?.kind === "letters" && tokens[at + k].text === w);
  return fits ? words.length : 0;
}

const longestAt = (tokens, at, phrases) => Math.max(0, ...phrases.map((p) => phraseAt(tokens, at, p)));

function longestBefore(tokens, at, phrases) {
  return Math.max(0, ...phrases.map((p) => {
    const n = p.split(" ").length;
    return n <= at && phraseAt(tokens, at - n, p) === n ? n : 0;
  }));
}

function cents(number) {
  const [int, frac = ""] = number.split(".");
  const digits = int + frac;
  const scale = frac.length + 2;
  const padded = digits.padStart(scale + 1, "0");
  return parseDecimal(`${padded.slice(0, padded.length - scale)}.${padded.slice(padded.length - scale)}`);
}

/** Rust's reading::amount_at: [USD value, tokens taken, whether the number is in words], or null. */
function amountAt(tokens, at) {
  const t = (k) => tokens[at + k];
  const is = (k, kind, text) => t(k)?.kind === kind && (text === undefined || t(k).text === text);
  const unit = (k, units) => t(k)?.kind === "letters" && units.includes(t(k).text);
  const glued = (k) => at + k > 0 && tokens[at + k - 1].kind === "letters" && tokens[at + k - 1].end === tokens[at + k].start;
  const value = (d, n, inWords) => (d === null ? null : [d, n, inWords]);
  if (is(0, "symbol", "$") && is(1, "number")) return value(parseDecimal(t(1).text), 2, false);
  if (!is(0, "number")) {
    const words = numberInWords(tokens, at);
    if (words === null) return null;
    const [number, n] = words;
    if (unit(n, EXPLORE_DOLLAR_UNITS)) return value(parseDecimal(number), n + 1, true);
    if (unit(n, EXPLORE_CENT_UNITS)) return value(cents(number), n + 1, true);
    return null;
  }
  if (glued(0)) return null;
  const number = t(0).text;
  if (is(1, "symbol", "$") || unit(1, EXPLORE_DOLLAR_UNITS)) return value(parseDecimal(number), 2, false);
  if (is(1, "symbol", "¢") || unit(1, EXPLORE_CENT_UNITS)) return value(cents(number), 2, false);
  return null;
}

/** Rust's reading::number_in_words: [digits, tokens taken], or null. */
function numberInWords(tokens, at) {
  const half = longestAt(tokens, at, EXPLORE_HALF_WORDS);
  if (half > 0) return ["0.5", half];
  const word = (k) => (tokens[at + k]?.kind === "letters" ? tokens[at + k].text : null);
  const first = word(0);
  if (first === null) return null;
  if (EXPLORE_ONE_WORDS.includes(first)) return ["1", 1];
  const tens = EXPLORE_TENS_WORDS.indexOf(first);
  if (tens >= 0) {
    const ones = word(1) === null ? -1 : EXPLORE_NUMBER_WORDS.indexOf(word(1));
    return ones >= 1 && ones <= 9 ? [String(20 + 10 * tens + ones), 2] : [String(20 + 10 * tens), 1];
  }
  const n = EXPLORE_NUMBER_WORDS.indexOf(first);
  return n >= 0 ? [String(n), 1] : null;
}

/** Rust's reading::free_at: whether the free phrase of `n` tokens at `at` is read as a price. */
function freeAt(chars, tokens, at, n) {
  const apart = (c) => c === undefined || EXPLORE_FREE_APART.includes(c);
  const start = tokens[at].start;
  const end = tokens[at + n - 1].end;
  if (!apart(start > 0 ? chars[start - 1] : undefined) || !apart(chars[end])) return false;
  const wordIn = (t, words) => t?.kind === "letters" && words.includes(t.text);
  return n > 1 || !(wordIn(at > 0 ? tokens[at - 1] : undefined, EXPLORE_FREE_NOT_AFTER) || wordIn(tokens[at + 1], EXPLORE_FREE_NOT_BEFORE));
}

/** Rust's reading::read: constraints, how they are shown back, their phrases, the rest. */
export function readConstraints(text, known) {
  const chars = Array.from(text);
  const tokens = scan(chars);
  const blank = new Array(chars.length).fill(false);
  const c = { max_price: null, network: null, exclude_testnets: false, cheapest: false };
  let maxPrice = null;
  const phrases = [];
  const take = (from, to) => {
    const s = tokens[from].start;
    const e = tokens[to - 1].end;
    for (let k = s; k < e; k += 1) blank[k] = true;
    phrases.push(chars.slice(s, e).join(""));
  };
  let i = 0;
  while (i < tokens.length) {
    let cue = longestAt(tokens, i, EXPLORE_CAP_BEFORE);
    if (cue === 0 && (tokens[i].text === "<" || tokens[i].text === "≤")) cue = 1 + (tokens[i + 1]?.text === "=" ? 1 : 0);
    const amount = amountAt(tokens, i + cue);
    if (amount !== null) {
      const floor = cue === 0 && longestBefore(tokens, i, EXPLORE_FLOOR_BEFORE) > 0;
      let end = i + cue + amount[1];
      const after = longestAt(tokens, end, EXPLORE_CAP_AFTER);
      end += after;
      const per = EXPLORE_PER.some((p) => phraseAt(tokens, end, p) === 1) && tokens[end + 1]?.kind === "letters";
      if (per) end += 2;
      // An amount in words is a cap only beside a cue.
      const cued = !amount[2] || cue > 0 || longestBefore(tokens, i, EXPLORE_CAP_BEFORE) > 0 || after > 0 || per;
      if (!floor && cued) {
        take(i, end);
        if (maxPrice === null || compareDecimals(amount[0], maxPrice) < 0) maxPrice = amount[0];
        i = end;
        continue;
      }
    }
    // No price at all: a cap of $0.
    const free = longestAt(tokens, i, EXPLORE_FREE);
    if (free > 0 && freeAt(chars, tokens, i, free)) {
      take(i, i + free);
      const zero = parseDecimal("0");
      if (maxPrice === null || compareDecimals(zero, maxPrice) < 0) maxPrice = zero;
      i += free;
      continue;
    }
    const netCue = longestAt(tokens, i, EXPLORE_NETWORK_BEFORE);
    if (netCue > 0 && c.network === null) {
      let named = null;
      for (const n of [2, 1]) {
        const words = tokens.slice(i + netCue, i + netCue + n);
        if (words.length < n || words.some((w) => w.kind !== "letters")) continue;
        const network = resolveNetwork(known, words.map((w) => w.text).join(" "));
        if (network) {
          named = [network, n];
          break;
        }
      }
      if (named !== null) {
        let end = i + netCue + named[1];
        end += longestAt(tokens, end, EXPLORE_NETWORK_AFTER);
        take(i, end);
        c.network = named[0].id;
        i = end;
        continue;
      }
    }
    let n = longestAt(tokens, i, EXPLORE_NO_TESTNETS);
    if (n > 0) {
      take(i, i + n);
      c.exclude_testnets = true;
      i += n;
      continue;
    }
    n = longestAt(tokens, i, EXPLORE_CHEAPEST);
    if (n > 0) {
      take(i, i + n);
      c.cheapest = true;
      i += n;
      continue;
    }
    i += 1;
  }
  if (maxPrice !== null) c.max_price = formatDecimal(maxPrice);
  const rest = chars.map((ch, k) => (blank[k] ? " " : ch)).join("");
  const readAs = [];
  if (c.max_price !== null) readAs.push(fill(EXPLORE_READ_MAX_PRICE, "max_price", c.max_price));
  if (c.network !== null) {
    const n = known.find((k) => k.id === c.network);
    readAs.push(fill(EXPLORE_READ_NETWORK, "network", n ? describeNetwork(n) : c.network));
  }
  if (c.exclude_testnets) readAs.push(EXPLORE_READ_NO_TESTNETS);
  if (c.cheapest) readAs.push(EXPLORE_READ_CHEAPEST);
  return { constraints: c, readAs, phrases, rest };
}

// ---------------------------------------------------------------------------------------
// Near spellings (Rust's explore::spelling).

const FOLD = new Map(Object.entries(SPELLING_FOLD));
const fold = (word) => Array.from(word, (ch) => FOLD.get(ch) ?? ch).join("");

function triples(word) {
  const padded = Array.from(`^${fold(word)}$`);
  const set = new Set();
  for (let i = 0; i + 3 <= padded.length; i += 1) set.add(padded.slice(i, i + 3).join(""));
  return [...set];
}

const opening = (word) => Array.from(`^${fold(word)}$`).slice(0, 3).join("");

/** UTF-8 byte order, as Rust compares strings. */
function byteOrder(a, b) {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  for (let i = 0; i < Math.min(x.length, y.length); i += 1) if (x[i] !== y[i]) return x[i] - y[i];
  return x.length - y.length;
}

/** Rust's spelling::edits: the restricted Damerau-Levenshtein distance over code points. */
function edits(a, b) {
  const w = b.length + 1;
  const rows = [0, 1, 2].map(() => new Array(w).fill(0));
  for (let j = 0; j < w; j += 1) rows[0][j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    const cur = rows[i % 3];
    const prev = rows[(i + 2) % 3];
    const prev2 = rows[(i + 1) % 3];
    cur[0] = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, prev2[j - 2] + 1);
      cur[j] = d;
    }
  }
  return rows[a.length % 3][b.length];
}

/** Rust's spelling::nearest: `wordsWith(triple)` lists the offered words that have it as
 * a flat [word, documents, …], or null. Whole numbers only, so both pick the same word. */
function nearest(word, wordsWith) {
  if (Array.from(word).length < SPELLING_MIN_CHARS) return null;
  const mine = triples(word);
  const folded = Array.from(fold(word));
  const shared = new Map();
  const opened = wordsWith(opening(word)) ?? [];
  for (let i = 0; i < opened.length; i += 2) shared.set(opened[i], [0, opened[i + 1]]);
  for (const t of mine) {
    const list = wordsWith(t) ?? [];
    for (let i = 0; i < list.length; i += 2) {
      const s = shared.get(list[i]);
      if (s !== undefined) s[0] += 1;
    }
  }
  const a = mine.length;
  const [minNum, minDen] = SPELLING_MIN_DICE;
  let best = null;
  for (const [w, [c, documents]] of shared) {
    const num = 2 * c;
    const den = a + triples(w).length;
    const e = edits(folded, Array.from(fold(w)));
    if (num * minDen < den * minNum && (e > SPELLING_ANY_DICE_EDITS || folded.length < SPELLING_ANY_DICE_MIN_CHARS)) {
      continue;
    }
    const candidate = { word: w, edits: e, documents, num, den };
    if (best === null || before(candidate, best)) best = candidate;
  }
  return best === null ? null : best.word;
}

/** Rust's Candidate::before: the greater documents / SPELLING_EDIT_COST^edits (cross-
 * multiplied, in BigInt as Rust's u128), then fewer edits, then a greater Dice coefficient
 * (cross-multiplied), then byte order. */
function before(x, y) {
  const weighed = (documents, e) =>
    BigInt(documents) * BigInt(SPELLING_EDIT_COST) ** BigInt(Math.min(e, SPELLING_MAX_WEIGHED_EDITS));
  const px = weighed(x.documents, y.edits);
  const py = weighed(y.documents, x.edits);
  if (px !== py) return px > py;
  if (x.edits !== y.edits) return x.edits < y.edits;
  const p = x.num * y.den;
  const q = y.num * x.den;
  if (p !== q) return p > q;
  return byteOrder(x.word, y.word) < 0;
}

/** Near spellings of `words`, fetching the spelling buckets of all their triples at once. */
async function nearSpellings(fetchJson, explore, words) {
  const wanted = words.filter((w) => Array.from(w).length >= SPELLING_MIN_CHARS);
  if (wanted.length === 0) return new Map();
  const keys = [...new Set(wanted.flatMap((w) => [opening(w), ...triples(w)]))];
  const lists = await fetchBuckets(fetchJson, explore.spelling, keys);
  return new Map(wanted.map((w) => [w, nearest(w, (t) => lists.get(t) ?? null)]));
}

/**
 * Near spellings of `words` among the snapshot's document words (Rust's
 * explore::spelling), from `source` as explore reads it; an empty Map when the snapshot
 * has no explore index of this version. The search page offers them as links ("did you
 * mean"); the method's rule never reads them.
 */
export async function nearSpellingsOf(source, words) {
  const fetchJson = reader(source);
  try {
    const { explore } = await loadExplore(fetchJson);
    return await nearSpellings(fetchJson, explore, words);
  } catch (e) {
    if (e instanceof SourceUnavailable) return new Map();
    throw e;
  }
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

/** Rust's Bm25::search_where: summed weights of `words` over the ids `allowed` lets through. */
function bm25List(explore, postings, words, allowed) {
  const totals = new Map();
  const counts = new Map();
  for (const word of words) {
    const flat = postings.get(word) ?? [];
    for (let i = 0; i < flat.length; i += 2) {
      if (allowed !== null && !allowed.has(flat[i])) continue;
      totals.set(flat[i], (totals.get(flat[i]) ?? 0) + flat[i + 1]);
      counts.set(flat[i], (counts.get(flat[i]) ?? 0) + 1);
    }
  }
  // Rust's bm25::min_words: a document must contain a share of the words, rounded up.
  const [num, den] = EXPLORE_BM25_MIN_WORDS_SHARE;
  const least = Math.floor((words.length * num + den - 1) / den);
  return [...totals]
    .filter(([id]) => counts.get(id) >= least)
    .sort(byValueThenId)
    .slice(0, explore.list_depth)
    .map(([id]) => id);
}

/** Rust's Dense::search_where through the inverted file, over the ids `allowed` lets through. */
async function denseList(fetchJson, explore, rows, words, allowed) {
  const none = { ids: [], missing: [...words], listsRead: 0, compared: 0 };
  if (words.length === 0) return none;
  const q = new Array(explore.words.dims).fill(0);
  const missing = [];
  let any = false;
  for (const word of words) {
    const row = rows.get(word) ?? null;
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
  const candidates = [];
  let compared = 0;
  for (const list of lists) {
    compared += list.length;
    for (const [id, inv, text] of list) {
      if (allowed !== null && !allowed.has(id)) continue;
      candidates.push([id, inv, bytes(text)]);
    }
  }
  const first = ranked(candidates.map(([id, inv, v]) => [id, similarity(q, inv, v)]));
  // Rust's pseudo-relevance feedback: the query moves toward its first documents, and the
  // same documents are compared again.
  const { documents, weight } = explore.ivf.feedback;
  const byId = new Map(candidates.map(([id, inv, v]) => [id, [inv, v]]));
  const top = first.slice(0, documents).map(([id]) => byId.get(id));
  const moved = top.length === 0 ? null : feedbackQuery(q, top, weight);
  const scored = moved === null ? first : ranked(candidates.map(([id, inv, v]) => [id, similarityMoved(moved, inv, v)]));
  return { ids: scored.slice(0, explore.list_depth).map(([id]) => id), missing, listsRead: probed.length, compared };
}

/** Rust's dense::ranked: positive similarities by descending value, ties by ascending id. */
function ranked(scores) {
  return scores.filter(([, s]) => s > 0).sort(byValueThenId);
}

/** Rust's dense::feedback_query: the query's unit vector plus `weight` shared among the
 * unit vectors of `top` ([invNorm, bytes] pairs), the same double operations in the same order. */
function feedbackQuery(q, top, weight) {
  let norm2 = 0;
  for (const x of q) norm2 += x * x;
  const invQ = 1 / Math.sqrt(norm2);
  const share = weight / top.length;
  const moved = q.map((x) => x * invQ);
  for (const [inv, v] of top) {
    for (let j = 0; j < moved.length; j += 1) moved[j] += share * (v[j] * inv);
  }
  return moved;
}

/** Rust's ByteVector::similarity_moved: dot(moved, v) * invNorm, summed in component order. */
function similarityMoved(moved, invNorm, v) {
  let dot = 0;
  for (let j = 0; j < moved.length; j += 1) dot += moved[j] * v[j];
  return dot * invNorm;
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
function fuse(explore, bm25, dense, factsOf, priceWeight) {
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
    const prior = reciprocal(ranks.payers) + reciprocal(ranks.recency);
    const value = item.fused + explore.prior_weight * prior + priceWeight * reciprocal(ranks.price);
    return { value, id: item.id, ranks };
  });
  out.sort((x, y) => y.value - x.value || x.ranks.fused - y.ranks.fused);
  return out;
}

function ruleText(explore, words, ranked, readAs, limit) {
  if (words.length === 0) return explore.rule.empty;
  if (ranked.length === 0) return explore.rule.not_understood;
  const constraints = readAs.length === 0 ? "" : fill(explore.rule.constraints, "read_as", readAs.join(explore.rule.read_as_joined_by));
  return fill(fill(fill(explore.rule.template, "limit", limit), "words", ranked.join(explore.rule.words_joined_by)), "constraints", constraints);
}

const ROW_FIELDS = [
  "resource", "service_name", "description", "description_withheld", "min_price_usd", "networks",
  "unique_payers_30d", "calls_30d", "calls_per_payer", "days_since_last_call",
];

async function run(fetchJson, text, limit) {
  const { manifest, explore } = await loadExplore(fetchJson);
  const reading = readConstraints(text, manifest.networks.known);
  const tokens = exploreWords(reading.rest, explore.stopwords);
  const words = tokens.words;
  const c = reading.constraints;
  const filtered = c.max_price !== null || c.network !== null || c.exclude_testnets;
  const filters = { max_price: c.max_price, network: c.network, exclude_testnets: c.exclude_testnets };
  // Each word and, when it has accents, the word without them (since 2.4.0).
  const lookups = [...new Set(words.flatMap((w) => [w, fold(w)]))];
  const [postings, rows, allowed] = await Promise.all([
    fetchBuckets(fetchJson, explore.terms, lookups),
    fetchBuckets(fetchJson, explore.words, lookups),
    filtered ? idsMeetingFilters(fetchJson, manifest, filters) : null,
  ]);
  // A word with neither postings nor a vector is read as its translation, else as itself
  // without accents if a listing has that word, else as that word's translation, else as
  // its near spelling, if any (Rust's Explore::retrieve).
  const known = (w) => postings.get(w) !== null || rows.get(w) !== null;
  const unknown = words.filter((w) => !known(w));
  const unknownFolded = unknown.map(fold).filter((f, i) => f !== unknown[i] && postings.get(f) === null);
  // Since 2.5.0 the pieces of a run written without spaces, for segment.
  const pieces = unknown.filter(isSegmented).flatMap(segmentCandidates);
  const translation =
    unknown.length === 0
      ? new Map()
      : await fetchBuckets(fetchJson, explore.translations, [...new Set([...unknown, ...unknownFolded, ...pieces])]);
  // Each pair is [read as, rescued] (since 2.6.0).
  const pairOf = (w) => translation.get(w) ?? null;
  const translated = (w) => pairOf(w)?.[0] ?? null;
  const readingOf = (w) => {
    const f = fold(w);
    const own = pairOf(w);
    // Since 2.10.0 a pair that reads a word as itself without accents, which no listing
    // has ("música → musica"), reads nothing: the word is sought as a near spelling.
    if (own !== null && !(own[0] === f && postings.get(f) === null)) return { english: own[0], rescued: own[1] };
    if (f !== w) {
      if (postings.get(f) !== null) return { folded: f };
      const pair = pairOf(f);
      if (pair !== null) return { english: pair[0], rescued: pair[1] };
    }
    if (!isSegmented(w)) return null;
    const found = segment(w, (p) => translated(p) !== null);
    return found.length === 0 ? null : { pieces: found.map((p) => ({ word: p, read_as: translated(p) })) };
  };
  const readings = new Map(unknown.map((w) => [w, readingOf(w)]));
  // Near spellings of the words with no reading, and (since 2.6.0) of those read by a
  // rescued pair, which yields to a near spelling (Rust's Explore::retrieve).
  const near = await nearSpellings(
    fetchJson,
    explore,
    unknown.filter((w) => readings.get(w) === null || readings.get(w).rescued === true),
  );
  for (const w of unknown) {
    if (readings.get(w)?.rescued === true && (near.get(w) ?? null) !== null) readings.set(w, null);
  }
  // Since 2.7.0 a word nothing else reads is read by its stem's pair: its longest opening
  // that the table pairs by its cosine (Rust's Translations::by_prefix).
  const unread = unknown.filter((w) => readings.get(w) === null && (near.get(w) ?? null) === null && !isSegmented(w));
  const openings = unread.map((w) => [w, prefixCandidates(w)]).filter(([, o]) => o.length > 0);
  if (openings.length > 0) {
    const stems = await fetchBuckets(fetchJson, explore.translations, [...new Set(openings.flatMap(([, o]) => o))]);
    const byCosine = (p) => (stems.get(p) ?? null)?.[1] === false;
    for (const [w, o] of openings) {
      const stem = o.find(byCosine);
      if (stem !== undefined) readings.set(w, { english: stems.get(stem)[0], rescued: false, stem });
    }
  }
  const stopwords = new Set(explore.stopwords);
  const readAsOf = (w) => {
    const r = readings.get(w);
    if (r?.pieces !== undefined) return r.pieces.map((p) => p.read_as);
    return [r ? (r.english ?? r.folded) : (near.get(w) ?? null)];
  };
  const extra = [...new Set(unknown.flatMap(readAsOf).filter((w) => w !== null && !stopwords.has(w) && !postings.has(w)))];
  if (extra.length > 0) {
    const [p, r] = await Promise.all([fetchBuckets(fetchJson, explore.terms, extra), fetchBuckets(fetchJson, explore.words, extra)]);
    for (const w of extra) {
      postings.set(w, p.get(w));
      rows.set(w, r.get(w));
    }
  }
  const ranked = [];
  const nearSpellingsUsed = [];
  const translationsUsed = [];
  const notUnderstood = [];
  for (const w of words) {
    let readAs = w;
    if (!known(w)) {
      const reading = readings.get(w);
      const english = reading?.english ?? null;
      if (reading?.pieces !== undefined) {
        // Since 2.5.0, a run written without spaces is read as its pieces' translations.
        for (const p of reading.pieces) {
          translationsUsed.push(p);
          if (!stopwords.has(p.read_as) && !ranked.includes(p.read_as)) ranked.push(p.read_as);
        }
        continue;
      } else if (reading?.folded !== undefined) {
        readAs = reading.folded;
        nearSpellingsUsed.push({ word: w, read_as: readAs });
      } else if (english !== null) {
        translationsUsed.push({ word: reading.stem ?? w, read_as: english });
        // "con" is "with": a function word, left out as one.
        if (stopwords.has(english)) continue;
        readAs = english;
      } else {
        readAs = near.get(w) ?? null;
        if (readAs === null) {
          notUnderstood.push(w);
          continue;
        }
        nearSpellingsUsed.push({ word: w, read_as: readAs });
      }
    }
    if (!ranked.includes(readAs)) ranked.push(readAs);
  }
  const bm25 = bm25List(explore, postings, ranked, allowed);
  const dense = await denseList(fetchJson, explore, rows, ranked, allowed);
  const candidates = [...new Set([...bm25, ...dense.ids])];
  const priceWeight = c.cheapest ? explore.cheapest_weight : explore.prior_weight;
  const fused = fuse(explore, bm25, dense.ids, await facts(fetchJson, explore, candidates), priceWeight);
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
        read_as: reading.readAs,
        constraints: c,
        constraint_phrases: reading.phrases,
        near_spellings: nearSpellingsUsed,
        translations: translationsUsed,
        not_understood: notUnderstood,
        ranked_words: ranked,
        limit,
        rule: ruleText(explore, words, ranked, reading.readAs, limit),
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
  // Before the rows, what changes how they read: the snapshot's notices and how the
  // words were read; after them, how the list was made (on a phone the rows come first).
  const before = [
    ...meta.snapshot.notices.map((n) => el(doc, "p", { class: "notice" }, el(doc, "strong", {}, n))),
    q.read_as.length ? p("read-as", `Read as: ${q.read_as.join("; ")} (from “${q.constraint_phrases.join("”, “")}”).`) : null,
    q.near_spellings.length
      ? p("near", `Read as near spellings: ${q.near_spellings.map((n) => `${n.word} → ${n.read_as}`).join(", ")}.`)
      : null,
    q.translations.length
      ? p("near", `Read as translations: ${q.translations.map((n) => `${n.word} → ${n.read_as}`).join(", ")}.`)
      : null,
    el(doc, "p", { class: "counts", "data-returned": meta.returned },
      `BM25 list ${meta.lists.bm25}, dense list ${meta.lists.dense} (${meta.lists.dense_lists_read} of ` +
        `${meta.lists.dense_lists} clusters read), ${meta.lists.fused} candidates; showing ${meta.returned}`),
  ].filter(Boolean);
  const after = [
    p("not-method", meta.not_the_method_answer),
    p("tokens", `Words: ${q.words.length ? q.words.join(", ") : "none usable"}.`),
    q.not_understood.length ? p("dropped", `Not understood, left out: ${q.not_understood.join(", ")}.`) : null,
    q.words_without_vector.length ? p("dropped", `No word vector for: ${q.words_without_vector.join(", ")}.`) : null,
    p("rule", `How this list was made: ${q.rule}.`),
    p("snapshot", `Snapshot of ${meta.snapshot.date}. Explore `,
      el(doc, "a", { href: pathOf(meta.explore.url) }, meta.explore.version), ", beside method ",
      el(doc, "a", { href: pathOf(meta.method.url) }, meta.method.version), "."),
    el(doc, "ul", { class: "limits" }, ...meta.limits.map((limit) => el(doc, "li", {}, limit))),
  ].filter(Boolean);
  if (data.length === 0) {
    const why = q.words.length > 0 && q.ranked_words.length === 0
      ? "No word of the query was understood, so nothing is shown rather than unrelated listings."
      : "Nothing retrieved for these words.";
    return ["empty", [p("empty", why), ...before, ...after]];
  }
  const head = el(doc, "tr", {}, ...COLUMNS.map((label) => el(doc, "th", { scope: "col" }, label)));
  const table = el(doc, "div", { class: "table-wrap" },
    withTableRoles(el(doc, "table", { class: "resources explore" },
      el(doc, "caption", {}, `Explore results 1 to ${meta.returned}, with each list's rank`),
      el(doc, "thead", {}, head),
      el(doc, "tbody", {}, ...data.map((row) => exploreRow(doc, row))))));
  return ["results", [...before, table, ...after]];
}

/** Shows an explore envelope or an error in `container`; sets data-state. */
export function renderExplore(container, answerOrError, doc = container.ownerDocument) {
  const [state, nodes] = answerOrError.error ? errorView(doc, answerOrError.error) : exploreView(doc, answerOrError);
  container.setAttribute("data-state", state);
  container.replaceChildren(...nodes);
}
