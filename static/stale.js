// Marks a snapshot's page stale once today (UTC, the reader's clock) is past the date the
// page states (content/method.md#limits). The date is fixed when the folder is built,
// from the walk's date alone; only the comparison happens here. No text is made here:
// the notice is in the page, hidden, and is only shown.
const limits = document.querySelector("aside.limits[data-stale-after]");
if (limits && new Date().toISOString().slice(0, 10) > limits.dataset.staleAfter) {
  limits.classList.add("stale");
  for (const notice of limits.querySelectorAll(".stale-notice")) notice.hidden = false;
}
