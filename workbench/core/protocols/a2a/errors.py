"""Turns A2A SDK, httpx and protobuf failures into the workbench's typed errors."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import httpx
from a2a.client.errors import A2AClientError, A2AClientTimeoutError, AgentCardResolutionError
from a2a.utils.errors import (
    JSON_RPC_ERROR_CODE_MAP,
    A2AError,
    PushNotificationNotSupportedError,
    TaskNotFoundError,
)
from google.protobuf.json_format import ParseError

from workbench.core.errors import (
    CLOSED_WITHOUT_ANSWER,
    ConnectionLostError,
    NotFoundError,
    ProtocolError,
    RemoteError,
    RequestTimeoutError,
    UnreachableError,
    UnsupportedCapabilityError,
    WorkbenchError,
)
from workbench.core.http.status import http_status_error as shared_http_status_error
from workbench.core.protocols.a2a._sdk_compat import AgentJSONRPCError
from workbench.core.safe_text import neutralise_line

_PARSE_FIELD = re.compile(r" at ([A-Za-z_][\w.]*?)\.*$")
_ENUM_VALUE = re.compile(r"Invalid enum value (\S{1,200}) for enum type")
MAX_SHOWN = 200
"""Characters of an unreadable value shown in a message."""


def _http_cause(exc: BaseException) -> BaseException | None:
    """The first httpx exception in ``exc``'s cause chain."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, httpx.HTTPError | httpx.InvalidURL | json.JSONDecodeError):
            return cur
        cur = cur.__cause__ or cur.__context__
    return None


