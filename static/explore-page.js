// Wires the explore form to explore.js. An external module: the site's CSP allows no
// inline script.

import { explore, renderExplore } from "./explore.js";

const form = document.querySelector("form#explore");
const results = document.querySelector("#results");
let latest = 0;

async function run(q, limit) {
  const ticket = ++latest;
  results.setAttribute("aria-busy", "true");
  let outcome;
  try {
    outcome = await explore(results.getAttribute("data-api"), q, { limit: limit === "" ? null : limit });
    form.elements.limit.removeAttribute("aria-invalid");
  } catch (e) {
    if (e.field) form.elements.limit.setAttribute("aria-invalid", "true");
    outcome = { error: { code: e.code ?? "ERROR", message: e.message } };
  }
  if (ticket !== latest) return;
  results.removeAttribute("aria-busy");
  renderExplore(results, outcome, document);
}

function submit(event) {
  event.preventDefault();
  const q = form.elements.q.value;
  const limit = form.elements.limit.value.trim();
  const params = new URLSearchParams({ q });
  if (limit !== "") params.set("limit", limit);
  history.replaceState(null, "", `${location.pathname}?${params}`);
  run(q, limit);
}

if (form && results) {
  form.addEventListener("submit", submit);
  const params = new URLSearchParams(location.search);
  if (params.has("q")) {
    form.elements.q.value = params.get("q");
    if (params.has("limit")) form.elements.limit.value = params.get("limit");
    run(form.elements.q.value, form.elements.limit.value.trim());
  }
}
