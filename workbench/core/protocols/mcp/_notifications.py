"""What the server sends unasked: its requests (elicitation, sampling, roots), log messages and notifications.

The SDK calls the callbacks here; they answer the server through the agent's handlers and fan
events out: to the calls in progress (their ``call_tool_stream`` shows them), to the agent's
listeners, and to the core event bus.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import mcp.types as types
from mcp.client.context import ClientRequestContext

from workbench.core.errors import SamplingRejectedError, WorkbenchError
from workbench.core.events import ElicitationCompleted, ResourceUpdated
from workbench.core.protocols.base import (
    AgentEvent,
    ElicitationRequested,
    ElicitationResponse,
    LogMessage,
    SamplingRequested,
)
from workbench.core.protocols.mcp import convert
from workbench.core.protocols.mcp._catalog_sync import changed_list
from workbench.core.protocols.mcp._config import LiveSettings, MCPConfig
from workbench.core.protocols.mcp.client_tasks import ClientTaskHost, hosted_methods, tasks_capability

log = logging.getLogger(__name__)

Listener = Callable[[AgentEvent], None]


class Notifications:
    """The SDK callbacks of one connection, and where the events they make go.

    Args:
        config: The agent's configuration (handlers, bus).
        live: The agent's name and the roots it offers now.
        on_list_changed: Told which list (``tools``, ``resources``, ``prompts``) the server changed.
        on_fault: Told of each message the transport could not read.
    """

    def __init__(
        self,
        config: MCPConfig,
        live: LiveSettings,
        *,
        on_list_changed: Callable[[str], None],
        on_fault: Callable[[Exception], None],
    ) -> None:
        self.config = config
        self.live = live
        self._on_list_changed = on_list_changed
        self._on_fault = on_fault
        self._calls: dict[int, asyncio.Queue[AgentEvent | None]] = {}
        self._listeners: list[Listener] = []

    def client_kwargs(self) -> dict[str, Any]:
        """The callbacks for a new SDK ``Client``.

        The SDK declares a capability exactly when it has its callback, so a capability switched off
        (``config.client_capabilities``) gets none. ``list_roots_callback`` only when roots are
        configured too: a server told of roots asks for them.
        """
        switches = self.config.client_capabilities
        kwargs: dict[str, Any] = {"logging_callback": self._on_log, "message_handler": self._on_message}
        if switches.sampling:
            kwargs["sampling_callback"] = self._on_sample
            # Tools in sampling requests (SEP-1577): a person, a script or a model can answer with tool_use.
            tools = types.SamplingToolsCapability() if switches.sampling_tools else None
            kwargs["sampling_capabilities"] = types.SamplingCapability(tools=tools)
        if switches.elicitation:
            kwargs["elicitation_callback"] = self._on_elicit
        if self.live.roots is not None and switches.roots:
            kwargs["list_roots_callback"] = self._on_list_roots
        return kwargs

    def shape_capabilities(self, capabilities: types.ClientCapabilities, version: str) -> types.ClientCapabilities:
        """The capabilities the SDK built, with only the elicitation modes switched on (it declares both).

        A handshake-era client also declares ``tasks`` for the requests it runs as tasks (``client_tasks``).
        """
        switches = self.config.client_capabilities
        update: dict[str, Any] = {"tasks": tasks_capability(hosted_methods(switches), version)}
        if capabilities.elicitation is not None:
            update["elicitation"] = types.ElicitationCapability(
                form=types.FormElicitationCapability() if switches.elicitation_form else None,
                url=types.UrlElicitationCapability() if switches.elicitation_url else None,
            )
        return capabilities.model_copy(update=update)

    def client_task_host(self) -> ClientTaskHost | None:
        """A new session's host of the server's task-augmented requests (``None``: tasks or both requests off)."""
        hosted = hosted_methods(self.config.client_capabilities)
        return ClientTaskHost(hosted) if hosted else None

    # ------------------------------------------------------------------ where events go

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Receive events not tied to one call (logs); returns a function that removes the listener."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def open_call(self) -> tuple[int, asyncio.Queue[AgentEvent | None]]:
        """A queue that receives the events during one call (``None`` ends it); close it with ``close_call``."""
        queue: asyncio.Queue[AgentEvent | None] = asyncio.Queue()
        key = id(queue)
        self._calls[key] = queue
        return key, queue

    def close_call(self, key: int) -> None:
        """Stop feeding a call's queue, and end it."""
        queue = self._calls.pop(key, None)
        if queue is not None:
            queue.put_nowait(None)

    def finish_calls(self) -> None:
        """The session ended: end every call's queue."""
        for queue in list(self._calls.values()):
            queue.put_nowait(None)

    def emit(self, event: AgentEvent) -> None:
        """Give ``event`` to the calls in progress and to the listeners."""
        for queue in list(self._calls.values()):
            queue.put_nowait(event)
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:
                log.exception("agent listener failed")

    # ------------------------------------------------------------------ callbacks from the SDK

    async def _on_elicit(
        self, context: ClientRequestContext, params: types.ElicitRequestParams
    ) -> types.ElicitResult | types.ErrorData:
        name = self.live.name
        url_mode = isinstance(params, types.ElicitRequestURLParams)
        switches = self.config.client_capabilities
        if not (switches.elicitation_url if url_mode else switches.elicitation_form):
            # Not advertised: a server that asks anyway is told so, and nobody is shown the request.
            mode = "url" if url_mode else "form"
            log.info("%s asked for a %s elicitation, which this connection does not advertise", name, mode)
            return types.ErrorData(
                code=types.INVALID_PARAMS, message=f"This client does not support {mode} elicitation."
            )
        request = convert.elicitation_request(params, name)
        self.emit(ElicitationRequested(request=request, agent=name, protocol="mcp", raw=params))
        handler = self.config.elicitation_handler
        if handler is None:
            log.warning("%s asked for input but no elicitation handler is set: declined", name)
            return convert.elicit_result(ElicitationResponse("decline"))
        return convert.elicit_result(await handler(request))

    async def _on_sample(
        self, context: ClientRequestContext, params: types.CreateMessageRequestParams
    ) -> types.CreateMessageResult | types.CreateMessageResultWithTools | types.ErrorData:
        name = self.live.name
        if params.tools and not self.config.client_capabilities.sampling_tools:
            return types.ErrorData(
                code=types.INVALID_PARAMS, message="This client does not support tools in sampling requests."
            )
        request = convert.sampling_request(params, name, self.config.connection_id)
        self.emit(SamplingRequested(request=request, agent=name, protocol="mcp", raw=params))
        handler = self.config.sampling_handler
        if handler is None:
            return types.ErrorData(
                code=types.INVALID_REQUEST, message="This workbench connection has no sampling handler."
            )
        try:
            return convert.sampling_result(await handler(request))
        except SamplingRejectedError as exc:
            # The spec's code for "the user rejected the sampling request".
            return types.ErrorData(code=-1, message=exc.message)
        except WorkbenchError as exc:
            return types.ErrorData(code=types.INTERNAL_ERROR, message=f"sampling failed: {exc.message}")

    async def _on_list_roots(self, context: ClientRequestContext) -> types.ListRootsResult | types.ErrorData:
        roots = self.live.roots or []
        return types.ListRootsResult(roots=[types.Root(uri=uri, name=name) for uri, name in roots])

    async def _on_log(self, params: types.LoggingMessageNotificationParams) -> None:
        self.emit(
            LogMessage(
                level=str(params.level),
                logger=params.logger,
                data=params.data,
                agent=self.live.name,
                protocol="mcp",
            )
        )

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, Exception):
            # Garbage on stdout, malformed JSON-RPC: the wire log holds the raw text.
            self._on_fault(message)
            return
        root = getattr(message, "root", message)
        method = getattr(root, "method", "")
        what = changed_list(method)
        cid = self.config.connection_id
        if what is not None:
            self._on_list_changed(what)
        elif method == "notifications/resources/updated":
            self.config.publish(ResourceUpdated(connection_id=cid, uri=str(root.params.uri)))
        elif method == "notifications/elicitation/complete":
            self.config.publish(ElicitationCompleted(connection_id=cid, elicitation_id=root.params.elicitation_id))
