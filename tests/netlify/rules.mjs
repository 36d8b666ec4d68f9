// The headers netlify-cli's own rule engine gives each path from ./netlify.toml: the
// parser (@netlify/headers-parser, as netlify-cli calls it) and the matcher
// (`headersForPath`, later rules' values replacing earlier ones') that `netlify dev` runs
// for every response. `netlify dev`'s static server sends its own `cache-control` over
// the declared one, so tests/it/netlify.rs takes Cache-Control from here, as Netlify's
// CDN would send it, and every other header from `netlify dev` itself.
//
// Usage (in the folder holding netlify.toml): node tests/netlify/rules.mjs PATH...
// Prints {"PATH": {"Header": "value", ...}, ...} as JSON.
import { resolve, dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const cli = join(repo, "tools", "netlify", "node_modules", "netlify-cli", "dist", "utils", "headers.js");
const { parseHeaders, headersForPath } = await import(pathToFileURL(cli).href);
const rules = await parseHeaders({ config: {}, configPath: resolve("netlify.toml"), headersFiles: [] });
const out = {};
for (const path of process.argv.slice(2)) out[path] = headersForPath(rules, path);
process.stdout.write(JSON.stringify(out));
