// The MCP side of `x402dir-mcp`: what `x402dir mcp` (crates/mcp/src/lib.rs) answers to each
// request, made from the same description (spec.json, generated from that crate), with the
// tool's answers from the snapshot's published composer (lib/site.js). Both eras of the
// protocol, as the Rust server speaks them: 2026-07-28 stateless (the version named in each
// request's _meta, `server/discover`), and the initialize handshake of 2025-11-25 and the
// two revisions before it.

import { Unavailable } from './site.js';

// JSON-RPC 2.0 error codes, and MCP's for a protocol version it does not speak.
export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
const METHOD_NOT_FOUND = -32601;
const INVALID_PARAMS = -32602;
const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** A JSON-RPC error, as the SDK's Protocol sends a thrown one: code, message, data. */
export class RpcError extends Error {
  constructor(code, message, data) {
    super(message);
    this.code = code;
    if (data !== undefined) this.data = data;
  }
}

const chars = (text) => Array.from(text);

/** Rust's method::view::clip: at most `max` characters, the last `…` when cut. */
export function clip(text, max) {
  const all = chars(text);
  return all.length <= max ? text : `${all.slice(0, max - 1).join('')}…`;
}

/** The kind of a JSON value, in words. */
function kind(value) {
  if (value === null) return 'null';
  if (typeof value === 'boolean') return 'true or false';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'string') return 'a string';
  if (Array.isArray(value)) return 'a list';
  return 'an object';
}

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Whether an input schema property takes a JSON number. */
const takesNumber = (schema) =>
  ['integer', 'number'].includes(schema?.type) || (schema?.anyOf ?? []).some((s) => ['integer', 'number'].includes(s?.type));

/** Rust's count_text: a whole number's digits, also for one sent with a zero fraction. */
function countText(n) {
  return Number.isInteger(n) && Math.abs(n) <= 9_007_199_254_740_992 ? BigInt(n).toString() : String(n);
}

/**
 * The server: `spec` (spec.json's `mcp`), `site` (lib/site.js) answering the tool.
 * `dispatch(method, params)` is a request's result, or throws an RpcError.
 */
