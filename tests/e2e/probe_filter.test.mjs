// The `answered_402` filter in the browser (content/method.md#answered-402): on a probed
// snapshot's search page a box keeps only what answered 402, the rows and count are the
// CLI's, and a shared address keeps it; a snapshot not probed has no box, and its address
// with the filter says why it cannot apply rather than dropping it. The probe file is
// synthetic: written here for the real snapshot of 2025-12-31, every third resource
// unanswered, the rest a 402 without readable requirements.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium } from "./chromium.mjs";
import { bin, repo, serveSite } from "./site.mjs";

const PROBED = "2025-12-31";
const NOT_PROBED = "2026-08-20";
let scratch, server, browser;

function writeProbe(snapshots, probes) {
  const { items } = JSON.parse(readFileSync(join(snapshots, `${PROBED}.json`), "utf8"));
  const urls = [...new Set(items.map((i) => i.resource).filter((u) => typeof u === "string"))].sort();
  const results = urls.map((resource, i) => {
    const answered = i % 3 !== 0;
    return {
      resource, at: "2026-12-07T06:31:07Z", outcome: answered ? "402_unreadable" : "no_answer",
      status: answered ? 402 : null, failure: answered ? null : "timeout", ms_to_first_byte: answered ? 50 : null,
      x402_version: null, body_cut: false, waited_s: null, terms: [],
    };
  });
  mkdirSync(probes, { recursive: true });
  writeFileSync(join(probes, `${PROBED}.json`), JSON.stringify({
    probe_version: "1.0.0", snapshot: PROBED, started: "2026-12-07T06:30:00Z", finished: "2026-12-07T06:40:00Z",
    user_agent: "x402dir-probe/test (+https://x402dir.netlify.app)",
    limits: { connections_per_host: 2, connections: 32, timeout_ms: 10000, body_bytes: 65536, header_bytes: 417792,
      headers: 100, redirects: 3, retry_after_max_s: 60, silent_host_after: 3 },
    results,
  }));
}

/** `x402dir query --json ARGS` over the probed copy of the snapshot. */
const cli = (date, ...args) => JSON.parse(execFileSync(bin,
  ["query", "--json", "--snapshot", join(scratch, "snapshots", `${date}.json`), ...args], { cwd: repo }));

before(async () => {
  scratch = mkdtempSync(join(tmpdir(), "x402dir-probe-filter-"));
  const snapshots = join(scratch, "snapshots");
  mkdirSync(snapshots);
  for (const date of [PROBED, NOT_PROBED]) copyFileSync(join(repo, "content/snapshots", `${date}.json`), join(snapshots, `${date}.json`));
  writeProbe(snapshots, join(scratch, "probes"));
  execFileSync(bin, ["build", "--snapshots-dir", snapshots, "--out", join(scratch, "public"), "--no-lock"], { cwd: repo, stdio: "pipe" });
  server = await serveSite(join(scratch, "public"));
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function settled(page) {
  await page.waitForFunction(() => {
    const r = document.querySelector("#results");
    return r && r.getAttribute("aria-busy") !== "true" && r.hasAttribute("data-state");
  });
}

test("a probed snapshot's search keeps only what answered 402, as the CLI does", async () => {
  const page = await browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.goto(`${server.origin}/${PROBED}/search/`);
  await page.click("details.filters summary");
  assert.match(await page.textContent("label[for=answered_402]"), /answered 402 when probed/);
  assert.match(await page.textContent("#answered_402_when"), /2026-12-07 06:30 UTC/);
  await page.fill("#q", "api");
  await page.check("#answered_402");
  await page.click("form#search button");
  await settled(page);
  const kept = cli(PROBED, "--answered-402", "--limit", "10", "api");
  const all = cli(PROBED, "api");
  assert.ok(kept.meta.total_matched > 0 && kept.meta.total_matched < all.meta.total_matched, "the filter leaves some out");
  assert.equal(Number(await page.getAttribute("#results .counts", "data-total")), kept.meta.total_matched);
  const shown = await page.$$eval("#results table.resources tbody tr td .url", (spans) => spans.map((s) => s.textContent));
  assert.deepEqual(shown, kept.data.map((r) => r.resource));
  assert.match(await page.textContent("#results .rule"), /answered 402 when the snapshot's probe asked it/);
  assert.match(page.url(), /answered_402=1/);
  // The address carries the filter: reloaded, the box is ticked and the answer the same.
  await page.reload();
  await settled(page);
  assert.equal(await page.isChecked("#answered_402"), true);
  assert.equal(Number(await page.getAttribute("#results .counts", "data-total")), kept.meta.total_matched);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a snapshot not probed offers no box, and its address with the filter says why", async () => {
  const page = await browser.newPage();
  await page.goto(`${server.origin}/${NOT_PROBED}/search/`);
  assert.equal(await page.locator("#answered_402").count(), 0);
  await page.goto(`${server.origin}/${NOT_PROBED}/search/?q=weather&answered_402=1`);
  await settled(page);
  assert.equal(await page.getAttribute("#results", "data-state"), "error");
  assert.match(await page.textContent("#results .error"), /the snapshot of 2026-08-20 was not probed/);
  await page.close();
});
