// clients/mcp/lib/site.js against a built site read through a fake fetch that counts each
// request and a clock the test moves (tests/it/mcp_npm.rs):
//
//     node npm_site.mjs PUBLIC_DIR CACHE_DIR
//
// Exits non-zero with the failed assertion.
import assert from 'node:assert/strict';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

import { createHandler } from '../../clients/mcp/lib/server.js';
import { createSite, LATEST_TTL_MS, MAX_RESPONSE_BYTES } from '../../clients/mcp/lib/site.js';

const [publicDir, cacheDir] = process.argv.slice(2);
const SITE = 'https://site.example/';
let clock = 0;
const fetched = [];
let down = false;
const oversized = new Set();
function fakeFetch(url) {
  fetched.push(url);
  if (down) return Promise.reject(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } }));
  const path = new URL(url).pathname;
  if (oversized.has(path)) return Promise.resolve(new Response(new Uint8Array(MAX_RESPONSE_BYTES + 1)));
  const file = join(publicDir, path);
  if (!existsSync(file)) return Promise.resolve(new Response('not found', { status: 404 }));
  return Promise.resolve(new Response(readFileSync(file)));
}
const count = (suffix) => fetched.filter((u) => u.endsWith(suffix)).length;
// The layouts this package reads, as its bin does: from spec.json (generated from Rust).
const specFile = JSON.parse(readFileSync(new URL('../../clients/mcp/spec.json', import.meta.url), 'utf8'));
const make = (options = {}) =>
  createSite({ site: SITE, apiVersions: specFile.api_versions, fetchImpl: fakeFetch, now: () => clock, ...options });

// latest: read from /snapshots.json once, again only after the interval.
const site = make();
const first = await site.snapshot();
assert.equal(first.date, '2025-12-31');
assert.equal(count('/snapshots.json'), 1);
const answer = async (s, q) => (await s.snapshot()).composer.query(s.source((await s.snapshot()).api), q, { limit: '3' });
const one = await answer(site, 'weather');
assert.equal(one.meta.snapshot.date, '2025-12-31');
clock += LATEST_TTL_MS - 1;
await answer(site, 'weather');
assert.equal(count('/snapshots.json'), 1, 'latest is not read again within the interval');
clock += 1;
await answer(site, 'weather');
assert.equal(count('/snapshots.json'), 2, 'latest is read again after the interval');

// Dated files are read once: the same query again fetches nothing.
const before = fetched.length;
assert.deepEqual(await answer(site, 'weather'), one);
assert.equal(fetched.length, before, `no new request for a repeated query: ${fetched.slice(before)}`);
assert.equal(count('/2025-12-31/static/composer.js'), 1);
assert.equal(count('/2025-12-31/static/rules.js'), 1, 'the composer imports rules.js from the site');
assert.equal(count('/2025-12-31/static/chars.js'), 1, 'the composer imports chars.js from the site');

// The site unreachable at the re-check: the date read before still answers.
clock += LATEST_TTL_MS;
down = true;
assert.deepEqual(await answer(site, 'weather'), one);
down = false;

// Unreachable from the start: SOURCE_UNAVAILABLE naming the URL; then it comes back.
down = true;
const fresh = make();
await assert.rejects(fresh.snapshot(), (e) => e.message.includes(`${SITE}snapshots.json`) && /ECONNREFUSED/.test(e.message) && e.fix.length > 0);
down = false;
assert.equal((await fresh.snapshot()).date, '2025-12-31', 'a failed load is tried again');

// A file larger than the cap is refused, naming it.
oversized.add('/2025-12-31/api/shards/0.json');
const capped = make({ date: '2025-12-31' });
const s = await capped.snapshot();
const refused = await s.composer.query(capped.source(s.api), '', { limit: '1' });
const all = await Promise.all(Array.from({ length: 64 }, (_, b) => capped.source(s.api).fetchJson(`shards/${b}.json`).then(() => null, (e) => e.message)));
assert.ok(refused.meta, 'a query not needing the shard answers');
assert.ok(all.some((m) => m && m.includes('/2025-12-31/api/shards/0.json') && m.includes(String(MAX_RESPONSE_BYTES))), all.join('\n'));
oversized.clear();

// --cache: a second server reads the dated files from the folder, not the network.
const cached = make({ date: '2025-12-31', cacheDir });
const c1 = await cached.snapshot();
const a1 = await c1.composer.query(cached.source(c1.api), 'weather', { limit: '3' });
const mark = fetched.length;
const again = make({ date: '2025-12-31', cacheDir });
const c2 = await again.snapshot();
const a2 = await c2.composer.query(again.source(c2.api), 'weather', { limit: '3' });
assert.deepEqual(a2, a1);
assert.deepEqual(fetched.slice(mark), [], 'the cache folder answers without a request');
// A filter the package describes (here a made-up boolean) that the snapshot's composer does
// not apply is refused, never dropped; left at its default it changes nothing.
const spec = specFile.mcp;
const wider = structuredClone(spec);
wider.tool.inputSchema.properties.only_probed = { type: 'boolean' };
const handler = createHandler(wider, make({ date: '2025-12-31' }));
const ask = (args) => handler.dispatch('tools/call', { name: spec.tool.name, arguments: args });
const refusedFilter = await ask({ query: 'weather', only_probed: true });
assert.equal(refusedFilter.isError, true);
const error = JSON.parse(refusedFilter.content[0].text).error;
assert.equal(error.code, 'INVALID_FILTER');
assert.match(error.message, /only_probed .*2025-12-31/);
const plain = await createHandler(spec, make({ date: '2025-12-31' })).dispatch('tools/call', { name: spec.tool.name, arguments: { query: 'weather' } });
assert.deepEqual((await ask({ query: 'weather', only_probed: false })).structuredContent, plain.structuredContent);
assert.equal(plain.isError, false);
console.log(JSON.stringify({ requests: fetched.length }));
