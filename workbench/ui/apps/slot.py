"""Where a tool's app appears in the inspector: above its result, for the call on show; one app at a time.

``AppSlot.show_record`` is told about every call result the inspector shows. For a tool that names an app
(``_meta.ui.resourceUri``) it reads the app on the call's connection (``load_app``: type and size checked),
then shows an ``AppView`` with the call's arguments and result; for any other call it takes the previous
app down (teardown first). A failure to load the app is said in the slot, and the plain result stays below.
"""

from __future__ import annotations

import asyncio
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from workbench.core.apps.resource import app_uri, load_app
from workbench.core.errors import WorkbenchError
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.tool_approval import ToolCallDeniedError
from workbench.core.wire.recorder import WireRecorder
from workbench.ui.apps.view import AppServices, AppView
from workbench.ui.asyncutil import spawn
from workbench.ui.services import Services
from workbench.ui.untrusted import LinkGate, plain_label


class AppSlot(QWidget):
    """Holds the app of the result on show, or nothing (hidden).

    Args:
        links: Where the app's links are offered to the user.
        wire: The window's wire recorder.
        services: The window's services: the app's tool calls wait at their tool-call gate, under the
            profile of the call's connection (``None``: destructive tools are refused to apps).

    Signals:
        app_shown(object): An ``AppView`` was put in place.
    """

    app_shown = Signal(object)

    def __init__(
        self,
        links: LinkGate,
        wire: WireRecorder | None,
        parent: QWidget | None = None,
        *,
        services: Services | None = None,
    ) -> None:
        super().__init__(parent)
        self.setObjectName("appSlot")
        self.links, self.wire, self.services = links, wire, services
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self.message = plain_label("", self, wrap=True)
        self.message.hide()
        self._layout.addWidget(self.message)
        self.view: AppView | None = None
        self._shown_key: tuple[Any, ...] | None = None
        self._loading: asyncio.Task[None] | None = None
        self.hide()

    def show_record(self, record: Any, spec: ToolSpec | None, agent: RemoteAgent | None) -> None:
        """Show the app of ``record`` (a finished ``CallRecord``) if its tool has one, else clear the slot."""
        uri = app_uri(spec) if spec is not None else None
        result = getattr(record, "result", None)
        if spec is None or uri is None or result is None or agent is None or agent.server_features is None:
            self.clear()
            return
        key = (id(record), uri)
        if key == self._shown_key:
            return
        self.clear()
        self._shown_key = key
        self.message.setText(f"Loading the app {uri}…")
        self.message.show()
        self.show()
        self._loading = spawn(self._load(record, spec, agent, uri), doing=f"showing the app {uri}")

    async def _load(self, record: Any, spec: ToolSpec, agent: RemoteAgent, uri: str) -> None:
        server = agent.server_features
        assert server is not None
        try:
            app = await load_app(server.read_resource, uri)
        except WorkbenchError as exc:
            self.message.setText(f"The app {uri} cannot be shown: {exc.message}")
            return

        def tool(name: str) -> ToolSpec | None:
            return next((t for t in agent.tool_specs() if t.name == name), None)

        async def call_tool(name: str, arguments: dict[str, Any]) -> Any:
            return await agent.call_tool(name, arguments)

        async def approve_call(spec: ToolSpec, arguments: dict[str, Any]) -> bool:
            window = self.services
            if window is None:
                return await AppView.approve_alone(spec, arguments, uri)
            conn = window.connections.get(record.connection_id)
            try:
                await window.tool_calls.check_for(
                    conn.profile if conn is not None else None, spec, arguments, caller=f"app:{uri}"
                )
            except ToolCallDeniedError:
                return False
            return True

        services = AppServices(
            tool=tool,
            call_tool=call_tool,
            read_resource=server.read_resource,
            links=self.links,
            wire=self.wire,
            connection_id=record.connection_id,
            approve_call=approve_call,
        )
        self.message.hide()
        view = AppView(app, spec, dict(record.arguments), services, self)
        self._layout.addWidget(view)
        self.view = view
        view.show_result(record.result)
        self.app_shown.emit(view)

    def clear(self) -> None:
        """Take the app down (it is asked to tear down first) and hide the slot."""
        if self._loading is not None and not self._loading.done():
            self._loading.cancel()
        self._loading = None
        self._shown_key = None
        view, self.view = self.view, None
        if view is not None:
            view.hide()
            spawn(self._close(view), doing="closing an app")
        self.message.hide()
        self.hide()

    @staticmethod
    async def _close(view: AppView) -> None:
        await view.close_app("the result on show changed", timeout=0.5)
        view.deleteLater()
