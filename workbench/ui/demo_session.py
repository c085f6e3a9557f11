"""The window's demo session: the bundled demo agents and the live handoff scenario, shown in the window.

``run_window`` (the composition root in ``workbench.app``) serves the agents after the first paint
and hands this module what it needs as plain values: ``connect_demo`` lists and connects the demo
agents' profiles; ``show_port_fallbacks`` says which agents listen elsewhere than usual this time;
``run_handoff_in_window`` runs the handoff scenario with the user approving, through
a router factory and a runner. The demo servers (and with them both protocol SDKs) are never imported
here: the UI package imports no SDK (an import-linter contract in ``pyproject.toml``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from workbench.core.errors import WorkbenchError
from workbench.core.handoff.events import USER, HandoffEvent, HopState
from workbench.core.profiles import A2AProfile, ConnectionProfile, MCPHTTPProfile

if TYPE_CHECKING:
    from workbench.core.events import EventBus
    from workbench.core.handoff.hops import EventCallback
    from workbench.core.handoff.policy import ApprovalHandler
    from workbench.core.handoff.router import HandoffRouter
    from workbench.core.protocols.base import AgentResult, InputHandler
    from workbench.core.protocols.contract import RemoteAgent
    from workbench.core.wire.recorder import WireRecorder
    from workbench.ui.mainwindow import MainWindow
    from workbench.ui.panels.sidebar.viewmodel import SidebarViewModel


class RouterFactory(Protocol):
    """Builds the scenario's router with its agents registered, wired to the window's services."""

    def __call__(
        self,
        *,
        bus: EventBus,
        wire: WireRecorder,
        approval: ApprovalHandler,
        user_input: InputHandler,
        on_event: EventCallback,
        owned: bool,
    ) -> HandoffRouter:
        """A router whose events go to ``bus``/``on_event``, asking ``approval`` and ``user_input``."""
        ...


ScenarioRunner = Callable[["HandoffRouter"], Awaitable["AgentResult"]]
"""Connects the router's agents and runs the scenario's question; returns the final result."""


def scenario_profiles(router: HandoffRouter) -> list[tuple[ConnectionProfile, RemoteAgent]]:
    """A sidebar profile for each of the router's agents, paired with the agent itself.

    One name per agent everywhere: the profile's name is the name the agent has in the chain
    (its lane in the handoff view) and its id is the agent's connection id (its wire records'
    connection), so the sidebar, the inspector, the chat, the stderr tab, the wire log and the
    handoff view all say ``orchestrator``.
    """
    out: list[tuple[ConnectionProfile, RemoteAgent]] = []
    for name, entry in router.agents.items():
        agent = entry.agent
        url = entry.uri or agent.config.url or ""
        pid = agent.connection_id  # handoff-<name>: a valid profile id
        profile: ConnectionProfile
        if agent.protocol == "a2a":
            profile = A2AProfile(id=pid, name=name, url=url)
        else:
            profile = MCPHTTPProfile(id=pid, name=name, url=url)
        out.append((profile, agent))
    return out


class ScenarioActivity:
    """Tells the sidebar which scenario agent is working (or waiting for the user) as hops change.

    An agent is working while a hop asked of it (its target) runs, and waiting for the user while it
    paused for the user or a question it asked the user is open; a hop still waiting for approval
    involves nobody yet.
    """

    def __init__(self, sidebar: SidebarViewModel, profile_ids: dict[str, str]) -> None:
        self._sidebar = sidebar
        self._ids = profile_ids  # agent name -> profile id
        self._open: dict[str, tuple[str, str, HopState]] = {}  # unfinished hop id -> (source, target, state)

    def on_event(self, event: HandoffEvent) -> None:
        """Record one hop's new state and update the rows of the agents it involves."""
        if event.state.finished:
            self._open.pop(event.handoff_id, None)
        else:
            self._open[event.handoff_id] = (event.source, event.target, event.state)
        for name in {event.source, event.target} & self._ids.keys():
            self._sidebar.set_activity(self._ids[name], self.activity(name))

    def activity(self, name: str) -> str:
        """What agent ``name`` is doing now, in words (``""``: idle)."""
        hops = self._open.values()
        if any(
            (dst == name and state is HopState.WAITING_FOR_USER) or (src == name and dst == USER)
            for src, dst, state in hops
        ):
            return "waiting for you…"
        if any(dst == name and state is HopState.WORKING for _, dst, state in hops):
            return "working…"
        return ""

    def clear(self) -> None:
        """The scenario ended: every agent is idle."""
        self._open.clear()
        for pid in self._ids.values():
            self._sidebar.set_activity(pid, "")


