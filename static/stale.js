// Marks a snapshot's page stale once today (UTC, the reader's clock) is past the date the
// page states (content/method.md#limits). The date is fixed when the folder is built,
// from the walk's date alone; only the comparison happens here. No text is made here:
// the notice is in the page, hidden, and is only shown.
const limits = document.querySelector("aside.limits[data-stale-after]");
// The snapshot's age in whole days by the reader's clock (UTC): worked out here, so the
// folder's files stay the same bytes whatever day they are read.
const taken = limits?.querySelector(".snapshot time");
const age = limits?.querySelector(".snapshot .age");
if (taken && age) {
  const days = Math.floor((Date.parse(new Date().toISOString().slice(0, 10)) - Date.parse(taken.dateTime)) / 86400000);
  if (days >= 0) {
    age.textContent = ` · ${days} day${days === 1 ? "" : "s"} old`;
    age.hidden = false;
  }
}
if (limits && new Date().toISOString().slice(0, 10) > limits.dataset.staleAfter) {
  limits.classList.add("stale");
  for (const notice of limits.querySelectorAll(".stale-notice")) notice.hidden = false;
}
