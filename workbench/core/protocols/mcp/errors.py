"""Turn what the MCP SDK raises (often wrapped in exception groups) into typed workbench errors."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import httpx2
import pydantic
from mcp import MCPError
from mcp.types import CONNECTION_CLOSED, METHOD_NOT_FOUND, REQUEST_TIMEOUT

from workbench.core.errors import (
    CLOSED_WITHOUT_ANSWER,
    ConnectError,
    ConnectionLostError,
    ProtocolError,
    RemoteError,
    RequestTimeoutError,
    UnreachableError,
    UnsupportedCapabilityError,
    WorkbenchError,
)
from workbench.core.http.status import StatusSeen
from workbench.core.http.status import http_status_error as shared_http_status_error

UNREADABLE_REPLY = "workbench.unreadable_reply"
"""Marker in the ``data`` of the parse error the stdio transport answers an unreadable reply with."""


def leaves(exc: BaseException) -> Iterator[BaseException]:
    """Yield the non-group exceptions inside (possibly nested) exception groups."""
    if isinstance(exc, BaseExceptionGroup):
        for inner in exc.exceptions:
            yield from leaves(inner)
    else:
        yield exc


def _rank(exc: BaseException) -> int:
    """Which leaf explains a failure best (lower is better)."""
    if isinstance(exc, WorkbenchError):
        return 0
    if isinstance(exc, httpx2.HTTPStatusError | httpx2.ConnectError | OSError):
        return 1
    if isinstance(exc, MCPError):
        return 2 if exc.code != CONNECTION_CLOSED else 3
    return 4


FromServer = Callable[[MCPError], bool]
"""Whether the server itself sent an ``MCPError`` (``provenance.ServerErrors.sent`` for the request's ids)."""


def to_workbench_error(
    exc: BaseException,
    *,
    target: str,
    doing: str,
    exit_note: str | None = None,
    http_error: StatusSeen | tuple[int, str | None] | None = None,
    from_server: FromServer | None = None,
    timeout: float | None = None,
) -> WorkbenchError:
    """Map an SDK/transport exception to a ``WorkbenchError``.

    Args:
        exc: What was raised (groups are unwrapped; the most telling leaf wins).
        target: The server, for messages ("stdio: python server.py", "http://…/mcp").
        doing: What was being done, without the target ("connecting", "calling tool 'x'").
        exit_note: For stdio, how the process ended, if it did.
        http_error: For HTTP, the error response the tap saw while doing it (status,
            ``WWW-Authenticate`` and URL; the SDK turns those into a generic JSON-RPC error).
        from_server: Tells a JSON-RPC error the server sent from one the SDK or a transport made
            up with the same code (``None``: none is the server's). The server's keeps its code
            and message, whatever the code: -32000 is not "connection closed", nor -32001 a timeout.
        timeout: The request timeout in seconds, named when it expired.
    """
    leaf = min(leaves(exc), key=_rank)
    if isinstance(leaf, WorkbenchError):
        return _plain(leaf)
    if isinstance(leaf, MCPError) and from_server is not None and from_server(leaf):
        return _server_error(leaf, target=target, doing=doing)
    if isinstance(leaf, FileNotFoundError):
        return UnreachableError(
            f"Cannot start the server for {target}: executable not found ({leaf.filename or leaf}).",
            hint="check the command and PATH; the child gets only a minimal environment plus what you set",
        )
    if isinstance(leaf, PermissionError):
        return UnreachableError(f"Cannot start the server for {target}: permission denied.", hint=str(leaf))
    if isinstance(leaf, httpx2.HTTPStatusError):
        response = leaf.response
        return shared_http_status_error(
            response.status_code,
            url=str(response.request.url),
            doing=doing,
            challenge=response.headers.get("www-authenticate"),
        )
    if isinstance(leaf, MCPError) and http_error is not None and leaf.code not in (METHOD_NOT_FOUND, REQUEST_TIMEOUT):
        # The SDK's stand-in for an HTTP error status; a timeout stays a timeout (a GET stream's
        # 405 during the wait is not the request's answer).
        seen = StatusSeen(*http_error)
        return shared_http_status_error(seen.status, url=seen.url or target, doing=doing, challenge=seen.challenge)
    return _map_leaf(leaf, target=target, doing=doing, exit_note=exit_note, timeout=timeout)


def http_status_error(status: int, challenge: str | None, target: str, doing: str) -> WorkbenchError:
    """The typed error for an HTTP error status: ``workbench.core.http.status.http_status_error``.

    Kept with its MCP argument order; ``target`` is the URL that answered.
    """
    return shared_http_status_error(status, url=target, doing=doing, challenge=challenge)


def _plain(error: WorkbenchError) -> WorkbenchError:
    """``error`` without the HTTP client's exception class it also is (raised so the SDK handles it well)."""
    if not isinstance(error, httpx2.HTTPError):
        return error
    kind = next(c for c in type(error).__mro__ if issubclass(c, WorkbenchError) and not issubclass(c, httpx2.HTTPError))
    plain = kind(error.message, hint=error.hint, details=error.details)
    plain.__cause__ = error
    return plain


def _cause(exc: BaseException) -> str:
    """What went wrong, never empty (an HTTP client's reset connection has no text of its own)."""
    text = str(exc).strip().rstrip(".")
    if text:
        return text
    if isinstance(exc, httpx2.ReadError | httpx2.WriteError):
        return f"{type(exc).__name__}: the connection was reset"
    return type(exc).__name__


def _server_error(leaf: MCPError, *, target: str, doing: str) -> WorkbenchError:
    """The typed error for a JSON-RPC error the server sent: its code and message, as sent."""
    details = {"remote_code": leaf.code, "remote_message": leaf.error.message}
    if leaf.code == METHOD_NOT_FOUND:
        return UnsupportedCapabilityError(
            f"{target} does not implement what was needed while {doing} ({leaf.error.message}).", details=details
        )
    return RemoteError(
        f"{target} returned an error while {doing}: {leaf.error.message}",
        remote_code=leaf.code,
        remote_data=leaf.error.data,
        details=details,
    )


def _map_leaf(
    leaf: BaseException, *, target: str, doing: str, exit_note: str | None, timeout: float | None = None
) -> WorkbenchError:
    if isinstance(leaf, httpx2.ConnectError | httpx2.ConnectTimeout | ConnectionRefusedError):
        return UnreachableError(
            f"Nothing answered at {target} ({leaf}).", hint="is the server running and the URL right?"
        )
    if isinstance(leaf, httpx2.TimeoutException | TimeoutError):
        return RequestTimeoutError(f"Timed out while {doing} ({target}).", hint="raise the timeout for this connection")
    if isinstance(leaf, httpx2.ReadError | httpx2.WriteError | httpx2.RemoteProtocolError):
        return ConnectionLostError(
            f"{target} closed the connection without an answer while {doing} ({_cause(leaf)}).",
            hint="the server may have crashed or a proxy cut the connection; see the wire log",
            details={"cause": CLOSED_WITHOUT_ANSWER, "error": type(leaf).__name__},
        )
    if isinstance(leaf, httpx2.TransportError):
        return ConnectionLostError(f"The HTTP transport failed while {doing} ({target}): {_cause(leaf)}.")
    if isinstance(leaf, MCPError):
        if leaf.code == CONNECTION_CLOSED:
            # The SDK's own "Connection closed", or the transport's stand-in saying why (the stream ended).
            reason = exit_note or (leaf.error.message if leaf.error.message != "Connection closed" else None)
            note = f" ({reason})" if reason else ""
            return ConnectionLostError(
                f"The connection to {target} closed without an answer while {doing}{note}.",
                details={"cause": CLOSED_WITHOUT_ANSWER},
            )
        if leaf.code == REQUEST_TIMEOUT:
            within = f" within {timeout:g} s" if timeout is not None else ""
            return RequestTimeoutError(
                f"No answer from {target}{within} while {doing}.",
                hint="the request was cancelled on the server; raise the timeout if it needs longer",
                details={"timeout": timeout} if timeout is not None else None,
            )
        if isinstance(leaf.error.data, dict) and leaf.error.data.get(UNREADABLE_REPLY):
            # Made by our stdio transport for a reply it could not read (the server sent no error).
            return ProtocolError(
                f"{target} sent a reply that could not be read while {doing}: {leaf.error.message}",
                hint="the reply is in the wire log as it arrived",
                details={"reason": leaf.error.data.get("reason"), "size": leaf.error.data.get("size")},
            )
        return _server_error(leaf, target=target, doing=doing)
    if isinstance(leaf, pydantic.ValidationError):
        return ProtocolError(
            f"{target} sent a message that does not follow the MCP schema while {doing}.",
            details={"errors": [str(e.get("msg")) for e in leaf.errors()[:5]]},
        )
    if isinstance(leaf, RuntimeError | ValueError):
        return ProtocolError(f"Unexpected reply from {target} while {doing}: {leaf}")
    return ConnectError(f"Failed while {doing} ({target}): {type(leaf).__name__}: {leaf}")
