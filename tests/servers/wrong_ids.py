"""Fault server (stdio, hand-written, legacy era): replies with ids nobody asked for, and twice.

`tools/call`:
- `echo`      -> a reply to an unknown id (`"stranger-<id>"`), then the real reply, then the real reply again;
- `only_wrong`-> only a reply to an unknown id: the call itself is never answered.
"""

from __future__ import annotations

from _jsonrpc import METHOD_NOT_FOUND, handle_handshake, messages, send_error, send_result

NAME = "wrong-ids"
TOOLS = [
    {"name": "echo", "description": "Answers, surrounded by strangers.", "inputSchema": {"type": "object"}},
    {"name": "only_wrong", "description": "Answers another id only.", "inputSchema": {"type": "object"}},
]


def main() -> None:
    for message in messages():
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if method == "tools/list":
            send_result(request_id, {"tools": TOOLS})
        elif method == "tools/call":
            name = (message.get("params") or {}).get("name")
            stranger = {"content": [{"type": "text", "text": "not yours"}]}
            send_result(f"stranger-{request_id}", stranger)
            send_result(987_654_321, stranger)
            if name == "echo":
                answer = {"content": [{"type": "text", "text": "yours"}]}
                send_result(request_id, answer)
                send_result(request_id, answer)  # a duplicate
        elif request_id is not None:
            send_error(request_id, METHOD_NOT_FOUND, f"unknown method {method}")


if __name__ == "__main__":
    main()
