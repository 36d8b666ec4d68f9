// Accessibility, checked in the browser people use: axe-core run inside headless
// Chromium on the home page, resource pages (one with a withheld description, one with
// its history chart), the method page and a results state, in the light and the dark
// theme, at phone and desktop widths. Also keyboard-only use: the skip link, focus that
// can be seen, and results reachable by Tab.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { launchChromium } from "./chromium.mjs";
import { buildSite, serveSite } from "./site.mjs";
import { METHOD_VERSION } from "../../static/rules.js";

const AXE = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
const DATE = "2025-12-31";
// WCAG 2.2 A and AA rules (contrast among them), and axe's best practices (landmarks,
// one h1, regions) as the issue asks for proper landmarks and headings.
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];
const WIDTHS = { phone: { width: 320, height: 700 }, desktop: { width: 1280, height: 900 } };
let server, browser, publicDir;

before(async () => {
  publicDir = buildSite("a11y");
  server = await serveSite(publicDir);
  browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/** A resource page of DATE whose HTML passes `keep`. */
function resourcePage(keep) {
  const dir = join(publicDir, DATE, "r");
  const slug = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort().find((s) => keep(readFileSync(join(dir, s, "index.html"), "utf8")));
  assert.ok(slug, "no resource page of that kind");
  return `/${DATE}/r/${slug}/`;
}

/** The states to check: a path, and what to do once it has loaded. */
function states() {
  return {
    home: { path: `/${DATE}/` },
    "resource with history": { path: resourcePage((h) => h.includes('id="hist-h"') && !h.includes('class="withheld"')) },
    "resource withheld": { path: resourcePage((h) => h.includes('class="withheld"')) },
    method: { path: `/method/${METHOD_VERSION}/` },
    results: {
      path: `/${DATE}/`,
      act: async (page) => {
        await page.fill("#q", "token price");
        await page.click("form#search button");
        await page.waitForSelector("#results[data-state=results]:not([aria-busy])");
      },
    },
    root: { path: "/" },
    explore: {
      path: `/${DATE}/explore/?q=current+weather`,
      act: (page) => page.waitForSelector("#results[data-state=results]:not([aria-busy])"),
    },
    "did you mean": {
      path: `/${DATE}/search/?q=wether`,
      act: (page) => page.waitForSelector("#results .did-you-mean a"),
    },
    "other snapshots, open": {
      path: `/${DATE}/browse/`,
      act: async (page) => {
        await page.click("details.switch summary");
        await page.waitForSelector("details.switch[open] li");
      },
    },
    "missing resource page": {
      path: `/${DATE}/r/no-such-resource/`,
      act: (page) => page.waitForSelector("#elsewhere:not([hidden]) p"),
    },
  };
}

/** axe-core's violations on the page as it stands. axe is injected as a file; the
 * context bypasses the CSP only for that (the site itself runs under it elsewhere). */
async function violations(page) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async (tags) => {
    const result = await globalThis.axe.run(document, { runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(" ")}: ${n.failureSummary}`),
    }));
  }, TAGS);
}

for (const scheme of ["light", "dark"]) {
  for (const [width, viewport] of Object.entries(WIDTHS)) {
    test(`axe: no violation at all (AA contrast among them), ${scheme} theme, ${width}`, async () => {
      const context = await browser.newContext({ colorScheme: scheme, viewport, bypassCSP: true });
      const found = [];
      let checked = 0;
      for (const [name, { path, act }] of Object.entries(states())) {
        const page = await context.newPage();
        await page.goto(server.origin + path);
        if (act) await act(page);
        assert.equal(
          await page.evaluate(() => matchMedia("(prefers-color-scheme: dark)").matches),
          scheme === "dark",
          "the theme is the one asked for",
        );
        for (const v of await violations(page)) found.push({ state: name, ...v });
        checked += 1;
        await page.close();
      }
      await context.close();
      assert.equal(checked, 10);
      assert.deepEqual(found, [], JSON.stringify(found, null, 2));
    });
  }
}

test("axe finds a contrast failure when there is one (the check is live)", async () => {
  const context = await browser.newContext({ bypassCSP: true });
  const page = await context.newPage();
  await page.goto(server.origin + `/${DATE}/`);
  await page.evaluate(() => document.querySelector("main p").setAttribute("style", "color:#bbb;background:#fff"));
  const ids = (await violations(page)).map((v) => v.id);
  assert.ok(ids.includes("color-contrast"), ids.join(", "));
  await context.close();
});

/** What has focus: its tag, text, whether it is inside main or #results, and whether
 * its focus ring shows. */
function focused(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    const style = getComputedStyle(el);
    const box = el.getBoundingClientRect();
    return {
      tag: el.tagName.toLowerCase(),
      text: el.textContent.trim().slice(0, 60),
      id: el.id,
      inMain: Boolean(el.closest("main")),
      inResults: Boolean(el.closest("#results")),
      ring: el.matches(":focus-visible") && style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2,
      onScreen: box.width > 0 && box.height > 0 && box.top >= 0 && box.left >= 0 && box.top < innerHeight,
    };
  });
}

test("keyboard only: skip link, visible focus, a search typed and its results reached by Tab", async () => {
  const context = await browser.newContext({ viewport: WIDTHS.phone });
  const page = await context.newPage();
  await page.goto(server.origin + `/${DATE}/`);
  await page.keyboard.press("Tab");
  const skip = await focused(page);
  assert.equal(skip.text, "Skip to content");
  assert.ok(skip.ring && skip.onScreen, `the skip link shows when focused: ${JSON.stringify(skip)}`);
  await page.keyboard.press("Enter");
  await page.keyboard.press("Tab");
  const first = await focused(page);
  assert.ok(first.inMain && first.ring, `after the skip link, focus is in main: ${JSON.stringify(first)}`);
  // Tab on to the query field, type, submit with Enter.
  for (let i = 0; i < 20 && (await focused(page)).id !== "q"; i++) await page.keyboard.press("Tab");
  assert.equal((await focused(page)).id, "q", "the query field is reachable by Tab");
  await page.keyboard.type("token price");
  await page.keyboard.press("Enter");
  await page.waitForSelector("#results[data-state=results]:not([aria-busy])");
  let reached = null;
  for (let i = 0; i < 20; i++) {
    await page.keyboard.press("Tab");
    const now = await focused(page);
    if (now.inResults && now.tag === "a") {
      reached = now;
      break;
    }
  }
  assert.ok(reached, "a result link is reachable by Tab");
  assert.ok(reached.ring, `its focus shows: ${JSON.stringify(reached)}`);
  await context.close();
});

test("pages have one main, one h1, labelled navigation, and tables with captions and header cells", async () => {
  const context = await browser.newContext();
  for (const { path, act } of Object.values(states())) {
    const page = await context.newPage();
    await page.goto(server.origin + path);
    if (act) await act(page);
    const shape = await page.evaluate(() => ({
      mains: document.querySelectorAll("main").length,
      h1: document.querySelectorAll("h1").length,
      unlabelledNav: [...document.querySelectorAll("nav")].filter((n) => !n.getAttribute("aria-label")).length,
      banner: document.querySelectorAll("body > header").length,
      contentinfo: document.querySelectorAll("body > footer").length,
      tables: [...document.querySelectorAll("table")].map((t) => ({
        // Markdown (the method page's prose) has no caption syntax; its header row is enough.
        caption: Boolean(t.querySelector("caption")?.textContent.trim()) || Boolean(t.closest(".prose")),
        headers: t.querySelectorAll("th").length,
      })),
    }));
    assert.deepEqual([shape.mains, shape.h1, shape.unlabelledNav, shape.banner, shape.contentinfo], [1, 1, 0, 1, 1], path);
    for (const t of shape.tables) assert.ok(t.caption && t.headers > 0, `${path}: ${JSON.stringify(t)}`);
    await page.close();
  }
  await context.close();
});

test("at 320 px nothing overflows sideways, and a results page shows the date and the three limits without scrolling", async () => {
  for (const viewport of [WIDTHS.phone, WIDTHS.desktop]) {
    const context = await browser.newContext({ viewport });
    for (const [name, { path, act }] of Object.entries(states())) {
      const page = await context.newPage();
      await page.goto(server.origin + path);
      if (act) await act(page);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
      assert.ok(overflow <= 0, `${name} at ${viewport.width} px is ${overflow} px too wide`);
      await page.close();
    }
    // Laid out as blocks on a phone, a resource table is still a table to assistive
    // technology: its rows and column headers are in the accessibility tree.
    const home = await context.newPage();
    await home.goto(server.origin + `/${DATE}/`);
    assert.equal(await home.getByRole("table").count(), 1, `at ${viewport.width} px`);
    assert.equal(await home.getByRole("columnheader").count(), 8);
    assert.ok((await home.getByRole("row").count()) > 10);
    await home.close();
    // A results page opened from its address (the no-JS form's target, or a shared link).
    const page = await context.newPage();
    await page.goto(server.origin + `/${DATE}/search/?q=token+price`);
    await page.waitForSelector("#results[data-state=results]:not([aria-busy])");
    const first = await page.evaluate(() => {
      const limits = document.querySelector("aside.limits");
      return {
        bottom: limits.getBoundingClientRect().bottom,
        items: limits.querySelectorAll("ul.brief li").length,
        date: limits.querySelector(".snapshot").textContent,
        height: innerHeight,
      };
    });
    assert.equal(first.items, 3);
    assert.match(first.date, new RegExp(`Snapshot of ${DATE}`));
    assert.ok(first.bottom <= first.height, `the limits end at ${first.bottom} px, below the first ${first.height} px`);
    await context.close();
  }
});

/** Every page of the build, as paths: each folder holding an index.html. */
function pagePaths(dir, prefix = "") {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = `${prefix}/${entry.name}`;
    if (existsSync(join(dir, entry.name, "index.html"))) out.push(`${path}/`);
    out.push(...pagePaths(join(dir, entry.name), path));
  }
  return out;
}

test("no page of any kind is wider than a 320 px screen", async () => {
  // Every page but the resource pages and the later pages of long lists (their shape
  // repeats page 1's), and every 20th resource page of each snapshot: hostile and long
  // text (URLs, network ids, contract addresses) is where a page widens.
  const all = pagePaths(publicDir).sort();
  const resources = all.filter((p) => p.includes("/r/"));
  const pages = [
    ...all.filter((p) => !p.includes("/r/") && !/\/page\/([3-9]|\d\d+)\/$/.test(p)),
    ...resources.filter((_, i) => i % 20 === 0),
  ];
  assert.ok(pages.length > 150, `${pages.length} pages`);
  const context = await browser.newContext({ viewport: WIDTHS.phone });
  const page = await context.newPage();
  const wide = [];
  // A missing address gets the 404 page: it lists every snapshot with its notices.
  for (const path of ["/", "/no/such/page/", ...pages]) {
    await page.goto(server.origin + path);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - innerWidth);
    if (overflow > 0) wide.push(`${path}: ${overflow} px`);
  }
  await context.close();
  assert.deepEqual(wide, []);
});
