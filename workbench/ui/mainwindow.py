"""MainWindow: docks, menus, status bar, and the one place where the panels are wired together."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QSettings, QSize, Qt, QUrl, Signal
from PySide6.QtGui import QCloseEvent, QDesktopServices, QResizeEvent
from PySide6.QtWidgets import QDialog, QDockWidget, QMainWindow, QMessageBox, QTabWidget, QVBoxLayout, QWidget

from workbench.core.sampling.service import SamplingAnswered
from workbench.ui.actions import ActionRegistry, glyph
from workbench.ui.asyncutil import set_error_sink
from workbench.ui.banner import ErrorBanner
from workbench.ui.context import PanelContext
from workbench.ui.dialog_rules import present, show_window
from workbench.ui.dock_sizer import DockSizer
from workbench.ui.errors import ErrorView
from workbench.ui.help import HelpPages, log_folder
from workbench.ui.icons import load_after_first_paint
from workbench.ui.menus import build_menus
from workbench.ui.panels.authsteps.widget import AuthStepsWidget
from workbench.ui.panels.chat.widget import ChatWidget
from workbench.ui.panels.handoffs.widget import HandoffWidget
from workbench.ui.panels.inspector.widget import InspectorWidget
from workbench.ui.panels.sidebar.widget import SidebarWidget
from workbench.ui.panels.stderr.widget import StderrWidget
from workbench.ui.panels.wirelog.widget import WireLogWidget
from workbench.ui.prompts import UserPrompts
from workbench.ui.statusbar import StatusBarController
from workbench.ui.untrusted import shown
from workbench.ui.window_layout import MINIMUM

log = logging.getLogger(__name__)

SHUTDOWN_TIMEOUT = 10.0
"""Seconds the window waits for every connection to close before it gives up on them."""

UrlOpener = Callable[[QUrl], bool]
ScenarioStarter = Callable[[], asyncio.Future[None]]
"""Starts the handoff demo scenario in the window; the future ends with the scenario's run."""

PAGE_MINIMUM = QSize(320, 240)
"""The handoff page's minimum (its own hint asks for more height than a laptop can spare)."""
WIRE_LOG_MIN_HEIGHT = 150
"""The wire log may be dragged this short (a toolbar and a few rows); the window sizes it by the space budget."""

CHAT_HINT = (
    "Nothing said yet. Type a message below and press Ctrl+Enter (or Send); "
    "the agent's reply streams in here. New conversation starts over."
)


