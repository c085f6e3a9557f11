"""Take the README's screenshots of the real window on the demo agents (run under Xvfb, 1400x900).

    xvfb-run -a -s "-screen 0 1400x900x24" .venv/bin/python tools/screenshots.py docs/screenshots

Drives the window the way a person would (select, fill a form, send), waits on the app's own
signals, and grabs the whole X screen so dialogs are in the picture.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path
from typing import Any

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QApplication

from workbench.app import GuiOptions, run_gui
from workbench.ui.asyncutil import wait_signal

OUT = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
WAIT = 30.0


async def settle() -> None:
    """Let queued repaints land (a screenshot tool, not a test: a short pause is fine here)."""
    await asyncio.sleep(0.6)


def shot(name: str) -> None:
    path = OUT / name
    QGuiApplication.primaryScreen().grabWindow(0).save(str(path))
    print(f"saved {path}", flush=True)


async def tour(window: Any) -> None:
    ctx = window.ctx
    # 1. MCP over stdio: a tool called through its form, the result, the wire log
    ctx.selection.select("demo-mcp-stdio")
    await settle()
    inspector = window.inspector.inspector("mcp")
    inspector.tabs.setCurrentWidget(inspector.tools)
    assert inspector.tools.select_tool("plan_trip")
    call = inspector.tools.detail.call
    finished = asyncio.ensure_future(wait_signal(inspector.vm.calls.finished, WAIT))
    call.form.set_value(
        {
            "destination": "Lisbon",
            "dates": {"start": "2026-12-04", "end": "2026-12-06"},
            "travellers": [{"name": "Ada Lovelace", "age": 36, "email": "ada@example.com"}],
            "cabin": "business",
            "budget_eur": 1800,
        }
    )
    call.call_button.click()
    await finished
    window.wire_log.focus_filter()
    await settle()
    shot("window-mcp-tool-call.png")

    # 2. an MCP elicitation answered in its form dialog
    shown = asyncio.ensure_future(wait_signal(window.prompts.prompt_shown, WAIT))
    assert inspector.tools.select_tool("book_table")
    finished = asyncio.ensure_future(wait_signal(inspector.vm.calls.finished, WAIT))
    inspector.tools.detail.call.call_button.click()
    (dialog,) = await shown
    dialog.form.set_value({"name": "Ada", "email": "ada@example.com", "party_size": 2})
    await settle()
    shot("dialog-elicitation.png")
    dialog.accept_button.click()
    await finished

    # 3. A2A: the travel planner streams, asks for the trip details in a form, then answers
    ctx.selection.select("demo-travel")
    await settle()
    chat = window.chat
    shown = asyncio.ensure_future(wait_signal(window.prompts.prompt_shown, WAIT))
    turn = asyncio.ensure_future(wait_signal(chat.viewmodel.turn_finished, WAIT))
    chat.input.setPlainText("Plan a weekend in Lisbon for two")
    chat.send_button.click()
    (dialog,) = await shown
    dialog.form.set_value(
        {"departure_date": "2026-12-04", "return_date": "2026-12-06", "travellers": 2, "cabin_class": "business"}
    )
    await settle()
    shot("dialog-input-required.png")
    dialog.send_button.click()
    await turn
    await settle()
    shot("window-a2a-chat.png")


async def handoff_tour(window: Any) -> None:
    """The handoff scenario: approve each hop, fill the booking form, shoot the finished chain."""
    from workbench.demo.scenarios.handoff import SCRIPTED_TRAVELLER
    from workbench.ui.dialogs.handoff_approval import HandoffApprovalDialog
    from workbench.ui.dialogs.input_required import InputRequiredDialog

    shot_approval = shot_form = False
    task = window.scenario_task
    while not task.done():
        shown = asyncio.ensure_future(wait_signal(window.prompts.prompt_shown, WAIT))
        done, _ = await asyncio.wait({shown, task}, return_when=asyncio.FIRST_COMPLETED)
        if shown not in done:
            shown.cancel()
            break
        (dialog,) = shown.result()
        await settle()
        if isinstance(dialog, HandoffApprovalDialog):
            if not shot_approval:
                shot("dialog-handoff-approval.png")
                shot_approval = True
            dialog.approve_button.click()
        elif isinstance(dialog, InputRequiredDialog):
            if dialog.form is not None:
                dialog.form.set_value(SCRIPTED_TRAVELLER)
                await settle()
            if not shot_form:
                shot("handoff-waiting-for-user.png")
                shot_form = True
            dialog.send_button.click()
    await task
    await settle()
    boxes = [w for w in QApplication.topLevelWidgets() if w.objectName() == "scenarioResultBox"]
    for box in boxes:
        box.close()
    window.handoffs.zoom_fit()
    await settle()
    shot("window-handoff.png")


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as config:
        code = run_gui(GuiOptions(demo=True, config_dir=config, ready_hook=_run_and_close))
    with tempfile.TemporaryDirectory() as config:
        return code or run_gui(
            GuiOptions(demo=True, scenario="handoff", config_dir=config, ready_hook=_handoff_and_close)
        )


async def _handoff_and_close(window: Any) -> None:
    try:
        await handoff_tour(window)
    finally:
        window.close()


async def _run_and_close(window: Any) -> None:
    try:
        await tour(window)
    finally:
        window.close()


if __name__ == "__main__":
    sys.exit(main())
