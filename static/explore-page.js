// Wires the explore form to explore.js. An external module: the site's CSP allows no
// inline script. Each explore is a history entry (Back returns to the one before, at the
// place it was left: static/scroll.js), and on a phone its results are brought into view.

import { explore, renderExplore } from "./explore.js";
import { bringIntoView, keepScroll, placeResults, restoreScroll, saveScroll } from "./scroll.js";

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
  const url = `${location.pathname}?${params}`;
  if (url !== `${location.pathname}${location.search}`) {
    saveScroll();
    history.pushState(null, "", url);
  }
  // On a phone the keyboard would cover the results: put it away.
  document.activeElement?.blur?.();
  run(q, limit).then(() => bringIntoView(results));
}

/** The explore in the page's address, if any, and the reader put where they were. */
function land() {
  const params = new URLSearchParams(location.search);
  form.elements.q.value = params.get("q") ?? "";
  form.elements.limit.value = params.get("limit") ?? "10";
  if (!params.has("q")) {
    latest++;
    results.replaceChildren();
    results.removeAttribute("data-state");
    restoreScroll();
    return;
  }
  run(form.elements.q.value, form.elements.limit.value.trim()).then(() => placeResults(results));
}

if (form && results) {
  form.addEventListener("submit", submit);
  keepScroll();
  addEventListener("popstate", land);
  land();
}
