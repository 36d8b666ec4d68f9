// A snapshot's place among the others, by the reader's clock (content/method.md#limits):
// the age of every snapshot a page names, whether this one is stale, how many weekly
// walks the newest has missed, the same page in the other published snapshots, and, on
// the page for a missing address, the same resource in other snapshots. All of it is
// worked out here from the reader's date and the site's /snapshots.json, so a dated
// folder's files stay the same bytes whatever day they are read and whatever snapshots
// come after. Without JavaScript a page shows the dates alone. The only text made here
// is ages, counts of walks and lists of links; a stale notice is in the page, hidden.

const DAY_MS = 86400000;
const SNAPSHOTS = "/snapshots.json";
// The switcher and the 404 page ask for at most this many snapshots' pages at once.
const MAX_CHECKED = 52;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** Today (UTC, the reader's clock) as YYYY-MM-DD. */
const today = () => new Date().toISOString().slice(0, 10);
/** Whole days from `from` to `to`, both YYYY-MM-DD. */
const daysBetween = (from, to) => Math.floor((Date.parse(to) - Date.parse(from)) / DAY_MS);
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
/** " · 336 days old" for a snapshot of `date`, or "" for a date after today. */
function ageText(date) {
  const days = daysBetween(date, today());
  return days >= 0 ? ` · ${plural(days, "day", "days")} old` : "";
}

function make(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children.filter((c) => c !== null));
  return node;
}

/** Every `[data-age-of=DATE]` placeholder gets that snapshot's age. */
function showAges(root = document) {
  for (const span of root.querySelectorAll("[data-age-of]")) {
    const text = ageText(span.dataset.ageOf);
    if (text === "") continue;
    span.textContent = text;
    span.hidden = false;
  }
}

/** The limits line turns stale past its date (static, from the walk's date alone). */
function markStale() {
  const limits = document.querySelector("aside.limits[data-stale-after]");
  if (!limits || !(today() > limits.dataset.staleAfter)) return;
  limits.classList.add("stale");
  for (const notice of limits.querySelectorAll(".stale-notice")) notice.hidden = false;
}

/** The root's count of weekly walks due since the newest snapshot, none of them stored. */
function countMissedWalks() {
  for (const span of document.querySelectorAll("[data-walks-since]")) {
    const interval = Number(span.dataset.interval);
    const days = daysBetween(span.dataset.walksSince, today());
    if (!(interval > 0) || days < 0) continue;
    const missed = Math.floor(days / interval);
    span.textContent = missed === 0
      ? " By today (UTC, by your clock) no weekly walk has been missed."
      : ` By today (UTC, by your clock) ${plural(missed, "weekly walk has", "weekly walks have")} been missed since it.`;
    span.hidden = false;
  }
}

let list = null;
/** The published snapshots, newest first (root snapshots.json), read once a visit. */
function snapshots() {
  list ??= fetch(SNAPSHOTS).then((r) => (r.ok ? r.json() : Promise.reject(new Error(`${SNAPSHOTS}: HTTP ${r.status}`))));
  return list;
}

/** Whether the site has a page at `path`, by a HEAD request. */
async function exists(path) {
  try {
    return (await fetch(path, { method: "HEAD" })).ok;
  } catch {
    return false;
  }
}

/** This address without its snapshot: `/2025-12-31/r/x/?q=1` is ["2025-12-31", "r/x/?q=1"];
 * `/latest/…` is the default date's. */
function splitPath(pathname, search, defaultDate) {
  const [, first, ...rest] = pathname.split("/");
  const date = first === "latest" ? defaultDate : first;
  return DATE.test(date ?? "") ? [date, rest.join("/") + search] : null;
}

// A snapshot's home, search and explore pages are in every snapshot: no need to ask.
const IN_EVERY_SNAPSHOT = new Set(["", "search/", "explore/", "browse/"]);

/** A list of the same page in the other snapshots, at the end of the limits line, or
 * after the header's snapshot link on a page without that line. */
async function addSwitcher() {
  const here = document.querySelector("header.site a[data-snapshot]");
  if (!here) return;
  const { default: defaultDate, snapshots: all } = await snapshots();
  const [date, rest] = splitPath(location.pathname, location.search, defaultDate) ?? [here.dataset.snapshot, ""];
  const others = all.filter((s) => s.date !== date).slice(0, MAX_CHECKED);
  if (others.length === 0) return;
  const page = rest.replace(/\?.*$/, "");
  const items = others.map((s) => {
    const link = make("a", { href: `/${s.date}/${rest}` }, `Snapshot of ${s.date}`);
    const item = make("li", {}, link, make("span", { class: "age" }, ageText(s.date)),
      s.date === defaultDate ? " · the default" : null, s.complete ? null : " · partial");
    return { s, link, item };
  });
  const box = make("details", { class: "switch" }, make("summary", {}, "Other snapshots"),
    make("ul", {}, ...items.map((i) => i.item)));
  // A page that is not in every snapshot (a resource, a later page of a list) is looked
  // for when the list is opened; where it is missing, that snapshot's home is offered.
  let checked = IN_EVERY_SNAPSHOT.has(page);
  box.addEventListener("toggle", async () => {
    if (!box.open || checked) return;
    checked = true;
    await Promise.all(items.map(async ({ s, link, item }) => {
      if (await exists(`/${s.date}/${page}`)) return;
      link.href = s.home;
      item.append(" · not there; its home");
    }));
  });
  const line = document.querySelector("aside.limits .line");
  if (line) line.append(box);
  else here.after(box);
}

/** On the page for a missing address: a resource page missing from one snapshot is
 * looked for in the others, and each that has it is linked. */
async function findElsewhere() {
  const section = document.querySelector("#elsewhere");
  if (!section) return;
  const { default: defaultDate, snapshots: all } = await snapshots();
  const split = splitPath(location.pathname, "", defaultDate);
  const slug = split && /^r\/([^/]+)\/?(index\.html)?$/.exec(split[1])?.[1];
  if (!slug) return;
  const [date] = split;
  const candidates = all.filter((s) => s.date !== date).slice(0, MAX_CHECKED);
  const found = (await Promise.all(candidates.map(async (s) => ((await exists(`/${s.date}/r/${slug}/`)) ? s : null)))).filter(Boolean);
  const heading = make("h2", {}, "This resource in other snapshots");
  section.replaceChildren(heading, found.length === 0
    ? make("p", {}, `No other published snapshot has a page for this resource (${slug}); the snapshot of ${date} has no page at this address.`)
    : make("ul", { class: "folder" }, ...found.map((s) =>
      make("li", {}, make("a", { href: `/${s.date}/r/${slug}/` }, `Snapshot of ${s.date}`), make("span", { class: "age" }, ageText(s.date))))));
  section.hidden = false;
}

showAges();
markStale();
countMissedWalks();
// Without the list of snapshots (offline, a copy of one folder) the page is whole as it is.
addSwitcher().catch(() => {});
findElsewhere().catch(() => {});
