// Bytes and requests per query in a real browser: the built site served gzip-compressed
// on loopback (tests/e2e/serve.mjs), headless Chromium typing each query of a fixed list
// into the search form. Reference measured in the same run: what a client would fetch
// to answer the same queries with no shards (every posting shard and every record).
// Usage: node bench/query-bytes.mjs PUBLIC_DIR DATE
import { readdirSync, readFileSync } from "node:fs";
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

const server = await startServer(publicDir, { csp: cspFromNetlifyToml(new URL("../netlify.toml", import.meta.url).pathname) });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });
const page = await browser.newPage();
await page.goto(`${server.origin}/${date}/`);
const rows = [];
for (const q of QUERIES) {
  server.reset();
  await page.fill("#q", q);
  await page.click("form#search button");
  await page.waitForSelector("#results[data-state]:not([aria-busy])");
  const api = server.log.filter((r) => r.path.includes("/api/"));
  const returned = await page.$eval("#results", (r) => r.querySelector(".counts")?.dataset.returned ?? "0");
  rows.push({ q, tokens: tokenise(q).tokens.length, requests: api.length, bytes: api.reduce((n, r) => n + r.bytes, 0), returned: Number(returned) });
}
await browser.close();
await server.close();

const apiDir = join(publicDir, date, "api");
const gz = (path) => gzipSync(readFileSync(path), { level: 9 }).length;
const everything = ["shards", "records"].flatMap((d) => readdirSync(join(apiDir, d)).map((f) => join(apiDir, d, f)));
const naive = everything.reduce((n, f) => n + gz(f), 0);

console.log(`| query | tokens | results | requests | budget (tokens + 2) | KB gzip | budget KB | share of no-shard reference |`);
console.log(`|---|---:|---:|---:|---:|---:|---:|---:|`);
for (const r of rows) {
  console.log(`| ${r.q} | ${r.tokens} | ${r.returned} | ${r.requests} | ${r.tokens + 2} | ${(r.bytes / 1024).toFixed(1)} | 30 | ${(r.bytes / naive * 100).toFixed(2)}% |`);
}
const over = rows.filter((r) => r.requests > r.tokens + 2 || r.bytes > 30 * 1024);
console.log(`\nreference (every shard + every record, gzip): ${(naive / 1024).toFixed(0)} KB; queries over a budget: ${over.length} of ${rows.length}`);
