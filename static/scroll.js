// Where the reader was on a page of results, kept in the history entry, so Back and
// Forward land on the same results at the same place, on a phone as on a desktop. The
// results are drawn after the page loads (they are fetched), so the browser's own
// restoring, done before they exist, would land short: it is turned off here and the
// position is put back once the results are drawn.

/** Saves the scroll position into the current history entry (its URL unchanged). */
export function saveScroll() {
  history.replaceState({ ...(history.state ?? {}), scrollY: Math.round(scrollY) }, "");
}

let timer = 0;
/** Keeps the current entry's position up to date while the reader scrolls and leaves. */
export function keepScroll() {
  if ("scrollRestoration" in history) history.scrollRestoration = "manual";
  addEventListener("scroll", () => {
    clearTimeout(timer);
    timer = setTimeout(saveScroll, 150);
  }, { passive: true });
  addEventListener("pagehide", saveScroll);
}

/** Back where this entry was left, if it was; says whether it was. */
export function restoreScroll() {
  const saved = history.state?.scrollY;
  if (typeof saved !== "number") return false;
  scrollTo(0, saved);
  return true;
}

/** What a search brings to the top of the screen: the `results` section, with the
 * snapshot's line and limits when they stand just above it (they are read with the order). */
export function readWith(results) {
  const above = results.previousElementSibling;
  return above?.matches("aside.limits") ? above : results;
}

/** After results are drawn: back where this entry was left, if it was; else, when they
 * start low on the screen (a phone, under the form), brings them to the top. */
export function placeResults(results) {
  if (!restoreScroll()) bringIntoView(results);
}

// The stylesheet's phone layout (static/style.css: results as blocks).
const PHONE = "(max-width: 48rem)";

/** Scrolls the results (with what is read with them: `readWith`) to the top of the
 * screen when the first result starts above it, or low on it: on a phone in its lower
 * part (under the form and the keyboard), on a wide screen only below its end. */
export function bringIntoView(results) {
  const anchor = readWith(results);
  const first = results.querySelector("tbody tr") ?? results;
  const top = first.getBoundingClientRect().top;
  const phone = matchMedia(PHONE).matches;
  const low = phone ? innerHeight * 0.35 : innerHeight - 80;
  if (top > low || top < 0) {
    // The anchor's top at the screen's, unless that leaves the first result low on a
    // phone: then the first result a third of the way down.
    const byAnchor = anchor.getBoundingClientRect().top - 8;
    scrollBy({ top: phone ? Math.max(byAnchor, top - low) : byAnchor });
  }
}
