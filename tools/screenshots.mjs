#!/usr/bin/env node
// Screenshots of the site's main pages for a design review (issues 9 and 17): the built
// site served as in production (gzip, netlify.toml's CSP; tests/e2e/serve.mjs) and shot
// in headless Chromium at two phone widths and a desktop one, light and dark, full page
// and first viewport. Not a test: it judges nothing; a person looks at the files.
// Pages: the newest home, a resource page of 2025-12-31 with history, a withheld one, a
// resource page with charts (newest), the method page, and "token price" searched on
// 2025-12-31, typed and by link. Also prints, per page and width, what a reviewer checks
// first: horizontal overflow, and whether the limits and the snapshot date are in view.
// Usage: tools/screenshots [--public DIR] [--out DIR]   (default out: screenshots/)
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { launchChromium } from "../tests/e2e/chromium.mjs";
import { buildSite, repo, serveSite } from "../tests/e2e/site.mjs";
import { METHOD_VERSION } from "../static/rules.js";

const SIZES = {
  phone390: { width: 390, height: 844 },
  phone: { width: 360, height: 780 },
  phone320: { width: 320, height: 700 },
  desktop: { width: 1280, height: 900 },
};
const SCHEMES = ["light", "dark"];
// The snapshot with history and withheld descriptions; its predecessor for "Across snapshots".
const DATE = "2025-12-31";
const EARLIER = "2025-12-18";

const argv = process.argv.slice(2);
const option = (name) => { const i = argv.indexOf(name); return i >= 0 ? argv[i + 1] : undefined; };
if (argv.some((a, i) => !["--public", "--out"].includes(a) && !["--public", "--out"].includes(argv[i - 1]))) {
  console.error("usage: tools/screenshots [--public DIR] [--out DIR]");
  process.exit(2);
}
const out = resolve(option("--out") ?? join(repo, "screenshots"));
const publicDir = option("--public") ?? buildSite("shots");

const dates = readdirSync(publicDir).filter((d) => /^\d{4}-\d{2}-\d{2}$/.test(d)).sort();
const newest = dates.at(-1);
const html = (date, slug) => readFileSync(join(publicDir, date, "r", slug, "index.html"), "utf8");
const slugs = readdirSync(join(publicDir, DATE, "r"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort();
const earlier = new Set(readdirSync(join(publicDir, EARLIER, "r"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name));
// First by slug, so the same pages are shot from run to run.
const withHistory = slugs.find((s) => earlier.has(s) && html(DATE, s).includes('class="desc"'));
const withheld = slugs.find((s) => html(DATE, s).includes('class="withheld"'));
// The charts of "Across snapshots" need counts in two snapshots at least; the embedded
// snapshots have none such (only the newest carries counts), so the page is shot when a
// site with one is given (--public).
const charted = readdirSync(join(publicDir, newest, "r"), { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort().find((s) => html(newest, s).includes("<svg"));
if (!withHistory || !withheld) throw new Error(`no resource page of ${DATE} with history and description, or none withheld`);

async function search(page) {
  // Typed and sent with Enter, as a visitor would: the viewport stays where it was.
  await page.fill("#q", "token price");
  await page.press("#q", "Enter");
  await page.waitForSelector("#results[data-state]:not([aria-busy])");
}
const PAGES = [
  { name: "home", path: `/${newest}/` },
  { name: "resource", path: `/${DATE}/r/${withHistory}/` },
  { name: "withheld", path: `/${DATE}/r/${withheld}/` },
  ...(charted ? [{ name: "resource-chart", path: `/${newest}/r/${charted}/` }] : []),
  { name: "method", path: `/method/${METHOD_VERSION}/` },
  { name: "search", path: `/${DATE}/`, then: search },
  // An answer that found nothing, on the small newest snapshot: what it says instead.
  { name: "search-empty", path: `/${newest}/search/?q=weather`, then: (page) => page.waitForSelector("#results .empty-help ul, #results .empty-help .elsewhere-none") },
  // The same results reached by a shared link (the no-JS form's target).
  { name: "search-link", path: `/${DATE}/search/?q=token+price`, then: (page) => page.waitForSelector("#results[data-state]:not([aria-busy])") },
];

mkdirSync(out, { recursive: true });
const server = await serveSite(publicDir);
const browser = await launchChromium();
const written = [];
const notes = [];

/** What a reviewer checks first, read from the page: facts to look at, not verdicts. */
function look(page) {
  return page.evaluate(() => {
    const wide = document.documentElement.scrollWidth - innerWidth;
    // Elements wider than the viewport (outside a scrolling table wrapper) cause it.
    const culprits = wide > 0 ? [...document.querySelectorAll("main *")]
      .filter((e) => e.getBoundingClientRect().right > innerWidth + 1 && !e.closest(".table-wrap, pre"))
      .slice(0, 3).map((e) => e.tagName.toLowerCase() + (e.className ? `.${e.className}` : "")) : [];
    const seen = (sel) => { const e = document.querySelector(sel); if (!e) return "absent"; const r = e.getBoundingClientRect(); return r.top < innerHeight && r.bottom > 0 ? (r.bottom <= innerHeight ? "in first viewport" : "starts in first viewport") : `below first viewport (top ${Math.round(r.top + scrollY)} px)`; };
    return [wide > 0 ? `horizontal overflow ${wide} px (${culprits.join(", ")})` : "no horizontal overflow",
      `snapshot date ${seen(".limits .snapshot")}`, `limits ${seen(".limits ul.brief")}`,
      ...(document.querySelector("#results[data-state]") ? [`results ${seen("#results")}`] : []),
      // A wrapped table scrolls sideways: the columns past its edge are out of sight.
      ...[...document.querySelectorAll(".table-wrap")].filter((w) => w.scrollWidth > w.clientWidth)
        .map((w) => `table "${(w.querySelector("caption")?.textContent ?? w.getAttribute("aria-label") ?? "").slice(0, 30)}" hides ${w.scrollWidth - w.clientWidth} px sideways`)].join("; ");
  });
}
try {
  for (const [size, viewport] of Object.entries(SIZES)) {
    for (const colorScheme of SCHEMES) {
      const context = await browser.newContext({ viewport, colorScheme, deviceScaleFactor: 1 });
      const page = await context.newPage();
      for (const p of PAGES) {
        await page.goto(server.origin + p.path, { waitUntil: "load" });
        if (p.then) await p.then(page);
        const base = join(out, `${p.name}-${size}-${colorScheme}`);
        if (colorScheme === SCHEMES[0]) notes.push(`${p.name}-${size}: ${await look(page)}`);
        // The first viewport before the full page: a full-page shot can move the scroll.
        await page.screenshot({ path: `${base}-viewport.png`, animations: "disabled" });
        await page.screenshot({ path: `${base}.png`, fullPage: true, animations: "disabled" });
        written.push(`${base}.png`, `${base}-viewport.png`);
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.close();
}
for (const p of PAGES) console.log(`${p.name}: ${p.path}`);
console.log("\nAt each width (light theme; the scroll position is the one shot in -viewport):");
for (const n of notes) console.log(`- ${n}`);
console.log(`\n${written.length} files in ${out}:`);
for (const f of written) console.log(f);
