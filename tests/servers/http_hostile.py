"""Fault server (MCP Streamable HTTP and legacy HTTP+SSE, 127.0.0.1, ephemeral port): answers that never fit in memory.

Prints `LISTENING http://127.0.0.1:<port>/mcp` once bound. The handshake and `tools/list` are plain
JSON responses (`server/discover` gets -32601, so clients fall back to `initialize`). `tools/call`:

- `huge`    -> a proper JSON-RPC result whose text is `HUGE_MB` MiB (default 200) of `x`, sent as
               `application/json` with its Content-Length, streamed in 1 MiB writes;
- `huge_chunked` -> the same without a Content-Length (chunked), so only counting can refuse it;
- `endless` -> `text/event-stream` of 1 MiB `notifications/message` events, forever (until the
               client goes away), never the result;
- `echo`    -> a proper small result;
- `garbage_after_huge` -> waits until a client went away from a `huge` answer (at most 10 s), then
               answers `200 application/json` with a body that is not JSON (two calls at once: only
               one of them is oversized).

The same server speaks the legacy HTTP+SSE transport at `/sse` (session stream; messages are POSTed
to `/messages?session_id=…` and answered on the stream): there `huge` is one `HUGE_MB` MiB event
and `endless` 1 MiB notification events forever, both on the session stream.

With `MANY_TOOLS=N` in its environment, `tools/list` answers one page of N more tools.

Each client disconnect is logged on stderr as `gone <tool> after <n> MiB`. Stops on SIGTERM/SIGINT.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import sys
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

from _jsonrpc import tools_only_reply
from _padded import MIB, padded, send_event_stream, send_padded, tool_result_parts
from _threaded_http import serve_until_stopped

HUGE_MB = int(os.environ.get("HUGE_MB", "200"))
TOOLS = [
    {"name": name, "description": text, "inputSchema": {"type": "object"}}
    for name, text in (
        ("huge", "A 200 MB answer."),
        ("huge_chunked", "A 200 MB answer without a length."),
        ("endless", "1 MB events forever."),
        ("echo", "A proper answer."),
        ("garbage_after_huge", "Not JSON, once a huge answer was refused."),
    )
]
TOOLS += [
    {"name": f"tool_{i:06d}", "description": f"Tool number {i}.", "inputSchema": {"type": "object"}}
    for i in range(int(os.environ.get("MANY_TOOLS", "0")))
]
SESSIONS: dict[str, queue.Queue[Iterator[bytes]]] = {}
"""Legacy SSE: what each session stream has still to send (each item a series of writes)."""
HUGE_GONE = threading.Event()
"""Set when a client went away from a `huge` answer."""


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


class Handler(BaseHTTPRequestHandler):
    """One JSON-RPC message per POST."""

    protocol_version = "HTTP/1.1"

    def _json(self, status: int, body: dict[str, Any] | None) -> None:
        self._send(status, b"" if body is None else json.dumps(body).encode())

    def _send(self, status: int, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if self.path.startswith("/sse"):
            self._session_stream()
        else:
            self._json(405, None)  # no standalone SSE stream

    def do_DELETE(self) -> None:
        self._json(200, None)

    def do_POST(self) -> None:
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        if self.path.startswith("/messages"):
            self._legacy_message(message)
            return
        rid, name = message.get("id"), (message.get("params") or {}).get("name")
        if rid is None:
            self._json(202, None)
        elif message.get("method") == "tools/call" and name in ("huge", "huge_chunked"):
            self._huge(rid, chunked=name == "huge_chunked")
        elif message.get("method") == "tools/call" and name == "endless":
            self._endless()
        elif message.get("method") == "tools/call" and name == "garbage_after_huge":
            HUGE_GONE.wait(10)
            self._send(200, b"this is not JSON")
        else:
            self._json(200, tools_only_reply(message, "http-hostile", TOOLS))

    def _huge(self, rid: Any, *, chunked: bool = False) -> None:
        prefix, suffix = tool_result_parts(rid)
        sent = send_padded(self, prefix, suffix, HUGE_MB, framing="chunked" if chunked else "length")
        if sent is not None:
            log(f"gone huge after {sent} MiB")
            HUGE_GONE.set()

    def _endless(self) -> None:
        if (sent := send_event_stream(self, _endless_events())) is not None:
            log(f"gone endless after {sent} MiB")

    # ---- legacy HTTP+SSE

    def _session_stream(self) -> None:
        session = uuid.uuid4().hex
        pending: queue.Queue[Iterator[bytes]] = queue.Queue()
        SESSIONS[session] = pending
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.close_connection = True
        sent = 0
        try:
            self.wfile.write(f"event: endpoint\ndata: /messages?session_id={session}\n\n".encode())
            self.wfile.flush()
            while True:
                for piece in pending.get():
                    self.wfile.write(piece)
                    sent += len(piece)
                self.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            log(f"gone sse session after {sent // MIB} MiB")
        finally:
            SESSIONS.pop(session, None)

    def _legacy_message(self, message: dict[str, Any]) -> None:
        session = (self.path.partition("session_id=")[2] or "").split("&")[0]
        pending = SESSIONS.get(session)
        if pending is None:
            self._json(404, None)
            return
        self._json(202, None)
        rid = message.get("id")
        if rid is None:
            return
        method = message.get("method")
        name = (message.get("params") or {}).get("name")
        if method == "tools/call" and name in ("huge", "huge_chunked"):
            prefix, suffix = tool_result_parts(rid)
            pending.put(itertools.chain([b"event: message\ndata: "], padded(prefix, suffix, HUGE_MB), [b"\n\n"]))
            return
        if method == "tools/call" and name == "endless":
            pending.put(_endless_events())
            return
        reply = tools_only_reply(message, "http-hostile", TOOLS)
        pending.put(iter([f"event: message\ndata: {json.dumps(reply)}\n\n".encode()]))

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _endless_events() -> Iterator[bytes]:
    filler = "y" * (MIB - 200)
    note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": filler}}
    event = f"event: message\ndata: {json.dumps(note)}\n\n".encode()
    while True:
        yield event


def main() -> int:
    return serve_until_stopped(Handler, path="/mcp")


if __name__ == "__main__":
    sys.exit(main())
