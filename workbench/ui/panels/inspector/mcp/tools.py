"""The Tools sub-tab: the tool list (filterable) and the selected tool's description, hints, schemas and call form."""

from __future__ import annotations

import json

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QTabWidget, QVBoxLayout, QWidget

from workbench.core.models import ToolSpec
from workbench.ui.panels.inspector.mcp.catalog_list import CatalogListWidget, lay_out_list_and_detail
from workbench.ui.panels.inspector.mcp.itemmodel import ListRow
from workbench.ui.panels.inspector.mcp.tool_call import ToolCallWidget
from workbench.ui.panels.inspector.mcp.viewmodel import MCPInspectorViewModel
from workbench.ui.untrusted import plain_label

HINTS = (
    ("readOnlyHint", "read-only", "writes"),
    ("destructiveHint", "destructive", "not destructive"),
    ("idempotentHint", "idempotent", "not idempotent"),
    ("openWorldHint", "open world", "closed world"),
)
"""Annotation key, badge when true, badge when false (absent hints get no badge)."""


def annotation_badges(spec: ToolSpec) -> list[str]:
    """Badges for the behaviour hints the tool declares (as sent; the server may not tell the truth)."""
    annotations = spec.annotations or {}
    return [yes if annotations[key] else no for key, yes, no in HINTS if isinstance(annotations.get(key), bool)]


def _row(spec: ToolSpec) -> ListRow:
    title = f" — {spec.title}" if spec.title and spec.title != spec.name else ""
    return ListRow(spec.name, f"{spec.name}{title}", spec.description or "")


def _json_view(parent: QWidget) -> QPlainTextEdit:
    view = QPlainTextEdit(parent)
    view.setReadOnly(True)
    view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    return view


class ToolDetailWidget(QWidget):
    """One tool: name, title, description (literal), hint badges, schemas, and the call form."""

    def __init__(self, vm: MCPInspectorViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name_label = plain_label("", self)
        font = QFont(self.name_label.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.name_label.setFont(font)
        self.title_label = plain_label("", self, wrap=True)
        self.description = plain_label("", self, wrap=True)
        self.badges: list[QLabel] = []
        self._badge_row = QHBoxLayout()
        self._badge_row.setContentsMargins(0, 0, 0, 0)
        self._badge_row.addStretch(1)
        self.call = ToolCallWidget(vm, self)
        self.input_schema = _json_view(self)
        self.output_schema = _json_view(self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(self.call, "Call")
        self.tabs.addTab(self.input_schema, "Input schema")
        self.tabs.addTab(self.output_schema, "Output schema")
        layout = QVBoxLayout(self)
        layout.addWidget(self.name_label)
        layout.addWidget(self.title_label)
        layout.addWidget(self.description)
        layout.addLayout(self._badge_row)
        layout.addWidget(self.tabs, 1)
        self.show_tool(None)

    def show_tool(self, spec: ToolSpec | None) -> None:
        """Show ``spec`` (``None``: a hint to pick one)."""
        self.name_label.setText(spec.name if spec else "Pick a tool")
        self.title_label.setText(spec.title or "" if spec else "")
        self.title_label.setVisible(bool(spec and spec.title))
        self.description.setText((spec.description or "(no description)") if spec else "")
        for badge in self.badges:
            badge.setParent(None)
            badge.deleteLater()
        self.badges = []
        for text in annotation_badges(spec) if spec else []:
            badge = plain_label(text, self, selectable=False)
            badge.setStyleSheet("border: 1px solid #888; border-radius: 6px; padding: 1px 6px;")
            self._badge_row.insertWidget(len(self.badges), badge)
            self.badges.append(badge)
        self.input_schema.setPlainText(json.dumps(spec.input_schema, indent=2, ensure_ascii=False) if spec else "")
        output = spec.output_schema if spec else None
        self.output_schema.setPlainText(
            json.dumps(output, indent=2, ensure_ascii=False) if output is not None else "(no output schema)"
        )
        self.tabs.setTabEnabled(2, output is not None)
        self.tabs.setEnabled(spec is not None)
        self.call.set_tool(spec)


class ToolsWidget(QWidget):
    """Tool list on the left, the selected tool on the right."""

    def __init__(self, vm: MCPInspectorViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.list = CatalogListWidget("Filter tools", self)
        self.detail = ToolDetailWidget(vm, self)
        lay_out_list_and_detail(self, self.list, self.detail)
        self.list.selected.connect(self.on_list_selected)

    def refresh(self) -> None:
        """Re-read the tool list (keeps the selection when the tool is still there)."""
        self.list.set_rows([_row(spec) for spec in self.vm.tools()])
        self.on_list_selected(self.list.current_key)

    def select_tool(self, name: str) -> bool:
        """Select tool ``name`` (as if clicked); ``False`` if it is not listed."""
        return self.list.select(name)

    def on_list_selected(self, name: str | None) -> None:
        """Show the picked tool."""
        self.detail.show_tool(self.vm.tool(name) if name else None)
