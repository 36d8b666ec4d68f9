// Page weight (issue 9): what each page costs a visitor on first load. The built site
// is served gzip-compressed with the production CSP (tests/e2e/serve.mjs) and loaded in
// headless Chromium with its caches off, so nothing comes from an earlier page; bytes
// are the gzip sizes the server logged for every request the page made until the
// network was idle. Budgets (exit 1 when any is broken):
// - the newest snapshot's home page under 50 KB before any search;
// - a resource page under 20 KB: every one of the newest snapshot, 50 of every older
//   snapshot (every k-th by slug) and the largest by raw HTML of each snapshot;
// - no web fonts (no font request, no @font-face in any CSS served);
// - no third-party request (every request is to the server's own origin).
// The method page, a browse page and a search's results state are reported, not budgeted.
// Usage: node bench/weight.mjs [--public DIR] [--json] [--all]
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { launchChromium } from "../tests/e2e/chromium.mjs";
import { buildSite, serveSite } from "../tests/e2e/site.mjs";
import { METHOD_VERSION } from "../static/rules.js";

const KB = 1024;
const HOME_BUDGET = 50 * KB;
const RESOURCE_BUDGET = 20 * KB;
const SAMPLE = 50;
// Quiet time that counts as network idle: Playwright's own definition of networkidle.
const IDLE_MS = 500;
// The search runs on the snapshot with the most resources (2025-12-31 in the embedded site).
const SEARCH = { q: "token price" };
const FONT_EXT = /\.(woff2?|ttf|otf)$/i;

const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const option = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
const unknown = argv.filter((a, i) => !["--public", "--json", "--all"].includes(a) && argv[i - 1] !== "--public");
if (unknown.length || (flag("--public") && !option("--public"))) {
  console.error("usage: bench/weight [--public DIR] [--json] [--all]");
  process.exit(2);
}

const publicDir = option("--public") ?? buildSite("weight");

