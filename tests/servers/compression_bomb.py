"""Fault server (MCP Streamable HTTP and A2A 1.0 JSON-RPC, 127.0.0.1, ephemeral port): compressed bombs.

Prints `LISTENING http://127.0.0.1:<port>` once bound. Every answer is compressed (its
Content-Encoding says how), whatever the request's Accept-Encoding; small answers are proper ones.
A bomb inflates to `mib` MiB (a tool argument, default `BOMB_MB`, 1024) from ~1 KiB per MiB on
the wire (tests/servers/_bombs.py).

MCP at `/mcp` (`server/discover` gets -32601, so clients fall back to `initialize`; GET gets 405).
`tools/call`:

- `gzip`, `deflate`, `raw_deflate` -> a proper JSON-RPC result whose text is `mib` MiB of `x`, as
  `application/json` with Content-Encoding `gzip`, `deflate` (zlib-wrapped) or `deflate` (raw),
  and the Content-Length of the compressed body;
- `gzip_sse` -> the same result as one event of a gzip-encoded `text/event-stream` (no length);
- `brotli`  -> a small body declared `Content-Encoding: br` (a coding a client may not decode);
- `echo`    -> a proper small result, gzip-encoded.

A2A at `/a2a`: the card (gzip-encoded) offers JSON-RPC at `/a2a/jsonrpc`, where a message whose
text is `bomb` gets a gzip reply whose text is `BOMB_MB` MiB, and any other message a gzip reply
`ok`. At `/card` an agent's card is itself a gzip bomb (its `description`).

An authorization page at `/authorize` is a gzip bomb too, and `/authorize-redirect` redirects
there (302) with a gzip bomb as its own body.

Each client disconnect is logged on stderr as `gone <what> after <n> KiB` (compressed bytes
sent). Stops on SIGTERM/SIGINT.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterable
from http.server import BaseHTTPRequestHandler
from typing import Any

from _bombs import Coding, bomb, compress, compressed_length
from _jsonrpc import tools_only_reply
from _padded import padded_parts, tool_result_parts
from _threaded_http import serve_until_stopped

BOMB_MB = int(os.environ.get("BOMB_MB", "1024"))
CODINGS: dict[str, Coding] = {"gzip": "gzip", "deflate": "deflate", "raw_deflate": "raw-deflate"}
SIZE = {"type": "object", "properties": {"mib": {"type": "integer"}}}
TOOLS = [
    {"name": name, "description": text, "inputSchema": SIZE}
    for name, text in (
        ("gzip", "A gzip bomb as JSON."),
        ("deflate", "A zlib-wrapped deflate bomb as JSON."),
        ("raw_deflate", "A raw deflate bomb as JSON."),
        ("gzip_sse", "A gzip bomb as one server-sent event."),
        ("brotli", "A body declared br."),
        ("echo", "A proper gzip answer."),
    )
]


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


class Handler(BaseHTTPRequestHandler):
    """MCP at /mcp, an A2A agent at /a2a, an agent whose card is a bomb at /card."""

    protocol_version = "HTTP/1.1"

    def _send(self, status: int, body: bytes, content_type: str = "application/json", coding: str = "gzip") -> None:
        data = compress(body, "gzip") if coding == "gzip" and body else body
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Mcp-Session-Id", "bombs")  # (so the client opens, and is told off, its GET stream)
        if data:
            self.send_header("Content-Encoding", coding)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def _json(self, body: Any) -> None:
        self._send(200, json.dumps(body).encode())

    def _bomb(
        self,
        what: str,
        pieces: Iterable[bytes],
        content_type: str,
        coding: str,
        length: int | None,
        headers: dict[str, str] | None = None,
    ) -> None:
        self.send_response(302 if headers and "Location" in headers else 200)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Encoding", coding)
        if length is None:
            self.close_connection = True  # the body ends when the connection does
        else:
            self.send_header("Content-Length", str(length))
        self.end_headers()
        sent = 0
        try:
            for piece in pieces:
                self.wfile.write(piece)
                sent += len(piece)
        except (BrokenPipeError, ConnectionResetError):
            log(f"gone {what} after {sent // 1024} KiB")

    def do_GET(self) -> None:
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        if self.path == "/a2a/.well-known/agent-card.json":
            self._json(_card(f"{base}/a2a/jsonrpc", "Answers in gzip."))
        elif self.path == "/card/.well-known/agent-card.json":
            prefix, suffix = padded_parts(_card(f"{base}/card/jsonrpc", ""), "description")
            length = compressed_length(prefix, suffix, BOMB_MB, "gzip")
            self._bomb("card", bomb(prefix, suffix, BOMB_MB, "gzip"), "application/json", "gzip", length)
        elif self.path in ("/authorize", "/authorize-redirect"):
            prefix, suffix = b"<html><body><p>", b"</p></body></html>"
            length = compressed_length(prefix, suffix, BOMB_MB, "gzip")
            moved = {"Location": "/authorize"} if self.path == "/authorize-redirect" else None
            self._bomb("page", bomb(prefix, suffix, BOMB_MB, "gzip"), "text/html", "gzip", length, moved)
        else:
            self._send(405 if self.path.startswith("/mcp") else 404, b"")

    def do_DELETE(self) -> None:
        self._send(200, b"")

    def do_POST(self) -> None:
        message = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        if self.path.startswith("/a2a/"):
            self._a2a(message)
            return
        rid, params = message.get("id"), message.get("params") or {}
        name, mib = params.get("name"), (params.get("arguments") or {}).get("mib", BOMB_MB)
        if rid is None:
            self._send(202, b"")
        elif message.get("method") != "tools/call" or name == "echo":
            self._json(tools_only_reply(message, "compression-bomb", TOOLS))
        elif name in CODINGS:
            coding = CODINGS[name]
            prefix, suffix = tool_result_parts(rid)
            length = compressed_length(prefix, suffix, mib, coding)
            header = "gzip" if coding == "gzip" else "deflate"
            self._bomb(name, bomb(prefix, suffix, mib, coding), "application/json", header, length)
        elif name == "gzip_sse":
            prefix, suffix = tool_result_parts(rid)
            pieces = bomb(b"event: message\ndata: " + prefix, suffix + b"\n\n", mib, "gzip")
            self._bomb(name, pieces, "text/event-stream", "gzip", None)
        elif name == "brotli":
            self._send(200, json.dumps(tools_only_reply(message, "compression-bomb", TOOLS)).encode(), coding="br")
        else:
            self._json({"jsonrpc": "2.0", "id": rid, "error": {"code": -32602, "message": "Unknown tool"}})

    def _a2a(self, request: dict[str, Any]) -> None:
        parts = ((request.get("params") or {}).get("message") or {}).get("parts") or [{}]
        reply = {"jsonrpc": "2.0", "id": request.get("id"), "result": {"message": _agent_message("")}}
        if parts[0].get("text") == "bomb":
            prefix, suffix = padded_parts(reply, "text")
            length = compressed_length(prefix, suffix, BOMB_MB, "gzip")
            self._bomb("a2a reply", bomb(prefix, suffix, BOMB_MB, "gzip"), "application/json", "gzip", length)
        else:
            reply["result"] = {"message": _agent_message("ok")}
            self._json(reply)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def _card(url: str, description: str) -> dict[str, Any]:
    return {
        "name": "Compressing agent",
        "description": description,
        "version": "1.0.0",
        "supportedInterfaces": [{"url": url, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {"streaming": False},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [],
    }


def _agent_message(text: str) -> dict[str, Any]:
    return {"messageId": "reply-1", "role": "ROLE_AGENT", "parts": [{"text": text}]}


def main() -> int:
    return serve_until_stopped(Handler)


if __name__ == "__main__":
    sys.exit(main())
