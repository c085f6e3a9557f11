"""InspectorWidget: follows the selected connection and shows its protocol's inspector, or why it cannot."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QStackedWidget, QVBoxLayout, QWidget

from workbench.core.errors import WorkbenchError
from workbench.core.events import ConnectionState, ConnectionStateChanged
from workbench.ui.context import PanelContext
from workbench.ui.error_details import open_error_details
from workbench.ui.errors import ErrorView, describe_error
from workbench.ui.names import connection_name
from workbench.ui.untrusted import plain_label

if TYPE_CHECKING:
    from workbench.ui.panels.inspector.a2a.widget import A2AInspectorWidget
    from workbench.ui.panels.inspector.mcp.widget import MCPInspectorWidget

    Inspector = A2AInspectorWidget | MCPInspectorWidget

S = ConnectionState


class PlaceholderWidget(QWidget):
    """What the inspector shows instead of an inspector: a title, the reason, and a Connect button.

    For a connection that could not connect it is where the failure is said, once (``workbench.ui.errors``):
    what failed, why, what to do (the hint), and "Details…" for the technical part.
    """

    connect_clicked = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._error: ErrorView | None = None
        self.title_label = plain_label("", self, wrap=True)
        font = self.title_label.font()
        font.setBold(True)
        self.title_label.setFont(font)
        self.detail_label = plain_label("", self, wrap=True)
        self.hint_label = plain_label("", self, wrap=True)
        self.hint_label.hide()
        self.connect_button = QPushButton("Connect", self)
        self.connect_button.clicked.connect(self.connect_clicked)
        self.details_button = QPushButton("Details…", self)
        self.details_button.setToolTip("The error's code and technical details")
        self.details_button.clicked.connect(self.on_details_button_clicked)
        self.details_button.hide()
        for label in (self.title_label, self.detail_label, self.hint_label):
            label.setAlignment(Qt.AlignmentFlag.AlignHCenter)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.connect_button)
        buttons.addWidget(self.details_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(1)
        layout.addWidget(self.title_label)
        layout.addWidget(self.detail_label)
        layout.addWidget(self.hint_label)
        layout.addLayout(buttons)
        layout.addStretch(2)

    @property
    def error(self) -> ErrorView | None:
        """The failure on show, if the placeholder says why a connection failed."""
        return self._error

    def show_text(self, title: str, detail: str = "", *, can_connect: bool = False) -> None:
        """Show ``title`` and ``detail`` (untrusted text shown literally)."""
        self._error = None
        self.title_label.setText(title)
        self.detail_label.setText(detail)
        self.detail_label.setVisible(bool(detail))
        self.hint_label.clear()
        self.hint_label.hide()
        self.details_button.hide()
        self.connect_button.setVisible(can_connect)

    def show_error(self, title: str, view: ErrorView) -> None:
        """Show why a connection failed: ``view``'s message and hint, "Details…" when it has details, and Connect."""
        self.show_text(title, view.message, can_connect=True)
        self._error = view
        self.hint_label.setText(view.hint)
        self.hint_label.setVisible(bool(view.hint))
        self.details_button.setVisible(bool(view.details))

    def on_details_button_clicked(self) -> None:
        """Open the failure's technical details (a non-modal box, plain text)."""
        if self._error is not None:
            open_error_details(self._error, self)


