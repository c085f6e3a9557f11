"""A task's detail lists the states it went through in order, each once, whatever order the reports arrived in.

The peer (tests/servers/a2a_late_snapshot.py) streams what a client sees when a listing overtook the
stream's first event: working, then the opening snapshot (submitted), then the same working report
again, more work, and the question.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.servers.a2a_late_snapshot import STATES, late_snapshot_app
from tests.support.a2a_inspector import BOUND, children, inspector_for
from tests.support.panel_context import make_context
from tests.support.signals import until
from workbench.core.profiles import A2AProfile
from workbench.core.serving import serve_asgi
from workbench.ui.panels.inspector.tasks.eventline import STATUS_HISTORY


@pytest.mark.asyncio
async def test_the_task_detail_lists_states_in_order_once_each_when_the_opening_snapshot_arrives_late(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = make_context(tmp_path)
    async with (
        serve_asgi(late_snapshot_app, "127.0.0.1", 0) as url,
        inspector_for(ctx, qtbot, A2AProfile(id="late", name="late", url=url)) as (widget, agent),
    ):
        result = await asyncio.wait_for(agent.invoke_async("Book a train to Porto"), BOUND)
        assert result.state == "input_required"
        widget.resize(1000, 700)
        widget.show()
        widget.tabs.setCurrentWidget(widget.tasks_widget)
        widget.refresh()
        tasks = widget.tasks_widget
        await until(widget.vm.tasks_changed, lambda: tasks.model.rowCount() == 1)
        first_row = tasks.table.visualRect(tasks.model.index(0, 0)).center()
        QTest.mouseClick(tasks.table.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, first_row)
        await until(widget.vm.task_changed, lambda: bool(tasks.detail_tree.topLevelItemCount()))
        await until(widget.vm.busy_changed, lambda: tasks.busy_label.text() == "")  # Get answered too
        rows = children(tasks.detail_tree, STATUS_HISTORY)
        assert [r.text(0) for r in rows] == [f"{n}. {state}" for n, state in enumerate(STATES, 1)]
        working = rows[1]
        assert working.childCount() == 2  # its two reports, each once, under the one row
        assert "Found 3 trains" in working.text(1)  # the latest report's message
