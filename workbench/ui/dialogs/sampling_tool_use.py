"""The sampling dialog's tool-call reply: pick one of the tools the request offers and write its input as JSON.

A request that offers tools (SEP-1577) may be answered with a ``tool_use`` instead of text; the server
runs the tool and samples again with its result. Only the offered tools can be chosen, and the input
must be a JSON object before the reply can be approved.
"""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QCheckBox, QComboBox, QFormLayout, QPlainTextEdit, QVBoxLayout, QWidget

from workbench.core.protocols.base import ContentPart
from workbench.core.protocols.catalog import ToolSpec
from workbench.ui.text_sizes import text_pane_height
from workbench.ui.untrusted import plain_label, shown


def input_skeleton(schema: dict[str, Any]) -> str:
    """A JSON object with the schema's required properties, empty (a start for the person to fill)."""
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    empty = {"string": "", "integer": 0, "number": 0, "boolean": False, "array": [], "object": {}}
    out: dict[str, Any] = {}
    for name in schema.get("required") or []:
        spec = properties.get(name) if isinstance(properties, dict) else None
        kind = spec.get("type") if isinstance(spec, dict) else None
        out[str(name)] = empty.get(kind) if isinstance(kind, str) else None
    return json.dumps(out, ensure_ascii=False)


class ToolUseEditor(QWidget):
    """The "answer with a tool call" fields: a tool among those offered, and its input as a JSON object.

    Signals:
        changed(): The choice or the input changed (the dialog re-checks its buttons).
    """

    changed = Signal()

    def __init__(self, tools: list[ToolSpec], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tools = tools
        self.enable_check = QCheckBox("Answer with a tool call (the server runs it and asks again)", self)
        self.tool_combo = QComboBox(self)
        for tool in tools:
            self.tool_combo.addItem(shown(tool.name), tool.name)
        self.input_edit = QPlainTextEdit(self)
        self.input_edit.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.input_edit.setFixedHeight(text_pane_height(self.input_edit, 4))
        self.problem_label = plain_label("", wrap=True)
        self.problem_label.hide()
        form = QFormLayout()
        form.addRow("Tool:", self.tool_combo)
        form.addRow("Input (JSON):", self.input_edit)
        self._fields = QWidget(self)
        self._fields.setLayout(form)
        self._fields.setEnabled(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.enable_check)
        layout.addWidget(self._fields)
        layout.addWidget(self.problem_label)
        self.enable_check.toggled.connect(self.on_enable_check_toggled)
        self.tool_combo.currentIndexChanged.connect(self.on_tool_combo_current_index_changed)
        self.input_edit.textChanged.connect(self._check)
        self.on_tool_combo_current_index_changed(0)

    @property
    def active(self) -> bool:
        """Whether the reply is a tool call."""
        return self.enable_check.isChecked()

    def tool_input(self) -> dict[str, Any] | None:
        """The input as a JSON object, or ``None`` while it is not one."""
        try:
            value = json.loads(self.input_edit.toPlainText() or "{}")
        except ValueError:
            return None
        return value if isinstance(value, dict) else None

    def part(self) -> ContentPart | None:
        """The ``tool_use`` part to send, or ``None`` while the input is not a JSON object."""
        arguments = self.tool_input()
        if arguments is None or self.tool_combo.currentIndex() < 0:
            return None
        name = str(self.tool_combo.currentData())
        return ContentPart("tool_use", data={"id": "person_call_1", "name": name, "input": arguments})

    def show_part(self, part: ContentPart) -> None:
        """Fill in a drafted tool call (from a script or a model) for review."""
        data = part.data if isinstance(part.data, dict) else {}
        index = self.tool_combo.findData(str(data.get("name")))
        if index >= 0:
            self.tool_combo.setCurrentIndex(index)
        self.input_edit.setPlainText(json.dumps(data.get("input") or {}, ensure_ascii=False))
        self.enable_check.setChecked(True)

    def on_enable_check_toggled(self, checked: bool) -> None:
        """Turn the tool-call reply on or off."""
        self._fields.setEnabled(checked)
        self._check()

    def on_tool_combo_current_index_changed(self, index: int) -> None:
        """Start the input from the chosen tool's required properties (unless some is written)."""
        if 0 <= index < len(self._tools) and not self.input_edit.toPlainText().strip():
            self.input_edit.setPlainText(input_skeleton(self._tools[index].input_schema))
        self._check()

    def _check(self) -> None:
        bad = self.active and self.tool_input() is None
        self.problem_label.setText("The input must be a JSON object." if bad else "")
        self.problem_label.setVisible(bad)
        self.changed.emit()
