"""Fault server (stdio, hand-written, legacy era): lists a tool but never answers `tools/call`.

`notifications/cancelled` is acknowledged on stderr as `cancelled <requestId>`; `ping` still works.
"""

from __future__ import annotations

from _jsonrpc import METHOD_NOT_FOUND, handle_handshake, log, messages, send_error, send_result

NAME = "never-answers"
WAIT_TOOL = {
    "name": "wait_forever",
    "description": "Never returns.",
    "inputSchema": {"type": "object", "properties": {}},
}


def main() -> None:
    pending: set[object] = set()
    for message in messages():
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if method == "notifications/cancelled":
            cancelled = (message.get("params") or {}).get("requestId")
            pending.discard(cancelled)
            log(f"cancelled {cancelled}")
        elif request_id is None:
            continue
        elif method == "tools/list":
            send_result(request_id, {"tools": [WAIT_TOOL]})
        elif method == "tools/call":
            pending.add(request_id)
            log(f"holding tools/call {request_id}")
        else:
            send_error(request_id, METHOD_NOT_FOUND, "Method not found")


if __name__ == "__main__":
    main()
