// A loopback static server for browser tests: serves a built public/ folder with the
// Content-Security-Policy that netlify.toml declares, so a page that needed inline
// script would break here exactly as it would in production. Counts requests and
// bytes so tests and benchmarks can read what a query cost.
import { createServer } from "node:http";
import { readFile, stat } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { extname, join, normalize, sep } from "node:path";
import { gzipSync } from "node:zlib";

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
};

/** The CSP string of netlify.toml's `for = "/*"` block. */
export function cspFromNetlifyToml(path) {
  const text = readFileSync(path, "utf8");
  const m = text.match(/Content-Security-Policy\s*=\s*"([^"]+)"/);
  if (!m) throw new Error(`no Content-Security-Policy in ${path}`);
  return m[1];
}

/**
 * Starts serving `root` on 127.0.0.1 (random port). Options:
 * - csp: the Content-Security-Policy header value;
 * - gzip: compress responses (as a CDN would) so byte counts are transfer sizes.
 * Returns { origin, close(), log, reset(), breakPaths: Set<string> }: a path in
 * breakPaths answers 404, to simulate a missing file.
 */
export async function startServer(root, { csp, gzip = true } = {}) {
  const log = [];
  const breakPaths = new Set();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, "http://localhost");
    let path = decodeURIComponent(url.pathname);
    const latest = readLatest(root);
    if (latest && (path === "/latest" || path.startsWith("/latest/"))) path = `/${latest}/${path.slice("/latest/".length)}`;
    const file = normalize(join(root, path));
    const send = (status, body, type) => {
      const headers = { "Content-Type": type };
      if (csp) headers["Content-Security-Policy"] = csp;
      let payload = body;
      if (gzip && status === 200) {
        payload = gzipSync(body, { level: 9 });
        headers["Content-Encoding"] = "gzip";
      }
      headers["Content-Length"] = payload.length;
      log.push({ path: url.pathname, status, bytes: payload.length });
      res.writeHead(status, headers);
      res.end(payload);
    };
    if (!file.startsWith(normalize(root) + sep) && file !== normalize(root)) return send(403, Buffer.from("forbidden"), "text/plain");
    if (breakPaths.has(url.pathname)) return send(404, Buffer.from("not found"), "text/plain");
    try {
      let target = file;
      if ((await stat(target)).isDirectory()) target = join(target, "index.html");
      send(200, await readFile(target), TYPES[extname(target)] ?? "application/octet-stream");
    } catch {
      // As Netlify does: the site's own 404.html, when it has one.
      const page = await readFile(join(root, "404.html")).catch(() => null);
      if (page) send(404, page, "text/html; charset=utf-8");
      else send(404, Buffer.from("not found"), "text/plain");
    }
  });
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    origin: `http://127.0.0.1:${port}`,
    log,
    breakPaths,
    reset: () => log.splice(0, log.length),
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

function readLatest(root) {
  try {
    const m = readFileSync(join(root, "_redirects"), "utf8").match(/^\/latest\/\* \/([0-9-]+)\/:splat 200$/m);
    return m ? m[1] : null;
  } catch {
    return null;
  }
}
