"""Turn a recorded HTTP request into a ``curl`` command line a user can paste into a POSIX shell.

The record is already redacted (``workbench.core.wire.redaction``): credential values stay ``***`` and the
command starts with a comment line saying so, so nobody mistakes it for a working replay.
"""

from __future__ import annotations

from workbench.core.errors import UsageError
from workbench.core.shell_quote import quote
from workbench.core.wire.records import WireKind, WireRecord
from workbench.core.wire.redaction import MASK

REDACTED_NOTE = "# Values shown as *** were redacted by the workbench; put the real ones back before running."
"""The first line of a command that contains redacted values."""

# Headers curl computes itself: copying them would be wrong once a body is edited (or redacted).
_SKIPPED = frozenset({"content-length", "host", "connection", "transfer-encoding"})


def curl_command(record: WireRecord) -> str:
    r"""Return a ``curl`` command that repeats the HTTP request ``record`` (method, URL, headers, body).

    Every argument is one shell word (``shell_quote.quote``: a control character or newline in a
    value is written as an escape, so each option stays on its line and a paste runs curl alone); the
    body goes through ``--data-raw`` (no ``@file`` interpretation). ``Accept-Encoding`` becomes
    ``--compressed`` so the answer prints readably, and a request for an event stream gets ``--no-buffer``.

    Args:
        record: A record of kind ``http-request``.

    Returns:
        The command, one option per line joined with `` \`` continuations; a leading comment line
        (``REDACTED_NOTE``) when a header, the URL or the body holds redacted values.

    Raises:
        UsageError: ``record`` is not an HTTP request, or holds a value no command line can carry (NUL).
    """
    if record.kind is not WireKind.HTTP_REQUEST or not record.http:
        raise UsageError(
            "Only an HTTP request can be copied as a curl command.",
            hint="select an http-request row in the wire log",
            details={"seq": record.seq, "kind": record.kind.value},
        )
    try:
        return _curl_command(record)
    except ValueError as exc:
        raise UsageError(
            f"This request cannot be copied as a curl command: {exc}.",
            hint="export the wire log instead (it keeps the request as recorded)",
            details={"seq": record.seq},
        ) from None


def _curl_command(record: WireRecord) -> str:
    http = record.http or {}
    method = str(http.get("method") or record.method or "GET").upper()
    url = str(http.get("url") or "")
    headers: dict[str, str] = dict(http.get("headers") or {})
    body = record.payload
    redacted = MASK in url or (MASK in body)
    parts = ["curl"]
    if not (method == "GET" and not body) and not (method == "POST" and body):
        parts.append(f"-X {quote(method)}")  # GET without and POST with a body are curl's defaults
    parts.append(quote(url))
    compressed = streaming = False
    for name, value in headers.items():
        low = name.lower()
        redacted = redacted or MASK in value
        if low in _SKIPPED:
            continue
        if low == "accept-encoding":
            compressed = True
            continue
        if low == "accept" and "text/event-stream" in value.lower():
            streaming = True
        parts.append(f"-H {quote(f'{name}: {value}')}")
    if compressed:
        parts.append("--compressed")
    if streaming:
        parts.append("--no-buffer")
    if body:
        parts.append(f"--data-raw {quote(body)}")
    command = " \\\n  ".join(parts)
    return f"{REDACTED_NOTE}\n{command}" if redacted else command
