"""What a third walk through the window by keyboard found: picking the only filtered tool with Down or Enter,
Tab through a form in the order it reads (an array's items before its "Add item", a date's "Today" after
the fields), and the sampling log's durations written as every other duration."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from tests.support.mcp_inspector import activate, inspector
from tests.support.windows import plain_window
from workbench.core.protocols.base import ContentPart, InputRequest, SamplingMessage, SamplingRequest
from workbench.core.sampling.responders import SamplingPolicy
from workbench.core.sampling.service import SamplingChoice
from workbench.core.timefmt import duration_text
from workbench.demo.a2a_agents.travel import TRIP_SCHEMA
from workbench.ui.dialog_rules import present
from workbench.ui.dialogs.input_required import InputRequiredDialog

WAIT = 10.0


def _focus() -> QWidget:
    widget = QApplication.focusWidget()
    assert widget is not None
    return widget


def _tab() -> QWidget:
    """Press Tab where the focus is; the widget that has the focus afterwards."""
    QTest.keyClick(_focus(), Qt.Key.Key_Tab)
    return _focus()


def _inside(widget: QWidget, owner: QWidget | None) -> bool:
    return owner is not None and (widget is owner or owner.isAncestorOf(widget))


@pytest.mark.asyncio
@pytest.mark.parametrize("key", [Qt.Key.Key_Down, Qt.Key.Key_Return])
async def test_down_or_enter_on_the_only_tool_the_filter_left_opens_it(qtbot, tmp_path: Path, key: Qt.Key) -> None:
    async with inspector(tmp_path, qtbot) as it:
        await activate(it)
        tools = it.widget.tools
        qtbot.mouseClick(tools.list.filter_edit, Qt.MouseButton.LeftButton)
        qtbot.keyClicks(tools.list.filter_edit, "plan_trip")
        assert tools.list.model.visible_keys() == ["plan_trip"]
        assert _tab() is tools.list.view  # the only row is current (drawn so), not yet picked
        QTest.keyClick(tools.list.view, key)
        assert tools.list.current_key == "plan_trip"
        assert tools.detail.call.form is not None


@pytest.mark.asyncio
async def test_tab_in_a_tool_form_visits_an_arrays_items_before_its_add_item_button(qtbot, tmp_path: Path) -> None:
    async with inspector(tmp_path, qtbot) as it:
        await activate(it)
        tools = it.widget.tools
        assert tools.select_tool("plan_trip")
        QApplication.processEvents()
        form = tools.detail.call.form
        assert form is not None
        end = form.field("dates", "end")
        travellers = form.field("travellers")
        assert end is not None and travellers is not None
        first_input = next(w for w in end.findChildren(QWidget) if w.focusPolicy() & Qt.FocusPolicy.TabFocus)
        first_input.setFocus(Qt.FocusReason.TabFocusReason)
        assert _inside(_tab(), form.field("travellers", 0, "name"))  # the traveller's name, not "Add item"
        assert _inside(_tab(), form.field("travellers", 0, "age"))
        assert _inside(_tab(), form.field("travellers", 0, "email"))
        assert _inside(_tab(), form.field("travellers", 0, "seat"))
        add = travellers.add_button  # type: ignore[attr-defined]
        assert _tab() is add  # after the item it adds to
        QTest.keyClick(add, Qt.Key.Key_Space)  # a second traveller, by keyboard
        QApplication.processEvents()
        assert form.field("travellers", 1, "name") is not None
        seat = form.field("travellers", 0, "seat")
        assert seat is not None
        next(w for w in seat.findChildren(QWidget) if w.focusPolicy() & Qt.FocusPolicy.TabFocus).setFocus(
            Qt.FocusReason.TabFocusReason
        )
        assert _inside(_tab(), form.field("travellers", 1, "name"))  # the new item sits where it is drawn


def test_tab_in_an_input_form_dialog_goes_from_a_date_to_the_next_field_not_its_today_button(qtbot) -> None:
    dialog = InputRequiredDialog(InputRequest("input", "When?", task_id="t-1", context_id="c-1", schema=TRIP_SCHEMA))
    qtbot.addWidget(dialog)
    present(dialog)
    qtbot.waitUntil(dialog.isActiveWindow, timeout=int(WAIT * 1000))
    form = dialog.form
    assert form is not None
    assert _inside(_focus(), form.field("departure_date"))
    assert _inside(_tab(), form.field("return_date"))
    assert _inside(_tab(), form.field("travellers"))
    dialog.reject()


def _request() -> SamplingRequest:
    return SamplingRequest(
        messages=[SamplingMessage("user", [ContentPart("text", text="hi")])], max_tokens=20, agent="demo"
    )


@pytest.mark.asyncio
async def test_the_status_bar_writes_a_sampling_answers_duration_as_every_panel_does(qtbot, tmp_path: Path) -> None:
    script = tmp_path / "canned.json"
    script.write_text('{"model": "canned", "rules": [{"reply": "a canned reply"}]}', encoding="utf-8")
    async with plain_window(tmp_path / "config", qtbot) as window:
        service = window.ctx.services.sampling
        assert service is not None
        service.set_choice("demo", SamplingChoice(f"script:{script}", SamplingPolicy.AUTO))
        with qtbot.waitSignal(window.ctx.bridge.sampling_answered, timeout=int(WAIT * 1000)) as logged:
            await asyncio.wait_for(service(_request()), WAIT)
        (event,) = logged.args
        message: Any = window.statusBar().currentMessage()
        assert f"in {duration_text(event.entry.seconds)}" in message, message
