"""Line-based JSON-RPC plumbing shared by the hand-written stdio fault servers (stdlib only)."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from typing import Any

PROTOCOL_VERSION = "2025-11-25"
METHOD_NOT_FOUND = -32601


def log(text: str) -> None:
    """Write one line to stderr (the test reads it there)."""
    print(text, file=sys.stderr, flush=True)


def write_line(text: str) -> None:
    """Write one raw line to stdout, the wire."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def send(message: dict[str, Any]) -> None:
    """Write one JSON-RPC message."""
    write_line(json.dumps(message, separators=(",", ":")))


def send_result(request_id: Any, result: dict[str, Any]) -> None:
    """Answer a request with a result."""
    send({"jsonrpc": "2.0", "id": request_id, "result": result})


def send_error(request_id: Any, code: int, message: str) -> None:
    """Answer a request with an error."""
    send({"jsonrpc": "2.0", "id": request_id, "error": {"code": code, "message": message}})


def messages() -> Iterator[dict[str, Any]]:
    """Yield the JSON objects read from stdin, one per line, until EOF."""
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            message = json.loads(line)
        except ValueError:
            log(f"unparsable input: {line.strip()[:200]}")
            continue
        if isinstance(message, dict):
            yield message


def initialize_result(name: str) -> dict[str, Any]:
    """The `initialize` result of a tools-only handshake-era server."""
    return {
        "protocolVersion": PROTOCOL_VERSION,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": name, "version": "0.1.0"},
    }


def tools_only_reply(message: dict[str, Any], name: str, tools: list[dict[str, Any]]) -> dict[str, Any]:
    """The plain JSON-RPC answer of a tools-only server named ``name``: its handshake, ``tools``,
    ``ping``, the text ``ok`` for any tool call, and -32601 for anything else."""
    method, rid = message.get("method"), message.get("id")
    if method == "initialize":
        return {"jsonrpc": "2.0", "id": rid, "result": initialize_result(name)}
    if method == "tools/list":
        return {"jsonrpc": "2.0", "id": rid, "result": {"tools": tools}}
    if method == "ping":
        return {"jsonrpc": "2.0", "id": rid, "result": {}}
    if method == "tools/call":
        return {"jsonrpc": "2.0", "id": rid, "result": {"content": [{"type": "text", "text": "ok"}]}}
    return {"jsonrpc": "2.0", "id": rid, "error": {"code": METHOD_NOT_FOUND, "message": "Method not found"}}


def handle_handshake(message: dict[str, Any], name: str) -> bool:
    """Answer `server/discover` (-32601, so clients fall back), `initialize` and `ping`.

    Returns:
        True when the message was one of these (or the `initialized` notification).
    """
    method = message.get("method")
    if method == "server/discover":
        send_error(message.get("id"), METHOD_NOT_FOUND, "Method not found")
    elif method == "initialize":
        send_result(message.get("id"), initialize_result(name))
    elif method == "ping":
        send_result(message.get("id"), {})
    elif method == "notifications/initialized":
        pass
    else:
        return False
    return True


ECHO_TOOL = {
    "name": "echo",
    "description": "Return the text unchanged.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]},
}
