"""The Tools sub-tab: the tool list (filterable) and the selected tool's description, hints, schemas and call form."""

from __future__ import annotations

import itertools

from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFont, QFontDatabase, QKeyEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.apps.resource import MODEL_VISIBILITY, app_uri, app_visibility
from workbench.core.protocols.catalog import ToolSpec
from workbench.ui.panels.inspector.mcp.catalog_delegate import TagLabel
from workbench.ui.panels.inspector.mcp.catalog_list import CatalogListWidget, lay_out_list_and_detail
from workbench.ui.panels.inspector.mcp.itemmodel import ListRow
from workbench.ui.panels.inspector.mcp.tool_call import ToolCallWidget
from workbench.ui.panels.inspector.mcp.viewmodel import MCPInspectorViewModel
from workbench.ui.panels.inspector.results.blobs import pretty_json
from workbench.ui.untrusted import plain_label

HINTS = (
    ("readOnlyHint", "read-only", "writes"),
    ("destructiveHint", "destructive", "not destructive"),
    ("idempotentHint", "idempotent", "not idempotent"),
    ("openWorldHint", "open world", "closed world"),
)
"""Annotation key, badge when true, badge when false (absent hints get no badge)."""
DESCRIPTION_LINES = 2
"""Lines of a tool's description shown above the form (a longer one scrolls in its box)."""
PICK_HINT = "Pick a tool on the left: fill in its arguments, Call (Ctrl+Enter), and its result appears here."
NO_TOOLS_HINT = (
    "This server lists no tools. It may add some later (the list refreshes when it says so); "
    "its resources and prompts are in the tabs beside this one."
)
TOOL_LIST_WIDTH = 260
"""First width of the tool list (the detail takes the rest)."""


def is_call_keys(event: QKeyEvent) -> bool:
    """Ctrl+Return or Ctrl+Enter (the keypad's Enter too), with no other modifier."""
    modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    return event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and modifiers == Qt.KeyboardModifier.ControlModifier


def annotation_badges(spec: ToolSpec) -> list[str]:
    """Badges for the behaviour hints the tool declares (as sent; the server may not tell the truth).

    Then the MCP Apps ones: ``MCP App`` for a tool that names a ``ui://`` app, ``app only`` for one its
    server keeps for apps (``_meta.ui.visibility: ["app"]``: listed here for its developer, never offered to
    a model).
    """
    annotations = spec.annotations or {}
    badges = [yes if annotations[key] else no for key, yes, no in HINTS if isinstance(annotations.get(key), bool)]
    if app_uri(spec) is not None and MODEL_VISIBILITY in app_visibility(spec):
        badges.append("MCP App")
    if MODEL_VISIBILITY not in app_visibility(spec):
        badges.append("app only")
    return badges


def _row(spec: ToolSpec) -> ListRow:
    title = f" — {spec.title}" if spec.title and spec.title != spec.name else ""
    return ListRow(spec.name, f"{spec.name}{title}", spec.description or "")


def _json_view(parent: QWidget) -> QPlainTextEdit:
    view = QPlainTextEdit(parent)
    view.setReadOnly(True)
    view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    return view


class ToolDetailWidget(QWidget):
    """One tool: a compact header (name, title, hint badges, description), then the call form and its result.

    The header takes a few lines at most (a long description scrolls in its own small box), so the
    form and the result get the height.
    """

    def __init__(self, vm: MCPInspectorViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name_label = plain_label("", self)
        font = QFont(self.name_label.font())
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        self.name_label.setFont(font)
        self.title_label = plain_label("", self)
        self.description = plain_label("", self, wrap=True)
        self.description.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.description_box = QScrollArea(self)
        self.description_box.setObjectName("toolDescription")
        self.description_box.setWidgetResizable(True)
        self.description_box.setFrameShape(QFrame.Shape.NoFrame)
        self.description_box.setWidget(self.description)
        lines = self.description.fontMetrics().lineSpacing()
        self.description_box.setMaximumHeight(lines * DESCRIPTION_LINES + 6)
        self.description_box.setMinimumHeight(lines + 4)
        self.badges: list[QLabel] = []
        self._badge_row = QHBoxLayout()
        self._badge_row.setContentsMargins(0, 0, 0, 0)
        self._badge_row.addWidget(self.name_label)
        self._badge_row.addWidget(self.title_label)
        self._badge_row.addStretch(1)
        self.schemas_button = QToolButton(self)
        self.schemas_button.setText("Schemas")
        self.schemas_button.setToolTip("Show the tool's input and output schemas instead of the form")
        self.schemas_button.setCheckable(True)
        self.schemas_button.toggled.connect(self.on_schemas_button_toggled)
        self._badge_row.addWidget(self.schemas_button)
        self.call = ToolCallWidget(vm, self)
        self.input_schema = _json_view(self)
        self.output_schema = _json_view(self)
        schemas = QSplitter(Qt.Orientation.Horizontal, self)
        for title, view in (("Input schema", self.input_schema), ("Output schema", self.output_schema)):
            column = QWidget(schemas)
            column_layout = QVBoxLayout(column)
            column_layout.setContentsMargins(0, 0, 0, 0)
            column_layout.addWidget(plain_label(title, column, selectable=False))
            column_layout.addWidget(view, 1)
            schemas.addWidget(column)
        self.schemas = schemas
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.call)
        self.pages.addWidget(self.schemas)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 0, 0)
        layout.setSpacing(2)
        layout.addLayout(self._badge_row)
        layout.addWidget(self.description_box)
        layout.addWidget(self.pages, 1)
        layout.addStretch(0)
        self.show_tool(None)

    def on_schemas_button_toggled(self, schemas: bool) -> None:
        """Swap the form for the schemas and back."""
        self.pages.setCurrentWidget(self.schemas if schemas else self.call)

    def show_tool(self, spec: ToolSpec | None, *, none_listed: bool = False) -> None:
        """Show ``spec`` (``None``: a hint to pick one, or, with ``none_listed``, that there is none)."""
        self.name_label.setText(spec.name if spec else ("No tools" if none_listed else "Pick a tool"))
        self.title_label.setText(f"— {spec.title}" if spec and spec.title and spec.title != spec.name else "")
        self.title_label.setVisible(bool(spec and spec.title))
        hint = NO_TOOLS_HINT if none_listed else PICK_HINT
        self.description.setText((spec.description or "(no description)") if spec else hint)
        self.pages.setVisible(spec is not None)
        for badge in self.badges:
            badge.setParent(None)
            badge.deleteLater()
        self.badges = []
        for text in annotation_badges(spec) if spec else []:
            badge = TagLabel(text, self)  # a flat tag: a fact about the tool, not a button
            self._badge_row.insertWidget(2 + len(self.badges), badge, 0, Qt.AlignmentFlag.AlignVCenter)
            self.badges.append(badge)
        self.input_schema.setPlainText(pretty_json(spec.input_schema) if spec else "")
        output = spec.output_schema if spec else None
        self.output_schema.setPlainText(pretty_json(output) if output is not None else "(no output schema)")
        self.schemas_button.setEnabled(spec is not None)
        self.call.set_tool(spec)