const dates = readdirSync(publicDir).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)).sort();
if (!dates.length) throw new Error(`no dated snapshot folder in ${publicDir}`);
const newest = dates.at(-1);
const slugs = (date) => readdirSync(join(publicDir, date, "r"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
SEARCH.date = dates.reduce((a, b) => (slugs(b).length > slugs(a).length ? b : a));
const htmlSize = (date, slug) => statSync(join(publicDir, date, "r", slug, "index.html")).size;

// Every page to load, each with the groups it answers for (a page can be in several).
const pages = new Map();
const want = (path, group, budget) => {
  const p = pages.get(path) ?? { path, groups: [], budget: null };
  p.groups.push(group);
  if (budget !== null) p.budget = Math.min(p.budget ?? Infinity, budget);
  pages.set(path, p);
};
want(`/${newest}/`, `home ${newest}`, HOME_BUDGET);
for (const date of dates) {
  const all = slugs(date);
  const largest = all.reduce((a, b) => (htmlSize(date, b) > htmlSize(date, a) ? b : a));
  want(`/${date}/r/${largest}/`, `largest resource page by HTML, ${date}`, RESOURCE_BUDGET);
  const k = date === newest ? 1 : Math.max(1, Math.floor(all.length / SAMPLE));
  const chosen = date === newest ? all : all.filter((_, i) => i % k === 0).slice(0, SAMPLE);
  const group = date === newest ? `resource pages ${date}, all ${all.length}` : `resource pages ${date}, ${chosen.length} of ${all.length} (every ${k} by slug)`;
  for (const slug of chosen) want(`/${date}/r/${slug}/`, group, RESOURCE_BUDGET);
}
want(`/method/${METHOD_VERSION}/`, "method page", null);
want(`/${newest}/browse/`, `browse ${newest}`, null);

const server = await serveSite(publicDir);
const browser = await launchChromium();
const problems = [];

const context = await browser.newContext();
const page = await context.newPage();
page.setDefaultTimeout(15000);
// One page for every load, with the HTTP and memory caches off, so each load costs what
// a first visit does (a fresh context per page costs a renderer start each, ~0.4 s here).
const cdp = await context.newCDPSession(page);
await cdp.send("Network.enable");
await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
const seen = [];
const entries = new WeakMap();
let inflight = 0;
let last = Date.now();
const settle = () => { inflight -= 1; last = Date.now(); };
// Every request the page starts, including those that fail.
page.on("request", (r) => {
  inflight += 1;
  last = Date.now();
  const entry = { url: r.url(), type: r.resourceType() };
  entries.set(r, entry);
  seen.push(entry);
});
page.on("requestfinished", settle);
page.on("requestfailed", (r) => { settle(); const e = entries.get(r); if (e) e.failed = r.failure()?.errorText ?? "failed"; });
const css = [];
page.on("response", (r) => {
  if (r.request().resourceType() === "stylesheet" || /text\/css/.test(r.headers()["content-type"] ?? "")) {
    css.push(r.text().then((text) => ({ url: r.url(), text }), () => null));
  }
});
// A load the CSP blocks may never reach the request event; the console names it.
const blocked = [];
page.on("console", (m) => { if (/Content Security Policy/i.test(m.text())) blocked.push(m.text()); });

async function take(path) {
  while (inflight > 0 || Date.now() - last < IDLE_MS) await new Promise((r) => setTimeout(r, 50));
  // Chromium asks for /favicon.ico once per profile, at a moment of its choosing: not
  // the page's doing, and it would land on whichever page was loading.
  const log = server.log.splice(0, server.log.length).filter((l) => l.path !== "/favicon.ico");
  const styles = (await Promise.all(css.splice(0, css.length))).filter(Boolean);
  const m = {
    requests: log.length,
    bytes: log.reduce((n, r) => n + r.bytes, 0),
    log,
    seen: seen.splice(0, seen.length).filter((s) => !s.url.endsWith("/favicon.ico")),
    fontFace: styles.filter((s) => /@font-face/i.test(s.text)).map((s) => s.url),
    blocked: blocked.splice(0, blocked.length),
  };
  check(path, m);
  return m;
}

/** Loads `path` and measures it until idle; `then(page)`, if given, is measured apart. */
async function measure(path, then) {
  await page.goto(server.origin + path, { waitUntil: "load" });
  const load = await take(path);
  let after = null;
  if (then) { await then(page); after = await take(`${path} (${then.name || "after load"})`); }
  return [load, after];
}

function check(path, m) {
  for (const s of m.seen) {
    let origin;
    try { origin = new URL(s.url).origin; } catch { origin = "(unparsable)"; }
    if (origin !== server.origin) problems.push(`${path}: third-party request ${s.url}${s.failed ? ` (${s.failed})` : ""}`);
    if (s.type === "font" || FONT_EXT.test(new URL(s.url, server.origin).pathname)) problems.push(`${path}: web font requested: ${s.url}`);
  }
  for (const url of m.fontFace) problems.push(`${path}: @font-face in ${url}`);
  for (const text of m.blocked) problems.push(`${path}: CSP violation: ${text}`);
}

const results = [];
server.reset();
for (const p of pages.values()) {
  const [load] = await measure(p.path);
  results.push({ ...p, ...load });
}
let state;
const [searchLoad, searchAfter] = await measure(`/${SEARCH.date}/`, async function search(page) {
  await page.fill("#q", SEARCH.q);
  await page.click("form#search button");
  await page.waitForSelector("#results[data-state]:not([aria-busy])");
  state = await page.getAttribute("#results", "data-state");
}).catch((e) => { problems.push(`search "${SEARCH.q}" on ${SEARCH.date} failed: ${e.message.split("\n")[0]}`); return [empty(), empty()]; });
await context.close();
await browser.close();
await server.close();
if (state && state !== "results") problems.push(`search "${SEARCH.q}" on ${SEARCH.date} ended in state ${state}, not results`);

const over = results.filter((r) => r.budget !== null && r.bytes >= r.budget);
for (const r of over) {
  problems.push(`${r.path} (${r.groups.join("; ")}): ${kb(r.bytes)} KB transferred, budget ${kb(r.budget)} KB, ratio ${ratio(r.bytes, r.budget)}`);
}

// The table: one row per group, its heaviest page; with --all, every page.
const rows = [];
const row = (label, m, budget, enforced) => rows.push({ label, path: m.path, requests: m.requests, bytes: m.bytes, budget, enforced, log: m.log });
if (flag("--all")) {
  for (const r of results) row(`${r.path} (${r.groups.join("; ")})`, r, r.budget ?? HOME_BUDGET, r.budget !== null);
} else {
  const groups = [...new Set(results.flatMap((r) => r.groups))];
  for (const g of groups) {
    const members = results.filter((r) => r.groups.includes(g));
    const top = members.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    const label = members.length > 1 ? `${g}; heaviest: ${top.path}` : `${g}: ${top.path}`;
    // Pages with no budget of their own are set beside the home page's, for scale.
    row(label, top, top.budget ?? HOME_BUDGET, top.budget !== null);
  }
}
row(`home ${SEARCH.date}, before the search: /${SEARCH.date}/`, { path: `/${SEARCH.date}/`, ...searchLoad }, HOME_BUDGET, false);
// Issue 3's budget per query (bench/query-bytes.mjs), for scale.
row(`search "${SEARCH.q}" on ${SEARCH.date}, results state (after the load)`, { path: `/${SEARCH.date}/`, ...searchAfter }, 30 * KB, false);

function empty() { return { requests: 0, bytes: 0, log: [] }; }
function kb(n) { return (n / KB).toFixed(1); }
function ratio(n, d) { return (n / d).toFixed(2); }

if (flag("--json")) {
  const strip = (r) => ({ path: r.path, groups: r.groups, budget: r.budget, requests: r.requests, bytes: r.bytes,
    ratio: r.budget === null ? null : Number(ratio(r.bytes, r.budget)), log: r.log });
  console.log(JSON.stringify({
    snapshots: dates, newest, budgets: { home: HOME_BUDGET, resource: RESOURCE_BUDGET },
    table: rows.map(({ log, ...r }) => ({ ...r, ratio: Number(ratio(r.bytes, r.budget)) })),
    pages: results.map(strip),
    search: { date: SEARCH.date, q: SEARCH.q, state, load: strip({ path: `/${SEARCH.date}/`, groups: [], budget: null, ...searchLoad }),
      results: strip({ path: `/${SEARCH.date}/`, groups: [], budget: null, ...searchAfter }) },
    problems: [...new Set(problems)],
  }, null, 2));
} else {
  console.log(`${results.length} pages loaded with the browser caches off; bytes are gzip transfer sizes until network idle.\n`);
  console.log("| page | requests | KB transferred | budget KB | ratio to budget |");
  console.log("|---|---:|---:|---:|---:|");
  for (const r of rows) {
    console.log(`| ${r.label} | ${r.requests} | ${kb(r.bytes)} | ${kb(r.budget)}${r.enforced ? "" : " (for scale)"} | ${ratio(r.bytes, r.budget)} |`);
  }
  console.log("\nRequests of each row (path, status, gzip bytes):");
  for (const r of rows) {
    console.log(`- ${r.label}: ${r.log.map((l) => `${l.path} ${l.status} ${l.bytes}`).join(", ")}`);
  }
  const found = (re) => (problems.some((p) => re.test(p)) ? "FOUND" : "none");
  console.log(`\nweb fonts: ${found(/font/)}; third-party requests: ${found(/third-party/)}; CSP violations: ${found(/CSP violation/)}`);
}
if (problems.length) {
  // The search loads its page a second time: its problems would repeat.
  const unique = [...new Set(problems)];
  console.error(`\nbench/weight: ${unique.length} problem(s):`);
  for (const p of unique) console.error(`- ${p}`);
  process.exit(1);
}
