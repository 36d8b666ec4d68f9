// How every browser test and script starts Debian's Chromium through playwright-core.
import { chromium } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
];

/** Headless Chromium: Debian's, or the one $CHROMIUM names. */
export function launchChromium() {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: CHROMIUM_ARGS });
}
