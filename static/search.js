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

function onSubmit(event) {
  event.preventDefault();
  const values = readForm();
  history.replaceState(null, "", shareableUrl(values));
  run(values).then(() => {
    // On a phone the results begin below the form, out of sight: bring their first
    // line into view, so that pressing Search visibly does something.
    if (results.getBoundingClientRect().top > innerHeight * 0.6) results.scrollIntoView({ block: "start" });
  });
}

/** A search arriving in the URL (a shared link, or the form sent before this script ran). */
function runFromUrl() {
  const params = new URLSearchParams(location.search);
  if (!FIELDS.some((name) => params.has(name))) return;
  for (const name of FIELDS) {
    if (params.has(name)) form.elements[name].value = params.get(name);
  }
  run(readForm());
}

if (form && results) {
  form.addEventListener("submit", onSubmit);
  runFromUrl();
}