export function createHandler(spec, site) {
  const tool = spec.tool;
  const properties = tool.inputSchema.properties;
  const argumentNames = Object.keys(properties);
  const booleans = argumentNames.filter((k) => properties[k].type === 'boolean');
  const texts = argumentNames.filter((k) => k !== 'query' && !booleans.includes(k));
  let negotiated = spec.legacy_versions[0];

  const quoted = (text) => {
    const all = chars(text);
    let clipped = all.slice(0, spec.quoted_chars).join('');
    if (all.length > spec.quoted_chars) clipped += '…';
    return JSON.stringify(clipped);
  };
  const supported = () => [...spec.modern_versions, ...spec.legacy_versions];

  /** The era a request's _meta puts it in: { modern } or { legacy: version }. */
  function eraOf(params) {
    const meta = isObject(params) ? params._meta : undefined;
    const asked = isObject(meta) ? meta[spec.version_key] : undefined;
    if (asked === undefined) return { legacy: negotiated };
    if (spec.modern_versions.includes(asked)) return { modern: true };
    if (typeof asked === 'string' && spec.legacy_versions.includes(asked)) return { legacy: asked };
    const requested = typeof asked === 'string' ? asked : clip(JSON.stringify(asked), spec.quoted_chars);
    throw new RpcError(UNSUPPORTED_PROTOCOL_VERSION, 'Unsupported protocol version', { supported: supported(), requested });
  }

  function initialize(params) {
    const asked = isObject(params) ? params.protocolVersion : undefined;
    const version = spec.legacy_versions.find((v) => v === asked) ?? spec.legacy_versions[0];
    negotiated = version;
    return {
      protocolVersion: version,
      capabilities: spec.initialize_capabilities,
      serverInfo: spec.server_info,
      instructions: spec.instructions,
    };
  }

  /** The tool's arguments as the composer's query text and filters, or the INVALID_ARGUMENT error. */
  function readArguments(args) {
    const invalid = (message) => ({ code: 'INVALID_ARGUMENT', message });
    const unknown = Object.keys(args).find((k) => !argumentNames.includes(k));
    if (unknown !== undefined) {
      throw invalid(`unknown argument ${quoted(unknown)}: the arguments are ${argumentNames.join(', ')}`);
    }
    const query = args.query;
    if (typeof query !== 'string') throw invalid('query (a string of words) is required');
    const length = chars(query).length;
    if (length > spec.max_query_chars) {
      throw invalid(
        `query is ${length} characters, more than the ${spec.max_query_chars} taken (only its first 8 words are used)`,
      );
    }
    // Every filter the tool describes goes to the composer by its name: booleans as
    // true/false, the rest as text, as `x402dir mcp` hands them to Filters::read.
    const filters = {};
    for (const key of booleans) {
      const value = args[key];
      if (value === undefined || value === null) filters[key] = false;
      else if (typeof value === 'boolean') filters[key] = value;
      else throw invalid(`${key} must be true or false, not ${kind(value)}`);
    }
    for (const key of texts) {
      const value = args[key];
      const schema = properties[key];
      if (value === undefined || value === null) filters[key] = null;
      else if (typeof value === 'string') filters[key] = value;
      else if (typeof value === 'number' && schema.type === 'integer') filters[key] = countText(value);
      else if (typeof value === 'number' && takesNumber(schema)) filters[key] = String(value);
      else throw invalid(`${key} must be a string or a number, not ${kind(value)}`);
    }
    return { query, filters };
  }

  /** The answer envelope and its summary, or throws the tool's error object. */
  async function find(args) {
    const { query, filters } = readArguments(args);
    let snapshot;
    try {
      snapshot = await site.snapshot();
    } catch (e) {
      throw unavailable(e);
    }
    let answer;
    try {
      answer = await snapshot.composer.query(site.source(snapshot.api), query, filters);
    } catch (e) {
      if (e?.code === 'INVALID_FILTER') throw { code: 'INVALID_FILTER', message: e.message };
      throw {
        code: 'SOURCE_UNAVAILABLE',
        message: `the composer of ${snapshot.api} failed: ${e?.message ?? e}`,
        fix: 'pass --date for another snapshot, or update the package (npx -y x402dir-mcp@latest)',
      };
    }
    if (answer?.error) {
      const error = { ...answer.error };
      if (error.code === 'SOURCE_UNAVAILABLE' && !error.message.includes(snapshot.api)) {
        error.message = `${error.message} (${snapshot.api})`;
      }
      throw error;
    }
    // A filter this package describes that the snapshot's composer (an older method) does
    // not know would be left out of the answer without a word: the answer states every
    // filter it applied, so one set here and missing there is refused instead.
    const applied = answer?.meta?.query?.filters ?? {};
    const ignored = Object.keys(filters).find((k) => filters[k] !== null && filters[k] !== false && !Object.hasOwn(applied, k));
    if (ignored !== undefined) {
      throw {
        code: 'INVALID_FILTER',
        message: `the filter ${ignored} is not part of method ${answer.meta.method?.version} of snapshot ${snapshot.date}, so it cannot be applied`,
        fix: `leave out ${ignored}, or pass --date for a snapshot whose method has it`,
      };
    }
    return { envelope: answer, summary: summary(answer, spec.summary_rows) };
  }

  async function call(params, version) {
    const name = isObject(params) ? params.name : undefined;
    if (typeof name === 'string' && name !== tool.name) {
      throw new RpcError(INVALID_PARAMS, `unknown tool ${quoted(name)}; the one tool is ${tool.name}`);
    }
    if (name !== undefined && typeof name !== 'string') {
      throw new RpcError(INVALID_PARAMS, `the tool's name (params.name) must be a string; the one tool is ${tool.name}`);
    }
    if (name === undefined) {
      throw new RpcError(INVALID_PARAMS, `no tool named: params.name is missing; the one tool is ${tool.name}`);
    }
    let args = params.arguments;
    if (args === undefined || args === null) args = {};
    else if (!isObject(args)) throw new RpcError(INVALID_PARAMS, 'arguments must be an object');
    try {
      const { envelope, summary: text } = await find(args);
      return {
        content: [{ type: 'text', text: version === spec.text_only_version ? JSON.stringify(envelope) : text }],
        structuredContent: envelope,
        isError: false,
      };
    } catch (error) {
      if (error instanceof Error) throw error;
      return { content: [{ type: 'text', text: JSON.stringify({ error }) }], isError: true };
    }
  }

  async function dispatch(method, params = {}) {
    const era = eraOf(params);
    let result;
    if (method === 'initialize') result = initialize(params);
    else if (method === 'server/discover') result = structuredClone(spec.discover);
    else if (method === 'ping' && era.legacy) result = {};
    else if (method === 'tools/list') result = { tools: [tool] };
    else if (method === 'tools/call') result = await call(params, era.modern ? spec.modern_versions[0] : era.legacy);
    else throw new RpcError(METHOD_NOT_FOUND, `no method ${quoted(method)}`);
    if (era.modern && isObject(result)) {
      result.resultType = 'complete';
      result._meta = { [spec.server_info_key]: spec.server_info };
      if (method === 'server/discover' || method === 'tools/list') {
        result.ttlMs = spec.cache_ttl_ms;
        result.cacheScope = 'public';
      }
    }
    return result;
  }

  return { dispatch };
}

/** A failure to reach the snapshot as the tool's SOURCE_UNAVAILABLE error object. */
function unavailable(e) {
  if (e instanceof Unavailable) return { code: 'SOURCE_UNAVAILABLE', message: e.message, fix: e.fix };
  return {
    code: 'SOURCE_UNAVAILABLE',
    message: `could not read the snapshot (${e?.message ?? e})`,
    fix: 'check the connection and --site, then retry',
  };
}

/**
 * The text block of an answer, as crates/mcp's summary(): counts, the rule, the snapshot,
 * the first `rows` rows by URL and price, and where the rest is. Descriptions are left out.
 */
export function summary(answer, rows) {
  const m = answer.meta;
  const offset = m.query.filters.offset;
  let out =
    `${m.total_matched} resources matched; ${m.returned} returned${offset > 0 ? ` from result ${offset + 1}` : ''}. ` +
    `Snapshot ${m.snapshot.date}, method ${m.method.version}.\nRule: ${clip(m.query.rule, 600)}\n`;
  answer.data.slice(0, rows).forEach((row, i) => {
    out += `${offset + i + 1}. ${clip(row.resource, 160)}`;
    if (typeof row.service_name === 'string') out += ` (${JSON.stringify(clip(row.service_name, 60))})`;
    out += row.min_price_usd !== null && row.min_price_usd !== undefined
      ? `: from ${row.min_price_usd} USD per call`
      : ': no USD-stablecoin price';
    if (Number.isInteger(row.unique_payers_30d) && Number.isInteger(row.calls_30d)) {
      out += `; ${row.unique_payers_30d} payers, ${row.calls_30d} calls in 30 days`;
    }
    out += '\n';
  });
  if (answer.data.length > rows) out += `…and ${answer.data.length - rows} more rows.\n`;
  out +=
    'The full answer (every row with prices per network and where each is paid to, the request to send, ' +
    "figures, description or why it is withheld; the source's limits) is the JSON envelope in structuredContent, " +
    "described by the tool's outputSchema.";
  return out;
}
