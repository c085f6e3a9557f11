"""Fault server (A2A JSON-RPC, 1.0 and 0.3, 127.0.0.1, ephemeral port): answers with the JSON-RPC error named.

Prints `LISTENING http://127.0.0.1:<port>` once bound. Agents, each with its card under its base:

- `/v1`     -> A2A 1.0, JSON-RPC, not streaming (`SendMessage` answered with a JSON body);
- `/v1sse`  -> A2A 1.0, JSON-RPC, streaming (`SendStreamingMessage` answered with one SSE event);
- `/v03`    -> A2A 0.3, JSON-RPC, not streaming (`message/send`).

A message whose text is `error <code> <message>` (e.g. `error -32000 busy`) is answered with the
JSON-RPC error `{"code": <code>, "message": <message>}`. Stops on SIGTERM/SIGINT.
"""

from __future__ import annotations

import json
import sys
from http.server import BaseHTTPRequestHandler
from typing import Any

from _threaded_http import serve_until_stopped

AGENTS = ("v1", "v1sse", "v03")


def _card(base: str, agent: str) -> dict[str, Any]:
    common = {
        "name": f"server-errors-{agent}",
        "description": "Answers with the JSON-RPC error it is asked for.",
        "version": "1.0.0",
        "skills": [],
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "capabilities": {"streaming": agent == "v1sse", "pushNotifications": False},
    }
    if agent == "v03":
        return {**common, "url": f"{base}/jsonrpc", "preferredTransport": "JSONRPC", "protocolVersion": "0.3.0"}
    interface = {"url": f"{base}/jsonrpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}
    return {**common, "supportedInterfaces": [interface]}


class Handler(BaseHTTPRequestHandler):
    """Cards at `/<agent>/.well-known/agent-card.json`; JSON-RPC at `/<agent>/jsonrpc`."""

    protocol_version = "HTTP/1.1"

    def _send(self, content_type: str, data: bytes, status: int = 200) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_GET(self) -> None:
        agent = self.path.split("/")[1]
        if agent not in AGENTS or not self.path.endswith("/.well-known/agent-card.json"):
            self._send("text/plain", b"not found", 404)
            return
        base = f"http://127.0.0.1:{self.server.server_address[1]}/{agent}"
        self._send("application/json", json.dumps(_card(base, agent)).encode())

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        parts = ((request.get("params") or {}).get("message") or {}).get("parts") or [{}]
        text = str(parts[0].get("text", ""))
        code, _, message = text.removeprefix("error ").partition(" ")
        reply = {"jsonrpc": "2.0", "id": request.get("id"), "error": {"code": int(code), "message": message}}
        if self.path.startswith("/v1sse"):
            self._send("text/event-stream", f"data: {json.dumps(reply)}\n\n".encode())
        else:
            self._send("application/json", json.dumps(reply).encode())

    def log_message(self, format: str, *args: Any) -> None:
        pass


def main() -> int:
    return serve_until_stopped(Handler)


if __name__ == "__main__":
    sys.exit(main())