class ToolsWidget(QWidget):
    """Tool list on the left, the selected tool on the right.

    Keyboard: Tab goes filter → list → the form's fields → Call, then the secondary controls (Cancel,
    the raw JSON, "Send even if invalid", the history, Schemas); Ctrl+Enter calls the selected tool
    wherever the focus is on this page, the tool list included. The list's filter and selection are
    the shown connection's (``vm.state``): written as the user picks, restored by ``refresh``.
    """

    def __init__(self, vm: MCPInspectorViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.list = CatalogListWidget("Filter tools", self)
        self.detail = ToolDetailWidget(vm, self)
        self.splitter = lay_out_list_and_detail(self, self.list, self.detail, list_width=TOOL_LIST_WIDTH)
        self.list.selected.connect(self.on_list_selected)
        self.list.filter_edit.textChanged.connect(self.on_filter_edit_text_changed)
        self.detail.call.go_to_tool_requested.connect(self.go_to_tool)
        self._order_tabs()

    def refresh(self) -> None:
        """Show the shown connection's tools, with its own filter and selection (kept while still listed)."""
        state = self.vm.state
        self.list.restore(
            [_row(spec) for spec in self.vm.tools()],
            state.filters.get("tools", "") if state is not None else "",
            state.tool if state is not None else None,
        )
        self.on_list_selected(self.list.current_key)

    def select_tool(self, name: str) -> bool:
        """Select tool ``name`` (as if clicked); ``False`` if it is not listed."""
        return self.list.select(name)

    def go_to_tool(self, name: str) -> None:
        """Show tool ``name``, clearing the list's filter first when it hides the tool (Go to <tool>)."""
        if not self.select_tool(name):
            self.list.filter_edit.clear()
            self.select_tool(name)

    def on_list_selected(self, name: str | None) -> None:
        """Show the picked tool (and remember it for the connection)."""
        state = self.vm.state
        if state is not None:
            state.tool = name
        self.detail.show_tool(self.vm.tool(name) if name else None, none_listed=not self.vm.tools())
        form = self.detail.call.form
        if form is not None:  # a new form each time: an item added later joins the chain where it is drawn
            form.tab_stops_changed.connect(self._order_tabs)
        self._order_tabs()

    def on_filter_edit_text_changed(self, text: str) -> None:
        """Remember the filter for the connection."""
        state = self.vm.state
        if state is not None:
            state.filters["tools"] = text

    def _order_tabs(self) -> None:
        """Filter → list → the form's fields → Call → the secondary controls (a new form is made last)."""
        chain = [self.list.filter_edit, self.list.view, *self.detail.call.tab_chain(), self.detail.schemas_button]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)

    # ------------------------------------------------------------------ keys

    def event(self, event: QEvent) -> bool:
        """Claim Ctrl+Enter on the whole page (the window's "Send message" has the same keys).

        Two shortcuts with one key sequence are ambiguous to Qt, which then runs neither; claiming the
        keys here makes them reach ``keyPressEvent`` as a key press that the list and fields let through.
        """
        if event.type() == QEvent.Type.ShortcutOverride and is_call_keys(event):  # type: ignore[arg-type]
            event.accept()
            return True
        return super().event(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        """Ctrl+Enter (or Ctrl+Return) calls the selected tool, wherever the focus is on the page."""
        if is_call_keys(event):
            self.detail.call.on_call_button_clicked()
            return
        super().keyPressEvent(event)
