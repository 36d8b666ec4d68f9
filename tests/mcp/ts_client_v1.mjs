// `x402dir mcp` driven by npm's @modelcontextprotocol/sdk 1.x, over its stdio transport,
// as it ships (the initialize handshake at its newest revision). Run by
// tests/it/mcp_sdks.rs:
//
//     node ts_client_v1.mjs BINARY SNAPSHOT
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { exercise, serverParams } from './exercise.mjs';

const [binary, snapshot] = process.argv.slice(2);
const client = new Client({ name: 'x402dir-sdk-test', version: '0' });
const transport = new StdioClientTransport(serverParams(binary, snapshot));
// 1.x keeps the agreed version to itself; it hands it to the transport, so read it there.
let negotiated = null;
transport.setProtocolVersion = (version) => {
  negotiated = version;
};
await client.connect(transport);
const report = await exercise(client);
report.protocolVersion = negotiated;
await client.close();
console.log(JSON.stringify(report));