def _in_chain[E: BaseException](exc: BaseException, kind: type[E]) -> E | None:
    """The first exception of type ``kind`` in ``exc``'s cause chain."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, kind):
            return cur
        cur = cur.__cause__ or cur.__context__
    return None


def unreadable_value_error(
    exc: ParseError, *, action: str, where: str, sent: Callable[[str], str | None] | None = None
) -> ProtocolError:
    """The ``ProtocolError`` for a payload the SDK could not parse, naming the field and the value sent.

    Args:
        exc: The protobuf parse error (its text ends with the field's path).
        action: What was being done.
        where: `` at URL`` (or empty).
        sent: The raw value the agent sent for a field name, when the transport remembered it.
    """
    text = str(exc)
    match = _PARSE_FIELD.search(text)
    field = match.group(1) if match else None
    value = sent(field.rsplit(".", 1)[-1]) if field and sent is not None else None
    if value is None and (enum := _ENUM_VALUE.search(text)) is not None:
        value = enum.group(1)
    shown = neutralise_line(value[:MAX_SHOWN]) if value is not None else None
    named = (
        f'{neutralise_line(field)} = "{shown}"' if field and shown is not None else neutralise_line(field or "a value")
    )
    return ProtocolError(
        f"The agent{where} sent a value the workbench cannot read while {action}: {named}.",
        hint="the agent does not follow the A2A schema here (timestamps: RFC 3339); the wire log shows what it sent",
        details={"field": field, "value": shown, "error": neutralise_line(text[:500])},
    )


def _cause(exc: BaseException) -> str:
    """What went wrong, never empty (a reset connection's error has no text of its own)."""
    text = str(exc).strip().rstrip(".")
    if text:
        return text
    if isinstance(exc, httpx.ReadError | httpx.WriteError):
        return f"{type(exc).__name__}: the connection was closed or reset without an answer"
    return type(exc).__name__


def _error_object(text: str) -> dict[str, Any] | None:
    """The ``error`` object of an error body the SDK passed on as text (REST SSE error frames)."""
    start = text.find("{")
    if start < 0:
        return None
    try:
        body = json.loads(text[start:])
    except json.JSONDecodeError:
        return None
    error = body.get("error") if isinstance(body, dict) else None
    return error if isinstance(error, dict) else None


def http_status_error(status: int, *, action: str, url: str, challenge: str | None = None) -> WorkbenchError:
    """The typed error for an HTTP error status: ``workbench.core.http.status.http_status_error``.

    Args:
        status: The HTTP status code.
        action: What was being done ("fetching the agent card", "sending the message"...).
        url: The URL that answered (its query is dropped: it may carry an API key).
        challenge: The response's ``WWW-Authenticate`` header, if any.

    Returns:
        ``AuthRequiredError`` for 401/403, otherwise ``RemoteError`` with ``remote_code`` = the status;
        the same error, with the same details, as MCP's for the same status.
    """
    return shared_http_status_error(status, url=url, doing=action, challenge=challenge)


def map_error(
    exc: BaseException, *, action: str, url: str = "", sent: Callable[[str], str | None] | None = None
) -> WorkbenchError:
    """Map any exception raised by the A2A client stack to a ``WorkbenchError``.

    Args:
        exc: What the SDK (or httpx) raised.
        action: What was being done, for the message ("sending the message", "cancelling task X").
        url: The agent URL involved, named in the message.
        sent: The raw value the agent sent for a field name (``normalise.Unreadable.last``), to name
            it when a payload cannot be parsed.

    Returns:
        The typed error; ``exc`` should be chained as its cause by the caller.
    """
    if isinstance(exc, WorkbenchError):
        return exc
    where = f" at {url}" if url else ""
    if isinstance(exc, A2AClientTimeoutError | httpx.TimeoutException | TimeoutError):
        return RequestTimeoutError(
            f"The agent{where} did not answer in time while {action}.",
            hint="raise the timeout (request_timeout / stream_idle_timeout), or check that the agent is alive",
            details={"url": url} if url else None,
        )
    if (parse := _in_chain(exc, ParseError)) is not None:
        return unreadable_value_error(parse, action=action, where=where, sent=sent)
    if isinstance(exc, AgentCardResolutionError) and exc.status_code is not None:
        return http_status_error(exc.status_code, action=action, url=url)
    if isinstance(exc, TaskNotFoundError):
        return NotFoundError(
            f"The agent{where} does not know this task ({action}).",
            hint="the task id may be wrong, or the agent was restarted and lost its tasks",
            details={"remote_code": JSON_RPC_ERROR_CODE_MAP[TaskNotFoundError], "remote_message": exc.message},
        )
    if isinstance(exc, PushNotificationNotSupportedError):
        return UnsupportedCapabilityError(
            f"The agent{where} does not support push notifications.",
            details={"remote_code": JSON_RPC_ERROR_CODE_MAP[PushNotificationNotSupportedError]},
        )
    if isinstance(exc, NotImplementedError):
        return UnsupportedCapabilityError(
            f"The agent{where} (or its protocol version) does not support {action}.",
            hint=str(exc) or None,
        )
    if isinstance(exc, AgentJSONRPCError):
        # The agent's own error, whatever its code (-32000 is not a closed connection here).
        return RemoteError(
            f"The agent{where} returned an error while {action}: {exc.message}",
            remote_code=exc.code if isinstance(exc.code, int | str) else None,
            remote_data=exc.remote_data,
            details={"remote_message": exc.message},
        )
    if isinstance(exc, A2AClientError | httpx.HTTPError | json.JSONDecodeError):
        cause = exc if isinstance(exc, httpx.HTTPError | json.JSONDecodeError) else _http_cause(exc)
        if isinstance(cause, httpx.HTTPStatusError):
            resp = cause.response
            return http_status_error(
                resp.status_code,
                action=action,
                url=str(resp.request.url),
                challenge=resp.headers.get("www-authenticate"),
            )
        if isinstance(cause, httpx.ConnectError | httpx.ConnectTimeout | httpx.UnsupportedProtocol):
            return UnreachableError(
                f"Could not reach the agent{where} while {action}: {cause}.",
                hint="check the URL and that the agent is running",
                details={"url": url} if url else None,
            )
        if isinstance(cause, httpx.TimeoutException):
            return map_error(cause, action=action, url=url)
        if isinstance(cause, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError | httpx.StreamError):
            closed = isinstance(cause, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError)
            return ConnectionLostError(
                f"The connection to the agent{where} broke while {action}: {_cause(cause)}.",
                hint="the agent may have crashed or restarted; a running task can be resubscribed",
                details={**({"url": url} if url else {}), **({"cause": CLOSED_WITHOUT_ANSWER} if closed else {})},
            )
        if isinstance(cause, json.JSONDecodeError):
            return ProtocolError(
                f"The agent{where} sent something that is not JSON while {action}.",
                details={"error": str(cause)},
            )
        if (remote := _error_object(str(exc))) is not None:
            return RemoteError(
                f"The agent{where} returned an error while {action}: {remote.get('message', '')}",
                remote_code=remote.get("code", remote.get("status")),
                remote_data=remote.get("details", remote.get("data")),
                details={
                    "remote_message": remote.get("message", ""),
                    **({"status": remote["status"]} if "status" in remote else {}),
                },
            )
        if "is closed" in str(exc):
            return ConnectionLostError(f"The connection to the agent{where} is closed ({action}).")
        return ProtocolError(f"The agent{where} sent an unexpected reply while {action}: {exc}.")
    if isinstance(exc, A2AError):
        code = JSON_RPC_ERROR_CODE_MAP.get(type(exc))
        return RemoteError(
            f"The agent{where} returned an error while {action}: {exc.message}",
            remote_code=code if code is not None else type(exc).__name__,
            remote_data=exc.data,
            details={"remote_message": exc.message},
        )
    if isinstance(exc, ValueError) and "no compatible transports" in str(exc):
        return UnsupportedCapabilityError(
            f"The agent{where} offers no transport the workbench can use.",
            hint="the workbench speaks JSON-RPC and HTTP+JSON (A2A 1.0 and 0.3)",
        )
    return ProtocolError(f"Unexpected failure while {action}{where}: {type(exc).__name__}: {exc}")