class InspectorWidget(QWidget):
    """The selected connection's workspace: the MCP or A2A inspector, with the chat among its tabs.

    Follows ``ctx.selection.changed`` and ``ctx.bridge.connection_state_changed``. When nothing is
    selected, or the selection is not connected, it shows a placeholder saying so (with the failure
    reason for a failed connection) and a Connect button that emits ``connect_requested(id)``.
    The chat widget given to ``set_chat`` becomes a tab of the protocol inspector when the connection
    takes prompts (``features.chat``: every A2A agent, an MCP server with an entry-point tool) and for every
    other MCP server, where a saved model may chat through its tools.

    Args:
        ctx: The panel context.
        parent: The parent widget.
    """

    connect_requested = Signal(str)

    def __init__(self, ctx: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._connection_id: str | None = None
        self._inspectors: dict[str, Inspector] = {}
        self._active: str | None = None
        self._chat: QWidget | None = None
        self.placeholder = PlaceholderWidget(self)
        self.placeholder.connect_clicked.connect(self.on_placeholder_connect_clicked)
        self.stack = QStackedWidget(self)
        self.stack.addWidget(self.placeholder)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.stack)
        ctx.selection.changed.connect(self.on_selection_changed)
        ctx.bridge.connection_state_changed.connect(self.on_bridge_connection_state_changed)
        self.show_connection(ctx.selection.current)

    # ------------------------------------------------------------------ what is shown

    @property
    def connection_id(self) -> str | None:
        """The connection followed (the selection)."""
        return self._connection_id

    @property
    def current_inspector(self) -> Inspector | None:
        """The protocol inspector on display (``None`` while the placeholder shows)."""
        widget = self.stack.currentWidget()
        for inspector in self._inspectors.values():
            if widget is inspector:
                return inspector
        return None

    def inspector(self, protocol: str) -> Inspector | None:
        """The ``mcp`` or ``a2a`` inspector, if it was created."""
        return self._inspectors.get(protocol)

    def show_connection(self, connection_id: str | None) -> None:
        """Show the inspector of ``connection_id`` (or a placeholder)."""
        self._connection_id = connection_id
        self._update()

    def set_chat(self, chat: QWidget) -> None:
        """The chat pane to place in the workspace of connections that take prompts."""
        self._chat = chat
        chat.setParent(self)
        chat.hide()
        self._update()

    @property
    def has_chat(self) -> bool:
        """Whether the workspace on show has a chat tab."""
        widget = self.current_inspector
        return self._chat is not None and widget is not None and widget.tabs.indexOf(self._chat) >= 0

    def show_chat(self) -> bool:
        """Bring the chat tab to the front; ``False`` when the connection on show takes no prompts."""
        widget = self.current_inspector
        if not self.has_chat or widget is None or self._chat is None:
            return False
        widget.tabs.setCurrentWidget(self._chat)
        return True

    def refresh_tasks(self, connection_id: str) -> None:
        """A chat turn with ``connection_id`` started or ended: its A2A Tasks tab re-reads the tasks."""
        widget = self._inspectors.get("a2a")
        if widget is not None and widget is self.current_inspector and connection_id == self._connection_id:
            self.refresh()

    def refresh(self) -> None:
        """Ask the shown inspector to re-read what may have changed (e.g. after a chat turn)."""
        widget = self.current_inspector
        refresh = getattr(widget, "refresh", None)
        if callable(refresh):
            refresh()

    # ------------------------------------------------------------------ slots

    def on_selection_changed(self, connection_id: str | None) -> None:
        """Follow the selection."""
        self.show_connection(connection_id)

    def on_bridge_connection_state_changed(self, event: ConnectionStateChanged) -> None:
        """Re-evaluate when the followed connection changes state."""
        if event.connection_id == self._connection_id:
            self._update()

    def on_placeholder_connect_clicked(self) -> None:
        """Ask the window to connect the followed connection."""
        if self._connection_id is not None:
            self.connect_requested.emit(self._connection_id)

    # ------------------------------------------------------------------ internals

    def _update(self) -> None:
        cid = self._connection_id
        if cid is None:
            if self._has_connections():
                self._show_placeholder("Select a connection", "Pick a server or agent in the sidebar to inspect it.")
            else:
                self._show_placeholder(
                    "No connections yet",
                    "Add an MCP server (stdio, Streamable HTTP or SSE) or an A2A agent with Add (Ctrl+N), "
                    "or run 'workbench demo' to try the bundled demo agents.",
                )
            return
        conn = self.ctx.services.connections.get(cid)
        name = connection_name(self.ctx.services, cid)
        state = conn.state if conn is not None else S.DISCONNECTED
        if conn is None or state is not S.CONNECTED or conn.agent is None:
            if state is S.CONNECTING:
                self._show_placeholder(f"{name}: connecting…", "The inspector opens once it is connected.")
            elif state is S.FAILED and conn is not None and conn.error is not None:
                self._show_placeholder(f"{name}: connection failed", error=describe_error(conn.error))
            elif state is S.FAILED:
                self._show_placeholder(f"{name}: connection failed", "", can_connect=True)
            else:
                self._show_placeholder(f"{name}: not connected", "Connect to inspect.", can_connect=True)
            return
        protocol = "a2a" if conn.profile.kind == "a2a" else "mcp"
        widget = self._inspector_for(protocol)
        if self._active is not None and self._active != protocol:
            self._release(self._active)
        self._active = protocol
        self.stack.setCurrentWidget(widget)
        widget.show_connection(cid)
        # an MCP server without an entry point gets the chat too: a saved model may chat through its tools
        takes_chat = conn.agent.features.chat or conn.agent.server_features is not None
        widget.place_chat(self._chat if takes_chat else None)

    def _show_placeholder(
        self, title: str, detail: str = "", *, can_connect: bool = False, error: ErrorView | None = None
    ) -> None:
        if self._active is not None:
            self._release(self._active)
            self._active = None
        if error is not None:
            self.placeholder.show_error(title, error)
        else:
            self.placeholder.show_text(title, detail, can_connect=can_connect)
        self.stack.setCurrentWidget(self.placeholder)

    def _release(self, protocol: str) -> None:
        """Let an inspector drop its connection (stop subscriptions, forget the agent)."""
        widget = self._inspectors.get(protocol)
        if widget is not None:
            widget.place_chat(None)
            widget.show_connection(None)

    def _has_connections(self) -> bool:
        if self.ctx.services.connections.connections():
            return True
        try:
            return bool(self.ctx.services.profile_service.saved())
        except WorkbenchError:  # an unreadable profile file: the sidebar reports it
            return True

    def _inspector_for(self, protocol: str) -> Inspector:
        widget = self._inspectors.get(protocol)
        if widget is None:
            # Imported on first use: each protocol's inspector loads its SDK (about a second of imports),
            # which must not delay the window's first paint.
            if protocol == "a2a":
                from workbench.ui.panels.inspector.a2a.widget import A2AInspectorWidget

                widget = A2AInspectorWidget(self.ctx, self)
            else:
                from workbench.ui.panels.inspector.mcp.widget import MCPInspectorWidget

                widget = MCPInspectorWidget(self.ctx, self)
            self._inspectors[protocol] = widget
            self.stack.addWidget(widget)
        return widget
