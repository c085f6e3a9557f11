"""Stdio server (hand-written, legacy era): a tool returning attachments whose base64 ends in 0, 1 and 2 `=`.

`tools/call` of `attachments` answers three image parts of 3, 5 and 4 zero bytes: `AAAA` (no padding),
`AAAAAAA=` (one) and `AAAAAA==` (two). Each holds exactly that many bytes, whatever its length in text.
"""

from __future__ import annotations

from _jsonrpc import METHOD_NOT_FOUND, handle_handshake, messages, send_error, send_result

NAME = "attachments"
BLOBS = ["AAAA", "AAAAAAA=", "AAAAAA=="]


def main() -> None:
    for message in messages():
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if method == "tools/list":
            send_result(request_id, {"tools": [{"name": "attachments", "inputSchema": {"type": "object"}}]})
        elif method == "tools/call":
            parts = [{"type": "image", "mimeType": "image/png", "data": blob} for blob in BLOBS]
            send_result(request_id, {"content": parts})
        elif request_id is not None:
            send_error(request_id, METHOD_NOT_FOUND, f"unknown method {method}")


if __name__ == "__main__":
    main()
