// The published site as a source of answers: its /snapshots.json, each dated snapshot's
// static JSON API (docs/static-api.md) and the composer that snapshot publishes
// (<date>/static/composer.js), which holds the rule. This file holds none of the rule: it
// fetches, caps, caches and imports; the composer answers.
//
// Dated files never change once published (content/method.md#published), so each is kept
// once read: in memory (bounded) and, with a cache folder, on disk. /snapshots.json is the
// one file that changes: `latest` is read from it at most every LATEST_TTL_MS.

import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** How long a `latest` read from /snapshots.json is trusted before it is read again. */
export const LATEST_TTL_MS = 10 * 60 * 1000;
/** The most bytes read of any one file (a layout-5 file is at most a few hundred KB). */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;
/** The most bytes of parsed files kept in memory (by their text's length). */
export const MEMORY_CACHE_BYTES = 64 * 1024 * 1024;
/** How long one request may take. */
export const REQUEST_TIMEOUT_MS = 20_000;
/** The most modules one composer may import, itself included. */
const MAX_MODULES = 16;

const DATE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}$/;

/** The tool's SOURCE_UNAVAILABLE: what could not be read (naming the URL) and what would fix it. */
export class Unavailable extends Error {
  constructor(message, fix) {
    super(message);
    this.fix = fix;
  }
}

/** A file that is not there (HTTP 404), told apart from a failure to read it. */
class Missing extends Error {}

/**
 * The site at `site` (its root URL), answering from `date` ("latest" or YYYY-MM-DD).
 * `cacheDir`, when given, keeps every dated file read (and the composer's modules) on disk
 * across runs. `fetchImpl` and `now` are for tests.
 */
