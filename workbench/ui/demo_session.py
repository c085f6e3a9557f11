"""The window's demo session: the bundled demo agents and the live handoff scenario.

``run_window`` (the composition root in ``workbench.app``) starts them after the first paint:
``demo_agents`` / ``connect_demo`` list and connect the demo agents; ``scenario_agents`` /
``run_handoff_in_window`` serve the handoff scenario's agents and run it with the user approving.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from workbench.core.errors import WorkbenchError
from workbench.core.profiles import A2AProfile, MCPHTTPProfile
from workbench.demo.profiles import demo_profiles

if TYPE_CHECKING:
    from workbench.demo.launcher import DemoAgent
    from workbench.ui.mainwindow import MainWindow


@contextlib.asynccontextmanager
async def scenario_agents() -> AsyncIterator[Any]:
    """Serve the handoff scenario's agents until the block ends; yields the scenario."""
    from workbench.demo.scenarios.handoff import serve_handoff_agents

    async with serve_handoff_agents() as scenario:
        yield scenario


async def run_handoff_in_window(window: MainWindow, scenario: Any) -> None:
    """Run the handoff scenario live in the window: approvals and the traveller form are the user's.

    The chain is drawn in the handoff view as it happens; the scenario's agents are listed in the
    sidebar (not saved; connect one to inspect its card or tools); the final answer ends up in the
    status bar and in a note beside the diagram.
    """
    from workbench.demo.scenarios.handoff import build_router, run_scenario

    ctx = window.ctx
    for name, protocol, url in scenario.agents():
        kind = A2AProfile(id=f"scenario-{name}", name=f"{name} (scenario)", url=url) if protocol == "a2a" else None
        profile = kind or MCPHTTPProfile(id=f"scenario-{name}", name=f"{name} (scenario)", url=url)
        window.sidebar.viewmodel.add(profile, persist=False)
    window.show_handoffs()
    router = build_router(
        scenario,
        bus=ctx.services.bus,
        wire=ctx.services.wire,
        approval=window.prompts.decide_handoff,
        user_input=window.prompts.answer_input,
    )
    try:
        result = await run_scenario(router, scenario.question)
        window.show_scenario_result(result.text, failed=result.state != "completed")
    except WorkbenchError as exc:
        ctx.errors.report(exc, "running the handoff scenario")
    finally:
        await router.aclose()


@contextlib.asynccontextmanager
async def demo_agents() -> AsyncIterator[list[DemoAgent]]:
    """Serve the bundled demo agents until the block ends; yields them."""
    from workbench.demo.launcher import run_demo

    async with run_demo() as agents:
        yield agents


async def connect_demo(window: MainWindow, agents: list[DemoAgent]) -> None:
    """Add the running demo agents to the sidebar (not saved) and connect them all at once."""
    profiles = demo_profiles(agents)
    tasks = [t for t in (window.sidebar.add_transient(p, persist=False) for p in profiles) if t is not None]
    if window.ctx.selection.current is None and profiles:
        window.ctx.selection.select(profiles[0].id)
    await asyncio.gather(*tasks, return_exceptions=True)  # failures show in the sidebar