async def run_handoff_in_window(window: MainWindow, build_router: RouterFactory, run_scenario: ScenarioRunner) -> None:
    """Run the handoff scenario live in the window: approvals and the traveller form are the user's.

    The chain is drawn in the handoff view as it happens; the scenario's agents are listed in the
    sidebar (not saved), connected through the window's connection manager — the very agents the
    router hands work to, so their rows say ``connected · working…`` while they work and the
    inspector shows them live; the final answer ends up in the status bar and in a note beside the
    diagram.

    Args:
        window: The main window.
        build_router: Builds the scenario's router (the composition root binds it to the served agents).
        run_scenario: Runs the scenario on that router.
    """
    ctx = window.ctx
    sidebar = window.sidebar.viewmodel
    activity: ScenarioActivity | None = None

    def on_event(event: HandoffEvent) -> None:
        if activity is not None:
            activity.on_event(event)

    router = build_router(
        bus=ctx.services.bus,
        wire=ctx.services.wire,
        approval=window.prompts.decide_handoff,
        user_input=window.prompts.answer_input,
        on_event=on_event,
        owned=False,  # the connection manager connects and closes them
    )
    pairs = scenario_profiles(router)
    activity = ScenarioActivity(sidebar, {p.name: p.id for p, _ in pairs})
    connecting = []
    for profile, agent in pairs:
        sidebar.add(profile, persist=False)
        task = sidebar.connect_agent(profile.id, agent)
        if task is not None:
            connecting.append(task)
    window.show_handoffs()
    try:
        await asyncio.gather(*connecting, return_exceptions=True)  # failures show in the sidebar
        result = await run_scenario(router)
        window.show_scenario_result(result.text, failed=result.state != "completed")
    except WorkbenchError as exc:
        ctx.errors.report(exc, "running the handoff scenario")
    finally:
        activity.clear()
        await router.aclose()


async def connect_demo(window: MainWindow, profiles: list[ConnectionProfile]) -> None:
    """Add the running demo agents' profiles to the sidebar (not saved) and connect them all at once."""
    tasks = [t for t in (window.sidebar.add_transient(p, persist=False) for p in profiles) if t is not None]
    if window.ctx.selection.current is None:
        window.restore_selection()  # the demo agent selected last time, now that it is listed
    if window.ctx.selection.current is None and profiles:
        window.ctx.selection.select(profiles[0].id)
    await asyncio.gather(*tasks, return_exceptions=True)  # failures show in the sidebar


def port_fallback_note(moved: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """The status bar's note about demo agents whose usual port was taken, and its details.

    Args:
        moved: Each such agent's name and its own note (a sentence: the port taken, where it listens).

    Returns:
        One short paragraph naming the agents, and their notes one per line (for the tooltip).
    """
    names = [name for name, _ in moved]
    if len(names) == 1:
        line = (
            f"The demo agent {names[0]} moved to another port (its usual one is taken). "
            "Saved connections to the usual port will not reach it this time."
        )
    else:
        line = (
            f"{len(names)} demo agents moved to other ports (theirs are taken): {', '.join(names)}. "
            "Saved connections to the usual ports will not reach them this time."
        )
    return line, "\n".join(note for _, note in moved)


def show_port_fallbacks(window: MainWindow, moved: Sequence[tuple[str, str]]) -> None:
    """Say in the status bar which demo agents listen elsewhere than usual (nothing when none do).

    Args:
        window: The main window.
        moved: Each such agent's name and its own note (``DemoAgent.fallback_note``).
    """
    if moved:
        window.status.show_note(*port_fallback_note(moved))
