"""An MCP App shown with its tool's result: the sandboxed web view, its bridge, notices, and the missing-extra case.

``AppView`` renders one app. QtWebEngine comes with the ``apps`` extra and is imported (``page.py``) only when
the first app is shown; without it the view says so in words and the tool's plain result stays the whole
answer. The app's bridge is the core's ``AppBridge``; this module is its ``AppHost``: tool calls go through
the same agent (and connection) the user's calls do, each through the window's tool-call gate (a destructive
tool asks the user, as the profile's policy says; a tool refused once is refused to the app from then on),
links go to the window's ``LinkGate`` (the user sees the whole URL first), size changes set the view's height
within bounds, and every refusal (a navigation, a popup, a request, a permission) is shown in the view and kept
in the wire log.
"""

from __future__ import annotations

import asyncio
import importlib.util
import os
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QUrl, Signal
from PySide6.QtWidgets import QFrame, QVBoxLayout, QWidget

from workbench.core.apps.bridge import PROTOCOL, AppBridge
from workbench.core.apps.resource import AppResource
from workbench.core.protocols.base import ToolResult
from workbench.core.protocols.catalog import ResourceContents, ToolSpec
from workbench.core.tool_approval import DEFAULT_POLICY, ToolCallDeniedError, ToolCallGate, ToolCallRequest
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind
from workbench.ui.asyncutil import spawn
from workbench.ui.untrusted import SAFE_LINK_SCHEMES, LinkGate, plain_label

if TYPE_CHECKING:
    from workbench.ui.apps.page import AppPage, HostObject, RequestGuard

HAS_WEBENGINE = importlib.util.find_spec("PySide6.QtWebEngineWidgets") is not None
"""Whether QtWebEngine is installed (the ``apps`` extra)."""
MISSING_EXTRA = (
    "This tool has an app, but the window shows apps only with the apps extra "
    "(pip install 'agent-workbench[apps]', QtWebEngine). Its plain result is below."
)
AS_ROOT = (
    "This tool has an app, but the window runs as root, where Chromium's sandbox (which keeps the app's "
    "content contained) cannot run, and QtWebEngine would end the whole window. Run the workbench as a normal "
    "user to see apps; setting QTWEBENGINE_DISABLE_SANDBOX=1 lets them run without that sandbox, at your own "
    "risk. Its plain result is below."
)
MIN_HEIGHT, MAX_HEIGHT, DEFAULT_HEIGHT = 60, 900, 240
"""Bounds of the app's height in the window, whatever size it asks for (pixels)."""
MAX_NOTICES = 20
"""Notices listed in the view; later ones are counted."""


@dataclass(slots=True)
class AppServices:
    """What an app view needs from the inspector it is shown in.

    Attributes:
        tool: A tool of the app's server by name.
        call_tool: Calls a tool on the app's connection (the agent's ``call_tool``).
        read_resource: Reads a resource on that connection.
        links: Where links go to be offered to the user.
        wire: The window's wire recorder.
        connection_id: The connection the app came from (its records go on ``<id>/app/<n>``).
        approve_call: Whether a call of the app may go out: the window's tool-call gate, which asks the user
            as the connection's profile says (``None``: destructive tools are refused, others go out).
    """

    tool: Callable[[str], ToolSpec | None]
    call_tool: Callable[[str, dict[str, Any]], Awaitable[ToolResult]]
    read_resource: Callable[[str], Awaitable[ResourceContents]]
    links: LinkGate
    wire: WireRecorder | None
    connection_id: str
    approve_call: Callable[[ToolSpec, dict[str, Any]], Awaitable[bool]] | None = None


_counter = 0


def engine_refusal() -> str | None:
    """Why the web engine must not start here, in words, or ``None`` when it may.

    Without the apps extra there is no engine. As root, Chromium refuses to run with its sandbox on and
    exits the process (the window with it), so the engine starts only if the user turned the sandbox off
    themselves (``QTWEBENGINE_DISABLE_SANDBOX=1`` or ``--no-sandbox`` in ``QTWEBENGINE_CHROMIUM_FLAGS``);
    the window never turns it off.
    """
    if not HAS_WEBENGINE:
        return MISSING_EXTRA
    as_root = hasattr(os, "geteuid") and os.geteuid() == 0
    sandbox_off = os.environ.get("QTWEBENGINE_DISABLE_SANDBOX") == "1" or "--no-sandbox" in os.environ.get(
        "QTWEBENGINE_CHROMIUM_FLAGS", ""
    )
    return AS_ROOT if as_root and not sandbox_off else None