class MainWindow(QMainWindow):
    """The workbench window: connections (left), the selected connection's workspace (centre), wire log below.

    The workspace fits the connection's protocol (MCP: tools, resources, prompts, a chat tab only when
    a tool is the server's entry point; A2A: chat first, then card, skills and tasks). The wire log,
    server stderr and auth steps share the bottom dock area and stay out of the way until needed.

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
        self.scenario_task: asyncio.Future[None] | None = None  # the handoff scenario's run, once started
        self._start_scenario: ScenarioStarter | None = None
        self.setObjectName("mainWindow")
        self.setWindowTitle("Agent Workbench")
        self.setMinimumSize(MINIMUM)
        self.help = HelpPages(self, ctx.links, log_folder(Path(settings.fileName()).parent), url_opener)

        self.actions_registry = ActionRegistry(self)
        self.sidebar = SidebarWidget(ctx)
        self.inspector = InspectorWidget(ctx)
        self.chat = ChatWidget(ctx)
        self.chat.transcript.setPlaceholderText(CHAT_HINT)
        self.handoffs = HandoffWidget(ctx)
        self.wire_log = WireLogWidget(ctx)
        self.stderr = StderrWidget(ctx)
        self.auth_steps = AuthStepsWidget(ctx)
        self.banner = ErrorBanner()
        # Pages and docks may be squeezed below what they would like (they scroll or clip inside)
        # so that the window fits a 1366×768 laptop with the wire log open.
        self.handoffs.setMinimumSize(PAGE_MINIMUM)
        self.wire_log.setMinimumHeight(WIRE_LOG_MIN_HEIGHT)

        # The selected connection's workspace: its protocol's tabs, the chat among them where the
        # connection takes prompts (A2A: first; MCP: when a tool is its entry point).
        self.inspector.set_chat(self.chat)
        # the handoff sequence diagram needs the whole width: a second page of the centre
        self.centre_tabs = QTabWidget()
        self.centre_tabs.setObjectName("centreTabs")
        self.centre_tabs.setDocumentMode(True)
        self.centre_tabs.addTab(self.inspector, "Workspace")
        self.centre_tabs.addTab(self.handoffs, "Handoffs")
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
        self.auth_dock = self._dock("Login", "authStepsDock", self.auth_steps, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.tabifyDockWidget(self.wire_dock, self.stderr_dock)
        self.tabifyDockWidget(self.stderr_dock, self.auth_dock)
        self.wire_dock.raise_()
        # the bottom docks stay out of the way until asked for (a record to show, Ctrl+3, the status bar)
        for dock in (self.stderr_dock, self.auth_dock):
            dock.hide()

        self.status = StatusBarController(ctx, self.statusBar())
        self.wire_toggle = self.status.add_toggle(self.wire_dock.toggleViewAction(), "wireToggle", glyph("view.wire"))
        self.docks = DockSizer(
            self,
            settings,
            sidebar_dock=self.sidebar_dock,
            wire_dock=self.wire_dock,
            bottom_docks=(self.wire_dock, self.stderr_dock, self.auth_dock),
            wire_log=self.wire_log,
            centre_tabs=self.centre_tabs,
            handoffs=self.handoffs,
            banner=self.banner,
        )
        # the wire log's toggle in the View menu is the registry's (Ctrl+3, listed among the shortcuts)
        wire_toggle = self.actions_registry.get("view.wire")
        wire_toggle.setCheckable(True)
        wire_toggle.setChecked(self.wire_dock.toggleViewAction().isChecked())
        self.wire_dock.toggleViewAction().toggled.connect(wire_toggle.setChecked)
        build_menus(
            self.menuBar(),
            self.actions_registry,
            [dock.toggleViewAction() if dock is not self.wire_dock else wire_toggle for dock in self._docks()],
        )
        self._connect_signals()
        self.docks.restore()
        load_after_first_paint(self)  # the icons' glyphs (workbench.ui.icons: lazy, off the start-up path)

    # ------------------------------------------------------------------ construction

    def _dock(self, title: str, name: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(name)
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    def _connect_signals(self) -> None:
        ctx, bind = self.ctx, self.actions_registry.bind
        # errors: one presenter; an error is shown once, inline or in the banner (errors.py)
        set_error_sink(lambda error, doing: ctx.errors.report(error, doing))
        ctx.errors.set_connection_source(lambda: ctx.selection.current)  # an error is the selected one's
        ctx.errors.error_reported.connect(self.on_errors_error_reported)
        self.banner.set_connection(ctx.selection.current)
        ctx.selection.changed.connect(self.banner.set_connection)
        # links in untrusted content open only after the user agrees
        ctx.links.link_requested.connect(self.on_links_link_requested)
        ctx.links.link_refused.connect(self.on_links_link_refused)
        # peers' requests waiting for the user
        self.prompts.pending_changed.connect(self.status.set_pending_prompts)
        ctx.services.tool_calls.approver = self.prompts.approve_tool_call  # every tool call's yes is asked here
        self.prompts.request_answered.connect(self.chat.viewmodel.on_prompts_request_answered)
        self.prompts.request_deferred.connect(self.chat.viewmodel.on_prompts_request_deferred)
        # sidebar
        self.sidebar.status_message.connect(lambda text: self.statusBar().showMessage(text, 8000))
        self.inspector.connect_requested.connect(self.sidebar.viewmodel.connect_profile)
        # a chat turn starting or ending changes the agent's tasks: the Tasks tab re-reads them
        self.chat.viewmodel.streaming_changed.connect(self.on_chat_streaming_changed)
        bind("connection.add", self.sidebar.add_profile)
        bind("connection.edit", self.sidebar.edit_selected)
        bind("connection.duplicate", self.sidebar.duplicate_selected)
        bind("connection.remove", self.sidebar.remove_selected)
        bind("connection.connect", self.sidebar.connect_selected)
        bind("connection.disconnect", self.sidebar.disconnect_selected)
        bind("connection.reconnect", self.sidebar.reconnect_selected)
        bind("connection.login", self.sidebar.login_selected)
        bind("connection.logout", self.sidebar.logout_selected)
        bind("connection.sampling", self.open_sampling_responder)
        ctx.bridge.sampling_answered.connect(self.on_bridge_sampling_answered)
        # auth steps and handoff hops: their exchanges are selected in the wire log
        self.auth_steps.wire_records_requested.connect(self.show_wire_records)
        self.auth_steps.viewmodel.attention_requested.connect(self.show_login_steps)
        self.handoffs.wire_records_requested.connect(self.show_wire_records)
        ctx.bridge.handoff_event.connect(self.on_bridge_handoff_event)
        bind("view.handoffs", self.show_handoffs)
        self.handoffs.scenario_requested.connect(self.run_handoff_scenario)
        bind("demo.handoff_scenario", self.run_handoff_scenario)
        self.offer_handoff_scenario(None)
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
        bind("view.wire", self.toggle_wire_log)
        bind("app.quit", self.close)
        bind("app.about", self.show_about)
        bind("help.getting_started", self.help.show_getting_started)
        bind("help.shortcuts", lambda: self.help.show_shortcuts(self.actions_registry.all()))
        bind("help.readme", self.help.show_readme)
        bind("help.log_folder", self.help.open_log_folder)

    # ------------------------------------------------------------------ slots

    def on_chat_streaming_changed(self, connection_id: object, streaming: bool) -> None:
        """A chat turn started (a new task) or ended (its final state): the Tasks tab shows it."""
        if isinstance(connection_id, str):
            self.inspector.refresh_tasks(connection_id)

    def on_errors_error_reported(self, view: ErrorView) -> None:
        """Show a failure in the banner, unless the panel where the user acted shows it (errors.py's rule)."""
        if not view.inline:
            self.banner.show_error(view)

    def on_links_link_requested(self, url: QUrl) -> None:
        """Ask before opening a link from untrusted content; show the whole URL and its host."""
        text = url.toString()
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Open link?",
            shown(f"Open this link in your browser?\n\n{text}\n\nHost: {url.host() or '(none)'}"),
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
        present(box)

    def show_wire_records(self, connection_id: str | None, first: int, last: int) -> None:
        """Show the wire log with the records ``first``..``last`` of a connection selected.

        The wire log opens at its budget's height: from a handoff arrow, the diagram keeps its own
        (``HandoffWidget.budget_height``).
        """
        self.wire_dock.show()
        self.wire_dock.raise_()
        self.docks.fit_soon()
        if not self.wire_log.select_seqs(connection_id, first, last):
            self.statusBar().showMessage("Those wire records are not in the wire log's view (filtered out?)", 8000)

    def show_login_steps(self) -> None:
        """Show the Login view (a login the user started is under way, or a step failed)."""
        self.auth_dock.show()
        self.auth_dock.raise_()
        self.docks.fit_soon()

    def on_links_link_refused(self, url: QUrl) -> None:
        """Say why a link with an unsafe scheme (file:, javascript: …) was not opened."""
        self.statusBar().showMessage(f"Not opened: links with the scheme {url.scheme()!r} are never followed", 8000)

    def focus_chat(self) -> None:
        """Show the workspace's chat tab (where the connection has one) and focus its input."""
        self.centre_tabs.setCurrentWidget(self.inspector)
        if self.inspector.show_chat():
            self.chat.focus_input()
        else:
            self.statusBar().showMessage("This connection takes no chat messages (no agent entry point).", 8000)

    def show_inspector(self) -> None:
        """Bring the workspace to the front."""
        self.centre_tabs.setCurrentWidget(self.inspector)
        self.inspector.setFocus()

    def open_sampling_responder(self) -> QDialog | None:
        """Choose who answers the selected connection's sampling requests (returns the dialog, or None)."""
        item = self.sidebar.selected_item()
        service = self.ctx.services.sampling
        if item is None or service is None:
            return None
        from workbench.ui.dialogs.sampling_responder import SamplingResponderDialog

        dialog = SamplingResponderDialog(item.profile.name, service, self)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def on_bridge_sampling_answered(self, event: SamplingAnswered) -> None:
        """Say in the status bar who answered a sampling request (the visible log of automatic answers)."""
        from workbench.ui.dialogs.sampling_responder import describe_entry

        self.statusBar().showMessage(shown(f"Sampling for {event.connection}: {describe_entry(event.entry)}"), 8000)

    def show_handoffs(self) -> None:
        """Bring the handoff sequence view to the front."""
        self.centre_tabs.setCurrentWidget(self.handoffs)

    def offer_handoff_scenario(self, start: ScenarioStarter | None) -> None:
        """Offer "Run the handoff demo scenario" (View menu, the handoff view's empty state); ``start`` runs it.

        The composition root offers it where the demo's agents can be served (``workbench demo``);
        ``None`` offers nothing (the empty state then names the command that runs it).
        """
        self._start_scenario = start
        idle = self.scenario_task is None
        action = self.actions_registry.get("demo.handoff_scenario")
        action.setVisible(start is not None)
        action.setEnabled(start is not None and idle)
        self.handoffs.set_scenario_offered(start is not None, enabled=idle)

    def run_handoff_scenario(self) -> None:
        """Show the handoff view and run the offered demo scenario there (once a session: its agents stay listed)."""
        self.show_handoffs()
        if self._start_scenario is None or self.scenario_task is not None:
            return
        self.scenario_task = self._start_scenario()
        self.offer_handoff_scenario(self._start_scenario)  # running: the entries are disabled

    def show_scenario_result(self, text: str, *, failed: bool = False) -> None:
        """Say how a scenario ended: the status bar and a non-modal note (the agent's text, plain)."""
        self.statusBar().showMessage("Scenario failed" if failed else "Scenario finished", 15000)
        box = QMessageBox(
            QMessageBox.Icon.Warning if failed else QMessageBox.Icon.Information,
            "Scenario finished",
            shown(text),
            parent=self,
        )
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setObjectName("scenarioResultBox")
        box.setWindowModality(Qt.WindowModality.NonModal)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        show_window(box)
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

    def toggle_wire_log(self) -> None:
        """View ▸ Wire log (Ctrl+3): show it (its filter focused) or hide it; behind another tab, raise it."""
        wire_toggle = self.actions_registry.get("view.wire")
        behind_a_tab = self.wire_dock.isVisible() and self.wire_log.visibleRegion().isEmpty()
        if wire_toggle.isChecked() or behind_a_tab:
            wire_toggle.setChecked(True)
            self.focus_wire_filter()
        else:
            self.wire_dock.hide()

    def _docks(self) -> tuple[QDockWidget, ...]:
        """The docks, in the View menu's order."""
        return (self.sidebar_dock, self.wire_dock, self.stderr_dock, self.auth_dock)

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
        present(box)

    # ------------------------------------------------------------------ layout memory

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        """A new window size (another screen, maximised): the wire log takes that size's budget, now or when shown."""
        super().resizeEvent(event)
        old = event.oldSize()
        if old.isValid() and old.height() != event.size().height():  # not the first show: a new size
            self.docks.on_window_resized()

    def restore_selection(self) -> None:
        """Select the connection that was selected when the window last closed, if it is listed now.

        A connection that is not listed (a handoff scenario's agent, a removed profile) is not
        selected: the window would open on a stale "not connected". The demo calls this again once
        its agents are listed.
        """
        last = self._settings.value("window/selection")
        if isinstance(last, str) and last and self.sidebar.viewmodel.item(last) is not None:
            self.ctx.selection.select(last)

    def save_layout(self) -> None:
        """Remember geometry, docks, dock sizes and the selected connection."""
        self.docks.save()
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
