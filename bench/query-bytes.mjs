// Bytes and requests per query in a real browser: the built site served gzip-compressed
// on loopback (tests/e2e/serve.mjs), headless Chromium typing each query of a fixed list
// into the search form of a fresh page (a first visit: nothing cached, no earlier search's
// files reused). Reference measured in the same run: what a client would fetch
// to answer the same queries with no shards (every posting shard and every record).
// Budget (issue 18): a query of t tokens in at most t + 3 requests and under 30 KB.
// Usage: node bench/query-bytes.mjs PUBLIC_DIR DATE
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { startServer, cspFromNetlifyToml } from "../tests/e2e/serve.mjs";
import { tokenise } from "../static/composer.js";

const [publicDir, date] = process.argv.slice(2);
const QUERIES = [
  "token price", "weather forecast", "image generation", "twitter search", "solana wallet",
  "market data", "nft metadata", "web search", "crypto news", "ai agent", "token analysis", "defi yield",
];
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
const BUDGET_KB = 30;
const budget = (tokens) => tokens + 3;
// What a request under api/ is, by its path: the file kinds of docs/static-api.md.
const KINDS = [["manifest", /\/manifest\.json$/], ["part", /\/shards\/parts\//], ["shard", /\/shards\//],
  ["pack", /\/packs\//], ["record block", /\/records\//], ["answer", /\/q\//], ["prices", /\/prices\.json$/]];
const kind = (path) => (KINDS.find(([, re]) => re.test(path)) ?? ["other"])[0];

const server = await startServer(publicDir, { csp: cspFromNetlifyToml(new URL("../netlify.toml", import.meta.url).pathname) });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ARGS });
const rows = [];
for (const q of QUERIES) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.origin}/${date}/`);
  server.reset();
  await page.fill("#q", q);
  await page.click("form#search button");
  await page.waitForSelector("#results[data-state]:not([aria-busy])");
  const api = server.log.filter((r) => r.path.includes("/api/"));
  const returned = await page.$eval("#results", (r) => r.querySelector(".counts")?.dataset.returned ?? "0");
  const kinds = {};
  for (const r of api) kinds[kind(r.path)] = (kinds[kind(r.path)] ?? 0) + 1;
  await context.close();
  rows.push({ q, tokens: tokenise(q).tokens.length, requests: api.length, bytes: api.reduce((n, r) => n + r.bytes, 0), returned: Number(returned), kinds });
}
await browser.close();
await server.close();

const files = (dir) => readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
const apiDir = join(publicDir, date, "api");
const gz = (path) => gzipSync(readFileSync(path), { level: 9 }).length;
const naive = ["shards", "records"].flatMap((d) => files(join(apiDir, d))).reduce((n, f) => n + gz(f), 0);

console.log(`| query | tokens | results | requests | budget (tokens + 3) | requests by kind | KB gzip | share of no-shard reference |`);
console.log(`|---|---:|---:|---:|---:|---|---:|---:|`);
for (const r of rows) {
  const byKind = Object.entries(r.kinds).map(([k, n]) => `${k} ${n}`).join(", ");
  console.log(`| ${r.q} | ${r.tokens} | ${r.returned} | ${r.requests} | ${budget(r.tokens)} | ${byKind} | ${(r.bytes / 1024).toFixed(1)} | ${(r.bytes / naive * 100).toFixed(2)}% |`);
}
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2; };
const over = rows.filter((r) => r.requests > budget(r.tokens) || r.bytes > BUDGET_KB * 1024);
console.log(`\nmedian: ${median(rows.map((r) => r.requests))} requests, ${(median(rows.map((r) => r.bytes)) / 1024).toFixed(1)} KB; max: ${Math.max(...rows.map((r) => r.requests))} requests, ${(Math.max(...rows.map((r) => r.bytes)) / 1024).toFixed(1)} KB`);
console.log(`reference (every shard + every record, gzip): ${(naive / 1024).toFixed(0)} KB; queries over a budget (tokens + 3 requests, ${BUDGET_KB} KB): ${over.length} of ${rows.length}`);
