// End-to-end: the built site served on loopback with the production CSP, driven in
// headless Chromium (Debian's /usr/bin/chromium through playwright-core). Checks that
// a typed query renders the same rows the Rust CLI answers, and the empty, invalid
// and source-unavailable states.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { launchChromium } from "./chromium.mjs";
import { bin, buildSite, repo, serveSite } from "./site.mjs";
import { EXPLORE_VERSION, METHOD_VERSION } from "../../static/rules.js";
const DATE = "2025-12-31";
let server, browser, publicDir;


before(async () => {
  publicDir = buildSite("e2e");
  server = await serveSite(publicDir);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A fresh page that records console errors (CSP violations land there) and dialogs. */
async function open(path) {
  const page = await browser.newPage();
  const problems = [];
  // Console errors cover CSP violations; 404s are checked by URL below, since the
  // browser's own request for /favicon.ico is not the site's doing.
  page.on("console", (m) => { if (m.type() === "error" && !m.text().startsWith("Failed to load resource")) problems.push(m.text()); });
  page.on("response", (r) => { if (r.status() >= 400 && !r.url().endsWith("/favicon.ico")) problems.push(`${r.status()} ${r.url()}`); });
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("dialog", (d) => { problems.push(`dialog: ${d.message()}`); d.dismiss(); });
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
  await page.goto(server.origin + path);
  return { page, problems };
}

async function search(page, fields) {
  // The filters sit in a box that opens on demand.
  if (Object.keys(fields).some((name) => name !== "q")) await page.$eval("details.filters", (d) => { d.open = true; });
  for (const [name, value] of Object.entries(fields)) await page.fill(`#${name}`, value);
  await page.click("form#search button");
  await page.waitForSelector("#results[data-state]:not([aria-busy])");
  return page.getAttribute("#results", "data-state");
}

function cli(...args) {
  return JSON.parse(execFileSync(bin, ["query", "--json", "--snapshot", join(repo, "content", "snapshots", `${DATE}.json`), ...args], { cwd: repo }));
}

test("a typed query renders the rows the Rust CLI answers, in order", async () => {
  const { page, problems } = await open(`/${DATE}/`);
  const state = await search(page, { q: "token price", limit: "20" });
  assert.equal(state, "results");
  const expected = cli("--limit", "20", "token", "price");
  const urls = await page.$$eval("#results table.resources tbody tr td .url", (spans) => spans.map((s) => s.textContent));
  assert.deepEqual(urls, expected.data.map((r) => r.resource));
  const counts = await page.$eval("#results .counts", (p) => [p.dataset.total, p.dataset.returned]);
  assert.deepEqual(counts.map(Number), [expected.meta.total_matched, expected.meta.returned]);
  assert.match(await page.textContent("#results"), /Rule applied: every token \("token", "price"\)/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a query matching nothing shows the empty state with its rule", async () => {
  const { page, problems } = await open(`/${DATE}/`);
  assert.equal(await search(page, { q: "zzqqxxnotaword" }), "empty");
  const text = await page.textContent("#results");
  assert.match(text, /No resource matches/);
  assert.match(text, /"zzqqxxnotaword"/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("an invalid filter is an error, not a clamped search", async () => {
  const { page } = await open(`/${DATE}/`);
  assert.equal(await search(page, { q: "weather", limit: "0" }), "error");
  assert.match(await page.textContent("#results"), /limit/);
  await page.close();
});

test("a missing manifest shows SOURCE_UNAVAILABLE, not an empty list", async () => {
  server.breakPaths.add(`/${DATE}/api/manifest.json`);
  try {
    const { page } = await open(`/${DATE}/`);
    assert.equal(await search(page, { q: "weather" }), "unavailable");
    assert.match(await page.textContent("#results"), /Source unavailable/);
    await page.close();
  } finally {
    server.breakPaths.clear();
  }
});

test("a search in the URL runs on load (the no-JS form's GET target)", async () => {
  const { page, problems } = await open(`/${DATE}/search/?q=weather`);
  await page.waitForSelector("#results[data-state]:not([aria-busy])");
  assert.equal(await page.getAttribute("#results", "data-state"), "results");
  assert.equal(await page.inputValue("#q"), "weather");
  assert.deepEqual(problems, []);
  await page.close();
});

test("a snapshot's pages state its date and age, and mark themselves stale past the stale date by the reader's clock", async () => {
  // 2025-12-31's walk: next due 2026-01-07, stale after 2026-01-14 (the manifest's walk).
  const manifest = JSON.parse(await (await fetch(`${server.origin}/${DATE}/api/manifest.json`)).text());
  assert.deepEqual(manifest.walk, { date: DATE, interval_days: 7, next_due: "2026-01-07", stale_after: "2026-01-14" });
  for (const [path, now, stale] of [
    [`/${DATE}/`, "2026-01-14T23:59:00Z", false],
    [`/${DATE}/`, "2026-01-15T00:00:01Z", true],
    [`/${DATE}/browse/`, "2027-06-01T12:00:00Z", true],
    [`/${DATE}/browse/`, "2026-01-01T12:00:00Z", false],
  ]) {
    const context = await browser.newContext();
    const page = await context.newPage();
    const problems = [];
    page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
    page.on("pageerror", (e) => problems.push(String(e)));
    await page.clock.setFixedTime(new Date(now));
    await page.goto(server.origin + path);
    await page.waitForLoadState("load");
    assert.equal(await page.isVisible(".limits .stale-notice"), stale, `${path} at ${now}`);
    if (stale) assert.equal((await page.innerText(".limits .stale-notice")).trim(), "· stale after 2026-01-14");
    assert.equal(await page.$eval(".limits .stale-notice time", (t) => t.dateTime), "2026-01-14");
    assert.equal(await page.$eval(".limits", (a) => a.classList.contains("stale")), stale, `${path} at ${now}`);
    // The age by the reader's clock, in whole UTC days since the snapshot's date.
    const days = Math.floor((Date.parse(now.slice(0, 10)) - Date.parse(DATE)) / 86400000);
    assert.equal(await page.textContent(".limits .snapshot .age"), ` · ${days} day${days === 1 ? "" : "s"} old`, `${path} at ${now}`);
    assert.deepEqual(problems, []);
    await context.close();
  }
  // Without JavaScript the date alone: no age, no notice, no list of other snapshots.
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${server.origin}/${DATE}/`);
  assert.match(await page.innerText(".limits"), new RegExp(`^Snapshot of ${DATE} · Limits: `));
  assert.equal(await page.isVisible(".limits .stale-notice"), false);
  assert.equal(await page.locator("details.switch").count(), 0);
  assert.equal(await page.isVisible(".limits .snapshot .age"), false, "without JavaScript the date alone");
  await context.close();
});

test("browse pages work with JavaScript off", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${server.origin}/${DATE}/browse/page/2/`);
  const rows = await page.$$("table.resources tbody tr");
  assert.equal(rows.length, 50);
  await page.click("nav.pager a[rel=next]");
  assert.match(page.url(), /\/browse\/page\/3\/$/);
  await context.close();
});

test("hostile catalogue text never runs as script in the browser", async () => {
  // Build the hostile fixture catalogue (tests/fixtures/hostile) into its own site.
  const root = mkdtempSync(join(tmpdir(), "x402dir-hostile-"));
  const snapshots = join(root, "snapshots");
  const paths = ["2026-01-01", "2026-02-01"].map((d) => {
    execFileSync(bin, ["import", join(repo, "tests", "fixtures", "hostile", `${d}.json`), "--date", d, "--dir", snapshots], { stdio: "pipe" });
    return join(snapshots, `${d}.json`);
  });
  execFileSync(bin, ["build", "--out", join(root, "public"), ...paths.flatMap((p) => ["--snapshot", p])], { stdio: "pipe" });
  const hostile = await serveSite(join(root, "public"));
  const page = await browser.newPage();
  const dialogs = [];
  page.on("dialog", (d) => { dialogs.push(d.message()); d.dismiss(); });
  try {
    const date = "2026-02-01";
    const resourcePages = readdirSync(join(root, "public", date, "r"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).map((slug) => `/${date}/r/${slug}/`);
    const visited = [`/${date}/`, `/${date}/browse/`, `/${date}/report/`, ...resourcePages];
    for (const path of visited) {
      await page.goto(hostile.origin + path);
      assert.equal(await page.evaluate(() => window.__xss), undefined, path);
    }
    // Search for words from the payloads: results render as text only.
    await page.goto(`${hostile.origin}/${date}/`);
    for (const q of ["script", "onerror img", "xss", "desc"]) {
      await search(page, { q });
      assert.equal(await page.evaluate(() => window.__xss), undefined, q);
      assert.equal(await page.$$eval("#results img, #results svg, #results iframe, #results script", (n) => n.length), 0, q);
    }
    // Explore renders the same foreign text: also as text only.
    await page.goto(`${hostile.origin}/${date}/explore/`);
    let explored = 0;
    for (const q of ["script alert", "onerror img", "xss payload", "description"]) {
      for (const [name, value] of Object.entries({ q })) await page.fill(`#${name}`, value);
      await page.click("form#explore button");
      await page.waitForSelector("#results[data-state]:not([aria-busy])");
      if ((await page.getAttribute("#results", "data-state")) === "results") explored += 1;
      assert.equal(await page.evaluate(() => window.__xss), undefined, q);
      assert.equal(await page.$$eval("#results img, #results svg, #results iframe, #results script", (n) => n.length), 0, q);
    }
    assert.ok(explored >= 2, `explore found hostile listings for only ${explored} queries`);
    assert.deepEqual(dialogs, []);
    assert.ok(visited.length > 20, `only ${visited.length} pages visited`);
  } finally {
    await page.close();
    await hostile.close();
  }
});

test("latest/ serves the newest complete snapshot, and says its notices (no usage counters) above its results", async () => {
  // Worked out from the built list, so that it holds when the weekly run adds a snapshot.
  const list = JSON.parse(readFileSync(join(publicDir, "snapshots.json"), "utf8"));
  const newest = list.snapshots.find((s) => s.complete);
  assert.equal(list.default, newest.date);
  // Today that is 2025-12-31, whose listings carry no usage counter; a newer complete walk
  // says whatever its manifest says.
  const notices = JSON.parse(readFileSync(join(publicDir, newest.date, "api", "manifest.json"), "utf8")).snapshot.notices;
  if (newest.date === "2025-12-31") assert.deepEqual(notices, ["no usage counters in this snapshot: ranking falls to match_score, then URL"]);
  const { page } = await open("/latest/");
  assert.match(await page.textContent("h1"), /Paid x402 resources/);
  assert.match(await page.textContent(".limits .snapshot"), new RegExp(newest.date));
  const shown = await page.$$eval(".limits .notice", (ps) => ps.map((p) => p.textContent));
  assert.deepEqual(shown.slice(0, notices.length), notices);
  if (notices.length === 0) return page.close();
  // The composer says it above its results table too.
  await page.fill("#q", "weather");
  await page.click("form#search button");
  await page.waitForSelector("#results[data-state=results]:not([aria-busy])");
  const before = await page.$eval("#results", (r) => {
    const notice = r.querySelector("p.notice");
    const table = r.querySelector("table");
    return notice && table && (notice.compareDocumentPosition(table) & Node.DOCUMENT_POSITION_FOLLOWING) ? notice.textContent : null;
  });
  assert.equal(before, notices[0]);
  await page.close();
});

function cliExplore(...args) {
  return JSON.parse(execFileSync(bin, ["explore", "--json", "--snapshot", join(repo, "content", "snapshots", `${DATE}.json`), ...args], { cwd: repo }));
}

async function explore(page, fields) {
  for (const [name, value] of Object.entries(fields)) await page.fill(`#${name}`, value);
  await page.click("form#explore button");
  await page.waitForSelector("#results[data-state]:not([aria-busy])");
  return page.getAttribute("#results", "data-state");
}

test("explore ranks a paraphrase as the Rust CLI does, with every list's rank shown", async () => {
  const { page, problems } = await open(`/${DATE}/explore/`);
  assert.match(await page.textContent(".not-method"), /not the directory's answer/i);
  assert.equal(await explore(page, { q: "current conditions outdoors", limit: "12" }), "results");
  const expected = cliExplore("--limit", "12", "current", "conditions", "outdoors");
  const rows = await page.$$eval("#results table.explore tbody tr", (trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent)));
  assert.equal(rows.length, 12);
  const links = await page.$$eval("#results table.explore tbody tr td.resource > .url", (spans) => spans.map((s) => s.textContent));
  assert.deepEqual(links, expected.data.map((r) => r.resource));
  // BM25, dense and fused ranks as the CLI states them ("—" where a list did not place it).
  const shown = rows.map((cells) => cells.slice(2, 5));
  const want = expected.data.map((r) => [r.ranks.bm25, r.ranks.dense, r.ranks.fused].map((x) => (x === null ? "—" : String(x))));
  assert.deepEqual(shown, want);
  assert.ok(expected.data.slice(0, 3).some((r) => /weather/i.test(r.resource + r.description)));
  // The search state survives a reload: the URL carries the words.
  assert.match(page.url(), /\?q=current\+conditions\+outdoors&limit=12$/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the evaluation page and the explore method page are published", async () => {
  const { page, problems } = await open(`/${DATE}/explore/evaluation/`);
  const table = await page.$$eval("table.eval tbody tr th", (ths) => ths.map((th) => th.textContent));
  assert.deepEqual(table.slice(0, 6), ["method", "bm25", "dense", "dense_exact", "fused", "explore"]);
  const method = await open(`/explore/${EXPLORE_VERSION}/`);
  assert.equal(await method.page.textContent("h1"), `Explore, version ${EXPLORE_VERSION}`);
  assert.match(await method.page.textContent("#vector-table + table"), /all-MiniLM-L6-v2/);
  assert.deepEqual([...problems, ...method.problems], []);
  await page.close();
  await method.page.close();
});

test("on a 390 px phone, a resource page shows its price and method on the first screen, and its request a scroll away", async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  // The case: a POST listing with body fields and a price.
  const slug = readdirSync(join(publicDir, DATE, "r"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).find((s) => s.startsWith("api.heurist.xyz") || s.startsWith("mesh.heurist.xyz"));
  await page.goto(`${server.origin}/${DATE}/r/${slug}/`);
  const box = async (sel) => (await page.locator(sel).first().boundingBox());
  const price = await box(".call .price");
  const method = await box(".call .method");
  const curl = await box("#curl");
  assert.ok(price.y + price.height <= 844, `price ends at ${price.y + price.height} px`);
  assert.ok(method.y + method.height <= 844, `method ends at ${method.y + method.height} px`);
  assert.ok(curl.y < 2 * 844, `request starts at ${curl.y} px`);
  // The request wraps instead of widening the page.
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width} px wide`);
  assert.match(await page.textContent("#curl"), /^curl -i /);
  assert.deepEqual(problems, []);
  await context.close();
});

test("folders reached by trimming a URL have index pages, and a missing page is the styled 404 with ways in", async () => {
  for (const [path, heading] of [[`/${DATE}/network/`, "Resources by network"], [`/${DATE}/r/`, "Resource pages"], ["/method/", "The directory method"]]) {
    const { page, problems } = await open(path);
    assert.equal(await page.textContent("h1"), heading, path);
    assert.deepEqual(problems, [], path);
    await page.close();
  }
  const page = await browser.newPage();
  const reply = await page.goto(`${server.origin}/${DATE}/no-such-page/`);
  assert.equal(reply.status(), 404);
  assert.equal(await page.textContent("h1"), "No page here");
  // Its first way in searches the default snapshot (the weekly run moves it on).
  const { default: latest } = JSON.parse(readFileSync(join(publicDir, "snapshots.json"), "utf8"));
  await page.click(`a[href="/${latest}/search/"]`);
  assert.match(page.url(), new RegExp(`/${latest}/search/$`));
  await page.close();
});

test("on a 390 px phone a search shows its first result near the top, searches as you type, and Back returns to the previous query", async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.goto(`${server.origin}/${DATE}/`);
  const settled = () => page.waitForSelector("#results[data-state]:not([aria-busy])");
  const counts = () => page.textContent("#results .counts");
  // Submitted: the first row within 300 px of the top of the screen.
  await page.fill("#q", "ai agent");
  await page.press("#q", "Enter");
  await settled();
  const top = await page.$eval("#results table.resources tbody tr", (tr) => tr.getBoundingClientRect().top);
  assert.ok(top >= 0 && top <= 300, `the first result starts ${top} px from the top of the screen`);
  const first = await counts();
  // Typed, with no Search pressed: the answer follows once typing pauses.
  await page.fill("#q", "");
  await page.type("#q", "weather", { delay: 40 });
  await page.waitForFunction(() => new URL(location.href).searchParams.get("q") === "weather");
  await settled();
  await page.waitForFunction(() => /weather/.test(document.querySelector("#results .rule")?.textContent ?? ""));
  const weather = await counts();
  assert.notEqual(weather, first);
  // Back: the previous query and its answer; Forward: this one again.
  await page.goBack();
  await page.waitForFunction(() => document.querySelector("#q").value === "ai agent");
  await settled();
  assert.equal(await counts(), first);
  await page.goForward();
  await page.waitForFunction(() => document.querySelector("#q").value === "weather");
  await settled();
  assert.equal(await counts(), weather);
  // Back past the first search stays on the site, on the page before any search.
  await page.goBack();
  await page.goBack();
  assert.equal(new URL(page.url()).pathname, `/${DATE}/`);
  assert.equal(await page.inputValue("#q"), "");
  assert.deepEqual(problems, []);
  await context.close();
});

test("with JavaScript off, a search says it needs JavaScript and offers browse, the facets and the JSON answers", async () => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(`${server.origin}/${DATE}/search/?q=weather`);
  const said = await page.textContent("noscript");
  assert.match(said, /needs JavaScript/);
  const links = await page.$$eval("p.notice a", (as) => as.map((a) => a.getAttribute("href")));
  assert.deepEqual(
    links,
    ["browse/", "network/", "price/", "segment/", "api/"].map((folder) => `/${DATE}/${folder}`),
  );
  for (const href of links) {
    const reply = await page.goto(new URL(href, `${server.origin}/${DATE}/search/`).href);
    assert.equal(reply.status(), 200, href);
    await page.goBack();
  }
  await context.close();
});

test("on a 390 px phone, the paying program copies with one tap, exactly as shown, and stays selectable without JavaScript", async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.origin });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  const slug = readdirSync(join(publicDir, DATE, "r"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).find((s) => s.startsWith("api.heurist.xyz") || s.startsWith("mesh.heurist.xyz"));
  const started = Date.now();
  await page.goto(`${server.origin}/${DATE}/r/${slug}/`);
  const button = page.locator('button.copy-button[data-copy="pay-js"]');
  await button.scrollIntoViewIfNeeded();
  const scrolled = await page.evaluate(() => window.scrollY);
  await button.tap();
  await page.waitForFunction(() => document.querySelector('button[data-copy="pay-js"]').textContent === "Copied");
  const elapsed = Date.now() - started;
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await page.textContent("#pay-js"));
  assert.match(copied, /wrapFetchWithPayment/);
  assert.match(copied, /process\.env\.EVM_PRIVATE_KEY/);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 390, `page is ${width} px wide`);
  assert.deepEqual(problems, []);
  console.log(`copying the paying program on a 390 x 844 phone: load, scroll ${Math.round(scrolled)} px, 1 tap; ${elapsed} ms scripted`);
  await context.close();
  // Without JavaScript the button stays hidden and the program is there to select.
  const plain = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
  const bare = await plain.newPage();
  await bare.goto(`${server.origin}/${DATE}/r/${slug}/`);
  assert.equal(await bare.isVisible('button[data-copy="pay-js"]'), false);
  assert.match(await bare.textContent("#pay-js"), /wrapFetchWithPayment/);
  await plain.close();
});

test("the root page is a search box: on a phone it is on the first screen, its examples find something, and a search lands on results", async () => {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  await page.goto(`${server.origin}/`);
  const box = await page.locator("#q").boundingBox();
  assert.ok(box.y + box.height <= 300, `the search box ends at ${box.y + box.height} px`);
  const examples = await page.$$eval("p.examples a", (as) => as.map((a) => a.getAttribute("href")));
  assert.equal(examples.length, 3, JSON.stringify(examples));
  // A visitor's path: one tap in the box, the words, Enter; the results are the snapshot's.
  let taps = 0, keys = 0;
  const started = Date.now();
  await page.tap("#q"); taps++;
  for (const ch of "weather") { await page.keyboard.type(ch); keys++; }
  await page.keyboard.press("Enter"); keys++;
  await page.waitForURL((u) => u.pathname.endsWith("/search/") && u.searchParams.get("q") === "weather");
  await page.waitForSelector("#results[data-state]:not([aria-busy])");
  assert.equal(await page.getAttribute("#results", "data-state"), "results");
  // The answer's count and its first row are on the first screen (front_door.test.mjs
  // follows the visitor on to a copied call).
  const counts = await page.$eval("#results .counts", (c) => c.getBoundingClientRect().bottom);
  assert.ok(counts <= 844, `the count of results ends at ${counts} px`);
  const top = await page.$eval("#results table.resources tbody tr", (tr) => tr.getBoundingClientRect().top);
  assert.ok(top >= 0 && top <= 300, `the first row at ${top} px`);
  console.log(`root to results for "weather" on a 390 x 844 phone: ${taps} tap, ${keys} keystrokes, ${Date.now() - started} ms scripted; first row at ${Math.round(top)} px`);
  for (const href of examples) {
    await page.goto(server.origin + href);
    await page.waitForSelector("#results[data-state]:not([aria-busy])");
    assert.equal(await page.getAttribute("#results", "data-state"), "results", href);
  }
  // A dated home has its search box on the first screen too.
  await page.goto(`${server.origin}/${DATE}/`);
  const dated = await page.locator("#q").boundingBox();
  assert.ok(dated.y + dated.height <= 400, `a dated home's box ends at ${dated.y + dated.height} px`);
  assert.deepEqual(problems, []);
  await context.close();
});

/** A 390 × 844 phone, with page errors collected. */
async function phone() {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => { if (m.type() === "error") problems.push(m.text()); });
  return { context, page, problems };
}

const settled = (page) => page.waitForSelector("#results[data-state]:not([aria-busy])");

test("networks show by name with testnets badged; the filter takes names and answers an unknown one with the known ones", async () => {
  const { context, page, problems } = await phone();
  // Rows: names, never CAIP-2 ids; a Base Sepolia row carries the badge.
  await page.goto(`${server.origin}/${DATE}/search/?q=token+price`);
  await settled(page);
  const networks = await page.$$eval("#results td.networks", (tds) => tds.map((td) => td.textContent));
  assert.ok(networks.length > 0 && networks.every((t) => !/eip155:|solana:/.test(t)), JSON.stringify(networks));
  assert.ok(await page.locator("#results td.networks .badge.testnet").count() > 0, "a testnet row is badged");
  // "Base" and "$0.01", as people type them: the answer the CLI gives for eip155:8453 and 0.01.
  await page.goto(`${server.origin}/${DATE}/search/`);
  await page.fill("#q", "weather");
  await page.click("details.filters summary");
  await page.fill("#network", "Base");
  await page.fill("#max_price", "$0.01");
  await page.click("form#search button");
  await settled(page);
  assert.equal(await page.getAttribute("#results", "data-state"), "results");
  const expected = cli("--network", "eip155:8453", "--max-price", "0.01", "weather");
  assert.equal(Number(await page.getAttribute("#results .counts", "data-total")), expected.meta.total_matched);
  assert.match(await page.textContent("#results .rule"), /accepts payment on network eip155:8453/);
  // Hiding testnets leaves out the rows paid only on them.
  await page.fill("#network", "");
  await page.fill("#max_price", "");
  await page.fill("#q", "token price");
  await page.check("#exclude_testnets");
  await page.click("form#search button");
  await settled(page);
  const hidden = cli("--exclude-testnets", "token", "price");
  assert.equal(Number(await page.getAttribute("#results .counts", "data-total")), hidden.meta.total_matched);
  assert.ok(hidden.meta.total_matched < cli("token", "price").meta.total_matched, "some token price rows are testnet-only");
  assert.equal(await page.locator("#results td.networks").filter({ hasNotText: /,/ }).locator(".badge.testnet").count(), 0);
  assert.match(page.url(), /exclude_testnets=1/);
  // A typo is not an empty answer: it names the networks this snapshot knows.
  await page.uncheck("#exclude_testnets");
  await page.fill("#network", "basee");
  await page.click("form#search button");
  await settled(page);
  assert.equal(await page.getAttribute("#results", "data-state"), "error");
  const said = await page.textContent("#results .error");
  assert.match(said, /^unknown network "basee": the networks in this snapshot are Base \(eip155:8453\), Base Sepolia \(eip155:84532, testnet\)/);
  assert.equal(await page.getAttribute("#network", "aria-invalid"), "true");
  // The CLI says the same.
  let cliSaid = "";
  try {
    execFileSync(bin, ["query", "--snapshot", join(repo, "content", "snapshots", `${DATE}.json`), "--network", "basee", "weather"], { cwd: repo, stdio: "pipe" });
  } catch (e) {
    cliSaid = String(e.stderr);
  }
  assert.ok(cliSaid.includes(said), cliSaid);
  assert.deepEqual(problems, []);
  await context.close();
});

test("an answer longer than a page is paged, each page its own history entry", async () => {
  const { context, page, problems } = await phone();
  await page.goto(`${server.origin}/${DATE}/search/?q=ai+agent`);
  await settled(page);
  const all = cli("--limit", "50", "ai", "agent");
  const ranks = () => page.$$eval("#results tr[data-rank]", (trs) => trs.map((tr) => Number(tr.dataset.rank)));
  const urls = () => page.$$eval("#results td .url", (spans) => spans.map((s) => s.textContent));
  assert.deepEqual(await ranks(), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  assert.ok(all.meta.total_matched > 50, "more matches than one answer can hold");
  // Walk to the last page: every match can be seen.
  const seen = new Set(await urls());
  while (await page.locator("#results nav.pager a[rel=next]").count() > 0) {
    await page.click("#results nav.pager a[rel=next]");
    await page.waitForFunction((n) => document.querySelectorAll("#results tr[data-rank]").length > 0 && Number(document.querySelector("#results tr[data-rank]").dataset.rank) === n, seen.size + 1);
    for (const u of await urls()) seen.add(u);
  }
  assert.equal(seen.size, all.meta.total_matched);
  // Page two is the CLI's offset 10, in the same order.
  await page.goto(`${server.origin}/${DATE}/search/?q=ai+agent&offset=10`);
  await settled(page);
  assert.deepEqual(await ranks(), [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
  assert.deepEqual(await urls(), cli("--offset", "10", "ai", "agent").data.map((r) => r.resource));
  // Back returns to the page before.
  await page.click("#results nav.pager a[rel=prev]");
  await page.waitForFunction(() => document.querySelector("#results tr[data-rank]")?.dataset.rank === "1");
  await page.goBack();
  await page.waitForFunction(() => document.querySelector("#results tr[data-rank]")?.dataset.rank === "11");
  assert.deepEqual(problems, []);
  await context.close();
});

test("result rows are titled by name, chips lead to their segment, and missing figures say so once", async () => {
  const { context, page, problems } = await phone();
  await page.goto(`${server.origin}/${DATE}/search/?q=weather`);
  await settled(page);
  const expected = cli("weather");
  const titles = await page.$$eval("#results a.title", (as) => as.map((a) => a.textContent));
  // A service name when the listing has one, else host and last path part: never the raw URL.
  expected.data.forEach((r, i) => {
    assert.notEqual(titles[i], r.resource);
    if (r.service_name) assert.equal(titles[i], r.service_name);
    else assert.ok(r.resource.includes(titles[i].split(" › ")[0]), titles[i]);
  });
  assert.ok(!(await page.textContent("#results thead")).includes("match_score"), "no raw field name heads a column");
  // This snapshot has no usage counters: each row says so once, no row shows four dashes.
  const usage = await page.$$eval("#results tr[data-rank]", (trs) => trs.map((tr) => [tr.querySelectorAll(".no-usage").length, (tr.textContent.match(/—/g) ?? []).length]));
  assert.ok(usage.every(([once, dashes]) => once === 1 && dashes <= 1), JSON.stringify(usage));
  const box = await page.locator("#results tr[data-rank]").first().boundingBox();
  assert.ok(box.height <= 240, `a result takes ${box.height} px`);
  // A chip is its segment's listing, under the label the facet menu uses.
  const chip = page.locator("#results a.segment").first();
  const label = await chip.textContent();
  await chip.click();
  await page.waitForLoadState();
  assert.equal(await page.textContent("h1"), `Segment: ${label}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test("an empty answer names the words that matched nothing, offers Explore, and links the snapshots where the words match", async () => {
  const { context, page, problems } = await phone();
  await page.goto(`${server.origin}/2026-08-20/search/?q=weather`);
  await settled(page);
  assert.equal(await page.getAttribute("#results", "data-state"), "empty");
  await page.waitForSelector("#results .empty-help ul.elsewhere, #results .empty-help .elsewhere-none");
  assert.match(await page.textContent("#results .empty-help .missing"), /"weather"/);
  const explore = await page.getAttribute("#results .empty-help .explore a", "href");
  assert.equal(explore, "/2026-08-20/explore/?q=weather");
  // The stored fixtures' entries; a weekly walk stored since adds its own (newest first).
  const fixtures = /^\/(2025-12-31|2025-12-18)\//;
  const elsewhere = (await page.$$eval("#results ul.elsewhere li", (lis) => lis.map((li) => [li.querySelector("a").getAttribute("href"), li.textContent])))
    .filter(([href]) => fixtures.test(href));
  const expected = ["2025-12-31", "2025-12-18"].map((d) => [d, JSON.parse(execFileSync(bin, ["query", "--json", "--snapshot", join(repo, "content", "snapshots", `${d}.json`), "weather"], { cwd: repo })).meta.total_matched]);
  assert.deepEqual(elsewhere, expected.map(([d, n]) => [`/${d}/search/?q=weather`, `Snapshot of ${d}: ${n} resources`]));
  // Followed, the link answers there.
  await page.click(`#results ul.elsewhere a[href="/2025-12-31/search/?q=weather"]`);
  await settled(page);
  assert.equal(Number(await page.getAttribute("#results .counts", "data-total")), expected[0][1]);
  // Words that each match, but not together, are told apart from words that match nothing.
  await page.goto(`${server.origin}/${DATE}/search/?q=weather+binance`);
  await settled(page);
  await page.waitForSelector("#results .empty-help .missing");
  assert.match(await page.textContent("#results .empty-help .missing"), /^Every word is in some resource, but no resource has all of them\.$/);
  await page.goto(`${server.origin}/${DATE}/explore/?q=weather`);
  assert.deepEqual(problems, []);
  await context.close();
});

test("the limits are one line with a link to their full text, stated once on a search page", async () => {
  const { context, page, problems } = await phone();
  await page.goto(`${server.origin}/${DATE}/search/?q=weather`);
  await settled(page);
  assert.equal(await page.locator("aside.limits").count(), 1);
  assert.equal(await page.locator("#results ul.limits").count(), 0);
  assert.equal(await page.locator("aside.limits ul.brief li").count(), 3);
  const full = await page.getAttribute("aside.limits a", "href");
  assert.match(full, /^\/method\/[0-9.]+\/#limits$/);
  const reply = await page.goto(server.origin + full);
  assert.equal(reply.status(), 200);
  assert.equal(await page.locator("#limits").count(), 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test("on a phone the method page opens with its version, date and contents, and lists every version", async () => {
  const { context, page, problems } = await phone();
  await page.goto(`${server.origin}/method/${METHOD_VERSION}/`);
  assert.match(await page.textContent("p.published"), new RegExp(`^Version ${METHOD_VERSION.replaceAll(".", "\\.")}, published \\d{4}-\\d{2}-\\d{2}\\.`));
  const toc = page.locator("nav.toc");
  const box = await toc.boundingBox();
  assert.ok(box.y < 844, `the contents start ${box.y} px down`);
  const targets = await toc.locator("a").evaluateAll((as) => as.map((a) => a.getAttribute("href")));
  assert.ok(targets.length >= 10, `${targets.length} entries`);
  for (const href of targets) assert.equal(await page.locator(href).count(), 1, href);
  // Following an entry scrolls to its section.
  await toc.locator('a[href="#limits"]').click();
  const top = await page.locator("#limits").evaluate((h) => h.getBoundingClientRect().top);
  assert.ok(top >= -1 && top < 100, `#limits at ${top} px`);
  // Every version, newest first, each with its date and what it changed.
  const versions = await page.$$eval("table", (tables) => {
    const list = tables.find((t) => t.querySelector("th")?.textContent === "Version");
    return [...list.querySelectorAll("tbody tr")].map((tr) => tr.cells[0].textContent);
  });
  assert.equal(versions[0], METHOD_VERSION);
  assert.ok(["1.2.0", "1.1.0", "1.0.0"].every((v) => versions.includes(v)), JSON.stringify(versions));
  assert.deepEqual(problems, []);
  await context.close();
});
