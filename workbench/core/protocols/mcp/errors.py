"""Turn what the MCP SDK raises (often wrapped in exception groups) into typed workbench errors."""

from __future__ import annotations

from collections.abc import Iterator

import httpx2
import pydantic
from mcp import MCPError
from mcp.types import CONNECTION_CLOSED, METHOD_NOT_FOUND, REQUEST_TIMEOUT

from workbench.core.errors import (
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


def to_workbench_error(
    exc: BaseException,
    *,
    target: str,
    doing: str,
    exit_note: str | None = None,
    http_error: StatusSeen | tuple[int, str | None] | None = None,
) -> WorkbenchError:
    """Map an SDK/transport exception to a ``WorkbenchError``.

    Args:
        exc: What was raised (groups are unwrapped; the most telling leaf wins).
        target: The server, for messages ("stdio: python server.py", "http://…/mcp").
        doing: What was being done, without the target ("connecting", "calling tool 'x'").
        exit_note: For stdio, how the process ended, if it did.
        http_error: For HTTP, the error response the tap saw while doing it (status,
            ``WWW-Authenticate`` and URL; the SDK turns those into a generic JSON-RPC error).
    """
    leaf = min(leaves(exc), key=_rank)
    if isinstance(leaf, WorkbenchError):
        return leaf
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
    if isinstance(leaf, MCPError) and http_error is not None and leaf.code != METHOD_NOT_FOUND:
        seen = StatusSeen(*http_error)
        return shared_http_status_error(seen.status, url=seen.url or target, doing=doing, challenge=seen.challenge)
    return _map_leaf(leaf, target=target, doing=doing, exit_note=exit_note)


def http_status_error(status: int, challenge: str | None, target: str, doing: str) -> WorkbenchError:
    """The typed error for an HTTP error status: ``workbench.core.http.status.http_status_error``.

    Kept with its MCP argument order; ``target`` is the URL that answered.
    """
    return shared_http_status_error(status, url=target, doing=doing, challenge=challenge)


def _map_leaf(leaf: BaseException, *, target: str, doing: str, exit_note: str | None) -> WorkbenchError:
    if isinstance(leaf, httpx2.ConnectError | httpx2.ConnectTimeout | ConnectionRefusedError):
        return UnreachableError(
            f"Nothing answered at {target} ({leaf}).", hint="is the server running and the URL right?"
        )
    if isinstance(leaf, httpx2.TimeoutException | TimeoutError):
        return RequestTimeoutError(f"Timed out while {doing} ({target}).", hint="raise the timeout for this connection")
    if isinstance(leaf, httpx2.TransportError):
        return ConnectionLostError(f"The HTTP transport failed while {doing} ({target}): {leaf}.")
    if isinstance(leaf, MCPError):
        if leaf.code == CONNECTION_CLOSED:
            note = f" ({exit_note})" if exit_note else ""
            return ConnectionLostError(f"The connection to {target} closed while {doing}{note}.")
        if leaf.code == REQUEST_TIMEOUT:
            return RequestTimeoutError(
                f"No answer from {target} while {doing}: {leaf.error.message}.",
                hint="the request was cancelled on the server; raise the timeout if it needs longer",
            )
        if isinstance(leaf.error.data, dict) and leaf.error.data.get(UNREADABLE_REPLY):
            # Made by our stdio transport for a reply it could not read (the server sent no error).
            return ProtocolError(
                f"{target} sent a reply that could not be read while {doing}: {leaf.error.message}",
                hint="the reply is in the wire log as it arrived",
                details={"reason": leaf.error.data.get("reason"), "size": leaf.error.data.get("size")},
            )
        if leaf.code == METHOD_NOT_FOUND:
            return UnsupportedCapabilityError(
                f"{target} does not implement what was needed while {doing} ({leaf.error.message}).",
                details={"remote_code": leaf.code},
            )
        return RemoteError(
            f"{target} returned an error while {doing}: {leaf.error.message}",
            remote_code=leaf.code,
            remote_data=leaf.error.data,
        )
    if isinstance(leaf, pydantic.ValidationError):
        return ProtocolError(
            f"{target} sent a message that does not follow the MCP schema while {doing}.",
            details={"errors": [str(e.get("msg")) for e in leaf.errors()[:5]]},
        )
    if isinstance(leaf, RuntimeError | ValueError):
        return ProtocolError(f"Unexpected reply from {target} while {doing}: {leaf}")
    return ConnectError(f"Failed while {doing} ({target}): {type(leaf).__name__}: {leaf}")
