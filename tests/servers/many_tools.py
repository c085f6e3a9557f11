"""Fault server (stdio, hand-written, legacy era): lists COUNT tools (default 10,000) in one `tools/list` page.

Run as `many_tools.py [COUNT]`. Each tool has a small object schema; `tools/call` of any of them
answers `ok <name>`.
"""

from __future__ import annotations

import sys

from _jsonrpc import METHOD_NOT_FOUND, handle_handshake, messages, send_error, send_result

NAME = "many-tools"


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    tools = [
        {
            "name": f"tool_{i:05d}",
            "description": f"Tool number {i}.",
            "inputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}},
        }
        for i in range(count)
    ]
    for message in messages():
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if method == "tools/list":
            send_result(request_id, {"tools": tools})
        elif method == "tools/call":
            name = (message.get("params") or {}).get("name")
            send_result(request_id, {"content": [{"type": "text", "text": f"ok {name}"}]})
        elif request_id is not None:
            send_error(request_id, METHOD_NOT_FOUND, f"unknown method {method}")


if __name__ == "__main__":
    main()
