#!/usr/bin/env node
// x402dir-mcp: an MCP server on standard input and output that finds paid x402 resources
// in the published x402dir site's snapshots, answering through the composer each snapshot
// publishes (the same answers as `x402dir mcp` over the same snapshot).
//
//     npx -y x402dir-mcp [--site URL] [--date YYYY-MM-DD|latest] [--cache DIR]

import { readFileSync } from 'node:fs';

import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';

import { INVALID_REQUEST, PARSE_ERROR, createHandler } from '../lib/server.js';
import { createSite, isDate, LATEST_TTL_MS } from '../lib/site.js';

const SPEC = JSON.parse(readFileSync(new URL('../spec.json', import.meta.url), 'utf8'));
const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

const USAGE = `usage: x402dir-mcp [--site URL] [--date YYYY-MM-DD|latest] [--cache DIR]

An MCP server (stdio) finding paid x402 resources in a snapshot of the x402dir site.
  --site URL    the x402dir site to read (default ${SPEC.site})
  --date DATE   the snapshot to answer from, YYYY-MM-DD, or latest (default: latest, the
                site's default snapshot, read again at most every ${LATEST_TTL_MS / 60000} minutes)
  --cache DIR   keep the snapshot files read in DIR (they never change once published)`;

function fail(message) {
  process.stderr.write(`x402dir-mcp: ${message}\n${USAGE}\n`);
  process.exit(2);
}

function parseArgs(argv) {
  const options = { site: SPEC.site, date: 'latest', cache: null };
  for (let i = 0; i < argv.length; i += 1) {
    const [flag, inline] = argv[i].startsWith('--') && argv[i].includes('=') ? argv[i].split(/=(.*)/s) : [argv[i], undefined];
    if (flag === '--help' || flag === '-h') {
      process.stdout.write(`${USAGE}\n`);
      process.exit(0);
    }
    if (flag === '--version') {
      process.stdout.write(`${PACKAGE.version}\n`);
      process.exit(0);
    }
    const key = { '--site': 'site', '--date': 'date', '--cache': 'cache' }[flag];
    if (!key) fail(`unknown argument ${JSON.stringify(argv[i])}`);
    const value = inline ?? argv[++i];
    if (value === undefined) fail(`${flag} needs a value`);
    options[key] = value;
  }
  let url;
  try {
    url = new URL(options.site);
  } catch {
    fail(`--site ${JSON.stringify(options.site)} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') fail(`--site must be an http or https URL, not ${options.site}`);
  if (!isDate(options.date)) fail(`--date must be YYYY-MM-DD or latest, not ${JSON.stringify(options.date)}`);
  return options;
}

const options = parseArgs(process.argv.slice(2));
const log = (line) => process.stderr.write(`x402dir-mcp: ${line}\n`);
const site = createSite({
  site: options.site,
  date: options.date,
  cacheDir: options.cache,
  apiVersions: SPEC.api_versions,
  log,
});
const handler = createHandler(SPEC.mcp, site);

// The official SDK's server and stdio transport carry the messages; every request goes to
// the handler, which answers as `x402dir mcp` does (its own initialize and ping included).
const server = new Server(SPEC.mcp.server_info, {
  capabilities: SPEC.mcp.initialize_capabilities,
  instructions: SPEC.mcp.instructions,
});
server.removeRequestHandler('initialize');
server.removeRequestHandler('ping');
// Requests still being answered when standard input ends are answered before the server exits.
let pending = 0;
let ended = false;
const exitWhenDone = () => {
  if (ended && pending === 0) setImmediate(() => process.exit(0));
};
server.fallbackRequestHandler = async (request) => {
  pending += 1;
  try {
    return await handler.dispatch(request.method, request.params ?? {});
  } finally {
    pending -= 1;
    // After the SDK has written the response.
    setImmediate(exitWhenDone);
  }
};

const transport = new StdioServerTransport(process.stdin, process.stdout, { maxBufferSize: SPEC.mcp.max_line_bytes });
server.onerror = (error) => {
  // A line that is not JSON, or not a JSON-RPC message, or too long: answered with an
  // error (no id can be read from it) and the server reads on.
  let code = INVALID_REQUEST;
  let message = 'expected a JSON-RPC 2.0 request';
  if (error instanceof SyntaxError) {
    code = PARSE_ERROR;
    message = `not JSON: ${error.message}`;
  } else if (/ReadBuffer exceeded/.test(error?.message ?? '')) {
    message = `a message is one line of at most ${SPEC.mcp.max_line_bytes} bytes; this one was longer and was not read`;
  } else if (error?.name !== 'ZodError') {
    log(error?.message ?? String(error));
    return;
  }
  transport.send({ jsonrpc: '2.0', id: null, error: { code, message } }).catch(() => {});
};
process.stdin.on('end', () => {
  ended = true;
  setImmediate(exitWhenDone);
});

await server.connect(transport);
log(
  `answering from ${site.site} (snapshot ${options.date}${options.date === 'latest' ? `, re-read every ${LATEST_TTL_MS / 60000} minutes` : ''})` +
    `${options.cache ? `, keeping files in ${options.cache}` : ''}; reading JSON-RPC on stdin`,
);
// Warm up: the snapshot list, manifest and composer are read before the first call needs them.
site.snapshot().catch((e) => log(`not yet: ${e.message}`));
