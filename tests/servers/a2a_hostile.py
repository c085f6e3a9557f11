"""Fault server (A2A 1.0, JSON-RPC and HTTP+JSON, 127.0.0.1, ephemeral port): answers that never fit in memory.

Prints `LISTENING http://127.0.0.1:<port>` once bound. The card (`/.well-known/agent-card.json`) offers
JSON-RPC at `/jsonrpc` and HTTP+JSON at `/rest`. What a message gets depends on its text:

- `huge`          -> a proper reply whose text is `HUGE_MB` MiB (default 200) of `x`, with its Content-Length;
- `huge_chunked`  -> the same without a Content-Length (chunked);
- `endless` (streamed) -> an event stream of 1 MiB status updates of a working task, forever;
- anything else   -> a proper small reply, the text `ok`.

Each client disconnect is logged on stderr as `gone <what> after <n> MiB`. Stops on SIGTERM/SIGINT.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable, Iterator
from http.server import BaseHTTPRequestHandler
from typing import Any

from _padded import MIB, padded_parts, send_event_stream, send_padded
from _threaded_http import serve_until_stopped

HUGE_MB = int(os.environ.get("HUGE_MB", "200"))


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def _agent_message(text: str) -> dict[str, Any]:
    return {"messageId": "reply-1", "role": "ROLE_AGENT", "parts": [{"text": text}]}


def _status(n: int, text: str) -> dict[str, Any]:
    message = {"messageId": f"status-{n}", "role": "ROLE_AGENT", "parts": [{"text": text}]}
    return {"taskId": "task-1", "contextId": "ctx-1", "status": {"state": "TASK_STATE_WORKING", "message": message}}


class Handler(BaseHTTPRequestHandler):
    """The card, JSON-RPC at /jsonrpc and HTTP+JSON at /rest."""

    protocol_version = "HTTP/1.1"

    def _send_json(self, body: Any) -> None:
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        if not self.path.endswith("/.well-known/agent-card.json"):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._send_json(
            {
                "name": "Hostile agent",
                "description": "Answers that never fit in memory.",
                "version": "1.0.0",
                "supportedInterfaces": [
                    {"url": f"{base}/jsonrpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"},
                    {"url": f"{base}/rest", "protocolBinding": "HTTP+JSON", "protocolVersion": "1.0"},
                ],
                "capabilities": {"streaming": True},
                "defaultInputModes": ["text/plain"],
                "defaultOutputModes": ["text/plain"],
                "skills": [],
            }
        )

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        rest = self.path.startswith("/rest")
        rid = None if rest else request.get("id")
        params = request if rest else request.get("params") or {}
        parts = (params.get("message") or {}).get("parts") or [{}]
        text = parts[0].get("text", "")
        streamed = self.path.endswith("message:stream") or request.get("method") == "SendStreamingMessage"

        def wrap(result: dict[str, Any]) -> dict[str, Any]:
            return result if rest else {"jsonrpc": "2.0", "id": rid, "result": result}

        if text in ("huge", "huge_chunked") and not streamed:
            self._huge(wrap({"message": _agent_message("")}), chunked=text == "huge_chunked")
        elif text == "endless" and streamed:
            self._endless(wrap)
        elif streamed:
            self._events([wrap({"message": _agent_message("ok")})])
        else:
            self._send_json(wrap({"message": _agent_message("ok")}))

    def _huge(self, reply: dict[str, Any], *, chunked: bool) -> None:
        prefix, suffix = padded_parts(reply, "text")
        sent = send_padded(self, prefix, suffix, HUGE_MB, framing="chunked" if chunked else "length")
        if sent is not None:
            log(f"gone huge after {sent} MiB")

    def _events(self, events: Iterable[dict[str, Any]]) -> int | None:
        return send_event_stream(self, (f"data: {json.dumps(event)}\n\n".encode() for event in events))

    def _endless(self, wrap: Any) -> None:
        filler = "y" * (MIB - 300)

        def events() -> Iterator[dict[str, Any]]:
            yield wrap({"task": {"id": "task-1", "contextId": "ctx-1", "status": {"state": "TASK_STATE_WORKING"}}})
            n = 0
            while True:
                n += 1
                yield wrap({"statusUpdate": _status(n, filler)})

        if (sent := self._events(events())) is not None:
            log(f"gone endless after {sent} MiB")

    def log_message(self, format: str, *args: Any) -> None:
        pass


def main() -> int:
    return serve_until_stopped(Handler)


if __name__ == "__main__":
    sys.exit(main())
