"""Fault server (MCP Streamable HTTP, 127.0.0.1, ephemeral port): answers that never fit in memory.

Prints `LISTENING http://127.0.0.1:<port>/mcp` once bound. The handshake and `tools/list` are plain
JSON responses (`server/discover` gets -32601, so clients fall back to `initialize`). `tools/call`:

- `huge`    -> a proper JSON-RPC result whose text is `HUGE_MB` MiB (default 200) of `x`, sent as
               `application/json` with its Content-Length, streamed in 1 MiB writes;
- `endless` -> `text/event-stream` of 1 MiB `notifications/message` events, forever (until the
               client goes away), never the result;
- `echo`    -> a proper small result.

Each client disconnect is logged on stderr as `gone <tool> after <n> MiB`. Stops on SIGTERM/SIGINT.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MIB = 1024 * 1024
HUGE_MB = int(os.environ.get("HUGE_MB", "200"))
TOOLS = [
    {"name": name, "description": text, "inputSchema": {"type": "object"}}
    for name, text in (("huge", "A 200 MB answer."), ("endless", "1 MB events forever."), ("echo", "A proper answer."))
]


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


class Handler(BaseHTTPRequestHandler):
    """One JSON-RPC message per POST."""

    protocol_version = "HTTP/1.1"

    def _json(self, status: int, body: dict[str, Any] | None) -> None:
        data = b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        self._json(405, None)  # no standalone SSE stream

    def do_DELETE(self) -> None:
        self._json(200, None)

    def do_POST(self) -> None:
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        method, rid = message.get("method"), message.get("id")
        if rid is None:
            self._json(202, None)
        elif method == "initialize":
            result = {
                "protocolVersion": "2025-11-25",
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "http-hostile", "version": "0.1.0"},
            }
            self._json(200, {"jsonrpc": "2.0", "id": rid, "result": result})
        elif method == "tools/list":
            self._json(200, {"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}})
        elif method == "ping":
            self._json(200, {"jsonrpc": "2.0", "id": rid, "result": {}})
        elif method == "tools/call":
            name = (message.get("params") or {}).get("name")
            if name == "huge":
                self._huge(rid)
            elif name == "endless":
                self._endless()
            else:
                result = {"content": [{"type": "text", "text": "ok"}]}
                self._json(200, {"jsonrpc": "2.0", "id": rid, "result": result})
        else:
            error = {"code": -32601, "message": "Method not found"}
            self._json(200, {"jsonrpc": "2.0", "id": rid, "error": error})

    def _huge(self, rid: Any) -> None:
        head = json.dumps({"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": ""}]}})
        before, _, after = head.rpartition('""')
        prefix, suffix = (before + '"').encode(), ('"' + after).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(prefix) + HUGE_MB * MIB + len(suffix)))
        self.end_headers()
        sent = 0
        try:
            self.wfile.write(prefix)
            chunk = b"x" * MIB
            while sent < HUGE_MB:
                self.wfile.write(chunk)
                sent += 1
            self.wfile.write(suffix)
        except (BrokenPipeError, ConnectionResetError):
            log(f"gone huge after {sent} MiB")

    def _endless(self) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()  # no Content-Length, no chunking: the body ends when the connection does
        self.close_connection = True
        filler = "y" * (MIB - 200)
        sent = 0
        try:
            while True:
                note = {
                    "jsonrpc": "2.0",
                    "method": "notifications/message",
                    "params": {"level": "info", "data": filler},
                }
                self.wfile.write(f"event: message\ndata: {json.dumps(note)}\n\n".encode())
                sent += 1
        except (BrokenPipeError, ConnectionResetError):
            log(f"gone endless after {sent} MiB")

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(0)


def main() -> int:
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    with ThreadingHTTPServer(("127.0.0.1", 0), Handler) as httpd:
        httpd.daemon_threads = True
        print(f"LISTENING http://127.0.0.1:{httpd.server_address[1]}/mcp", flush=True)
        with contextlib.suppress(SystemExit):
            httpd.serve_forever(poll_interval=0.1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
