"""Command line: `python -m workbench.demo.mcp_server [--stdio | --http | --sse] [--host H] [--port P]`."""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

import anyio

from workbench.core.serving import stop_on_signals
from workbench.demo.mcp_server.app import build_server
from workbench.demo.mcp_server.http import HttpTransport, serve_http


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m workbench.demo.mcp_server", description=__doc__)
    mode = parser.add_mutually_exclusive_group()
    parser.set_defaults(mode="stdio")
    mode.add_argument("--stdio", action="store_const", dest="mode", const="stdio", help="stdin/stdout (default)")
    mode.add_argument(
        "--http", action="store_const", dest="mode", const="streamable-http", help="Streamable HTTP at /mcp"
    )
    mode.add_argument("--sse", action="store_const", dest="mode", const="sse", help="legacy HTTP+SSE at /sse")
    parser.add_argument("--host", default="127.0.0.1", help="interface to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=0, help="TCP port; 0 = any free port (default)")
    return parser.parse_args(argv)


async def _serve_http_until_signalled(host: str, port: int, transport: HttpTransport) -> None:
    stop = asyncio.Event()
    with stop_on_signals(stop):
        async with serve_http(host, port, transport=transport, server=build_server()) as url:
            print(f"LISTENING {url}", flush=True)
            await stop.wait()


def main(argv: list[str] | None = None) -> int:
    """Run the demo server until stdin closes (stdio) or SIGINT/SIGTERM arrives (HTTP).

    Args:
        argv: Arguments without the program name; `sys.argv[1:]` when None.

    Returns:
        The process exit code.
    """
    args = _parse(argv)
    if args.mode == "stdio":
        # stdout is the protocol channel; a human-readable line on stderr shows in the wire log and stderr pane
        print(f"workbench-demo: serving MCP on stdio (pid {os.getpid()})", file=sys.stderr, flush=True)
        try:
            anyio.run(build_server().run_stdio_async)
        except KeyboardInterrupt:
            return 130
        return 0
    asyncio.run(_serve_http_until_signalled(args.host, args.port, args.mode))
    return 0


if __name__ == "__main__":
    sys.exit(main())
