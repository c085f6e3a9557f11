"""Fault server (A2A 1.0, JSON-RPC, 127.0.0.1, ephemeral port): answers that trickle in, one byte a second, or none.

Prints `LISTENING http://127.0.0.1:<port>` once bound. Two agents, each with its card under its base:

- `/sse`  -> a streaming agent: `SendStreamingMessage` gets an event stream whose first event (a
             proper reply) is written one byte a second;
- `/sse-then` -> a streaming agent whose first event (the task, working) arrives whole and whose
             second is written one byte a second;
- `/json` -> a non-streaming agent: `SendMessage` gets a proper reply, with its Content-Length,
             written one byte a second;
- `/reset` -> a non-streaming agent whose connection is reset (RST) instead of an answer.

A read timeout that restarts with every byte never fires. Each client disconnect is logged on
stderr as `gone <agent> after <n> bytes`. Stops on SIGTERM/SIGINT.
"""

from __future__ import annotations

import json
import socket
import struct
import sys
import time
from http.server import BaseHTTPRequestHandler
from typing import Any

from _threaded_http import serve_until_stopped

PACE = 1.0
"""Seconds between two bytes."""


def log(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def _card(base: str, *, streaming: bool) -> dict[str, Any]:
    return {
        "name": "Trickling agent",
        "description": "Answers one byte a second.",
        "version": "1.0.0",
        "supportedInterfaces": [{"url": f"{base}/jsonrpc", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
        "capabilities": {"streaming": streaming},
        "defaultInputModes": ["text/plain"],
        "defaultOutputModes": ["text/plain"],
        "skills": [],
    }


class Handler(BaseHTTPRequestHandler):
    """Cards at `/sse` and `/json`; JSON-RPC at `<base>/jsonrpc`."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        agent = self.path.split("/")[1]
        if agent not in ("sse", "sse-then", "json", "reset") or not self.path.endswith("/.well-known/agent-card.json"):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        base = f"http://127.0.0.1:{self.server.server_address[1]}/{agent}"
        data = json.dumps(_card(base, streaming=agent.startswith("sse"))).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def do_POST(self) -> None:
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        reply = {
            "jsonrpc": "2.0",
            "id": request.get("id"),
            "result": {"message": {"messageId": "reply-1", "role": "ROLE_AGENT", "parts": [{"text": "ok"}]}},
        }
        agent = self.path.split("/")[1]
        if agent == "sse-then":
            self._event_then_trickle(request.get("id"))
            return
        if agent == "reset":
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.close_connection = True
            self.connection.close()
            return
        self.send_response(200)
        if agent == "sse":
            body = f"data: {json.dumps(reply)}\n\n".encode()
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-cache")
        else:
            body = json.dumps(reply).encode()
            self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.flush()
        self.close_connection = True
        for sent in range(len(body)):
            try:
                self.wfile.write(body[sent : sent + 1])
                self.wfile.flush()
            except OSError:
                log(f"gone {agent} after {sent} bytes")
                return
            time.sleep(PACE)

    def _event_then_trickle(self, rpc_id: object) -> None:
        """A whole first event (the task, working), then a second one written a byte a second."""
        task = {"id": "task-1", "contextId": "ctx-1", "status": {"state": "TASK_STATE_WORKING"}}
        update = {"taskId": "task-1", "contextId": "ctx-1", "status": {"state": "TASK_STATE_WORKING"}}
        first = f"data: {json.dumps({'jsonrpc': '2.0', 'id': rpc_id, 'result': {'task': task}})}\n\n".encode()
        second = json.dumps({"jsonrpc": "2.0", "id": rpc_id, "result": {"statusUpdate": update}})
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        self.close_connection = True
        body = f"data: {second}\n\n".encode()
        try:
            self.wfile.write(first)
            self.wfile.flush()
            for sent in range(len(body)):
                self.wfile.write(body[sent : sent + 1])
                self.wfile.flush()
                time.sleep(PACE)
        except OSError:
            log("gone sse-then after its first event")

    def log_message(self, format: str, *args: Any) -> None:
        pass


def main() -> int:
    return serve_until_stopped(Handler)


if __name__ == "__main__":
    sys.exit(main())
