"""Fault server (stdio, MCPServer): tool `crash` writes a line to stderr, then exits with code 3 mid-call (no reply)."""

from __future__ import annotations

import os
import sys

from mcp.server.mcpserver import MCPServer

EXIT_CODE = 3
server = MCPServer("crash-mid-call", version="0.1.0", log_level="WARNING")


@server.tool(description="Return the text unchanged.")
def echo(text: str) -> str:
    return text


@server.tool(description="Kill the server process (exit code 3) while this call is in flight.")
async def crash() -> str:
    print(f"crash_mid_call: exiting with code {EXIT_CODE} mid-call", file=sys.stderr, flush=True)
    os._exit(EXIT_CODE)


if __name__ == "__main__":
    server.run()
