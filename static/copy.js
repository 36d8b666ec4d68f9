// Copy buttons for the call and the programs on a resource's page. Without this script
// the buttons stay hidden and the text stays selectable; the copied text is the block's
// own text, never made here.
for (const button of document.querySelectorAll("button.copy-button[data-copy]")) {
  const block = document.getElementById(button.dataset.copy);
  if (!block || !navigator.clipboard) continue;
  const label = button.textContent;
  button.hidden = false;
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(block.textContent);
      button.textContent = "Copied";
    } catch {
      button.textContent = "Select the text to copy";
    }
    setTimeout(() => { button.textContent = label; }, 2000);
  });
}
