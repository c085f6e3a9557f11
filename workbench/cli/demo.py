"""``workbench demo``: start the bundled demo agents; headless prints them and serves until stopped."""

from __future__ import annotations

import asyncio
import json
import sys
from collections.abc import Mapping

from workbench.cli.options import DemoOptions


def run_demo(options: DemoOptions) -> int:
    """Run the demo; returns the exit code."""
    if options.scenario:
        return _run_scenario(options)
    base_port = options.base_port
    if not options.headless:
        if base_port is not None:
            print("error: --base-port goes with --headless (the window serves the default ports)", file=sys.stderr)
            return 2
        from workbench.cli.window import open_window

        return open_window(options.window, demo=True)
    from workbench.demo.launcher import DEMO_BASE_PORT, demo_ports

    try:
        ports = demo_ports(DEMO_BASE_PORT if base_port is None else base_port)
    except ValueError as exc:
        print(f"error: --base-port: {exc}", file=sys.stderr)
        return 2
    return asyncio.run(_serve_headless(as_json=options.json, ports=ports))


async def _serve_headless(*, as_json: bool, ports: Mapping[str, int]) -> int:
    from workbench.core.serving import stop_on_signals
    from workbench.demo.launcher import run_demo as start_demo_agents

    stop = asyncio.Event()
    with stop_on_signals(stop):
        async with start_demo_agents(ports=ports) as agents:
            for agent in agents:
                if as_json:
                    entry: dict[str, object] = {"name": agent.name, "protocol": agent.protocol, "target": agent.target}
                    if agent.fell_back:  # its default port was taken
                        entry["default_port"] = agent.wanted_port
                    print(json.dumps(entry))
                else:
                    print(agent.line())
            sys.stdout.flush()
            for agent in agents:  # a taken port: the agent listens elsewhere this time, say where and why
                if agent.fell_back:
                    print(f"note: {agent.fallback_note}", file=sys.stderr, flush=True)
            if not as_json:
                print("serving on 127.0.0.1; Ctrl-C to stop", file=sys.stderr, flush=True)
            await stop.wait()
    print("stopped", file=sys.stderr, flush=True)
    return 0


def _run_scenario(options: DemoOptions) -> int:
    """``workbench demo --scenario NAME``: run a bundled scenario in the window, or headless with scripted answers."""
    from workbench.demo.scenarios import SCENARIOS

    if options.scenario not in SCENARIOS:
        known = ", ".join(SCENARIOS)
        print(f"error: unknown scenario {options.scenario!r} (known: {known})", file=sys.stderr)
        return 2
    if not options.headless:
        from workbench.cli.window import open_window

        return open_window(options.window, demo=True, scenario=options.scenario)
    return asyncio.run(_run_handoff_headless(as_json=options.json))


async def _run_handoff_headless(*, as_json: bool) -> int:
    """Run the handoff scenario with scripted answers (approvals auto); print each hop, then the answer."""
    from workbench.core.errors import WorkbenchError
    from workbench.core.handoff.events import HandoffEvent
    from workbench.core.handoff.recording import final_line
    from workbench.demo.scenarios.handoff import build_router, run_scenario, serve_handoff_agents

    def show(event: HandoffEvent) -> None:
        print(json.dumps(event.to_dict(), ensure_ascii=False) if as_json else chain_line(event), flush=True)

    async with serve_handoff_agents() as scenario:
        router = build_router(scenario, on_event=show)
        try:
            result = await run_scenario(router, scenario.question)
        except WorkbenchError as exc:
            if as_json:
                print(json.dumps({"type": "error", "error": exc.to_dict()}), flush=True)
            print(f"error: {exc}", file=sys.stderr)
            return 1
        finally:
            await router.aclose()
    final = final_line(result.text, chain_id=router.last_chain_id, state=result.state, data=result.structured)
    if as_json:
        print(json.dumps(final, ensure_ascii=False), flush=True)
    else:
        print(f"\nAnswer ({result.state}):\n{result.text}", flush=True)
    return 0 if result.state == "completed" and not result.is_error else 1


def chain_line(event: object) -> str:
    """One readable line for a handoff event, indented by its depth in the chain."""
    from workbench.core.handoff.events import HandoffEvent, HopState

    assert isinstance(event, HandoffEvent)
    indent = "  " * (int(event.detail.get("depth", 1)) - 1)
    kind = event.kind.value
    summary = event.summary
    if event.state is HopState.PENDING:
        text = f"{event.source} ? {event.target}  [{kind}] awaiting approval: {summary}"
    elif event.state is HopState.WORKING:
        text = f"{event.source} → {event.target}  [{kind}] {summary}"
    elif event.state is HopState.WAITING_FOR_USER:
        text = f"{event.source} → user  [{kind}] waiting: {summary}"
    else:
        text = f"{event.target} ⇢ {event.source}  [{kind}] {event.state.value}: {summary}"
    return indent + text