export function createSite({ site, date = 'latest', cacheDir = null, apiVersions, fetchImpl = globalThis.fetch, now = Date.now, log = () => {} }) {
  const root = new URL(site.endsWith('/') ? site : `${site}/`);
  const memory = new Map(); // url -> { value, size }, least recently used first
  let memoryBytes = 0;
  let latest = null; // { date, entry, checked }
  let latestRead = null; // the read of /snapshots.json under way
  const snapshots = new Map(); // date -> Promise<{ date, api, composer }>
  let moduleRoot = cacheDir ? join(cacheDir, 'files') : null;

  const hostKey = `${root.protocol.replace(':', '')}_${root.host.replace(/[^A-Za-z0-9.-]/g, '_')}`;
  const diskPath = (url) => join(cacheDir, 'files', hostKey, ...new URL(url).pathname.split('/').filter(Boolean));

  function remember(url, value, size) {
    memory.delete(url);
    memory.set(url, { value, size });
    memoryBytes += size;
    for (const [key, entry] of memory) {
      if (memoryBytes <= MEMORY_CACHE_BYTES || memory.size === 1) break;
      memory.delete(key);
      memoryBytes -= entry.size;
    }
  }

  /** The text at `url`, at most MAX_RESPONSE_BYTES of it: a Missing for 404, an Error naming the URL for any other failure. */
  async function download(url) {
    let response;
    try {
      response = await fetchImpl(url, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS), redirect: 'follow' });
    } catch (e) {
      const cause = e?.cause?.code ?? e?.cause?.message ?? e?.name;
      throw new Error(`${url}: ${e.message}${cause && cause !== e.message ? ` (${cause})` : ''}`);
    }
    if (response.status === 404) {
      await response.body?.cancel();
      throw new Missing(`${url}: HTTP 404`);
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new Error(`${url}: HTTP ${response.status}`);
    }
    const declared = Number(response.headers.get('content-length'));
    if (declared > MAX_RESPONSE_BYTES) {
      await response.body?.cancel();
      throw new Error(`${url}: ${declared} bytes, more than the ${MAX_RESPONSE_BYTES} read of one file`);
    }
    const chunks = [];
    let size = 0;
    try {
      for await (const chunk of response.body) {
        size += chunk.length;
        if (size > MAX_RESPONSE_BYTES) {
          throw new Error(`${url}: more than the ${MAX_RESPONSE_BYTES} bytes read of one file`);
        }
        chunks.push(chunk);
      }
    } catch (e) {
      if (e.message.startsWith(url)) throw e;
      throw new Error(`${url}: ${e.message}`);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  /** A dated (immutable) file's text: from memory, the cache folder, else the network. */
  async function immutableText(url) {
    if (cacheDir) {
      const path = diskPath(url);
      if (existsSync(path)) return readFileSync(path, 'utf8');
      const text = await download(url);
      try {
        mkdirSync(dirname(path), { recursive: true });
        const partial = `${path}.${process.pid}.partial`;
        writeFileSync(partial, text);
        renameSync(partial, path);
      } catch (e) {
        log(`could not keep ${url} in ${cacheDir}: ${e.message}`);
      }
      return text;
    }
    return download(url);
  }

  /** A dated JSON file, parsed, or null when it does not exist. */
  async function immutableJson(url) {
    const kept = memory.get(url);
    if (kept) {
      memory.delete(url);
      memory.set(url, kept);
      return kept.value;
    }
    let text;
    try {
      text = await immutableText(url);
    } catch (e) {
      if (e instanceof Missing) return null;
      throw e;
    }
    let value;
    try {
      value = JSON.parse(text);
    } catch (e) {
      throw new Error(`${url}: not JSON (${e.message})`);
    }
    remember(url, value, text.length);
    return value;
  }

  const fixSite = `check that ${root.href} is reachable and is an x402dir site (its /snapshots.json lists the snapshots), or pass --site with the address of one`;

  /** The default date and its entry, from /snapshots.json, read again after LATEST_TTL_MS. */
  async function latestSnapshot() {
    if (latest && now() - latest.checked < LATEST_TTL_MS) return latest;
    latestRead ??= (async () => {
      const url = new URL('snapshots.json', root).href;
      try {
        const text = await download(url);
        const list = JSON.parse(text);
        const chosen = typeof list?.default === 'string' && DATE.test(list.default) ? list.default : null;
        if (!chosen) throw new Error(`${url} names no default snapshot date`);
        const entry = Array.isArray(list.snapshots) ? list.snapshots.find((s) => s?.date === chosen) : undefined;
        latest = { date: chosen, entry, checked: now() };
      } catch (e) {
        if (latest) {
          // The date read before still answers; the next call after the interval tries again.
          log(`could not re-read ${url} (${e.message}); still answering from ${latest.date}`);
          latest = { ...latest, checked: now() };
        } else if (e instanceof Missing) {
          throw new Unavailable(`no snapshot list at ${url} (HTTP 404): ${root.href} is not an x402dir site`, fixSite);
        } else {
          throw new Unavailable(`could not read the snapshot list ${url} (${e.message.replace(`${url}: `, '')})`, fixSite);
        }
      } finally {
        latestRead = null;
      }
      return latest;
    })();
    return latestRead;
  }

  /** Writes `url`'s module and those it imports (same site, relative specifiers) under the module folder. */
  async function loadModules(url) {
    if (!moduleRoot) {
      moduleRoot = mkdtempSync(join(tmpdir(), 'x402dir-mcp-'));
      const made = moduleRoot;
      process.once('exit', () => rmSync(made, { recursive: true, force: true }));
    }
    const wanted = [url];
    const done = new Set();
    while (wanted.length > 0) {
      const next = wanted.shift();
      if (done.has(next)) continue;
      if (done.size >= MAX_MODULES) throw new Error(`${url} imports more than ${MAX_MODULES} modules`);
      done.add(next);
      let text;
      try {
        text = await immutableText(next);
      } catch (e) {
        // A specifier found in a comment or string names no module: the import itself,
        // if a real one is missing, fails and says so.
        if (e instanceof Missing && next !== url) continue;
        throw e;
      }
      const path = join(moduleRoot, hostKey, ...new URL(next).pathname.split('/').filter(Boolean));
      if (!cacheDir || !existsSync(path)) {
        mkdirSync(dirname(path), { recursive: true });
        const partial = `${path}.${process.pid}.partial`;
        writeFileSync(partial, text);
        renameSync(partial, path);
      }
      for (const specifier of importsOf(text)) {
        const target = new URL(specifier, next);
        if (target.origin !== root.origin) throw new Error(`${next} imports ${target.href}, which is not on ${root.origin}`);
        wanted.push(target.href);
      }
    }
    return pathToFileURL(join(moduleRoot, hostKey, ...new URL(url).pathname.split('/').filter(Boolean))).href;
  }

  /** The snapshot of `chosen`: its API folder (manifest checked) and its composer, loaded once. */
  function load(chosen, entry) {
    if (!snapshots.has(chosen)) {
      const promise = (async () => {
        const api = new URL(typeof entry?.api === 'string' ? entry.api : `${chosen}/api/`, root).href;
        const manifestUrl = new URL('manifest.json', api).href;
        let manifest;
        try {
          manifest = await immutableJson(manifestUrl);
        } catch (e) {
          throw new Unavailable(`could not read ${manifestUrl} (${e.message.replace(`${manifestUrl}: `, '')})`, fixSite);
        }
        if (manifest === null) {
          throw new Unavailable(
            `no snapshot ${chosen} at ${root.href}: ${manifestUrl} does not exist`,
            `pass --date latest or a date ${new URL('snapshots.json', root).href} lists`,
          );
        }
        if (!apiVersions.includes(manifest.api_version)) {
          throw new Unavailable(
            `${manifestUrl} is API layout ${JSON.stringify(manifest.api_version ?? null)}; this x402dir-mcp reads layout ${apiVersions.join(', ')}`,
            `update the package (npx -y x402dir-mcp@latest), or pass --date for a snapshot of layout ${apiVersions.join(', ')}`,
          );
        }
        const composerUrl = new URL('../static/composer.js', api).href;
        let composer;
        try {
          composer = await import(await loadModules(composerUrl));
        } catch (e) {
          throw new Unavailable(
            `could not load the composer ${composerUrl} (${e instanceof Missing ? 'HTTP 404' : e.message})`,
            `rebuild and republish the snapshot's folder (x402dir build), or pass --date for another snapshot`,
          );
        }
        if (typeof composer.query !== 'function') {
          throw new Unavailable(`${composerUrl} has no query function`, 'update the package (npx -y x402dir-mcp@latest)');
        }
        return { date: chosen, api, composer };
      })();
      // A failed load is tried again by the next call: the site may be back.
      promise.catch(() => snapshots.delete(chosen));
      snapshots.set(chosen, promise);
    }
    return snapshots.get(chosen);
  }

  return {
    site: root.href,
    date,
    /** The snapshot answers come from now: { date, api, composer }, or an Unavailable. */
    async snapshot() {
      if (date !== 'latest') return load(date, null);
      const { date: chosen, entry } = await latestSnapshot();
      return load(chosen, entry);
    },
    /** The composer's source over a snapshot's API folder: a fetchJson(path) naming every URL it fails on. */
    source(api) {
      return { fetchJson: (path) => immutableJson(new URL(path, api).href) };
    },
  };
}

/** The relative module specifiers `text` imports statically (`import … from "./x.js"`, `export … from`, `import "./x.js"`). */
export function importsOf(text) {
  const found = [];
  const pattern = /(?:^|[;\s])(?:import|export)\s*(?:[^'";]*?\sfrom\s*)?["'](\.{1,2}\/[^"']+)["']/g;
  for (const match of text.matchAll(pattern)) found.push(match[1]);
  return found;
}

export const isDate = (text) => text === 'latest' || DATE.test(text);
