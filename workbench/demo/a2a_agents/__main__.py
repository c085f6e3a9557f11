"""Command line: `python -m workbench.demo.a2a_agents [--mcp-url URL] [--chunk-delay S]` serves the demo agents.

Prints one `LISTENING <name> <url>` line per agent, then serves until SIGINT/SIGTERM.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from workbench.core.serving import stop_on_signals
from workbench.demo.a2a_agents.launch import run_demo_agents


def _parse(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m workbench.demo.a2a_agents", description=__doc__)
    parser.add_argument("--mcp-url", help="Streamable HTTP URL of the MCP server the proxy calls (id 'demo')")
    parser.add_argument("--chunk-delay", type=float, default=0.3, help="seconds between streamed chunks")
    return parser.parse_args(argv)


async def _serve(args: argparse.Namespace) -> None:
    stop = asyncio.Event()
    targets = {"demo": args.mcp_url} if args.mcp_url else None
    with stop_on_signals(stop):
        async with run_demo_agents(mcp_targets=targets, chunk_delay=args.chunk_delay) as urls:
            for name, url in urls.items():
                print(f"LISTENING {name} {url}", flush=True)
            await stop.wait()


def main(argv: list[str] | None = None) -> int:
    """Serve the demo A2A agents until interrupted; returns the exit code."""
    asyncio.run(_serve(_parse(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
