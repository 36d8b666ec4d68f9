// The front door (issue 31), tried as a visitor would in headless Chromium, each point on
// a 390 × 844 touch phone and a 1280 × 800 desktop: the root page is a search box; a
// search's first result is near the top with the snapshot's line above it; explore
// behaves like search; Back and Forward land on the same results at the same place; every
// snapshot named says its age by the reader's clock; a missing resource page finds the
// resource in other snapshots; a word the snapshot lacks gets a "did you mean" link.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { launchChromium } from "./chromium.mjs";
import { buildSite, serveSite } from "./site.mjs";

const DATE = "2025-12-31";
const VIEWPORTS = {
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  desktop: { viewport: { width: 1280, height: 800 } },
};
let server, browser, publicDir, snapshots;

before(async () => {
  publicDir = buildSite("front");
  server = await serveSite(publicDir);
  browser = await launchChromium();
  snapshots = JSON.parse(readFileSync(join(publicDir, "snapshots.json"), "utf8"));
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A page in a new context of `kind`, collecting script errors. */
async function visit(kind, options = {}) {
  const context = await browser.newContext({ ...VIEWPORTS[kind], ...options });
  const page = await context.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(String(e)));
  return { context, page, problems };
}

const settled = (page) => page.waitForSelector("#results[data-state]:not([aria-busy])");
const firstRowTop = (page) => page.$eval("#results tbody tr", (tr) => tr.getBoundingClientRect().top);

/** Taps on a phone, clicks on a desktop. */
const press = (page, kind, selector) => (kind === "phone" ? page.tap(selector) : page.click(selector));

/** Days from one YYYY-MM-DD to another, counted by the calendar here, not by the site. */
function days(from, to) {
  let n = 0;
  for (const d = new Date(`${from}T00:00:00Z`); d.toISOString().slice(0, 10) < to; d.setUTCDate(d.getUTCDate() + 1)) n++;
  return n;
}

for (const kind of Object.keys(VIEWPORTS)) {
  test(`${kind}: from the root page to a copied call for "weather" at most $0.01 on Base`, async () => {
    const { context, page, problems } = await visit(kind);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.origin });
    let taps = 0, keys = 0;
    const tap = async (selector) => { await press(page, kind, selector); taps++; };
    const type = async (text) => { for (const ch of text) { await page.keyboard.type(ch); keys++; } };
    const enter = async () => { await page.keyboard.press("Enter"); keys++; };
    const started = Date.now();
    await page.goto(`${server.origin}/`);
    // The search box, first: on the first screen, with examples under it.
    const box = await page.locator("form#root-search #q").boundingBox();
    assert.ok(box.y + box.height <= 300, `the box ends at ${box.y + box.height} px`);
    const tapsBeforeTyping = 1;
    await tap("#q");
    await type("weather");
    await enter();
    await page.waitForURL((u) => u.pathname === `/${snapshots.default}/search/`);
    await settled(page);
    // On a phone within 300 px of the top; on a desktop, whose results sit under the
    // form without scrolling, on the first screen with room to read it.
    const top = await firstRowTop(page);
    assert.ok(top >= 0 && top <= (kind === "phone" ? 300 : 600), `the first result starts ${top} px down`);
    // The snapshot's line is on the screen with it.
    const line = await page.$eval("aside.limits", (a) => a.getBoundingClientRect().top);
    assert.ok(line >= 0 && line < top, `the limits line at ${line} px`);
    // The price cap and the network, in the filters.
    await tap("details.filters summary");
    await tap("#max_price");
    await type("0.01");
    await tap("#network");
    await type("Base");
    await enter();
    await page.waitForFunction(() => new URL(location.href).searchParams.get("network") === "Base");
    await settled(page);
    assert.equal(await page.getAttribute("#results", "data-state"), "results");
    const price = await page.$eval("#results tbody tr td[data-label='Lowest USD price']", (td) => td.textContent);
    assert.ok(Number(price.replace(/[^0-9.]/g, "")) <= 0.01, price);
    await tap("#results tbody tr a");
    await page.waitForURL((u) => u.pathname.includes("/r/"));
    await page.locator('button.copy-button[data-copy="curl"]').scrollIntoViewIfNeeded();
    await tap('button.copy-button[data-copy="curl"]');
    await page.waitForFunction(() => document.querySelector('button[data-copy="curl"]').textContent === "Copied");
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, await page.textContent("#curl"));
    assert.match(copied, /^curl /);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0, `${overflow} px too wide`);
    assert.ok(tapsBeforeTyping <= 3);
    assert.deepEqual(problems, []);
    console.log(`${kind}: root to a copied call for weather, at most $0.01, on Base: ${taps} taps (${tapsBeforeTyping} before typing), ${keys} keystrokes, ${Date.now() - started} ms scripted; first result at ${Math.round(top)} px`);
    await context.close();
  });

  test(`${kind}: explore brings its results into view, makes each explore a history entry, and Back returns to the one before`, async () => {
    const { context, page, problems } = await visit(kind);
    await page.goto(`${server.origin}/${DATE}/explore/`);
    const explore = async (words) => {
      await page.fill("#q", words);
      await page.press("#q", "Enter");
      await page.waitForFunction((w) => new URL(location.href).searchParams.get("q") === w, words);
      await settled(page);
    };
    await explore("current conditions outdoors");
    const top = await firstRowTop(page);
    assert.ok(top >= 0 && top <= (kind === "phone" ? 300 : 800), `the first result starts ${top} px down`);
    const first = await page.$$eval("#results tbody tr", (trs) => trs.map((tr) => tr.dataset.position + tr.querySelector("a").href));
    await explore("image generation");
    const second = await page.$$eval("#results tbody tr", (trs) => trs.map((tr) => tr.dataset.position + tr.querySelector("a").href));
    assert.notDeepEqual(second, first);
    await page.goBack();
    await page.waitForFunction(() => document.querySelector("#q").value === "current conditions outdoors");
    await settled(page);
    assert.deepEqual(await page.$$eval("#results tbody tr", (trs) => trs.map((tr) => tr.dataset.position + tr.querySelector("a").href)), first);
    await page.goForward();
    await page.waitForFunction(() => document.querySelector("#q").value === "image generation");
    await settled(page);
    assert.deepEqual(await page.$$eval("#results tbody tr", (trs) => trs.map((tr) => tr.dataset.position + tr.querySelector("a").href)), second);
    // Back past the first explore: the empty form.
    await page.goBack();
    await page.goBack();
    await page.waitForFunction(() => document.querySelector("#q").value === "");
    assert.equal(await page.locator("#results tbody tr").count(), 0);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${kind}: Back from a result's page lands on the same results at the same place, and Forward returns`, async () => {
    const { context, page, problems } = await visit(kind);
    for (const start of [`/${DATE}/search/?q=token&limit=50`, `/${DATE}/?q=token&limit=50`, `/${DATE}/explore/?q=token+prices&limit=40`]) {
      await page.goto(server.origin + start);
      await settled(page);
      const rows = page.locator("#results tbody tr");
      assert.ok((await rows.count()) >= 30, start);
      // Down to the 25th result, then into its page.
      await rows.nth(24).scrollIntoViewIfNeeded();
      await page.evaluate(() => scrollBy(0, 40));
      await page.waitForTimeout(300);
      const y = await page.evaluate(() => scrollY);
      assert.ok(y > 1000, `${start}: scrolled to ${y}`);
      const link = rows.nth(24).locator("a").first();
      const href = await link.getAttribute("href");
      await link.click();
      await page.waitForURL((u) => u.pathname === href);
      await page.goBack();
      await page.waitForURL((u) => `${u.pathname}${u.search}` === start);
      await settled(page);
      await page.waitForFunction((want) => Math.abs(scrollY - want) <= 2, y);
      assert.equal(await rows.nth(24).locator("a").first().getAttribute("href"), href, start);
      await page.goForward();
      await page.waitForURL((u) => u.pathname === href);
    }
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${kind}: every snapshot named says its age by the reader's clock, and the root counts the walks missed`, async () => {
    const today = "2026-12-03";
    const { context, page, problems } = await visit(kind);
    await page.clock.setFixedTime(new Date(`${today}T12:00:00Z`));
    await page.goto(`${server.origin}/`);
    const ages = await page.$$eval("ul li [data-age-of]", (spans) => spans.map((s) => [s.dataset.ageOf, s.textContent]));
    assert.deepEqual(ages, snapshots.snapshots.map((s) => [s.date, ` · ${days(s.date, today)} days old`]));
    const newest = snapshots.snapshots[0];
    // Walks fell due every 7 days after the newest snapshot; count those due by today.
    let missed = 0;
    for (let k = 1; days(newest.date, today) >= 7 * k; k++) missed++;
    assert.equal(await page.textContent(".missed"), ` By today (UTC, by your clock) ${missed} weekly walks have been missed since it.`);
    // snapshots.json and the pages agree: stale exactly when today is after its walk's day.
    for (const s of snapshots.snapshots) {
      for (const now of [s.walk.stale_after, today]) {
        await page.clock.setFixedTime(new Date(`${now}T12:00:00Z`));
        await page.goto(`${server.origin}${s.home}`);
        await page.waitForFunction(() => !document.querySelector(".limits .age").hidden);
        assert.equal(await page.isVisible(".limits .stale-notice"), now > s.walk.stale_after, `${s.date} read on ${now}`);
        assert.equal(await page.textContent(".limits .age"), ` · ${days(s.date, now)} days old`);
      }
    }
    // Without JavaScript the dates alone.
    const bare = await browser.newContext({ ...VIEWPORTS[kind], javaScriptEnabled: false });
    const plain = await bare.newPage();
    await plain.goto(`${server.origin}/`);
    assert.equal(await plain.locator("[data-age-of]:visible, .missed:visible").count(), 0);
    await bare.close();
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${kind}: a resource page missing from a snapshot finds it in others, and a snapshot's pages lead to the same page in the others`, async () => {
    const { context, page, problems } = await visit(kind);
    const slugs = (date) => new Set(readdirSync(join(publicDir, date, "r"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name));
    const [newest] = snapshots.snapshots;
    const inNewest = slugs(newest.date);
    const elsewhere = [...slugs(DATE)].sort().find((s) => !inNewest.has(s));
    const holders = snapshots.snapshots.filter((s) => slugs(s.date).has(elsewhere)).map((s) => s.date);
    assert.ok(holders.length >= 1 && !holders.includes(newest.date));
    const reply = await page.goto(`${server.origin}/${newest.date}/r/${elsewhere}/`);
    assert.equal(reply.status(), 404);
    await page.waitForSelector("#elsewhere:not([hidden]) h2");
    assert.deepEqual(await page.$$eval("#elsewhere a", (as) => as.map((a) => a.getAttribute("href"))), holders.map((d) => `/${d}/r/${elsewhere}/`));
    await press(page, kind, "#elsewhere a");
    await page.waitForURL((u) => u.pathname === `/${holders[0]}/r/${elsewhere}/`);
    assert.equal(await page.textContent("h1") !== "No page here", true);
    // A made-up page is found nowhere, and says so.
    await page.goto(`${server.origin}/${DATE}/r/no-such-resource/`);
    await page.waitForSelector("#elsewhere:not([hidden])");
    assert.match(await page.textContent("#elsewhere"), /No other published snapshot has a page for this resource/);
    // The switcher: the same resource page in another snapshot, or that snapshot's home.
    await page.goto(`${server.origin}/${DATE}/r/${elsewhere}/`);
    await page.waitForSelector("details.switch");
    await press(page, kind, "details.switch summary");
    await page.waitForFunction((d) => document.querySelector(`details.switch a[href^="/${d}/"]`)?.getAttribute("href") === `/${d}/`, newest.date);
    const others = await page.$$eval("details.switch a", (as) => as.map((a) => a.getAttribute("href")));
    assert.deepEqual(others, snapshots.snapshots.filter((s) => s.date !== DATE).map((s) => (holders.includes(s.date) ? `/${s.date}/r/${elsewhere}/` : s.home)));
    // A search keeps its words when it moves to another snapshot.
    await page.goto(`${server.origin}/${DATE}/search/?q=weather`);
    await settled(page);
    await page.waitForSelector("details.switch");
    assert.equal(await page.getAttribute(`details.switch a[href^="/${newest.date}/"]`, "href"), `/${newest.date}/search/?q=weather`);
    // The resource page's history rows link to each earlier snapshot's page of it.
    const page2 = await context.newPage();
    const withHistory = [...slugs(DATE)].sort().find((s) => readFileSync(join(publicDir, DATE, "r", s, "index.html"), "utf8").includes('id="hist-h"'));
    await page2.goto(`${server.origin}/${DATE}/r/${withHistory}/`);
    const rowLinks = await page2.$$eval("#hist-h ~ .history table a", (as) => as.map((a) => a.getAttribute("href")));
    assert.ok(rowLinks.length >= 1);
    for (const href of rowLinks) assert.equal((await fetch(server.origin + href)).status, 200, href);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    assert.ok(overflow <= 0);
    assert.deepEqual(problems, []);
    await context.close();
  });

  test(`${kind}: a strict search offers "did you mean" links for words the snapshot lacks, and stays strict`, async () => {
    const { context, page, problems } = await visit(kind);
    await page.goto(`${server.origin}/${DATE}/search/?q=wether`);
    await settled(page);
    assert.equal(await page.getAttribute("#results", "data-state"), "empty");
    const link = page.locator("#results .did-you-mean a");
    await link.waitFor();
    assert.equal(await link.textContent(), "weather");
    assert.equal(await link.getAttribute("href"), `/${DATE}/search/?q=weather`);
    // The rule did not read the suggestion: this answer is still empty.
    assert.equal(await page.$eval("#results .counts", (c) => c.dataset.total), "0");
    await press(page, kind, "#results .did-you-mean a");
    await page.waitForURL((u) => u.searchParams.get("q") === "weather");
    await settled(page);
    assert.equal(await page.getAttribute("#results", "data-state"), "results");
    // Two words, one misspelt: the other is kept as typed.
    await page.goto(`${server.origin}/${DATE}/search/?q=wether+api`);
    await settled(page);
    await page.locator("#results .did-you-mean a").waitFor();
    assert.equal(await page.textContent("#results .did-you-mean a"), "weather api");
    // Words that are all there but never together get no suggestion.
    await page.goto(`${server.origin}/${DATE}/search/?q=weather+binance`);
    await settled(page);
    await page.waitForSelector("#results .empty-help .explore");
    assert.equal(await page.locator("#results .did-you-mean").count(), 0);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test("the price filter's label says what the rule says: at most, the limit included", async () => {
  const { context, page, problems } = await visit("desktop");
  await page.goto(`${server.origin}/${DATE}/search/?q=weather&max_price=0.01`);
  await settled(page);
  assert.equal(await page.textContent('label[for="max_price"]'), "At most, in USD per call");
  const prices = await page.$$eval("#results tbody td[data-label='Lowest USD price']", (tds) => tds.map((td) => td.textContent));
  assert.ok(prices.includes("$0.01"), `a price of exactly $0.01 is within "at most $0.01": ${prices}`);
  assert.deepEqual(problems, []);
  await context.close();
});
