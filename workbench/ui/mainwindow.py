"""MainWindow: docks, menus, status bar, and the one place where the panels are wired together."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable

from PySide6.QtCore import QByteArray, QSettings, Qt, QUrl, Signal
from PySide6.QtGui import QCloseEvent, QDesktopServices
from PySide6.QtWidgets import QDockWidget, QMainWindow, QMessageBox, QSplitter, QTabWidget, QVBoxLayout, QWidget

from workbench.ui.actions import ActionRegistry
from workbench.ui.asyncutil import set_error_sink
from workbench.ui.banner import ErrorBanner
from workbench.ui.context import PanelContext
from workbench.ui.errors import ErrorView
from workbench.ui.panels.authsteps.widget import AuthStepsWidget
from workbench.ui.panels.chat.widget import ChatWidget
from workbench.ui.panels.handoffs.widget import HandoffWidget
from workbench.ui.panels.inspector.widget import InspectorWidget
from workbench.ui.panels.sidebar.widget import SidebarWidget
from workbench.ui.panels.stderr.widget import StderrWidget
from workbench.ui.panels.wirelog.widget import WireLogWidget
from workbench.ui.prompts import UserPrompts
from workbench.ui.statusbar import StatusBarController

log = logging.getLogger(__name__)

SHUTDOWN_TIMEOUT = 10.0
"""Seconds the window waits for every connection to close before it gives up on them."""

UrlOpener = Callable[[QUrl], bool]


class MainWindow(QMainWindow):
    """The workbench window: sidebar (left), inspector and chat (centre), wire log and stderr (bottom).

    Args:
        ctx: Shared services and UI state.
        prompts: Answers peers' requests (elicitation, sampling, input) with dialogs.
        settings: Where the layout and last selection are remembered.
        url_opener: Opens a URL the user agreed to open (the system browser by default).
    """

    shutdown_finished = Signal()

    def __init__(
        self,
        ctx: PanelContext,
        prompts: UserPrompts,
        settings: QSettings,
        *,
        url_opener: UrlOpener = QDesktopServices.openUrl,
    ) -> None:
        super().__init__()
        self.ctx = ctx
        self.prompts = prompts
        self._settings = settings
        self._url_opener = url_opener
        self._may_close = False
        self._shutdown_task: asyncio.Task[None] | None = None
        self._chains_seen: set[str] = set()
        self.scenario_result: str | None = None
        self.scenario_task: asyncio.Task[None] | None = None
        self.setObjectName("mainWindow")
        self.setWindowTitle("Agent Workbench")
        self.resize(1400, 900)

        self.actions_registry = ActionRegistry(self)
        self.sidebar = SidebarWidget(ctx)
        self.inspector = InspectorWidget(ctx)
        self.chat = ChatWidget(ctx)
        self.handoffs = HandoffWidget(ctx)
        self.wire_log = WireLogWidget(ctx)
        self.stderr = StderrWidget(ctx)
        self.auth_steps = AuthStepsWidget(ctx)
        self.banner = ErrorBanner()

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.setObjectName("centreSplitter")
        self.splitter.addWidget(self.inspector)
        self.splitter.addWidget(self.chat)
        # the handoff sequence diagram needs the whole width: a second page of the centre
        self.centre_tabs = QTabWidget()
        self.centre_tabs.setObjectName("centreTabs")
        self.centre_tabs.setDocumentMode(True)
        self.centre_tabs.addTab(self.splitter, "Inspector && chat")
        self.centre_tabs.addTab(self.handoffs, "Handoffs")
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setSizes([640, 420])  # first run; later runs restore the user's split
        centre = QWidget()
        column = QVBoxLayout(centre)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        column.addWidget(self.banner)
        column.addWidget(self.centre_tabs, 1)
        self.setCentralWidget(centre)

        self.sidebar_dock = self._dock(
            "Connections", "connectionsDock", self.sidebar, Qt.DockWidgetArea.LeftDockWidgetArea
        )
        self.wire_dock = self._dock("Wire log", "wireDock", self.wire_log, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.stderr_dock = self._dock(
            "Server stderr", "stderrDock", self.stderr, Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.auth_dock = self._dock(
            "Auth steps", "authStepsDock", self.auth_steps, Qt.DockWidgetArea.BottomDockWidgetArea
        )
        self.tabifyDockWidget(self.wire_dock, self.stderr_dock)
        self.tabifyDockWidget(self.stderr_dock, self.auth_dock)
        self.wire_dock.raise_()
        self.resizeDocks([self.sidebar_dock], [280], Qt.Orientation.Horizontal)
        self.resizeDocks([self.wire_dock], [260], Qt.Orientation.Vertical)

        self.status = StatusBarController(ctx, self.statusBar())
        self._build_menus()
        self._connect_signals()
        self._restore_layout()

    # ------------------------------------------------------------------ construction

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _build_menus(self) -> None:
        a = self.actions_registry.get
        bar = self.menuBar()
        file_menu = bar.addMenu("&File")
        for action_id in ("connection.add", "wire.export_jsonl", "wire.export_har"):
            file_menu.addAction(a(action_id))
        file_menu.addSeparator()
        file_menu.addAction(a("app.quit"))
        conn_menu = bar.addMenu("&Connection")
        for conn_action in (
            "connection.connect",
            "connection.disconnect",
            "connection.reconnect",
            None,
            "connection.login",
            "connection.logout",
            None,
            "connection.edit",
            "connection.duplicate",
            "connection.remove",
        ):
            if conn_action is None:
                conn_menu.addSeparator()
            else:
                conn_menu.addAction(a(conn_action))
        chat_menu = bar.addMenu("C&hat")
        for action_id in ("chat.focus", "chat.send", "chat.cancel", "chat.new"):
            chat_menu.addAction(a(action_id))
        view_menu = bar.addMenu("&View")
        for action_id in (
            "view.inspector",
            "view.chat",
            "view.handoffs",
            "view.wire",
            "wire.focus_filter",
            "wire.pause",
        ):
            view_menu.addAction(a(action_id))
        view_menu.addSeparator()
        for dock in (self.sidebar_dock, self.wire_dock, self.stderr_dock, self.auth_dock):
            view_menu.addAction(dock.toggleViewAction())
        help_menu = bar.addMenu("&Help")
        help_menu.addAction(a("app.about"))

    def _connect_signals(self) -> None:
        ctx, bind = self.ctx, self.actions_registry.bind
        # errors: one presenter, shown in the banner and the status bar
        set_error_sink(lambda error, doing: ctx.errors.report(error, doing))
        ctx.errors.error_reported.connect(self.on_errors_error_reported)
        # links in untrusted content open only after the user agrees
        ctx.links.link_requested.connect(self.on_links_link_requested)
        ctx.links.link_refused.connect(self.on_links_link_refused)
        # peers' requests waiting for the user
        self.prompts.pending_changed.connect(self.status.set_pending_prompts)
        # sidebar
        self.sidebar.status_message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.inspector.connect_requested.connect(self.sidebar.viewmodel.connect_profile)
        bind("connection.add", self.sidebar.add_profile)
        bind("connection.edit", self.sidebar.edit_selected)
        bind("connection.duplicate", self.sidebar.duplicate_selected)
        bind("connection.remove", self.sidebar.remove_selected)
        bind("connection.connect", self.sidebar.connect_selected)
        bind("connection.disconnect", self.sidebar.disconnect_selected)
        bind("connection.reconnect", self.sidebar.reconnect_selected)
        bind("connection.login", self.sidebar.login_selected)
        bind("connection.logout", self.sidebar.logout_selected)
        # auth steps and handoff hops: their exchanges are selected in the wire log
        self.auth_steps.wire_records_requested.connect(self.show_wire_records)
        self.handoffs.wire_records_requested.connect(self.show_wire_records)
        ctx.bridge.handoff_event.connect(self.on_bridge_handoff_event)
        bind("view.handoffs", self.show_handoffs)
        # chat
        bind("chat.focus", self.focus_chat)
        bind("chat.send", self.chat.send)
        bind("chat.cancel", self.chat.cancel)
        bind("chat.new", self.chat.new_conversation)
        # wire log
        bind("wire.focus_filter", self.focus_wire_filter)
        bind("wire.export_jsonl", self.wire_log.export_jsonl)
        bind("wire.export_har", self.wire_log.export_har)
        bind("wire.pause", self.wire_log.toggle_pause)
        # view
        bind("view.inspector", self.show_inspector)
        bind("view.chat", self.focus_chat)
        bind("view.wire", self.focus_wire_filter)
        bind("app.quit", self.close)
        bind("app.about", self.show_about)

    # ------------------------------------------------------------------ slots

    def on_errors_error_reported(self, view: ErrorView) -> None:
        """Show a failure inline (banner) and in the status bar."""
        self.banner.show_error(view)
        self.statusBar().showMessage(f"{view.title}: {view.message}", 8000)

    def on_links_link_requested(self, url: QUrl) -> None:
        """Ask before opening a link from untrusted content; show the whole URL and its host."""
        text = url.toString()
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Open link?",
            f"Open this link in your browser?\n\n{text}\n\nHost: {url.host() or '(none)'}",
            QMessageBox.StandardButton.Open | QMessageBox.StandardButton.Cancel,
            self,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setDefaultButton(QMessageBox.StandardButton.Cancel)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.setObjectName("linkConsentBox")

        def finished(code: int) -> None:
            if code == QMessageBox.StandardButton.Open.value:
                self._url_opener(url)

        box.finished.connect(finished)
        box.open()

    def show_wire_records(self, connection_id: str | None, first: int, last: int) -> None:
        """Show the wire log with the records ``first``..``last`` of a connection selected."""
        self.wire_dock.show()
        self.wire_dock.raise_()
        if not self.wire_log.select_seqs(connection_id, first, last):
            self.statusBar().showMessage("Those wire records are not in the wire log's view (filtered out?)", 8000)

    def on_links_link_refused(self, url: QUrl) -> None:
        """Say why a link with an unsafe scheme (file:, javascript: …) was not opened."""
        self.statusBar().showMessage(f"Not opened: links with the scheme {url.scheme()!r} are never followed", 8000)

    def focus_chat(self) -> None:
        """Move the keyboard focus to the chat input."""
        self.centre_tabs.setCurrentWidget(self.splitter)
        self.chat.focus_input()

    def show_inspector(self) -> None:
        """Bring the inspector (and chat) page to the front."""
        self.centre_tabs.setCurrentWidget(self.splitter)
        self.inspector.setFocus()

    def show_handoffs(self) -> None:
        """Bring the handoff sequence view to the front."""
        self.centre_tabs.setCurrentWidget(self.handoffs)

    def show_scenario_result(self, text: str, *, failed: bool = False) -> None:
        """Say how a scenario ended: the status bar and a non-modal note (the agent's text, plain)."""
        self.statusBar().showMessage("Scenario failed" if failed else "Scenario finished", 15000)
        box = QMessageBox(
            QMessageBox.Icon.Warning if failed else QMessageBox.Icon.Information,
            "Scenario finished",
            text,
            parent=self,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setObjectName("scenarioResultBox")
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.show()
        self.scenario_result = text

    def on_bridge_handoff_event(self, event: object) -> None:
        """A chain's first hop brings the handoff view to the front (once per chain)."""
        chain = getattr(event, "chain_id", None)
        if chain is not None and chain not in self._chains_seen:
            self._chains_seen.add(chain)
            self.show_handoffs()

    def focus_wire_filter(self) -> None:
        """Show the wire log and focus its filter field."""
        self.wire_dock.show()
        self.wire_dock.raise_()
        self.wire_log.focus_filter()

    def show_about(self) -> None:
        """A short about box (non-modal)."""
        from workbench import __version__

        box = QMessageBox(
            QMessageBox.Icon.Information,
            "About Agent Workbench",
            f"Agent Workbench {__version__}\nExplore MCP servers and A2A agents.",
            parent=self,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()

    # ------------------------------------------------------------------ layout memory

    def _restore_layout(self) -> None:
        geometry = self._settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        state = self._settings.value("window/state")
        if isinstance(state, QByteArray):
            self.restoreState(state)
        splitter = self._settings.value("window/splitter")
        if isinstance(splitter, QByteArray):
            self.splitter.restoreState(splitter)

    def restore_selection(self) -> None:
        """Select the connection that was selected when the window last closed (if it still exists)."""
        last = self._settings.value("window/selection")
        if isinstance(last, str) and last:
            self.ctx.selection.select(last)

    def save_layout(self) -> None:
        """Remember geometry, docks, splitter and the selected connection."""
        self._settings.setValue("window/geometry", self.saveGeometry())
        self._settings.setValue("window/state", self.saveState())
        self._settings.setValue("window/splitter", self.splitter.saveState())
        self._settings.setValue("window/selection", self.ctx.selection.current or "")
        self._settings.sync()

    # ------------------------------------------------------------------ shutdown

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802
        """Close after every connection has closed (async, no nested event loop)."""
        if self._may_close:
            event.accept()
            return
        event.ignore()
        if self._shutdown_task is None:
            self._shutdown_task = asyncio.ensure_future(self._shutdown())

    async def _shutdown(self) -> None:
        try:
            self.save_layout()
            self.status.detach()
            await asyncio.wait_for(self.ctx.services.connections.aclose(), SHUTDOWN_TIMEOUT)
        except Exception:  # top-level: the window must close whatever happened
            log.exception("shutdown failed")
        finally:
            set_error_sink(None)
            self.ctx.bridge.detach()
            self._may_close = True
            self.shutdown_finished.emit()
            self.close()
