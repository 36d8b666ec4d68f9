// `x402dir mcp` driven by npm's @modelcontextprotocol/client 2.x (the client the
// Inspector 2.x uses), over its stdio transport. Run by tests/it/mcp_sdks.rs:
//
//     node ts_client.mjs MODE BINARY SNAPSHOT
//
// MODE is the client's versionNegotiation mode: `auto` (probes server/discover, so
// 2026-07-28), `pin` (2026-07-28, no fallback) or `legacy` (the initialize handshake).
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

import { exercise, serverParams } from './exercise.mjs';

const [mode, binary, snapshot] = process.argv.slice(2);
const negotiation = mode === 'pin' ? { pin: '2026-07-28' } : mode;
const client = new Client({ name: 'x402dir-sdk-test', version: '0' }, { versionNegotiation: { mode: negotiation } });
await client.connect(new StdioClientTransport(serverParams(binary, snapshot)));
const report = await exercise(client);
report.era = client.getProtocolEra();
await client.close();
console.log(JSON.stringify(report));
