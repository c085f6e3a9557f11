"""The host side of an MCP App's postMessage JSON-RPC bridge, Qt-free: what the app asks, what it is told.

The view that renders the app hands every message the app posted to ``AppBridge.receive`` (JSON text) and
sends on whatever the bridge gives its ``send`` callback. The bridge answers ``ui/initialize``, sends the
tool's input and result once the app says ``ui/notifications/initialized`` (never before, as the extension
requires), runs ``tools/call`` and ``resources/read`` through its ``AppHost`` (the same agent the user calls,
on the same connection), offers ``ui/open-link`` URLs to the user, passes size changes on, and asks the app
to tear down (``ui/resource-teardown``) before the view goes.

Every message either way is a wire record (protocol ``mcp-app``) on the bridge's own connection id. The app
is untrusted: messages past ``AppLimits`` are dropped and counted (one local record per burst, not one per
message), requests past them are answered with a rate-limit error while replies are affordable, tools an app
may not call (visibility without ``app``) are refused, every call goes through the host's approval (the
window's tool-call gate: a destructive tool asks the user, per the profile's policy), a tool the user refused
is refused to this app from then on without asking again, and an app that keeps flooding is stopped.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from typing import Any, Protocol

from workbench import __version__
from workbench.core.apps.limits import AppLimits, TokenBucket
from workbench.core.apps.resource import AppResource, callable_from_app
from workbench.core.apps.shapes import resource_contents_json, tool_json, tool_result_json
from workbench.core.errors import RemoteError, WorkbenchError
from workbench.core.protocols.base import ToolResult
from workbench.core.protocols.catalog import ResourceContents, ToolSpec
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind

PROTOCOL = "mcp-app"
"""The wire records' protocol."""
PROTOCOL_VERSION = "2026-01-26"
"""The MCP Apps bridge version answered when the app asks for none the host knows."""
HOST_INFO = {"name": "agent-workbench", "version": __version__}
PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = -32700, -32600, -32601, -32602, -32603
APP_ERROR = -32000
"""Implementation-defined refusals (rate limit, denied call, refused link); ``data.reason`` says which."""
MAX_LINK = 2048
"""Longest URL an app may ask to open."""
LINK_SCHEMES = ("https://", "http://", "mailto:")


class AppHost(Protocol):
    """What the bridge needs of the window (or a script) hosting one app."""

    def tool(self, name: str) -> ToolSpec | None:
        """A tool of the app's server, by name (``None`` when the server has none by that name)."""

    async def approve_call(self, tool: ToolSpec, arguments: dict[str, Any]) -> bool:
        """Whether this call may go out (the host asks the user when its tool-call policy says so)."""

    async def call_tool(self, name: str, arguments: dict[str, Any]) -> ToolResult:
        """Call a tool on the app's server, as a user's call goes."""

    async def read_resource(self, uri: str) -> ResourceContents:
        """Read a resource of the app's server."""

    def open_link(self, url: str) -> bool:
        """Offer ``url`` to the user (who sees it whole and decides); ``False`` if refused outright."""

    def resize(self, width: int | None, height: int | None) -> None:
        """The app's content changed size (pixels, already bounded)."""

    def notice(self, text: str) -> None:
        """Something about the app the user should see (a limit hit, a refusal)."""

    def stop(self, reason: str) -> None:
        """The bridge gave up on the app (flooding, or it asked to close): take it down."""


def _error(rid: Any, code: int, message: str, reason: str | None = None, **data: Any) -> dict[str, Any]:
    err: dict[str, Any] = {"code": code, "message": message}
    if reason is not None:
        err["data"] = {"reason": reason, **data}
    return {"jsonrpc": "2.0", "id": rid, "error": err}


