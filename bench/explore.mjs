// Explore in a real browser: requests, gzip bytes and time per query, the built site
// served gzip-compressed on loopback (tests/e2e/serve.mjs), headless Chromium typing
// each golden query into the explore form. Two references measured in the same run:
// the method's search for the same words (same page weight budget, same server), and
// what a client would fetch to rank explore with no sharding and no inverted file (every
// explore file of the snapshot, gzip).
// Usage: node bench/explore.mjs PUBLIC_DIR DATE [N_QUERIES] [golden|multilingual]
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { startServer, cspFromNetlifyToml } from "../tests/e2e/serve.mjs";

// A fourth argument, `multilingual`, takes every fourth query of multilingual.json instead.
const [publicDir, date, n = "24", set = "golden"] = process.argv.slice(2);
const golden = JSON.parse(readFileSync(new URL(`../content/explore/golden/${set}.json`, import.meta.url)));
// Every fourth golden query, so each class is represented.
const queries = golden.queries.filter((_, i) => i % 4 === 0).slice(0, Number(n)).map((q) => q.query);
const ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];

const server = await startServer(publicDir, { csp: cspFromNetlifyToml(new URL("../netlify.toml", import.meta.url).pathname) });
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ARGS });

async function measure(path, form) {
  const page = await browser.newPage();
  await page.goto(`${server.origin}${path}`);
  const out = [];
  for (const q of queries) {
    // A fresh cache per query: each query pays for its own files.
    await page.context().clearCookies();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
    server.reset();
    await page.fill("#q", q);
    const t0 = Date.now();
    await page.click(`form#${form} button`);
    await page.waitForSelector("#results[data-state]:not([aria-busy])");
    const ms = Date.now() - t0;
    const api = server.log.filter((r) => r.path.includes("/api/"));
    out.push({ q, requests: api.length, bytes: api.reduce((s, r) => s + r.bytes, 0), ms });
  }
  await page.close();
  return out;
}

const explore = await measure(`/${date}/explore/`, "explore");
const search = await measure(`/${date}/search/`, "search");
await browser.close();
await server.close();

function walk(dir) {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}
const files = walk(join(publicDir, date, "api", "explore")).filter((f) => !f.endsWith("evaluation.json"));
const everything = files.reduce((s, f) => s + gzipSync(readFileSync(f), { level: 9 }).length, 0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log("| query | explore requests | explore KB gzip | explore ms | method search requests | method KB gzip | method ms |");
console.log("|---|---:|---:|---:|---:|---:|---:|");
explore.forEach((e, i) => {
  const s = search[i];
  console.log(`| ${e.q} | ${e.requests} | ${(e.bytes / 1024).toFixed(1)} | ${e.ms} | ${s.requests} | ${(s.bytes / 1024).toFixed(1)} | ${s.ms} |`);
});
const m = (rows, k) => median(rows.map((r) => r[k]));
console.log(`\nmedians: explore ${m(explore, "requests")} requests, ${(m(explore, "bytes") / 1024).toFixed(1)} KB, ${m(explore, "ms")} ms; ` +
  `method search ${m(search, "requests")} requests, ${(m(search, "bytes") / 1024).toFixed(1)} KB, ${m(search, "ms")} ms`);
console.log(`ratios (explore / method search, medians): requests ${(m(explore, "requests") / m(search, "requests")).toFixed(2)}, ` +
  `bytes ${(m(explore, "bytes") / m(search, "bytes")).toFixed(2)}, time ${(m(explore, "ms") / m(search, "ms")).toFixed(2)}`);
console.log(`reference: every explore file of ${date} (no shards, no inverted file), gzip: ${(everything / 1024).toFixed(0)} KB; ` +
  `explore's median query fetches ${(m(explore, "bytes") / everything * 100).toFixed(1)}% of it`);
