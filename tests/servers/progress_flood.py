"""Fault server (stdio, hand-written, legacy era): `tools/call` of `flood` sends COUNT progress notifications first.

Run as `progress_flood.py [COUNT]` (default 100,000). The notifications carry the call's
`progressToken` when it sent one (else the token `flood`), then the call is answered `done`.
Written in batches of lines so the flood is as fast as the pipe takes it.
"""

from __future__ import annotations

import json
import sys

from _jsonrpc import METHOD_NOT_FOUND, handle_handshake, messages, send_error, send_result

NAME = "progress-flood"
TOOL = {"name": "flood", "description": "Floods progress, then answers.", "inputSchema": {"type": "object"}}
BATCH = 1_000


def flood(token: object, count: int) -> None:
    token_json = json.dumps(token)
    for start in range(0, count, BATCH):
        lines = [
            '{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":'
            f'{token_json},"progress":{i},"total":{count},"message":"step {i}"}}}}\n'
            for i in range(start, min(count, start + BATCH))
        ]
        sys.stdout.write("".join(lines))
    sys.stdout.flush()


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
    for message in messages():
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if method == "tools/list":
            send_result(request_id, {"tools": [TOOL]})
        elif method == "tools/call":
            meta = (message.get("params") or {}).get("_meta") or {}
            flood(meta.get("progressToken", "flood"), count)
            send_result(request_id, {"content": [{"type": "text", "text": "done"}]})
        elif request_id is not None:
            send_error(request_id, METHOD_NOT_FOUND, f"unknown method {method}")


if __name__ == "__main__":
    main()
