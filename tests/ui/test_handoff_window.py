"""The handoff scenario in the real window: approvals and the traveller form answered by the user,
the chain drawn live in the handoff view, clicking a hop selects its wire records."""

from __future__ import annotations

import asyncio
import contextlib
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.support.demo_mcp import InProcessDemoFactory
from tests.support.signals import wait_until
from workbench.app import Workbench, build_workbench, start_handoff_scenario
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.events import ConnectionState
from workbench.core.handoff.events import USER, HandoffEvent, HopKind, HopState
from workbench.demo.scenarios.handoff import SCRIPTED_TRAVELLER, build_router, run_scenario, serve_handoff_agents
from workbench.ui.asyncutil import wait_signal
from workbench.ui.demo_session import run_handoff_in_window
from workbench.ui.dialogs.handoff_approval import HandoffApprovalDialog
from workbench.ui.dialogs.input_required import InputRequiredDialog
from workbench.ui.panels.handoffs.empty_state import WITH_DEMO, WITHOUT_DEMO

WAIT = 30.0


async def _answer_prompts(
    window: Any,
    task: asyncio.Task[None],
    *,
    deny_first: bool = False,
    on_prompt: Callable[[Any, Any], None] | None = None,
) -> list[str]:
    """Act as the user until the scenario ends: approve (or deny the first) handoff, fill the form.

    ``on_prompt(window, dialog)`` looks at the window each time the user is asked (the chain is mid-run).
    """
    seen: list[str] = []
    while not task.done():
        shown = asyncio.ensure_future(wait_signal(window.prompts.prompt_shown, WAIT))
        done, _ = await asyncio.wait({shown, task}, return_when=asyncio.FIRST_COMPLETED)
        if shown not in done:
            shown.cancel()
            break
        (dialog,) = shown.result()
        if on_prompt is not None:
            on_prompt(window, dialog)
        if isinstance(dialog, HandoffApprovalDialog):
            seen.append("approval")
            (dialog.deny_button if deny_first and seen.count("approval") == 1 else dialog.approve_button).click()
        elif isinstance(dialog, InputRequiredDialog):
            seen.append("form")
            dialog.form.set_value(SCRIPTED_TRAVELLER)
            dialog.send_button.click()
    await task
    return seen


async def _run_in_window(
    qtbot: Any,
    config_dir: Path,
    *,
    deny_first: bool = False,
    on_prompt: Callable[[Any, Any], None] | None = None,
) -> tuple[Workbench, list[HandoffEvent], list[str]]:
    """Run the scenario in a real window with the user answering, then close it.

    Returns:
        The workbench (its window closed), every handoff event published, and what the user was asked.
    """
    bench = build_workbench(config_dir, credentials=MemoryCredentialStore())
    window = bench.window
    qtbot.addWidget(window)
    window.show()
    events: list[HandoffEvent] = []
    bench.ctx.services.bus.subscribe(HandoffEvent, events.append)
    try:
        async with serve_handoff_agents() as scenario:
            run = run_handoff_in_window(window, functools.partial(build_router, scenario), run_scenario)
            task = asyncio.ensure_future(run)
            answering = _answer_prompts(window, task, deny_first=deny_first, on_prompt=on_prompt)
            seen = await asyncio.wait_for(answering, WAIT * 2)
    finally:
        done = asyncio.ensure_future(wait_signal(window.shutdown_finished, WAIT))
        window.close()
        await done
    return bench, events, seen


