"""Wrapped result text breaks lines only at white space: a value ("central-station", a URL) is never split."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication

from tests.support.text_layout import screen_lines
from workbench.core.protocols.base import ToolResult
from workbench.ui.panels.inspector.results import JSONPartView, ToolResultView
from workbench.ui.panels.inspector.results.blobs import pretty_json

VALUE = {"station": "central-station", "url": "https://example.org/trains/central-station?day=2026-05-01"}


def narrow_enough_to_split(view: Any, qtbot: Any) -> None:
    """Make the view just too narrow for the station's line, yet wide enough for its part up to the hyphen."""
    editor = view.editor
    metrics = editor.fontMetrics()
    wanted = metrics.horizontalAdvance('  "station": "central-stat')
    for _ in range(3):  # the frame around the view takes its share; converge on the viewport's width
        extra = wanted - editor.viewport().width()
        view.window().resize(view.window().width() + extra, 400)
        qtbot.waitUntil(lambda: abs(editor.viewport().width() - wanted) <= 1, timeout=2000)


def test_a_json_part_never_splits_a_value_and_copies_without_hidden_characters(qtbot: Any) -> None:
    part = JSONPartView(VALUE)
    qtbot.addWidget(part)
    part.show()
    narrow_enough_to_split(part.payload, qtbot)
    lines = screen_lines(part.payload.editor)
    joined = [line.replace("\u2060", "") for line in lines]
    assert any(line.strip() == '"central-station",' for line in joined), joined  # moved down whole
    assert not any(line.rstrip().endswith(("-", "/", "?")) for line in joined), joined
    editor = part.payload.editor
    editor.setFocus()
    qtbot.keyClick(editor, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(editor, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QGuiApplication.clipboard().text() == pretty_json(VALUE)


def test_structured_content_wraps_at_white_space_only(qtbot: Any) -> None:
    view = ToolResultView()
    qtbot.addWidget(view)
    view.show_result(ToolResult(content=[], structured_content=VALUE), has_output_schema=True)
    view.show()
    narrow_enough_to_split(view.structured, qtbot)
    joined = [line.replace("\u2060", "") for line in screen_lines(view.structured.editor)]
    assert not any(line.rstrip().endswith(("-", "/", "?")) for line in joined), joined
    assert view.structured.text() == pretty_json(VALUE)
