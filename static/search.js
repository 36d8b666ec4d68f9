// Wires the search form to the composer. Loaded as an external module (no inline
// script, so the site's strict Content-Security-Policy holds).

import { query, render } from "./composer.js";

const FILTERS = ["max_price", "network", "limit"];
const FIELDS = ["q", ...FILTERS];

const form = document.querySelector("form#search");
const results = document.querySelector("#results");
// Each search gets a number, so a slow earlier answer cannot replace a later one.
let latest = 0;

/** The form's values: the words as typed; a filter left blank is absent. */
function readForm() {
  const values = { q: form.elements.q.value };
  for (const name of FILTERS) {
    const text = form.elements[name].value.trim();
    values[name] = text === "" ? null : text;
  }
  return values;
}

/** The URL a search can be shared and reloaded by (what the no-JS GET form would send). */
function shareableUrl(values) {
  const params = new URLSearchParams();
  for (const name of FIELDS) {
    if (values[name] !== null && values[name] !== "") params.set(name, values[name]);
  }
  const search = params.toString();
  return `${location.pathname}${search ? `?${search}` : ""}${location.hash}`;
}

function markInvalid(field) {
  for (const name of FILTERS) {
    const input = form.elements[name];
    if (name === field) input.setAttribute("aria-invalid", "true");
    else input.removeAttribute("aria-invalid");
  }
}

async function run(values) {
  const ticket = ++latest;
  results.setAttribute("aria-busy", "true");
  let outcome;
  try {
    outcome = await query(results.getAttribute("data-api"), values.q, values);
    markInvalid(null);
  } catch (e) {
    markInvalid(e.field ?? null);
    outcome = { error: { code: e.code ?? "ERROR", message: e.message } };
  }
  if (ticket !== latest) return;
  results.removeAttribute("aria-busy");
  render(results, outcome, document);
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
  if (url === `${location.pathname}${location.search}${location.hash}`) return;
  const now = Date.now();
  if (typed && typedEntryAt !== null && now - typedEntryAt < SAME_ENTRY_MS) history.replaceState(null, "", url);
  else history.pushState(null, "", url);
  typedEntryAt = typed ? now : null;
}

/** On a phone the results begin below the form: bring the first row into view. */
function showResults() {
  const first = results.querySelector("table") ?? results;
  const top = first.getBoundingClientRect().top;
  if (top > innerHeight * 0.4 || top < 0) scrollBy({ top: top - 8 });
}

function onSubmit(event) {
  event.preventDefault();
  clearTimeout(typingTimer);
  const values = readForm();
  remember(values, { typed: false });
  run(values).then(showResults);
}

/** Search as the visitor types, once they pause. */
function onInput() {
  clearTimeout(typingTimer);
  typingTimer = setTimeout(() => {
    const values = readForm();
    if (values.q.trim() === "" && FILTERS.every((name) => values[name] === null || name === "limit")) return;
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
  for (const name of FIELDS) {
    form.elements[name].value = params.get(name) ?? (name === "limit" ? "10" : "");
  }
  run(readForm());
}

if (form && results) {
  form.addEventListener("submit", onSubmit);
  form.addEventListener("input", onInput);
  // Back and Forward step through the searches made here.
  addEventListener("popstate", () => {
    clearTimeout(typingTimer);
    typedEntryAt = null;
    runFromUrl();
  });
  runFromUrl();
}