class AppBridge:
    """One rendered app's bridge.

    Args:
        app: The app's checked resource.
        tool: The tool whose result the app shows.
        arguments: The arguments that tool was called with.
        host: Calls, reads, links, sizes, notices.
        send: Delivers one JSON text to the app (the view posts it).
        wire: Where every message is recorded (``None``: not recorded).
        connection_id: The wire records' connection (``<connection>/app/<n>`` in the window).
        limits: The app's bounds.
        clock: Monotonic seconds, for the rate limits.
        theme: ``light`` or ``dark``, told to the app.
    """

    def __init__(
        self,
        app: AppResource,
        tool: ToolSpec,
        arguments: dict[str, Any],
        host: AppHost,
        send: Callable[[str], None],
        *,
        wire: WireRecorder | None = None,
        connection_id: str = "app",
        limits: AppLimits | None = None,
        clock: Callable[[], float] = time.monotonic,
        theme: str = "light",
    ) -> None:
        self.app, self.tool, self.arguments = app, tool, dict(arguments)
        self.host, self._send_text, self.wire, self.connection_id = host, send, wire, connection_id
        self.limits = lim = limits or AppLimits()
        self.theme = theme
        self._messages = TokenBucket(lim.messages_burst, lim.messages_per_second, clock)
        self._replies = TokenBucket(lim.replies_burst, lim.replies_per_second, clock)
        self._calls = TokenBucket(lim.calls_burst, lim.calls_per_second, clock)
        self._links = TokenBucket(lim.links_burst, lim.links_per_second, clock)
        self.initialized = False
        self.closed = False
        self.dropped = 0
        """Messages from the app dropped by the limits (over its lifetime)."""
        self._burst_dropped = 0
        self._told_limited = False
        self._clock = clock
        self._flushed_at = float("-inf")
        self._in_flight: set[asyncio.Task[None]] = set()
        self._refused: set[str] = set()
        """Tools the user refused to this app: later calls are refused without asking again."""
        self._result: ToolResult | None = None
        self._cancelled: str | None = None
        self._next_id = 0
        self._pending: dict[int, asyncio.Future[Any]] = {}

    # ------------------------------------------------------------------ host -> app

    def tool_result(self, result: ToolResult) -> None:
        """The tool's result: sent now if the app is initialized, else right after its input."""
        self._result = result
        if self.initialized:
            self._notify("ui/notifications/tool-result", tool_result_json(result))

    def tool_cancelled(self, reason: str) -> None:
        """The tool's call was cancelled or failed: the app is told instead of getting a result."""
        self._cancelled = reason
        if self.initialized:
            self._notify("ui/notifications/tool-cancelled", {"reason": reason})

    async def teardown(self, reason: str, timeout: float = 1.0) -> bool:
        """Ask the app to tear down and wait up to ``timeout`` seconds for its answer; then close.

        Returns:
            Whether the app answered in time (an app that never initialized is not asked).
        """
        answered = False
        if self.initialized and not self.closed:
            future = self._request("ui/resource-teardown", {"reason": reason})
            try:
                await asyncio.wait_for(future, timeout)
                answered = True
            except (TimeoutError, WorkbenchError):
                answered = False
        self.close()
        return answered

    def close(self) -> None:
        """Stop: cancel the app's running calls, take no more messages."""
        if not self.closed:
            self._flush_drops(now=True)
        self.closed = True
        for task in list(self._in_flight):
            task.cancel()
        for future in self._pending.values():
            if not future.done():
                future.cancel()
        self._pending.clear()

    # ------------------------------------------------------------------ app -> host

    def receive(self, text: str) -> None:
        """Take one message the app posted (its JSON text); never raises on bad input."""
        if self.closed:
            return
        if len(text) > self.limits.max_message_chars:
            self._drop(f"a message of {len(text):,} characters (limit {self.limits.max_message_chars:,})")
            return
        if not self._messages.take():
            self._drop("over the message rate")
            return
        self._flush_drops()
        if self.wire is not None:
            self.wire.jsonrpc(self.connection_id, Direction.IN, text, protocol=PROTOCOL)
        try:
            message = json.loads(text)
        except (ValueError, RecursionError):
            self._reply(_error(None, PARSE_ERROR, "Not JSON."))
            return
        if not isinstance(message, dict) or message.get("jsonrpc") != "2.0":
            self._reply(_error(None, INVALID_REQUEST, "Not a JSON-RPC 2.0 message (batches are not taken)."))
            return
        method, rid = message.get("method"), message.get("id")
        if method is None:
            self._answer(message)
        elif not isinstance(method, str):
            self._reply(_error(rid, INVALID_REQUEST, "The method is not a string."))
        elif "id" in message:
            self._request_from_app(rid, method, message.get("params"))
        else:
            self._notification(method, message.get("params"))

    def _request_from_app(self, rid: Any, method: str, params: Any) -> None:
        params = params if isinstance(params, dict) else {}
        if method == "ui/initialize":
            self._respond(rid, self._initialize_result(params))
        elif method == "ping":
            self._respond(rid, {})
        elif method == "tools/call":
            self._tools_call(rid, params)
        elif method == "resources/read":
            uri = params.get("uri")
            if not isinstance(uri, str) or len(uri) > MAX_LINK:
                self._reply(_error(rid, INVALID_PARAMS, "resources/read needs a uri."))
            elif self._may_start(rid):
                self._start(rid, self._read(rid, uri))
        elif method == "ui/open-link":
            self._open_link(rid, params.get("url"))
        elif method == "ui/request-display-mode":
            self._respond(rid, {"mode": "inline"})
        else:
            self._reply(_error(rid, METHOD_NOT_FOUND, f"This host does not offer {method[:80]!r}."))

    def _notification(self, method: str, params: Any) -> None:
        params = params if isinstance(params, dict) else {}
        if method == "ui/notifications/initialized" and not self.initialized:
            self.initialized = True
            self._notify("ui/notifications/tool-input", {"arguments": self.arguments})
            if self._result is not None:
                self._notify("ui/notifications/tool-result", tool_result_json(self._result))
            elif self._cancelled is not None:
                self._notify("ui/notifications/tool-cancelled", {"reason": self._cancelled})
        elif method == "ui/notifications/size-changed":
            self.host.resize(self._side(params.get("width")), self._side(params.get("height")))
        elif method == "ui/notifications/request-teardown":
            self.host.stop("The app asked to be closed.")
        # notifications/message (the app's log) and anything else: the wire record is all there is to keep

    def _side(self, value: Any) -> int | None:
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            return None
        return max(0, min(int(value), self.limits.max_side))

    def _answer(self, message: dict[str, Any]) -> None:
        future = self._pending.pop(message.get("id"), None)  # type: ignore[arg-type]
        if future is None or future.done():
            return
        if "error" in message:
            future.set_exception(RemoteError("The app answered with an error.", remote_data=message.get("error")))
        else:
            future.set_result(message.get("result"))

    def _initialize_result(self, params: dict[str, Any]) -> dict[str, Any]:
        asked = params.get("protocolVersion")
        version = asked if isinstance(asked, str) and 0 < len(asked) <= 32 else PROTOCOL_VERSION
        return {
            "protocolVersion": version,
            "hostInfo": HOST_INFO,
            "hostCapabilities": {
                "openLinks": {},
                "serverTools": {},
                "serverResources": {},
                "logging": {},
                "sandbox": {"permissions": {}, "csp": self.app.csp.to_dict()},
            },
            "hostContext": {
                "toolInfo": {"tool": tool_json(self.tool)},
                "theme": self.theme,
                "displayMode": "inline",
                "availableDisplayModes": ["inline"],
                "platform": "desktop",
                "containerDimensions": {"maxHeight": self.limits.max_side},
            },
        }

    # ------------------------------------------------------------------ calls and reads

    def _may_start(self, rid: Any) -> bool:
        if len(self._in_flight) >= self.limits.calls_in_flight:
            self._reply(
                _error(rid, APP_ERROR, "Too many calls under way.", "rate-limited", limit=self.limits.calls_in_flight)
            )
            return False
        return True

    def _start(self, rid: Any, coro: Any) -> None:
        task: asyncio.Task[None] = asyncio.ensure_future(coro)
        self._in_flight.add(task)
        task.add_done_callback(self._in_flight.discard)

    def _tools_call(self, rid: Any, params: dict[str, Any]) -> None:
        name, arguments = params.get("name"), params.get("arguments")
        if not isinstance(name, str) or not (arguments is None or isinstance(arguments, dict)):
            self._reply(_error(rid, INVALID_PARAMS, "tools/call needs a name and an arguments object."))
            return
        spec = self.host.tool(name)
        if spec is None:
            self._reply(_error(rid, INVALID_PARAMS, f"The server has no tool {name[:80]!r}.", "unknown-tool"))
            return
        if not callable_from_app(spec):
            self._reply(_error(rid, INVALID_PARAMS, f"Apps may not call {name!r}.", "not-callable-by-app"))
            self.host.notice(f"The app tried to call {name!r}, which its server keeps from apps; refused.")
            return
        if not self._calls.take():
            self._reply(_error(rid, APP_ERROR, "Too many tool calls; try again later.", "rate-limited"))
            self._drop("over the tool-call rate", counted=False)
            return
        if self._may_start(rid):
            self._start(rid, self._call(rid, spec, dict(arguments or {})))

    async def _call(self, rid: Any, spec: ToolSpec, arguments: dict[str, Any]) -> None:
        try:
            if spec.name in self._refused or not await self.host.approve_call(spec, arguments):
                self._refused.add(spec.name)
                self._respond_error(rid, APP_ERROR, f"The user did not let the app call {spec.name!r}.", "denied")
                return
            result = await self.host.call_tool(spec.name, arguments)
        except WorkbenchError as exc:
            self._respond_failure(rid, exc)
            return
        self._respond(rid, tool_result_json(result))

    async def _read(self, rid: Any, uri: str) -> None:
        try:
            contents = await self.host.read_resource(uri)
        except WorkbenchError as exc:
            self._respond_failure(rid, exc)
            return
        self._respond(rid, resource_contents_json(contents))

    def _respond_failure(self, rid: Any, exc: WorkbenchError) -> None:
        if isinstance(exc, RemoteError) and isinstance(exc.remote_code, int):
            self._respond_error(rid, exc.remote_code, exc.message, None)
        else:
            self._respond_error(rid, INTERNAL_ERROR, exc.message, exc.code)

    def _open_link(self, rid: Any, url: Any) -> None:
        if not isinstance(url, str) or len(url) > MAX_LINK or not url.lower().startswith(LINK_SCHEMES):
            self._reply(_error(rid, INVALID_PARAMS, "ui/open-link takes an http(s) or mailto URL.", "link-refused"))
            return
        if not self._links.take():
            self._reply(_error(rid, APP_ERROR, "Too many links; try again later.", "rate-limited"))
            return
        if self.host.open_link(url):
            self._respond(rid, {})
        else:
            self._respond_error(rid, APP_ERROR, "The link was refused.", "link-refused")

    # ------------------------------------------------------------------ sending

    def _send(self, message: dict[str, Any]) -> None:
        if self.closed:
            return
        text = json.dumps(message, ensure_ascii=False, separators=(",", ":"), default=str)
        if self.wire is not None:
            self.wire.jsonrpc(self.connection_id, Direction.OUT, text, protocol=PROTOCOL)
        self._send_text(text)

    def _respond(self, rid: Any, result: Any) -> None:
        self._send({"jsonrpc": "2.0", "id": rid, "result": result})

    def _respond_error(self, rid: Any, code: int, message: str, reason: str | None) -> None:
        self._send(_error(rid, code, message, reason))

    def _reply(self, message: dict[str, Any]) -> None:
        """Send an error reply while replies are affordable (a flood of bad requests is not answered in full)."""
        if self._replies.take():
            self._send(message)

    def _notify(self, method: str, params: dict[str, Any]) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def _request(self, method: str, params: dict[str, Any]) -> asyncio.Future[Any]:
        self._next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[self._next_id] = future
        self._send({"jsonrpc": "2.0", "id": self._next_id, "method": method, "params": params})
        return future

    # ------------------------------------------------------------------ limits

    def _drop(self, why: str, *, counted: bool = True) -> None:
        if counted:
            self.dropped += 1
            self._burst_dropped += 1
        if counted and not self._told_limited:
            self._told_limited = True
            self.host.notice(f"The app is rate-limited: messages dropped ({why}); the wire log counts them.")
        if self.dropped > self.limits.max_dropped and not self.closed:
            self._flush_drops(now=True)
            self.host.stop(f"The app sent more than {self.limits.max_dropped:,} messages past its limits.")
            self.close()

    def _flush_drops(self, *, now: bool = False) -> None:
        """Record the messages dropped since the last record of drops, as one local record (at most one a second)."""
        if not self._burst_dropped:
            return
        at = self._clock()
        if not now and at - self._flushed_at < 1.0:
            return
        self._flushed_at = at
        if self.wire is not None:
            self.wire.local(
                self.connection_id,
                WireKind.ERROR,
                f"app rate-limited: {self._burst_dropped:,} messages dropped ({self.dropped:,} in all)",
                protocol=PROTOCOL,
            )
        self._burst_dropped = 0
