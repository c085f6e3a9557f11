"""Fault server (stdio, hand-written, legacy era): replies a client cannot read, each naming its request id.

- `tools/call` `nested`  -> a result nested 100,000 levels deep (valid JSON; no parser should recurse it).
- `tools/call` `broken`  -> a reply cut off mid-object (the id is readable, the rest is not JSON).
- `tools/call` `huge`    -> a proper result whose text is `chars` characters long (argument).
- `tools/call` `echo`    -> a proper result (shows the connection still works after each).
"""

from __future__ import annotations

import json

from _jsonrpc import METHOD_NOT_FOUND, handle_handshake, messages, send_error, send_result, write_line

NAME = "unreadable-replies"
DEPTH = 100_000
TOOLS = [
    {"name": name, "description": text, "inputSchema": {"type": "object"}}
    for name, text in (
        ("nested", "deeply nested result"),
        ("broken", "cut-off reply"),
        ("huge", "long reply"),
        ("echo", "proper reply"),
    )
]


def main() -> None:
    for message in messages():
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if method == "tools/list":
            send_result(request_id, {"tools": TOOLS})
        elif method == "tools/call":
            tool = (message.get("params") or {}).get("name")
            head = f'{{"jsonrpc":"2.0","id":{json.dumps(request_id)},"result":'
            if tool == "nested":
                write_line(head + '{"content":[],"structuredContent":{"x":' + "[" * DEPTH + "]" * DEPTH + "}}}")
            elif tool == "huge":
                chars = int(((message.get("params") or {}).get("arguments") or {}).get("chars", 1000))
                send_result(request_id, {"content": [{"type": "text", "text": "x" * chars}]})
            elif tool == "broken":
                write_line(head + '{"content":[{"type":"text","text":"cut')
            else:
                send_result(request_id, {"content": [{"type": "text", "text": "ok"}]})
        elif request_id is not None:
            send_error(request_id, METHOD_NOT_FOUND, f"unknown method {method}")


if __name__ == "__main__":
    main()
