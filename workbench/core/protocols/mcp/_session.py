"""Session and lifecycle of one MCP connection: the owner task that enters and leaves the SDK ``Client``.

anyio cancel scopes demand that one task enters and leaves the ``Client``; every other task talks
to the session through ``RequestFunnel`` (``_funnel.py``). This module builds the transport (with
its wire taps), opens the session, runs discovery and the background jobs in the owner's task
group, and notices when the peer goes away (process exit, stream end) to tell the loss handler once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

import anyio
import mcp.types as types
from mcp import Client

from workbench.core.errors import ConnectError, ConnectionLostError, ProtocolError, RequestTimeoutError, WorkbenchError
from workbench.core.events import ServerProcessExited, ServerStderrLine
from workbench.core.protocols.agent_base import LoopBinding, register_for_exit
from workbench.core.protocols.contract import LossHandler
from workbench.core.protocols.mcp import _handshake_era as handshake_era
from workbench.core.protocols.mcp._config import CLIENT_INFO, LiveSettings, MCPConfig
from workbench.core.protocols.mcp._sdk_compat import (
    accept_any_tool_result,
    read_absent_result_type_as_complete,
    route_server_requests,
    shape_client_capabilities,
)
from workbench.core.protocols.mcp.client_tasks import ClientTaskHost
from workbench.core.protocols.mcp.discovery import is_modern, wants_listen
from workbench.core.protocols.mcp.errors import to_workbench_error
from workbench.core.protocols.mcp.listen import ACK_TIMEOUT as LISTEN_ACK_TIMEOUT
from workbench.core.protocols.mcp.listen import ListenStream
from workbench.core.protocols.mcp.provenance import ServerErrors
from workbench.core.protocols.mcp.stdio import SUPPORTED as OWN_STDIO
from workbench.core.protocols.mcp.stdio import StdioProcessInfo, StdioTransport
from workbench.core.protocols.mcp.tap import HTTPWireTransport, JSONRPCTap
from workbench.core.protocols.mcp.transports import http_transport, in_memory_transport

log = logging.getLogger(__name__)

GET_STREAM_WAIT = 2.0
"""Seconds a handshake-era Streamable HTTP session with a session id waits for its GET stream to open
after discovery."""
STOP_WAIT = 15.0
"""Seconds ``aclose`` waits for the owner task to leave the session before cancelling it."""

ClientJob = Callable[[Client], Coroutine[Any, Any, None]]


class SessionOwner:
    """Opens, holds and closes one SDK session; knows whether the peer is still there.

    Args:
        config: The agent's configuration.
        live: The agent's name, roots and log level as they are now (a new session asks for this level).
        client_kwargs: Returns the SDK ``Client`` callbacks (elicitation, sampling, roots, logging,
            message handler) for a new session.
        shape_capabilities: Changes the client capabilities the SDK would declare for a protocol
            version (``None``: as built).
        client_tasks: Returns a new session's host of the server's task-augmented requests
            (``None``: the SDK answers every server request itself).
        negotiate: Run by the owner first, once the session is open (capabilities the SDK lacks).
        discover: Run by the owner next, before ``connect`` returns.
        keep_fresh: Run by the owner in the background after ``connect`` returned (list changes).
        subscriptions: The resource URIs a 2026-era listen stream subscribes to.
        on_closed: Called when the session ended (pending calls are told there is no more).
    """

    def __init__(
        self,
        config: MCPConfig,
        live: LiveSettings,
        *,
        client_kwargs: Callable[[], dict[str, Any]],
        shape_capabilities: Callable[[types.ClientCapabilities, str], types.ClientCapabilities] | None = None,
        client_tasks: Callable[[], ClientTaskHost | None] = lambda: None,
        negotiate: ClientJob,
        discover: ClientJob,
        keep_fresh: ClientJob,
        subscriptions: Callable[[], list[str]],
        on_closed: Callable[[], None],
    ) -> None:
        self.config = config
        self.live = live
        self._client_kwargs = client_kwargs
        self._shape_capabilities = shape_capabilities
        self._client_tasks = client_tasks
        self._negotiate = negotiate
        self._discover = discover
        self._keep_fresh = keep_fresh
        self._subscriptions = subscriptions
        self._on_closed = on_closed
        self.binding = LoopBinding(live.name)
        self.client: Client | None = None
        self.lost: str | None = None
        self.protocol_faults = 0
        self.stdio: StdioTransport | None = None
        self.http_tap: HTTPWireTransport | None = None
        self.listen: ListenStream | None = None
        self.server_errors = ServerErrors()
        """The JSON-RPC errors the server itself sent in this session (``provenance``)."""
        self._owner: asyncio.Task[None] | None = None
        self._ready: asyncio.Event | None = None
        self._stop: asyncio.Event | None = None
        self._connect_lock: asyncio.Lock | None = None
        self._error: WorkbenchError | None = None
        self._loss_handler: LossHandler | None = None

    @property
    def connected(self) -> bool:
        """Whether a session is open and the peer has not gone away."""
        return self.client is not None and self.lost is None

    def set_loss_handler(self, handler: LossHandler | None) -> None:
        """Be told once, with a ``ConnectionLostError``, when the peer goes away on its own."""
        self._loss_handler = handler

    async def connect(self, agent: object) -> None:
        """Open the session and discover everything; idempotent.

        Args:
            agent: The façade, closed at interpreter exit if still open.

        Raises:
            ConnectError: (or a subclass) the server could not be started, reached or handshaken with.
            RequestTimeoutError: The handshake took longer than ``connect_timeout``.
        """
        self.binding.bind()
        if self._connect_lock is None:
            self._connect_lock = asyncio.Lock()
        async with self._connect_lock:
            if self.connected:
                return
            if self._owner is not None and not self._owner.done():
                await self.stop()
            self._error = None
            self.lost = None
            self.server_errors = ServerErrors()
            self._ready = asyncio.Event()
            self._stop = asyncio.Event()
            self._owner = asyncio.create_task(self._own(), name=f"mcp-owner-{self.config.connection_id}")
            try:
                await asyncio.wait_for(self._ready.wait(), self.config.connect_timeout)
            except TimeoutError:
                await self.stop(cancel=True)
                if self.protocol_faults:
                    raise self.malformed_error("connecting") from None
                raise RequestTimeoutError(
                    f"Connecting to {self.config.target_label} took longer than {self.config.connect_timeout:.0f} s.",
                    hint="check that it is an MCP server; raise the connect timeout if it starts slowly",
                ) from None
            error = self._owner_error()
            if error is not None:
                await self.stop()
                raise error
            register_for_exit(agent)

    def _owner_error(self) -> WorkbenchError | None:
        """The failure the owner task recorded while connecting (set from that task)."""
        return self._error

    async def aclose(self) -> None:
        """Close the session (the stdio child is stopped and reaped); safe to call twice."""
        await self.stop()
        self.binding.release()

    async def stop(self, *, cancel: bool = False) -> None:
        """Ask the owner task to leave the session and wait for it (cancel it if it does not)."""
        owner = self._owner
        if owner is None:
            return
        if self._stop is not None:
            self._stop.set()
        if cancel:
            owner.cancel()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(asyncio.shield(owner), STOP_WAIT)
        if not owner.done():
            owner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await owner
        self._owner = None

    async def live_client(self, agent: object) -> Client:
        """The open session's client, connecting first if it never was.

        Raises:
            ConnectionLostError: The peer went away or the agent was closed.
        """
        if self.client is None and self.lost is None:
            await self.connect(agent)
        else:
            self.binding.bind()
        if self.lost is not None or self.client is None:
            raise ConnectionLostError(
                f"The connection to {self.config.target_label} is gone: {self.lost or 'closed'}.",
                hint="reconnect to continue",
            )
        return self.client

    def note_fault(self, exc: Exception) -> None:
        """Garbage on stdout, malformed JSON-RPC: counted so a request that then times out can say why."""
        self.protocol_faults += 1
        log.info("transport fault from %s: %r", self.config.target_label, exc)

    def malformed_error(self, doing: str) -> ProtocolError:
        """The error for a request that got no valid answer while the peer sent invalid messages."""
        return ProtocolError(
            f"{self.config.target_label} sent {self.protocol_faults} message(s) that are not valid JSON-RPC "
            f"and gave no valid answer while {doing}.",
            hint="the raw lines are in the wire log",
            details={"malformed_messages": self.protocol_faults},
        )

    def mark_lost(self, reason: str, details: dict[str, Any] | None = None) -> None:
        """Remember that the peer is gone and tell the loss handler (once)."""
        if self.lost is not None:
            return
        self.lost = reason
        if self._loss_handler is not None:
            try:
                self._loss_handler(ConnectionLostError(reason, hint="reconnect to continue", details=details))
            except Exception:
                log.exception("the loss handler failed")

    def exit_note(self) -> str | None:
        """How the stdio child ended, if it did."""
        info = self.stdio.info if self.stdio is not None else None
        if info is not None and info.returncode is not None:
            return info.describe_exit()
        return None

    # ------------------------------------------------------------------ the owner task

    def _build_transport(self) -> Any:
        cfg = self.config
        if cfg.transport == "in-process":
            inner = cfg.sdk_transport if cfg.sdk_transport is not None else in_memory_transport(cfg.server)
            return JSONRPCTap(inner, cfg.wire, cfg.connection_id, server_errors=self.server_errors)
        if cfg.transport == "stdio":
            assert cfg.command is not None
            if not OWN_STDIO:  # pragma: no cover - Windows
                from mcp import StdioServerParameters
                from mcp.client.stdio import stdio_client

                params = StdioServerParameters(command=cfg.command, args=list(cfg.args), env=dict(cfg.env), cwd=cfg.cwd)
                return JSONRPCTap(stdio_client(params), cfg.wire, cfg.connection_id, server_errors=self.server_errors)
            self.stdio = StdioTransport(
                cfg.command,
                list(cfg.args),
                env=dict(cfg.env),
                cwd=cfg.cwd,
                wire=cfg.wire,
                connection_id=cfg.connection_id,
                on_stderr=self._on_stderr,
                on_exit=self._on_exit,
            )
            # Recorded byte-exact by the transport itself; the tap only notes errors and request ids.
            return JSONRPCTap(self.stdio, None, cfg.connection_id, server_errors=self.server_errors)
        assert cfg.url is not None
        transport, self.http_tap = http_transport(
            cfg.url,
            sse=cfg.transport == "sse",
            headers=dict(cfg.headers),
            connect_timeout=cfg.connect_timeout,
            wire=cfg.wire,
            connection_id=cfg.connection_id,
            auth=cfg.auth,
            http_inner=cfg.http_transport,
            limits=cfg.limits,
            server_errors=self.server_errors,
        )
        return transport

    async def _own(self) -> None:
        """The owner task: the only task that enters and leaves the SDK ``Client``."""
        assert self._ready is not None and self._stop is not None
        cfg = self.config
        log_level = self.live.log_level
        try:
            client = Client(
                self._build_transport(),
                mode=cfg.mode,
                client_info=CLIENT_INFO,
                read_timeout_seconds=cfg.request_timeout,
                log_level=log_level,  # type: ignore[arg-type]
                cache=None,
                **self._client_kwargs(),
            )
            if self._shape_capabilities is not None:
                shape_client_capabilities(client, self._shape_capabilities)
            task_host = self._client_tasks()
            if task_host is not None:
                route_server_requests(client, task_host.answer)
            # Entered before the client and left after it: the tasks it runs end with the session.
            async with task_host if task_host is not None else contextlib.nullcontext(), client:
                self.client = client
                # The SDK would validate structured output and raise; a workbench shows problems instead.
                accept_any_tool_result(client.session)
                read_absent_result_type_as_complete(client.session)  # SEP-2322
                async with anyio.create_task_group() as tg:
                    await self._open(client, tg)
                    self._ready.set()
                    if log_level and client.server_capabilities.logging is not None and not is_modern(client):
                        tg.start_soon(self._apply_log_level, client, log_level)
                    tg.start_soon(self._keep_fresh, client)
                    await self._stop.wait()
                    tg.cancel_scope.cancel()
        except asyncio.CancelledError:
            if not self._ready.is_set():
                self._error = ConnectError(f"Connecting to {cfg.target_label} was cancelled.")
            raise
        except BaseException as exc:  # the owner must report every failure, including groups
            connecting = not self._ready.is_set()
            server_errors = self.server_errors
            err = to_workbench_error(
                exc,
                target=cfg.target_label,
                doing="connecting" if connecting else "talking to the server",
                exit_note=self.exit_note(),
                http_error=self.http_tap.last_error if self.http_tap is not None else None,
                # While connecting, only the owner sends requests: any error the server sent is theirs.
                from_server=(lambda e: server_errors.sent(e, None)) if connecting else None,
                timeout=cfg.request_timeout,
            )
            if not self._ready.is_set():
                self._error = err
            else:
                self.mark_lost(err.message)
                log.info("session with %s ended: %s", cfg.target_label, err)
        finally:
            self.client = None
            self.listen = None
            self._ready.set()
            self._on_closed()

    async def _open(self, client: Client, tg: anyio.abc.TaskGroup) -> None:
        """Discovery, with the 2026 listen stream and the handshake-era GET stream opened alongside."""
        await self._negotiate(client)
        opened: asyncio.Event | None = None
        if is_modern(client) and wants_listen(client):
            # Opened alongside discovery so its round trip overlaps the listings.
            opened = asyncio.Event()
            self.listen = ListenStream(self._subscriptions, self.config.target_label)
            tg.start_soon(self.listen.run, client, opened)
        await self._discover(client)
        tap = self.http_tap
        if (
            tap is not None
            and self.config.transport == "streamable-http"
            and not is_modern(client)
            and tap.last_session_id is not None
        ):
            # Notifications not tied to a request travel on the GET stream; anything the server
            # sends before it opens is lost, so give it a moment to open. The SDK opens that stream
            # only within a session: a server that sent no Mcp-Session-Id (a stateless one) gets
            # no GET, so there is nothing to wait for.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(tap.get_stream_answered.wait(), GET_STREAM_WAIT)
        if opened is not None:
            # Changes made right after connect must not be missed: wait for the ack.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(opened.wait(), LISTEN_ACK_TIMEOUT)

    async def _apply_log_level(self, client: Client, level: str) -> None:
        """Handshake era: ask for log messages at ``level`` (after connect; some servers lack it)."""
        try:
            await handshake_era.set_logging_level(client, level)  # type: ignore[arg-type]  # the server checks it
        except Exception as exc:  # e.g. MCPServer advertises logging but has no logging/setLevel
            log.info("%s did not accept logging/setLevel %s: %s", self.config.target_label, level, exc)

    def _on_stderr(self, line: str) -> None:
        self.config.publish(ServerStderrLine(connection_id=self.config.connection_id, line=line))

    def _on_exit(self, info: StdioProcessInfo) -> None:
        if not info.closing:
            self.mark_lost(info.describe_exit(), {"pid": info.pid, "returncode": info.returncode})
        self.config.publish(
            ServerProcessExited(
                connection_id=self.config.connection_id,
                pid=info.pid or 0,
                returncode=info.returncode,
                expected=info.closing,
            )
        )
