"""``workbench demo``: start the bundled demo agents; headless prints them and serves until stopped."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys


def run_demo(args: argparse.Namespace) -> int:
    """Run the demo; returns the exit code."""
    if args.scenario:
        print(
            f"error: unknown scenario {args.scenario!r} (scenarios arrive with multi-agent handoffs)", file=sys.stderr
        )
        return 2
    if not args.headless:
        from workbench.cli import open_window

        return open_window(args, demo=True)
    return asyncio.run(_serve_headless(as_json=args.json))


async def _serve_headless(*, as_json: bool) -> int:
    from workbench.core.serving import stop_on_signals
    from workbench.demo.launcher import run_demo as start_demo_agents

    stop = asyncio.Event()
    with stop_on_signals(stop):
        async with start_demo_agents() as agents:
            for agent in agents:
                if as_json:
                    print(json.dumps({"name": agent.name, "protocol": agent.protocol, "target": agent.target}))
                else:
                    print(agent.line())
            sys.stdout.flush()
            if not as_json:
                print("serving on 127.0.0.1; Ctrl-C to stop", file=sys.stderr, flush=True)
            await stop.wait()
    print("stopped", file=sys.stderr, flush=True)
    return 0
