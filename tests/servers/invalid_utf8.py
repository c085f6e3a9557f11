"""Fault server (stdio, hand-written, legacy era): writes bytes that are not UTF-8.

- at start: one line of pure invalid bytes (`\\xff\\xfe\\x80...`) on stdout, before anything is asked;
- `tools/call` `text`  -> a reply whose text holds invalid bytes inside the JSON string;
- `tools/call` `echo`  -> a proper reply.
"""

from __future__ import annotations

import json
import sys

from _jsonrpc import METHOD_NOT_FOUND, handle_handshake, messages, send_error, send_result

NAME = "invalid-utf8"
TOOLS = [
    {"name": "text", "description": "Invalid UTF-8 in the reply.", "inputSchema": {"type": "object"}},
    {"name": "echo", "description": "A proper reply.", "inputSchema": {"type": "object"}},
]


def write_bytes(data: bytes) -> None:
    sys.stdout.flush()
    sys.stdout.buffer.write(data + b"\n")
    sys.stdout.buffer.flush()


def main() -> None:
    write_bytes(b"\xff\xfe\x80\x81 not utf-8 \xc3\x28 \xed\xa0\x80")
    for message in messages():
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if method == "tools/list":
            send_result(request_id, {"tools": TOOLS})
        elif method == "tools/call" and (message.get("params") or {}).get("name") == "text":
            head = f'{{"jsonrpc":"2.0","id":{json.dumps(request_id)},"result":{{"content":[{{"type":"text","text":"'
            write_bytes(head.encode() + b"bad \xff\xfe bytes \xc3\x28 here" + b'"}]}}')
        elif method == "tools/call":
            send_result(request_id, {"content": [{"type": "text", "text": "ok"}]})
        elif request_id is not None:
            send_error(request_id, METHOD_NOT_FOUND, f"unknown method {method}")


if __name__ == "__main__":
    main()
