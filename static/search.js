// Wires the search form to the composer. Loaded as an external module (no inline
// script, so the site's strict Content-Security-Policy holds).

import { el, httpSource, loadManifest, query, render, rowNames, tokenCounts } from "./composer.js";
import { DEFAULT_LIMIT } from "./rules.js";
import { bringIntoView, keepScroll, placeResults, readWith, restoreScroll, saveScroll } from "./scroll.js";

const TEXT_FILTERS = ["max_price", "network", "limit"];
// Every value a search's address can carry, in the order it writes them.
const FIELDS = ["q", "max_price", "network", "exclude_testnets", "answered_402", "limit", "offset"];
// The filters given by a box: `answered_402`'s is on the form only in a probed snapshot.
const SWITCHES = ["exclude_testnets", "answered_402"];

const form = document.querySelector("form#search");
const results = document.querySelector("#results");
const api = results?.getAttribute("data-api");
// The snapshot's folder, "/2025-12-31/": the API's parent.
const folder = api?.replace(/api\/$/, "");
// A dated folder's files never change: each is fetched once a visit, however many
// searches, the row names and an empty answer's word counts read it (a failed read is
// tried again next time).
const files = new Map();
const source = api === undefined || api === null ? null : (() => {
  const http = httpSource(api);
  return (path) => {
    if (!files.has(path)) files.set(path, http(path).catch((e) => { files.delete(path); throw e; }));
    return files.get(path);
  };
})();
// Each search gets a number, so a slow earlier answer cannot replace a later one.
let latest = 0;
// The offset of the search shown: set by the pager's links, reset by the form.
let offset = null;

/** The form's values: the words as typed; a filter left blank is absent. */
function readForm() {
  const values = { q: form.elements.q.value, offset };
  // A box the form lacks (answered_402 in a snapshot not probed, from a shared address)
  // keeps the address's value, so the answer says the filter cannot apply, never drops it.
  const given = new URLSearchParams(location.search);
  for (const name of SWITCHES) values[name] = form.elements[name] ? form.elements[name].checked : given.get(name) === "1";
  for (const name of TEXT_FILTERS) {
    const text = form.elements[name].value.trim();
    values[name] = text === "" ? null : text;
  }
  return values;
}

/** The URL a search can be shared and reloaded by (what the no-JS GET form would send). */
function shareableUrl(values) {
  const params = new URLSearchParams();
  for (const name of FIELDS) {
    const value = values[name];
    if (SWITCHES.includes(name)) {
      if (value) params.set(name, "1");
    } else if (value !== null && value !== "" && !(name === "offset" && value === "0") && !(name === "limit" && value === String(DEFAULT_LIMIT))) {
      params.set(name, value);
    }
  }
  const search = params.toString();
  return `${location.pathname}${search ? `?${search}` : ""}`;
}