async def _press(window: Any, key: Qt.Key, modifiers: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    window.activateWindow()
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    await wait_until(window.isActiveWindow, app.focusWindowChanged, WAIT)
    QTest.keyClick(window.windowHandle(), key, modifiers)
    for _ in range(3):
        await asyncio.sleep(0.02)
        QApplication.processEvents()


@pytest.mark.asyncio
async def test_the_empty_handoff_view_says_what_a_handoff_is_and_its_button_runs_the_demo_scenario(qtbot, tmp_path):
    bench = build_workbench(tmp_path / "config", credentials=MemoryCredentialStore())
    window = bench.window
    qtbot.addWidget(window)
    window.resize(1280, 692)
    window.show()
    handoffs, entry = window.handoffs, window.actions_registry.get("demo.handoff_scenario")
    try:
        await _press(window, Qt.Key.Key_4, Qt.KeyboardModifier.ControlModifier)  # View ▸ Handoffs
        assert window.centre_tabs.currentWidget() is handoffs
        empty = handoffs.empty
        assert handoffs.pages.currentWidget() is empty and empty.isVisible()  # not a blank canvas
        assert empty.what.isVisible() and "handoff" in empty.what.text()
        assert empty.how.text() == WITHOUT_DEMO and not empty.run_button.isVisible()  # no demo: the command
        assert not entry.isVisible()

        async with contextlib.AsyncExitStack() as stack:  # as `workbench demo` offers it
            window.offer_handoff_scenario(functools.partial(start_handoff_scenario, window, stack))
            assert empty.how.text() == WITH_DEMO and empty.run_button.isVisible() and empty.run_button.isEnabled()
            view_menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
            assert entry in view_menu.actions() and entry.isVisible() and entry.isEnabled()
            empty.run_button.setFocus()
            QTest.keyClick(empty.run_button, Qt.Key.Key_Space)  # the button, from the keyboard
            run = window.scenario_task
            assert run is not None and not entry.isEnabled() and not empty.run_button.isEnabled()  # once
            seen = await asyncio.wait_for(_answer_prompts(window, run), WAIT * 2)
            assert "form" in seen and window.scenario_result and "Lisbon" in window.scenario_result
            assert handoffs.pages.currentWidget() is not empty and handoffs.view.isVisible()  # the chain drawn
            done = asyncio.ensure_future(wait_signal(window.shutdown_finished, WAIT))
            window.close()
            await done
    finally:
        if window.isVisible():
            done = asyncio.ensure_future(wait_signal(window.shutdown_finished, WAIT))
            window.close()
            await done


@pytest.mark.asyncio
async def test_the_handoff_scenario_runs_live_in_the_window_with_the_user_answering(qtbot, tmp_path):
    bench, events, seen = await _run_in_window(qtbot, tmp_path / "config")
    window = bench.window
    assert "form" in seen and seen.count("approval") >= 3  # who asks whom for what, each time
    assert window.scenario_result and "Lisbon" in window.scenario_result
    assert window.centre_tabs.currentWidget() is window.handoffs
    # the chain: consistent parents, every hop done, both protocols, the user asked once
    started = {}
    for e in events:
        started.setdefault(e.handoff_id, e)
    assert all(e.parent_id is None or e.parent_id in started for e in events)
    final = {e.handoff_id: e.state for e in events}
    assert set(final.values()) == {HopState.DONE}
    kinds = [started[h].kind for h in started]
    assert kinds[0] is HopKind.QUESTION
    assert {HopKind.TOOL_CALL, HopKind.SAMPLING, HopKind.USER_INPUT} <= set(kinds)
    assert {e.protocol for e in events} >= {"mcp", "a2a"}
    # the view drew it: lanes for the user and each agent, arrows in time order
    diagram = window.handoffs.vm.current
    assert diagram is not None
    assert diagram.lanes[0].name == USER
    assert {"orchestrator", "booking", "demo-mcp"} <= {lane.name for lane in diagram.lanes}
    assert len(diagram.arrows) >= 2 * len(started) - 1
    # a hop with wire records selects them in the wire log
    with_wire = next(e for e in events if e.wire_seqs and e.connection_id)
    assert window.wire_log.select_seqs(with_wire.connection_id, *with_wire.wire_seqs)


@pytest.mark.asyncio
async def test_denying_a_handoff_in_the_window_marks_the_hop_and_the_orchestrator_reports_it(qtbot, tmp_path):
    bench, events, _ = await _run_in_window(qtbot, tmp_path / "config", deny_first=True)
    window = bench.window
    assert any(e.state is HopState.DENIED for e in events)
    assert window.scenario_result is not None
    assert "denied" in window.scenario_result.lower() or "refused" in window.scenario_result.lower()


SCENARIO_AGENTS = ("orchestrator", "demo-mcp", "booking", "mcp-proxy")


@pytest.mark.asyncio
async def test_the_scenario_agents_show_connected_and_working_in_the_sidebar_while_the_chain_runs(qtbot, tmp_path):
    rows_seen: list[dict[str, tuple[ConnectionState, str]]] = []
    at_form: dict[str, str] = {}

    def look(window: Any, dialog: Any) -> None:
        items = window.sidebar.viewmodel.items()
        rows_seen.append({i.name: (i.state, i.state_text) for i in items})
        if isinstance(dialog, InputRequiredDialog):
            at_form.update({i.name: i.state_text for i in items})
        window.ctx.selection.select(next(i.id for i in items if i.name == "orchestrator"))

    bench, _, _ = await _run_in_window(qtbot, tmp_path / "config", on_prompt=look)
    assert rows_seen
    for rows in rows_seen:  # every time the user was asked, mid-chain
        assert set(SCENARIO_AGENTS) <= set(rows)
        assert all(rows[name][0] is ConnectionState.CONNECTED for name in SCENARIO_AGENTS), rows
        assert "working" in rows["orchestrator"][1]  # the question to it is still open
    assert at_form["booking"] == "connected · waiting for you…"  # it asked the user for the traveller form
    after = {i.name: i.state_text for i in bench.window.sidebar.viewmodel.items()}
    assert not any("working" in text or "waiting" in text for text in after.values())  # idle once it ended


@pytest.mark.asyncio
async def test_the_next_window_does_not_open_on_a_stale_scenario_agent(qtbot, tmp_path):
    config = tmp_path / "config"
    bench, _, _ = await _run_in_window(
        qtbot, config, on_prompt=lambda w, _d: w.ctx.selection.select(w.sidebar.viewmodel.items()[0].id)
    )
    assert bench.window.ctx.selection.current is not None  # a scenario agent was selected at close
    assert all(not i.persisted for i in bench.window.sidebar.viewmodel.items())  # never saved
    again = build_workbench(config, credentials=MemoryCredentialStore())
    qtbot.addWidget(again.window)
    again.window.restore_selection()
    assert again.window.sidebar.viewmodel.items() == []
    assert again.ctx.selection.current is None
    assert "not connected" not in again.window.inspector.placeholder.title_label.text()
    done = asyncio.ensure_future(wait_signal(again.window.shutdown_finished, WAIT))
    again.window.close()
    await done


@pytest.mark.asyncio
async def test_each_scenario_agent_has_one_name_in_sidebar_wire_log_handoff_view_chat_and_stderr(qtbot, tmp_path):
    seen_titles: dict[str, tuple[str, str, str]] = {}

    def look(window: Any, dialog: Any) -> None:
        for item in window.sidebar.viewmodel.items():
            window.ctx.selection.select(item.id)
            seen_titles[item.name] = (
                window.chat.title.text(),
                window.stderr.title.text(),
                window.wire_log.vm.connection_name(item.id),
            )

    bench, events, _ = await _run_in_window(qtbot, tmp_path / "config", on_prompt=look)
    window = bench.window
    sidebar_names = {i.name for i in window.sidebar.viewmodel.items()}
    lanes = {lane.name for lane in window.handoffs.vm.current.lanes} - {USER}
    assert sidebar_names == set(SCENARIO_AGENTS) == lanes
    for name, (chat, stderr, wire) in seen_titles.items():
        assert (chat, stderr, wire) == (name, f"stderr of {name}", name)
    # the wire log's connection column names every record's connection by its sidebar name
    wire_names = {window.wire_log.vm.connection_name(r.connection_id) for r in bench.ctx.services.wire.records()}
    assert wire_names <= sidebar_names
    # a hop's "Wire" fact names the connection too
    hop_with_wire = next(e for e in events if e.connection_id and e.wire_seqs)
    window.handoffs.vm.set_current(hop_with_wire.chain_id)
    hop = window.handoffs.vm.current.hops[hop_with_wire.handoff_id]
    window.handoffs.on_vm_hop_selected(hop)
    wire_fact = window.handoffs.detail.fact_labels["Wire"].text()
    assert wire_fact.split(" #")[0] in sidebar_names


async def until_refreshed(vm: Any) -> None:
    """Wait (bounded) until the A2A inspector's refresh of the agent's tasks is over."""
    task = vm.refresh()
    if task is not None:
        await asyncio.wait_for(task, WAIT)


async def _demo_window_selection(qtbot: Any, config: Path, select: str | None = None) -> str | None:
    """Open the demo window on ``config`` (as 'workbench demo' does), say what it selected, maybe select, close."""
    from workbench.demo.launcher import EPHEMERAL_PORTS, run_demo
    from workbench.demo.profiles import demo_profiles
    from workbench.ui.demo_session import connect_demo

    async with run_demo(chunk_delay=0.0, ports=EPHEMERAL_PORTS) as agents:
        # the demo server's stdio profile in process: a stdio child costs ~1.7 s of CPU and is not tested here
        bench = build_workbench(config, credentials=MemoryCredentialStore(), agent_factory=InProcessDemoFactory)
        qtbot.addWidget(bench.window)
        bench.window.show()
        try:
            bench.window.restore_selection()  # as run_window does, before the demo agents are listed
            await asyncio.wait_for(connect_demo(bench.window, demo_profiles(agents)), WAIT)
            opened_on = bench.ctx.selection.current
            if select is not None and select != opened_on:
                inspector = bench.window.inspector
                bench.ctx.selection.select(select)
                a2a = inspector.inspector("a2a")
                if a2a is not None and a2a.vm.connection_id == select:  # let its task listing finish first
                    await until_refreshed(a2a.vm)
        finally:
            done = asyncio.ensure_future(wait_signal(bench.window.shutdown_finished, WAIT))
            bench.window.close()
            await done
    return opened_on


@pytest.mark.asyncio
async def test_after_the_scenario_workbench_demo_opens_on_a_demo_agent_and_remembers_the_one_chosen(qtbot, tmp_path):
    config = tmp_path / "config"
    await _run_in_window(
        qtbot, config, on_prompt=lambda w, _d: w.ctx.selection.select(w.sidebar.viewmodel.items()[0].id)
    )
    first = await _demo_window_selection(qtbot, config, select="demo-travel")
    assert first is not None and first.startswith("demo")  # not the scenario agent selected last time
    assert await _demo_window_selection(qtbot, config) == "demo-travel"  # a demo agent's selection is kept
