// The calls both TypeScript SDKs make (tests/mcp/calls.json), reported as one JSON object
// for tests/it/mcp_sdks.rs to check. JavaScript numbers cannot tell 3.0 from 3, so here
// `limit_float` sends 3; the Python client sends 3.0 itself.
import { readFileSync } from 'node:fs';

const CALLS = JSON.parse(readFileSync(new URL('./calls.json', import.meta.url), 'utf8'));
const TOOL = 'find_x402_resource';

function callReport(result) {
  return {
    isError: Boolean(result.isError),
    text: result.content.filter((c) => c.type === 'text').map((c) => c.text),
    structuredContent: result.structuredContent ?? null,
  };
}

export async function exercise(client) {
  const report = {
    protocolVersion: client.getNegotiatedProtocolVersion?.() ?? null,
    serverName: client.getServerVersion()?.name ?? null,
  };
  report.tools = (await client.listTools()).tools;
  report.calls = {};
  for (const [key, args] of Object.entries(CALLS)) {
    report.calls[key] = callReport(await client.callTool({ name: TOOL, arguments: args }));
  }
  try {
    report.unknown_tool = { result: callReport(await client.callTool({ name: 'nope', arguments: { query: 'weather' } })) };
  } catch (e) {
    report.unknown_tool = { code: e.code ?? null, message: e.message };
  }
  return report;
}

// X402DIR_MCP_SERVER, a JSON list (command, then arguments), starts another server in its
// place: the npm package x402dir-mcp (tests/it/mcp_npm.rs).
export function serverParams(binary, snapshot) {
  const other = process.env.X402DIR_MCP_SERVER;
  if (other) {
    const [command, ...args] = JSON.parse(other);
    return { command, args };
  }
  return { command: binary, args: ['mcp', '--snapshot', snapshot] };
}