function markInvalid(field) {
  for (const name of TEXT_FILTERS) {
    const input = form.elements[name];
    if (name === field) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
  // A bad filter is inside the closed filters: open them, so it can be seen and fixed.
  if (field !== null) form.querySelector("details.filters")?.setAttribute("open", "");
}

// Segment labels and network names come from the manifest, read once.
let names = null;
async function rowNamesOnce() {
  names ??= loadManifest(source).then(
    (manifest) => rowNames(manifest, (id) => `${folder}segment/${id}/`),
    () => undefined,
  );
  return names;
}

async function run(values) {
  const ticket = ++latest;
  results.setAttribute("aria-busy", "true");
  let outcome;
  try {
    outcome = await query(source, values.q, values);
    markInvalid(null);
  } catch (e) {
    markInvalid(e.field ?? null);
    outcome = { error: { code: e.code ?? "ERROR", message: e.message } };
  }
  const shown = await rowNamesOnce();
  if (ticket !== latest) return;
  results.removeAttribute("aria-busy");
  render(results, outcome, document, shown);
  if (outcome.meta && outcome.data.length > 0) addPager(values, outcome.meta);
  if (outcome.meta && outcome.data.length === 0 && outcome.meta.query.tokens.length > 0) {
    await explainEmpty(values, outcome.meta, ticket);
  }
}

/** Links to the previous and next pages of the same answer, under its table. */
function addPager(values, meta) {
  const { limit, offset: from } = meta.query.filters;
  if (from === 0 && meta.total_matched <= meta.returned) return;
  const link = (to, text, rel) => {
    const a = el(document, "a", { href: shareableUrl({ ...values, offset: String(to) }), rel }, text);
    a.addEventListener("click", (event) => {
      event.preventDefault();
      offset = String(to);
      const next = { ...values, offset };
      remember(next, { typed: false });
      run(next).then(() => readWith(results).scrollIntoView({ block: "start" }));
    });
    return a;
  };
  const nav = el(document, "nav", { class: "pager", "aria-label": "Pages of these results" },
    from > 0 ? link(Math.max(0, from - limit), `← Previous ${limit}`, "prev") : null,
    el(document, "span", {}, `${from + 1} to ${from + meta.returned} of ${meta.total_matched}`),
    from + meta.returned < meta.total_matched ? link(from + limit, `Next ${Math.min(limit, meta.total_matched - from - meta.returned)} →`, "next") : null);
  results.querySelector(".table-wrap")?.after(nav);
}

/**
 * After an answer that found nothing: which words no resource has, the same words in
 * Explore, and the other published snapshots where the same search finds something.
 * It never answers in the directory's name: each is a link the visitor can follow.
 */
async function explainEmpty(values, meta, ticket) {
  const { tokens, filters } = meta.query;
  const box = el(document, "div", { class: "empty-help" });
  const quote = (words) => words.map((w) => `"${w}"`).join(", ");
  const counts = await tokenCounts(source, tokens).catch(() => null);
  if (counts) {
    const missing = tokens.filter((t) => counts.get(t) === 0);
    const filtered = filters.max_price !== null || filters.network !== null || filters.exclude_testnets || filters.answered_402;
    box.append(el(document, "p", { class: "missing" }, missing.length > 0
      ? `No resource of this snapshot has ${quote(missing)} as a whole word. Words match whole and as written: no stemming, so "images" does not find "image".`
      : `Every word is in some resource, but no resource has all of them${filtered ? " within these filters" : ""}.`));
    const respelled = missing.length > 0 ? await respell(tokens, missing).catch(() => null) : null;
    if (ticket !== latest) return;
    if (respelled) {
      const href = shareableUrl({ ...values, q: respelled, offset: null });
      box.append(el(document, "p", { class: "did-you-mean" }, "Did you mean ", el(document, "a", { href }, respelled), "? (A link: this search stays as typed.)"));
    }
  }
  const explore = `${folder}explore/?${new URLSearchParams({ q: values.q })}`;
  box.append(el(document, "p", { class: "explore" }, "Explore ranks resources by similar words too (it is not the directory's answer): ",
    el(document, "a", { href: explore }, `explore ${quote(tokens)}`), "."));
  const elsewhere = await otherSnapshots(values, meta.snapshot.date);
  if (ticket !== latest) return;
  if (elsewhere.length > 0) {
    box.append(el(document, "p", {}, "The same search finds resources in other snapshots:"),
      el(document, "ul", { class: "elsewhere" }, ...elsewhere.map(({ date, search, total }) =>
        el(document, "li", {}, el(document, "a", { href: search }, `Snapshot of ${date}`), `: ${total} resource${total === 1 ? "" : "s"}`))));
  } else {
    box.append(el(document, "p", { class: "elsewhere-none" }, "No other published snapshot has resources for this search either."));
  }
  results.querySelector("p.empty")?.after(box);
}

/**
 * The words with each missing one replaced by its nearest spelling among the snapshot's
 * words (explore's near spellings, kept only where the strict index has the word), or
 * null when no missing word has one. Explore's code is loaded only when it is needed.
 */
async function respell(tokens, missing) {
  const { nearSpellingsOf } = await import("./explore.js");
  const near = await nearSpellingsOf(source, missing);
  const offered = [...new Set(missing.map((w) => near.get(w)).filter((w) => typeof w === "string" && w !== ""))];
  if (offered.length === 0) return null;
  const found = await tokenCounts(source, offered);
  const better = (t) => (missing.includes(t) && (found.get(near.get(t)) ?? 0) > 0 ? near.get(t) : t);
  const words = tokens.map(better);
  return words.some((w, i) => w !== tokens[i]) ? words.join(" ") : null;
}

/** The other published snapshots (root snapshots.json) where the same search matches. */
async function otherSnapshots(values, date) {
  const list = await httpSource("/")("snapshots.json").catch(() => null);
  if (!list) return [];
  const found = await Promise.all(list.snapshots.filter((s) => s.date !== date).map(async (s) => {
    try {
      const answer = await query(s.api, values.q, { ...values, limit: "1", offset: null });
      const total = answer.meta?.total_matched ?? 0;
      const params = new URL(shareableUrl({ ...values, offset: null }), location.href).search;
      return total > 0 ? { date: s.date, search: `${s.search}${params}`, total } : null;
    } catch {
      // Another method version, or a network that snapshot does not know: not found there.
      return null;
    }
  }));
  return found.filter(Boolean);
}

// Typing waits this long for a pause before searching.
const DEBOUNCE_MS = 300;
// Searches typed within this long of the last history entry replace it, so Back steps
// over a word's letters but not over the searches before it.
const SAME_ENTRY_MS = 1500;
let typingTimer = 0;
// When the current history entry was made by typing, and when.
let typedEntryAt = null;

/** Records a search in the history: a new entry, unless it continues one being typed. */
function remember(values, { typed }) {
  const url = shareableUrl(values);
  if (url === `${location.pathname}${location.search}`) return;
  const now = Date.now();
  if (typed && typedEntryAt !== null && now - typedEntryAt < SAME_ENTRY_MS) history.replaceState(null, "", url);
  else {
    // The entry left keeps where the reader was in it, for Back.
    saveScroll();
    history.pushState(null, "", url);
  }
  typedEntryAt = typed ? now : null;
}

function onSubmit(event) {
  event.preventDefault();
  clearTimeout(typingTimer);
  offset = null;
  const values = readForm();
  remember(values, { typed: false });
  // On a phone the keyboard would cover the results: put it away.
  document.activeElement?.blur?.();
  run(values).then(() => bringIntoView(results));
}

/** Search as the visitor types, once they pause. */
function onInput() {
  clearTimeout(typingTimer);
  typingTimer = setTimeout(() => {
    offset = null;
    const values = readForm();
    if (values.q.trim() === "" && !SWITCHES.some((name) => values[name]) && values.max_price === null && values.network === null) return;
    remember(values, { typed: true });
    run(values);
  }, DEBOUNCE_MS);
}

/** A search arriving in the URL (a shared link, or the form sent before this script ran). */
function runFromUrl() {
  const params = new URLSearchParams(location.search);
  if (!FIELDS.some((name) => params.has(name))) {
    form.elements.q.value = "";
    results.replaceChildren();
    results.removeAttribute("data-state");
    return;
  }
  form.elements.q.value = params.get("q") ?? "";
  for (const name of TEXT_FILTERS) form.elements[name].value = params.get(name) ?? (name === "limit" ? "10" : "");
  for (const name of SWITCHES) if (form.elements[name]) form.elements[name].checked = params.get(name) === "1";
  offset = params.get("offset");
  // Filters in the address are shown, not hidden in the closed box.
  if (["max_price", "network", ...SWITCHES].some((name) => params.has(name))) {
    form.querySelector("details.filters")?.setAttribute("open", "");
  }
  return run(readForm());
}

if (form && results) {
  form.addEventListener("submit", onSubmit);
  form.addEventListener("input", onInput);
  // Back and Forward step through the searches made here.
  // Back and Forward, here or from another page, land where that entry was left.
  keepScroll();
  addEventListener("popstate", () => {
    clearTimeout(typingTimer);
    typedEntryAt = null;
    land();
  });
  land();
}

/** The page's search from its address, and the reader put where they were. */
function land() {
  const drawn = runFromUrl();
  if (drawn) drawn.then(() => placeResults(results));
  else restoreScroll();
}
