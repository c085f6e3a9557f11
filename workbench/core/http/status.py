"""HTTP error status → typed workbench error, one mapping for every protocol adapter.

The same status from an MCP server and from an A2A agent gives the same error type and the same
``details``; only the message names what was being done. The response body is not copied into the
error: the wire log keeps the raw response.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from workbench.core.errors import AuthRequiredError, RemoteError, WorkbenchError


class StatusSeen(NamedTuple):
    """An HTTP error response a tap saw (the SDKs often turn it into a generic error).

    Attributes:
        status: The HTTP status code.
        challenge: The ``WWW-Authenticate`` header, if any.
        url: The URL that answered.
    """

    status: int
    challenge: str | None
    url: str = ""


def public_url(url: str) -> str:
    """``url`` without query and fragment (a query may carry an API key)."""
    return url.split("#", 1)[0].split("?", 1)[0]


def http_status_error(status: int, *, url: str, doing: str, challenge: str | None = None) -> WorkbenchError:
    """The typed error for an HTTP error status.

    Args:
        status: The HTTP status code (400 and up).
        url: The URL that answered (its query is dropped).
        doing: What was being done, for the message ("connecting", "sending the message").
        challenge: The response's ``WWW-Authenticate`` header, if any.

    Returns:
        ``AuthRequiredError`` for 401 and 403; otherwise ``RemoteError`` whose ``remote_code`` is the
        status. ``details`` holds ``http_status``, ``url`` and, when there was one,
        ``www_authenticate``.
    """
    where = public_url(url) or "The peer"
    details: dict[str, Any] = {"http_status": status, "url": public_url(url)}
    if challenge:
        details["www_authenticate"] = challenge
    message = f"{where} answered HTTP {status} while {doing}."
    if status in (401, 403):
        return AuthRequiredError(
            message,
            hint="add credentials (bearer token, API key or OAuth login) to this connection",
            details=details,
        )
    return RemoteError(message, remote_code=status, hint="see the wire log for the response body", details=details)