def _next_app_id(connection_id: str) -> str:
    global _counter
    _counter += 1
    return f"{connection_id}/app/{_counter}"


class AppView(QFrame):
    """One MCP App in the window (or the words saying it cannot be shown).

    Signals:
        initialized(): The app finished its handshake.
        noticed(str): A line about the app was shown (a refusal, a limit).
        closed(str): The app was taken down (the reason).
    """

    initialized = Signal()
    noticed = Signal(str)
    closed = Signal(str)

    def __init__(
        self,
        app: AppResource,
        tool: ToolSpec,
        arguments: dict[str, Any],
        services: AppServices,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("appView")
        self.setFrameShape(QFrame.Shape.StyledPanel if app.prefers_border is not False else QFrame.Shape.NoFrame)
        self.app, self.tool, self.services = app, tool, services
        self.app_connection_id = _next_app_id(services.connection_id)
        self._layout = layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.header = plain_label(f"app · {app.uri}", self)
        layout.addWidget(self.header)
        self.notices = plain_label("", self, wrap=True)
        self.notices.hide()
        layout.addWidget(self.notices)
        self._notice_lines: list[str] = []
        self._notice_count = 0
        self.bridge: AppBridge | None = None
        self.page: AppPage | None = None
        self.web: QWidget | None = None
        self.guard: RequestGuard | None = None
        self._host_object: HostObject | None = None
        self._profile: Any = None
        self._stopping: asyncio.Task[None] | None = None
        if app.dropped:
            self.notice(f"Declared origins refused: {', '.join(app.dropped)}")
        refusal = engine_refusal()
        if refusal is not None:
            self.missing = plain_label(refusal, self, wrap=True)
            layout.addWidget(self.missing)
            return
        self._build(arguments)

    def _build(self, arguments: dict[str, Any]) -> None:
        from PySide6.QtWebEngineWidgets import QWebEngineView

        from workbench.ui.apps import page as pages

        self._profile, self.guard = pages.make_profile(self.app.csp.network_origins)
        self.guard.on_refused.append(self.on_page_refused)
        self.page = pages.AppPage(self._profile)
        pages.harden(self.page.settings())
        self.page.refused.connect(self.on_page_refused)
        self._host_object = pages.HostObject(self.page)
        pages.attach_channel(self.page, self._host_object)
        web = QWebEngineView(self)
        web.setPage(self.page)
        web.setMinimumHeight(MIN_HEIGHT)
        web.setFixedHeight(DEFAULT_HEIGHT)
        self.web = web
        self._layout.addWidget(web)
        host = _Host(self)
        self.bridge = AppBridge(
            self.app,
            self.tool,
            arguments,
            host,
            self._host_object.to_app.emit,
            wire=self.services.wire,
            connection_id=self.app_connection_id,
        )
        self._host_object.ready_changed.connect(self.on_host_ready_changed)
        self._host_object.message_received.connect(self.on_host_message_received)
        self.page.set_host_document(self.app.content_security_policy())
        if self.services.wire is not None:
            self.services.wire.local(
                self.app_connection_id,
                WireKind.PROCESS,
                f"app {self.app.uri} shown; CSP: {self.app.content_security_policy()}",
                protocol=PROTOCOL,
            )

    # ------------------------------------------------------------------ result and lifecycle

    def show_result(self, result: ToolResult) -> None:
        """Hand the tool's result to the app (sent once it initialized)."""
        if self.bridge is not None:
            self.bridge.tool_result(result)

    def cancelled(self, reason: str) -> None:
        """The tool's call ended without a result."""
        if self.bridge is not None:
            self.bridge.tool_cancelled(reason)

    async def close_app(self, reason: str = "closed", timeout: float = 1.0) -> None:
        """Ask the app to tear down (up to ``timeout`` s), then free the page and its profile."""
        if self.bridge is not None and not self.bridge.closed:
            await self.bridge.teardown(reason, timeout)
        self.dispose(reason)

    def dispose(self, reason: str = "closed") -> None:
        """Free the page, then its profile (in that order, as QtWebEngine requires); idempotent."""
        if self.bridge is not None:
            self.bridge.close()
        if self.page is not None:
            if self.web is not None:
                self.web.hide()
                self.web.deleteLater()  # the view, then its page, then the profile: deleteLater keeps that order
                self.web = None
            self.page.deleteLater()
            self.page = None
            if self._profile is not None:
                self._profile.deleteLater()  # after the page: deleteLater runs in posting order
                self._profile = None
            self.closed.emit(reason)

    # ------------------------------------------------------------------ slots

    def on_host_ready_changed(self) -> None:
        """The relay is up: put the app in its frame."""
        if self._host_object is not None:
            self._host_object.load.emit(self.app.html)

    def on_host_message_received(self, text: str) -> None:
        """One message from the app, to the bridge."""
        bridge = self.bridge
        if bridge is None:
            return
        was = bridge.initialized
        bridge.receive(text)
        if bridge.initialized and not was:
            self.initialized.emit()

    def on_page_refused(self, what: str) -> None:
        """The page refused something the app tried."""
        self.notice(f"Refused: {what}")
        if self.services.wire is not None:
            self.services.wire.local(self.app_connection_id, WireKind.ERROR, f"app refused: {what}", protocol=PROTOCOL)

    # ------------------------------------------------------------------ shown to the user

    @property
    def notice_lines(self) -> list[str]:
        """The notices shown (newest last)."""
        return list(self._notice_lines)

    def notice(self, text: str) -> None:
        """Show a line about the app under its header (bounded; the wire log keeps the rest)."""
        self._notice_count += 1
        if len(self._notice_lines) < MAX_NOTICES:
            self._notice_lines.append(text)
        more = self._notice_count - len(self._notice_lines)
        self.notices.setText("\n".join(self._notice_lines) + (f"\n… and {more} more" if more > 0 else ""))
        self.notices.show()
        self.noticed.emit(text)

    def set_app_height(self, height: int | None) -> None:
        """Fit the view to the height the app asked for, within ``MIN_HEIGHT``..``MAX_HEIGHT``."""
        if self.web is not None and height is not None:
            self.web.setFixedHeight(max(MIN_HEIGHT, min(height, MAX_HEIGHT)))

    @staticmethod
    async def approve_alone(tool: ToolSpec, arguments: dict[str, Any], uri: str) -> bool:
        """Whether an app's call may go out with nobody to ask: the default policy, destructive tools refused."""
        try:
            await ToolCallGate().check(ToolCallRequest("", tool, arguments, f"app:{uri}"), DEFAULT_POLICY)
        except ToolCallDeniedError:
            return False
        return True

    def stop(self, reason: str) -> None:
        """Take the app down for ``reason`` and say so."""
        self.notice(f"The app was stopped: {reason}")
        if self._stopping is None:
            self._stopping = spawn(self.close_app(reason, timeout=0.5), doing="closing an app")


class _Host:
    """``AppHost`` for one ``AppView``: the window's services and the user's consent."""

    def __init__(self, view: AppView) -> None:
        self.view = view

    def tool(self, name: str) -> ToolSpec | None:
        return self.view.services.tool(name)

    async def approve_call(self, tool: ToolSpec, arguments: dict[str, Any]) -> bool:
        ask = self.view.services.approve_call
        if ask is not None:
            return await ask(tool, arguments)
        return await AppView.approve_alone(tool, arguments, self.view.app.uri)

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        return await self.view.services.call_tool(name, arguments)

    async def read_resource(self, uri: str) -> ResourceContents:
        return await self.view.services.read_resource(uri)

    def open_link(self, url: str) -> bool:
        qurl = QUrl(url)
        if not qurl.isValid() or qurl.scheme().lower() not in SAFE_LINK_SCHEMES:
            return False
        self.view.services.links.offer(qurl)
        return True

    def resize(self, width: int | None, height: int | None) -> None:
        self.view.set_app_height(height)

    def notice(self, text: str) -> None:
        self.view.notice(text)

    def stop(self, reason: str) -> None:
        self.view.stop(reason)
