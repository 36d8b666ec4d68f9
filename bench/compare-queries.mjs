// Bytes, requests and time per query: x402dir's search page against Pagefind indexing the
// same built snapshot folder, both served by one byte-counting loopback server (gzip, no
// CSP, as Pagefind needs WebAssembly), driven by headless Chromium with the cache off.
// For Pagefind a query is counted until the data of its first ten results is loaded, as
// x402dir's answer carries its ten rows. Each Pagefind query gets a fresh module instance
// (no index chunk kept from an earlier query); only data files are counted on both
// sides, not pages, scripts or Pagefind's WebAssembly.
// Usage: node bench/compare-queries.mjs SITE_ROOT DATE
import { chromium } from "playwright-core";
import { startServer } from "../tests/e2e/serve.mjs";

const [root, date] = process.argv.slice(2);
const QUERIES = ["token price", "weather", "image generation", "twitter search", "solana wallet", "market data",
  "nft", "web search", "crypto news", "ai agent", "polymarket", "defi yield"];
const server = await startServer(root, { csp: null });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"] });
const page = await browser.newPage();
const cdp = await page.context().newCDPSession(page);
await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });

async function measure(run) {
  const rows = [];
  for (const q of QUERIES) {
    server.reset();
    const t0 = Date.now();
    const found = await run(q);
    const ms = Date.now() - t0;
    // Data only: pages, scripts and Pagefind's WebAssembly are code, loaded once per visit.
    const log = server.log.filter((r) => !/\.(html|js|css)$/.test(r.path) && !r.path.includes("/wasm."));
    rows.push({ q, found, ms, requests: log.length, bytes: log.reduce((s, r) => s + r.bytes, 0) });
  }
  return rows;
}

await page.goto(`${server.origin}/${date}/search/`);
const x402 = await measure(async (q) => {
  await page.fill("#q", q);
  await page.click("form#search button");
  await page.waitForSelector("#results[data-state]:not([aria-busy])");
  return Number(await page.$eval("#results", (r) => r.querySelector(".counts")?.dataset.total ?? 0));
});
await page.goto(`${server.origin}/${date}/`);
const pagefind = await measure((q) => page.evaluate(async ([q, date]) => {
  // A fresh module instance per query, so no query benefits from another's loading.
  const pf = await import(`/${date}/pagefind/pagefind.js?${Math.random()}`);
  await pf.init();
  const s = await pf.search(q);
  await Promise.all(s.results.slice(0, 10).map((r) => r.data()));
  return s.results.length;
}, [q, date]));
await browser.close();
await server.close();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const m = (rows, k) => median(rows.map((r) => r[k]));
console.log("| query | x402dir matched | x402dir req | x402dir KB | x402dir ms | Pagefind results | Pagefind req | Pagefind KB | Pagefind ms |");
console.log("|---|---:|---:|---:|---:|---:|---:|---:|---:|");
x402.forEach((a, i) => {
  const b = pagefind[i];
  console.log(`| ${a.q} | ${a.found} | ${a.requests} | ${(a.bytes / 1024).toFixed(1)} | ${a.ms} | ${b.found} | ${b.requests} | ${(b.bytes / 1024).toFixed(1)} | ${b.ms} |`);
});
console.log(`\nmedian bytes per query: x402dir ${(m(x402, "bytes") / 1024).toFixed(1)} KB, Pagefind ${(m(pagefind, "bytes") / 1024).toFixed(1)} KB, ratio ${(m(x402, "bytes") / m(pagefind, "bytes")).toFixed(2)}`);
console.log(`median requests: x402dir ${m(x402, "requests")}, Pagefind ${m(pagefind, "requests")}; median ms: x402dir ${m(x402, "ms")}, Pagefind ${m(pagefind, "ms")}, ratio ${(m(x402, "ms") / m(pagefind, "ms")).toFixed(2)}`);
