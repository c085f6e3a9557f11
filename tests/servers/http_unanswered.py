"""Fault server (MCP Streamable HTTP and legacy HTTP+SSE, 127.0.0.1, ephemeral port): requests that get no answer.

Prints `LISTENING http://127.0.0.1:<port>` once bound. By path:

- `/mcp` -> a handshake-era server (`server/discover` gets -32601; `initialize` gives a session id).
  `tools/call`: `fail` answers with the JSON-RPC error given in its arguments (`code`, `message`);
  `silent` is never answered (held until the client goes). A GET (the standalone stream) gets 405;
  the first at once, any later one (the client's retry) only once a `silent` call has arrived, so
  the 405 comes while that call waits for its answer.
- `/hangup/mcp` -> every POST: the connection is closed without an answer.
- `/reset/mcp`  -> every POST: the connection is reset (RST) without an answer.
- `/elsewhere/sse` -> legacy HTTP+SSE whose `endpoint` event names another origin
  (`http://localhost:<port>/messages`); the stream then stays open until the client goes.

Client disconnects are logged on stderr (`gone <what>`). Stops on SIGTERM/SIGINT.
"""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import sys
import threading
from http.server import BaseHTTPRequestHandler
from typing import Any

from _jsonrpc import METHOD_NOT_FOUND, initialize_result
from _threaded_http import serve_until_stopped

HOLD = 30.0
"""Most seconds anything is held open."""
TOOLS = [
    {
        "name": "fail",
        "description": "Answer with the JSON-RPC error given.",
        "inputSchema": {
            "type": "object",
            "properties": {"code": {"type": "integer"}, "message": {"type": "string"}},
            "required": ["code", "message"],
        },
    },
    {"name": "silent", "description": "Never answered.", "inputSchema": {"type": "object"}},
]
SILENT_CALLED = threading.Event()
GETS = 0


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


class Handler(BaseHTTPRequestHandler):
    """One JSON-RPC message per POST; what happens depends on the path."""

    protocol_version = "HTTP/1.1"

    def _json(self, status: int, body: dict[str, Any] | None) -> None:
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Mcp-Session-Id", "session-1")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        global GETS
        if self.path.startswith("/elsewhere/sse"):
            self._foreign_endpoint()
            return
        GETS += 1
        if GETS > 1:
            SILENT_CALLED.wait(HOLD)
        self._json(405, None)

    def do_DELETE(self) -> None:
        self._json(200, None)

    def do_POST(self) -> None:
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        if self.path.startswith(("/hangup", "/reset")):
            self._hang_up(reset=self.path.startswith("/reset"))
            return
        rid, method = message.get("id"), message.get("method")
        params = message.get("params") or {}
        if rid is None:
            self._json(202, None)
        elif method == "initialize":
            self._json(200, {"jsonrpc": "2.0", "id": rid, "result": initialize_result("unanswered")})
        elif method == "tools/list":
            self._json(200, {"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}})
        elif method == "tools/call" and params.get("name") == "fail":
            arguments = params.get("arguments") or {}
            error = {"code": int(arguments.get("code", -32603)), "message": str(arguments.get("message", ""))}
            self._json(200, {"jsonrpc": "2.0", "id": rid, "error": error})
        elif method == "tools/call" and params.get("name") == "silent":
            SILENT_CALLED.set()
            self._hold("silent")
        else:
            self._json(200, {"jsonrpc": "2.0", "id": rid, "error": {"code": METHOD_NOT_FOUND, "message": "nf"}})

    def _hang_up(self, *, reset: bool) -> None:
        if reset:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.close_connection = True
        self.connection.close()

    def _hold(self, what: str) -> None:
        """Keep the request open without answering until the client goes (or ``HOLD`` passes)."""
        self.connection.settimeout(HOLD)
        with contextlib.suppress(OSError):
            self.connection.recv(1)  # returns b"" (or raises) when the client closes
        log(f"gone {what}")
        self.close_connection = True

    def _foreign_endpoint(self) -> None:
        port = self.server.server_address[1]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.wfile.write(f"event: endpoint\ndata: http://localhost:{port}/messages?session_id=s1\n\n".encode())
        self.wfile.flush()
        self._hold("elsewhere")

    def log_message(self, format: str, *args: Any) -> None:
        pass


def main() -> int:
    return serve_until_stopped(Handler)


if __name__ == "__main__":
    sys.exit(main())
