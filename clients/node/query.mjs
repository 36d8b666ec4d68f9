#!/usr/bin/env node
// Asks a published x402dir site from Node (20 or later) or Deno, with the site's own
// composer: the same answer envelope `x402dir query --json` prints for that snapshot
// (the format: the site's /static-api/ page, docs/static-api.md here).
//
//   node clients/node/query.mjs https://x402dir.netlify.app weather forecast --max-price 0.01 --network Base
//   deno run --allow-net clients/node/query.mjs https://x402dir.netlify.app weather forecast
//
// Options: --date YYYY-MM-DD (default: the site's default snapshot, from /snapshots.json),
// --max-price, --network, --limit, --offset, --exclude-testnets, --answered-402.
//
// The composer is an ES module with no dependencies. Here it is imported from this
// repository's copy; Deno can import the published one by URL instead:
//   import { query, httpSource } from "https://x402dir.netlify.app/2025-12-31/static/composer.js";
// Use the composer of the snapshot's own folder: it refuses an API built by another
// method version (SOURCE_UNAVAILABLE) rather than answer differently.
import { httpSource, query } from "../../static/composer.js";

const FLAGS = { "--date": "date", "--max-price": "max_price", "--network": "network", "--limit": "limit", "--offset": "offset" };

function parse(argv) {
  const [site, ...rest] = argv;
  if (!site || !/^https?:\/\//.test(site)) throw new Error("usage: query.mjs SITE-URL WORDS... [--max-price USD] [--network NAME] [--limit N] [--offset N] [--exclude-testnets] [--answered-402] [--date YYYY-MM-DD]");
  const options = { words: [], exclude_testnets: false, answered_402: false };
  for (let i = 0; i < rest.length; i++) {
    if (rest[i] === "--exclude-testnets") options.exclude_testnets = true;
    else if (rest[i] === "--answered-402") options.answered_402 = true;
    else if (FLAGS[rest[i]]) options[FLAGS[rest[i]]] = rest[++i];
    else options.words.push(rest[i]);
  }
  return { site: site.replace(/\/$/, ""), options };
}

async function main(argv) {
  const { site, options } = parse(argv);
  // Every published snapshot and the default one.
  const snapshots = await httpSource(`${site}/`)("snapshots.json");
  if (snapshots === null) throw new Error(`${site}/snapshots.json is missing: is this an x402dir site?`);
  const date = options.date ?? snapshots.default;
  const snapshot = snapshots.snapshots.find((s) => s.date === date);
  if (!snapshot) throw new Error(`no snapshot ${date}; published: ${snapshots.snapshots.map((s) => s.date).join(", ")}`);
  const answer = await query(httpSource(`${site}${snapshot.api}`), options.words.join(" "), options);
  process.stdout.write(JSON.stringify(answer, null, 2) + "\n");
  return answer.error ? 3 : 0;
}

main(process.argv.slice(2)).then(
  (status) => { process.exitCode = status; },
  (e) => {
    process.stderr.write(`${e.code ? `${e.code}: ` : ""}${e.message}\n`);
    process.exitCode = e.code === "INVALID_FILTER" ? 2 : 1;
  },
);
