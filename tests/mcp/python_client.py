"""`x402dir mcp` driven by the official Python SDK (PyPI `mcp`), as an agent developer
would use it. Run by tests/it/mcp_sdks.rs, which installs the SDK in a venv and checks
what this prints (one JSON object) against `x402dir query --json`.

    python_client.py MODE BINARY SNAPSHOT

MODE is `auto` (the SDK's default: probes server/discover, so 2026-07-28), `2026-07-28`
(the SDK's modern pin, no probe), or a handshake revision (2025-11-25, 2025-06-18,
2025-03-26). The SDK's `Client` offers only its newest handshake revision, so a pinned
older one is negotiated with the SDK's own session: an `initialize` naming it, then
`adopt()` as `Client` does.
"""

import asyncio
import json
import os
import pathlib
import sys

import mcp_types as types
from mcp import Client
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client
from mcp.shared.exceptions import MCPError

TOOL = "find_x402_resource"
# The calls every SDK makes (json keeps 3.0 a float, as it is sent); tests/it/mcp_sdks.rs
# holds the expected answers.
CALLS = json.loads((pathlib.Path(__file__).parent / "calls.json").read_text())


def call_report(result):
    text = [c.text for c in result.content if isinstance(c, types.TextContent)]
    return {"isError": bool(result.is_error), "text": text, "structuredContent": result.structured_content}


async def exercise(session, protocol_version, server_name):
    report = {"protocolVersion": protocol_version, "serverName": server_name}
    listed = await session.list_tools()
    report["tools"] = [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in listed.tools]
    report["calls"] = {}
    for key, arguments in CALLS.items():
        report["calls"][key] = call_report(await session.call_tool(TOOL, arguments))
    try:
        result = await session.call_tool("nope", {"query": "weather"})
        report["unknown_tool"] = {"result": call_report(result)}
    except MCPError as e:
        report["unknown_tool"] = {"code": e.code, "message": e.error.message}
    return report


async def main(mode, binary, snapshot):
    server = StdioServerParameters(command=binary, args=["mcp", "--snapshot", snapshot])
    # X402DIR_MCP_SERVER, a JSON list (command, then arguments), starts another server in
    # its place: the npm package x402dir-mcp (tests/it/mcp_npm.rs).
    if os.environ.get("X402DIR_MCP_SERVER"):
        command, *args = json.loads(os.environ["X402DIR_MCP_SERVER"])
        server = StdioServerParameters(command=command, args=args)
    if mode in ("auto", "2026-07-28"):
        async with Client(server, mode=mode) as client:
            info = client.server_info
            return await exercise(client, client.protocol_version, info.name if info else None)
    async with stdio_client(server) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.send_request(
                types.InitializeRequest(
                    params=types.InitializeRequestParams(
                        protocol_version=mode,
                        capabilities=types.ClientCapabilities(),
                        client_info=types.Implementation(name="x402dir-sdk-test", version="0"),
                    )
                ),
                types.InitializeResult,
            )
            session.adopt(init)
            await session.send_notification(types.InitializedNotification())
            return await exercise(session, session.protocol_version, init.server_info.name)


if __name__ == "__main__":
    print(json.dumps(asyncio.run(main(*sys.argv[1:4]))))
