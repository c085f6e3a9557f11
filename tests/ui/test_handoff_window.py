"""The handoff scenario in the real window: approvals and the traveller form answered by the user,
the chain drawn live in the handoff view, clicking a hop selects its wire records."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from workbench.app import Workbench, build_workbench
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.handoff.events import USER, HandoffEvent, HopKind, HopState
from workbench.demo.scenarios.handoff import SCRIPTED_TRAVELLER, serve_handoff_agents
from workbench.ui.asyncutil import wait_signal
from workbench.ui.demo_session import run_handoff_in_window
from workbench.ui.dialogs.handoff_approval import HandoffApprovalDialog
from workbench.ui.dialogs.input_required import InputRequiredDialog

WAIT = 30.0


async def _answer_prompts(window: Any, task: asyncio.Task[None], *, deny_first: bool = False) -> list[str]:
    """Act as the user until the scenario ends: approve (or deny the first) handoff, fill the form."""
    seen: list[str] = []
    while not task.done():
        shown = asyncio.ensure_future(wait_signal(window.prompts.prompt_shown, WAIT))
        done, _ = await asyncio.wait({shown, task}, return_when=asyncio.FIRST_COMPLETED)
        if shown not in done:
            shown.cancel()
            break
        (dialog,) = shown.result()
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
    qtbot: Any, config_dir: Path, *, deny_first: bool = False
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
            task = asyncio.ensure_future(run_handoff_in_window(window, scenario))
            seen = await asyncio.wait_for(_answer_prompts(window, task, deny_first=deny_first), WAIT * 2)
    finally:
        done = asyncio.ensure_future(wait_signal(window.shutdown_finished, WAIT))
        window.close()
        await done
    return bench, events, seen


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
