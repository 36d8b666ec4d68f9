// The built site for browser tests and scripts: built by the release binary (or the one
// $X402DIR_BIN names) into a fresh temporary folder, and served on loopback with
// netlify.toml's Content-Security-Policy.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, cspFromNetlifyToml } from "./serve.mjs";

export const repo = fileURLToPath(new URL("../..", import.meta.url));
export const bin = process.env.X402DIR_BIN ?? join(repo, "target", "release", "x402dir");

/** Builds the embedded default site into a new temporary folder and returns its
 * public/ path; the folder is removed when the process exits. */
export function buildSite(prefix) {
  if (!existsSync(bin)) throw new Error(`build the binary first (cargo build --release): ${bin}`);
  const scratch = mkdtempSync(join(tmpdir(), `x402dir-${prefix}-`));
  process.on("exit", () => rmSync(scratch, { recursive: true, force: true }));
  const publicDir = join(scratch, "public");
  execFileSync(bin, ["build", "--out", publicDir], { cwd: repo, stdio: "pipe" });
  return publicDir;
}

/** Serves `publicDir` as production would: gzip and the CSP of netlify.toml. */
export function serveSite(publicDir, options = {}) {
  return startServer(publicDir, { csp: cspFromNetlifyToml(join(repo, "netlify.toml")), ...options });
}
