"""MCPInspectorWidget: an MCP server's workspace (Tools, Resources, Prompts, Tasks, Roots, Chat if offered, Server)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QStackedWidget, QTabWidget, QVBoxLayout, QWidget

from workbench.ui.context import PanelContext
from workbench.ui.panels.inspector.mcp.prompts import PromptsWidget
from workbench.ui.panels.inspector.mcp.resources import ResourcesWidget
from workbench.ui.panels.inspector.mcp.roots import RootsWidget
from workbench.ui.panels.inspector.mcp.roots_vm import RootsViewModel
from workbench.ui.panels.inspector.mcp.server_info import ServerInfoWidget
from workbench.ui.panels.inspector.mcp.tools import ToolsWidget
from workbench.ui.panels.inspector.mcp.viewmodel import MCPInspectorViewModel
from workbench.ui.panels.inspector.tasks.itemmodel import MCP_COLUMNS
from workbench.ui.panels.inspector.tasks.viewmodel import TasksViewModel
from workbench.ui.panels.inspector.tasks.widget import TasksWidget
from workbench.ui.untrusted import plain_label


class MCPInspectorWidget(QWidget):
    """Everything an MCP server offers, and trying it out.

    The inspector container decides which connection is shown and calls ``show_connection`` (and
    ``place_chat``: the chat, for an entry-point tool or a model chatting through the server's tools); this
    widget follows that connection's state and list changes itself. Tools come first: trying a tool is what
    the workspace is for.
    The sub-tab on show is the shown connection's (``vm.state.tab``): a connection shows the tab it
    was left on, and one never seen before starts on the first thing it offers.
    """

    def __init__(self, ctx: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = MCPInspectorViewModel(ctx, self)
        self.status = plain_label("", self, wrap=True)
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.server = ServerInfoWidget(self.vm, self)
        self.tools = ToolsWidget(self.vm, self)
        self.resources = ResourcesWidget(self.vm, self)
        self.prompts = PromptsWidget(self.vm, self)
        # the server's tasks (MCP Tasks): the same view-model and table as an A2A agent's tasks
        self.tasks_vm = TasksViewModel(ctx, self)
        self.tasks = TasksWidget(self.tasks_vm, self, columns=MCP_COLUMNS)
        self.roots_vm = RootsViewModel(ctx, self)  # the folders this client offers the server
        self.roots = RootsWidget(self.roots_vm, self)
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.tools, "Tools")
        self.tabs.addTab(self.resources, "Resources")
        self.tabs.addTab(self.prompts, "Prompts")
        self.tabs.addTab(self.tasks, "Tasks")
        self.tabs.addTab(self.roots, "Roots")
        self.tabs.addTab(self.server, "Server")
        self.tasks_vm.tasks_changed.connect(self.on_tasks_vm_tasks_changed)
        self.chat: QWidget | None = None
        self._shown_id: str | None = None
        self._restoring = False  # the tab changes because a connection is shown, not because the user picked
        self.tabs.currentChanged.connect(self.on_tabs_current_changed)
        self.pages = QStackedWidget(self)
        self.pages.addWidget(self.status)
        self.pages.addWidget(self.tabs)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.pages)
        self.vm.shown.connect(self.on_vm_shown)
        self.vm.catalog_changed.connect(self.on_vm_catalog_changed)
        self.on_vm_shown(None)

    def show_connection(self, connection_id: str | None) -> None:
        """Inspect ``connection_id`` (``None``: nothing)."""
        self.vm.show_connection(connection_id)

    def place_chat(self, chat: QWidget | None) -> None:
        """Show ``chat`` as a tab (before Server) while the server takes prompts; ``None`` removes it."""
        self._restoring = True
        try:
            if self.chat is not None and self.chat is not chat:
                index = self.tabs.indexOf(self.chat)
                if index >= 0:
                    self.tabs.removeTab(index)
            self.chat = chat
            if chat is not None and self.tabs.indexOf(chat) < 0:
                self.tabs.insertTab(self.tabs.indexOf(self.server), chat, "Chat")
            state = self.vm.state
            if chat is not None and state is not None and state.tab == "chat":
                self.tabs.setCurrentWidget(chat)
        finally:
            self._restoring = False

    def _tab_key(self, widget: QWidget | None) -> str | None:
        keys: dict[QWidget | None, str] = {
            self.tools: "tools",
            self.resources: "resources",
            self.prompts: "prompts",
            self.tasks: "tasks",
            self.roots: "roots",
            self.server: "server",
        }
        if self.chat is not None:
            keys[self.chat] = "chat"
        return keys.get(widget)

    def _tab_widget(self, key: str | None) -> QWidget | None:
        widgets = [self.tools, self.resources, self.prompts, self.tasks, self.roots, self.server, self.chat]
        return next((w for w in widgets if w is not None and self._tab_key(w) == key), None)

    def on_tabs_current_changed(self, index: int) -> None:
        """The user picked a sub-tab: remember it for the connection on show."""
        state = self.vm.state
        if not self._restoring and state is not None and self.pages.currentWidget() is self.tabs:
            state.tab = self._tab_key(self.tabs.widget(index))

    def on_vm_shown(self, connection_id: str | None) -> None:
        """Fill every sub-tab from the connection's own state, or say why there is nothing to inspect."""
        self._restoring = True
        try:
            self._show(connection_id)
        finally:
            self._restoring = False

    def _show(self, connection_id: str | None) -> None:
        agent = self.vm.agent
        has_tasks = agent is not None and agent.features.tasks
        self.tasks_vm.show_connection(connection_id if has_tasks else None)
        self.roots_vm.show_connection(connection_id if agent is not None else None)
        if agent is None:
            self.status.setText(self.vm.status_text)
            self.pages.setCurrentWidget(self.status)
            return
        self.tabs.setTabEnabled(self.tabs.indexOf(self.tasks), has_tasks)
        no_tasks = "This server does not offer tasks (no 'tasks' capability)."
        self.tabs.setTabToolTip(self.tabs.indexOf(self.tasks), "" if has_tasks else no_tasks)
        self.server.refresh()
        self.tools.refresh()
        self.resources.refresh()
        self.prompts.refresh()
        caps = self.vm.capabilities
        if caps is not None:
            for tab, offered, what in (
                (self.tools, caps.supports_tools, "tools"),
                (self.resources, caps.supports_resources, "resources"),
                (self.prompts, caps.supports_prompts, "prompts"),
            ):
                index = self.tabs.indexOf(tab)
                self.tabs.setTabEnabled(index, offered)
                self.tabs.setTabToolTip(
                    index, "" if offered else f"This server does not offer {what} (no '{what}' capability)."
                )
        state = self.vm.state
        widget = self._tab_widget(state.tab) if state is not None else None
        saved = self.tabs.indexOf(widget) if widget is not None else -1
        if saved >= 0 and self.tabs.isTabEnabled(saved):
            self.tabs.setCurrentIndex(saved)  # the tab this connection was left on
        elif connection_id != self._shown_id or not self.tabs.isTabEnabled(self.tabs.currentIndex()):
            # a connection not seen before: start on the first thing it offers (tools, else resources, prompts, server)
            first = next(i for i in range(self.tabs.count()) if self.tabs.isTabEnabled(i) or i == self.tabs.count() - 1)
            self.tabs.setCurrentIndex(first)
        self._shown_id = connection_id
        self.pages.setCurrentWidget(self.tabs)

    def on_tasks_vm_tasks_changed(self, rows: list[object]) -> None:
        """Count the tasks in the tab title."""
        self.tabs.setTabText(self.tabs.indexOf(self.tasks), f"Tasks ({len(rows)})" if rows else "Tasks")

    def on_vm_catalog_changed(self, what: str) -> None:
        """A list changed on the server: re-read it (and the raw description)."""
        if self.vm.agent is None:
            return
        if what in ("tools", "all"):
            self.tools.refresh()
        if what in ("resources", "all"):
            self.resources.refresh()
        if what in ("prompts", "all"):
            self.prompts.refresh()
        self.server.refresh()
