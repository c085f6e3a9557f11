"""The one request funnel of an MCP connection: every request goes out here, every failure comes back typed.

A request is a function of the live SDK ``Client``. The funnel connects first when needed, runs
it, and maps whatever the SDK or the transport raised to a ``WorkbenchError`` that names what was
being done, using what the session saw meanwhile (the stdio child's exit, the HTTP error
response, malformed messages, a response refused for a size limit, the errors the server itself
sent — tied to the request by the JSON-RPC ids it sent, so a concurrent request's refusal is not
reported against it). A lost connection is remembered so the loss handler hears of it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from mcp import Client, MCPError
from mcp.types import CONNECTION_CLOSED, PARSE_ERROR

from workbench.core.errors import ConnectionLostError, ProtocolError, RequestTimeoutError, WorkbenchError
from workbench.core.protocols.mcp._session import SessionOwner
from workbench.core.protocols.mcp.errors import to_workbench_error
from workbench.core.protocols.mcp.tap import capture_sent_requests


class RequestFunnel:
    """Sends requests through one session and turns failures into typed errors.

    Args:
        session: The connection's session owner.
        agent: The façade (connected lazily by the first request).
    """

    def __init__(self, session: SessionOwner, agent: object) -> None:
        self._session = session
        self._agent = agent

    @property
    def agent_name(self) -> str:
        """The agent's display name, for messages."""
        return self._session.live.name

    async def client(self) -> Client:
        """The live SDK client (connecting first if the agent never was).

        Raises:
            ConnectionLostError: The peer went away or the agent was closed.
        """
        return await self._session.live_client(self._agent)

    async def request[T](self, doing: str, fn: Callable[[Client], Awaitable[T]]) -> T:
        """Run ``fn`` with the live client; failures come back as ``WorkbenchError``.

        Args:
            doing: What is being done, for messages ("calling tool 'x'").
            fn: The request, given the client.

        Raises:
            WorkbenchError: Mapped from what the SDK or the transport raised.
        """
        session = self._session
        client = await self.client()
        faults_before = session.protocol_faults
        tap = session.http_tap
        http_errors_before = tap.error_count if tap is not None else 0
        refusals_before = tap.refusal_count if tap is not None else 0
        with capture_sent_requests() as sent:
            try:
                return await fn(client)
            except WorkbenchError:
                raise
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                # A refusal is this request's when it names one of the ids it sent (or names none:
                # an event refused on a shared stream before its id could be read).
                refusal = tap.refusal_for(sent, refusals_before) if tap is not None else None
                if refusal is not None and _failed_for_it(exc) and not self._from_server(exc, sent):
                    raise _named(refusal, doing) from exc
                error = self.map_error(exc, doing, faults_before, http_errors_before, sent)
                if isinstance(error, ConnectionLostError):
                    session.mark_lost(error.message)
                raise error from exc
            finally:
                if tap is not None and tap.budget is not None:
                    tap.budget.settled(sent)  # timed out or cancelled: what follows is no longer its

    def map_error(
        self,
        exc: BaseException,
        doing: str,
        faults_before: int = 0,
        http_errors_before: int = 0,
        sent: set[str] | None = None,
    ) -> WorkbenchError:
        """The typed error for ``exc``, raised while ``doing``.

        Args:
            exc: What was raised.
            doing: What was being done.
            faults_before: The session's malformed-message count when the request started.
            http_errors_before: The HTTP tap's error count when the request started.
            sent: The ids of the requests sent while doing it (``None``: not known; then no
                JSON-RPC error is taken for the server's own).
        """
        session = self._session
        tap = session.http_tap
        http_error = tap.last_error if tap is not None and tap.error_count > http_errors_before else None
        server_errors = session.server_errors
        error = to_workbench_error(
            exc,
            target=session.config.target_label,
            doing=doing,
            exit_note=session.exit_note(),
            http_error=http_error,
            from_server=(lambda e: server_errors.sent(e, sent)) if sent else None,
            timeout=session.config.request_timeout,
        )
        if isinstance(error, RequestTimeoutError) and session.protocol_faults > faults_before:
            return session.malformed_error(doing)
        return error

    def _from_server(self, exc: Exception, sent: set[str]) -> bool:
        """Whether ``exc`` is a JSON-RPC error the server itself sent in answer to one of ``sent``."""
        return isinstance(exc, MCPError) and self._session.server_errors.sent(exc, sent)


def _failed_for_it(exc: Exception) -> bool:
    """Whether ``exc`` is how the SDK reports a body that could not be read (not a peer's answer).

    A refused body reaches the caller as the SDK's stand-in error: a parse error (JSON body), a
    closed connection (event stream) or the refusal itself; a timeout or a peer's own JSON-RPC
    error during the same request keeps its meaning.
    """
    if isinstance(exc, MCPError):
        return exc.code in (PARSE_ERROR, CONNECTION_CLOSED)
    return isinstance(exc, ProtocolError)


def _named(refusal: ProtocolError, doing: str) -> ProtocolError:
    """The refusal as this request's error (a copy: the message says what was being done)."""
    message = f"{doing[:1].upper()}{doing[1:]} failed: {refusal.message}"
    return ProtocolError(message, hint=refusal.hint, details=refusal.details)
