"""Hints read as sentences wherever the window shows them: a capital letter at the start and after every full
stop, a full stop at the end; a form's problems start with a capital letter on the line they start."""

from __future__ import annotations

import asyncio
import re
import socket
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from tests.support.chat_drawing import drawn_text
from tests.support.panel_context import make_context
from tests.support.signals import until
from workbench.core.errors import ConnectError
from workbench.core.profiles import A2AProfile
from workbench.demo.a2a_agents import serve_agent, travel_app_factory
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.errors import describe_error, ends_sentence, full_stop, hint_sentence
from workbench.ui.forms.schema_form import SchemaForm
from workbench.ui.panels.chat import ChatWidget
from workbench.ui.panels.inspector.widget import InspectorWidget
from workbench.ui.panels.sidebar.itemmodel import SidebarRole
from workbench.ui.panels.sidebar.widget import SidebarWidget

LOWER_AFTER_STOP = re.compile(r"[.!?]\s+[a-z]")


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.asyncio
async def test_a_failed_chat_turn_shows_its_hint_as_a_sentence(qtbot: Any, tmp_path: Path) -> None:
    ctx = make_context(tmp_path / "config")
    widget = ChatWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(900, 600)
    widget.show()
    try:
        async with serve_agent(travel_app_factory()) as url:
            conn = await asyncio.wait_for(ctx.services.connections.connect(A2AProfile(name="gone", url=url)), 20)
        ctx.selection.select(conn.id)  # the agent has stopped since: sending fails with a hint
        widget.input.setFocus()
        qtbot.keyClicks(widget.input, "Plan a trip")
        qtbot.keyClick(widget.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
        await wait_signal(widget.viewmodel.turn_finished, timeout=20)
        text = drawn_text(widget)
        assert "✖ failed" in text
        assert not LOWER_AFTER_STOP.search(text), text
        hint_line = text.split("✖ failed", 1)[1].splitlines()[1]
        assert hint_line[:1].isupper(), text
    finally:
        await ctx.services.connections.aclose()


def test_every_sentence_of_a_hint_starts_with_a_capital_letter_and_the_hint_ends_with_a_full_stop() -> None:
    view = describe_error(ConnectError("Refused.", hint="check the URL. then start it, e.g. with make run"), "x")
    assert view.hint == "Check the URL. Then start it, e.g. with make run."
    assert describe_error(ConnectError("Refused.", hint="is it running?"), "x").hint == "Is it running?"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("check the URL", "Check the URL."),
        ("check the URL.", "Check the URL."),
        ("or answer in a form…", "Or answer in a form…"),
        ("is it running?", "Is it running?"),
        ("start it!", "Start it!"),
        (
            "install one (Keyring backend: keyring.backends.fail.Keyring.)",
            "Install one (Keyring backend: keyring.backends.fail.Keyring.)",
        ),
        ("it said “done.”", "It said “done.”"),
        ("see the log (at the bottom)", "See the log (at the bottom)."),
        ("trailing space.  ", "Trailing space."),
        ("", ""),
    ],
)
def test_a_hint_already_ending_a_sentence_gets_no_second_full_stop(text: str, shown: str) -> None:
    assert hint_sentence(text) == shown
    assert full_stop(text.strip()) == (shown and text.strip()[:1] + shown[1:])
    assert ends_sentence(shown) == bool(shown)


@pytest.mark.asyncio
async def test_a_failed_connects_hint_is_a_sentence_ending_with_a_full_stop_in_the_workspace_and_the_tooltip(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = make_context(tmp_path / "config")
    sidebar = SidebarWidget(ctx)
    inspector = InspectorWidget(ctx)
    for widget in (sidebar, inspector):
        qtbot.addWidget(widget)
        widget.show()
    inspector.connect_requested.connect(sidebar.viewmodel.connect_profile)  # as the window wires them
    try:
        assert sidebar.viewmodel.add(A2AProfile(id="gone", name="gone", url=f"http://127.0.0.1:{closed_port()}/"))
        ctx.selection.select("gone")
        QTest.mouseClick(inspector.placeholder.connect_button, Qt.MouseButton.LeftButton)
        row = sidebar.model.index(sidebar.model.row_of("gone"))
        await until(sidebar.viewmodel.item_changed, lambda: row.data(SidebarRole.STATE) == "failed")
        hint = inspector.placeholder.hint_label.text()  # the A2A adapter's "check the URL and that the agent …"
        assert hint[:1].isupper() and hint.endswith(".") and not LOWER_AFTER_STOP.search(hint), hint
        (tooltip_hint,) = [line for line in row.data(SidebarRole.TOOLTIP).splitlines() if line.startswith("Hint: ")]
        assert tooltip_hint == f"Hint: {hint}"
    finally:
        await ctx.services.connections.aclose()


def test_a_forms_problems_start_with_a_capital_letter_under_the_field_in_the_list_and_under_the_json(
    qtbot: Any,
) -> None:
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1},
            "code": {"type": "string", "pattern": "^[A-Z]{3}-[0-9]{4}$", "examples": ["ABC-1234"]},
        },
        "required": ["name", "code"],
        "additionalProperties": False,
    }
    form = SchemaForm(schema, show_json=True)
    qtbot.addWidget(form)
    form.resize(700, 500)
    form.show()
    code = form.field("code").editor
    code.setFocus()
    qtbot.keyClicks(code, "abc")
    qtbot.keyClick(code, Qt.Key.Key_Tab)
    form.reveal_errors()  # a submit: every field's problem shows
    assert form.field("name").error_label.text() == "Required"
    assert form.field("code").error_label.text().startswith("Does not have the expected form")
    editor = form.json_editor
    assert editor is not None
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClicks(editor, ",")  # no longer JSON
    assert form.json_error is not None and form.json_error.text().startswith("Invalid JSON at line")
    shown = [label.text() for label in form.findChildren(QLabel) if label.isVisible() and label.text()]
    problems = [text for text in shown if text in (form.json_error.text(), form.errors_label.text())]
    problems += [form.field(name).error_label.text() for name in ("name", "code")]
    for text in problems:
        for line in text.splitlines():
            assert line[:1].isupper() or line[:1].isdigit(), (line, text)


@pytest.mark.parametrize(
    ("kind", "editor", "typed"),
    [("mcp-http", "url_edit", "ftp://example.org"), ("mcp-stdio", "args_edit", "'unclosed")],
)
def test_a_connection_fields_problem_under_it_starts_with_a_capital_letter(qtbot: Any, kind, editor, typed) -> None:
    dialog = ConnectionDialog(None)
    qtbot.addWidget(dialog)
    dialog.set_kind(kind)
    dialog.show()
    qtbot.keyClicks(dialog.name_edit, "n")
    if kind == "mcp-stdio":
        qtbot.keyClicks(dialog.command_edit, "x")
    qtbot.keyClicks(getattr(dialog, editor), typed)
    shown = [label.text() for label in dialog.findChildren(QLabel, "fieldError") if label.isVisible()]
    assert shown and all(text[:1].isupper() for text in shown), shown
