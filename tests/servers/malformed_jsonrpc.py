"""Fault server (stdio, hand-written, legacy era): valid handshake, then replies that are not valid JSON-RPC.

- `tools/list`     -> three lines: a reply without `"jsonrpc"`, a reply with both `result` and `error`,
                      and a truncated JSON line. No valid reply follows.
- `resources/list` -> only the reply with both `result` and `error`.
- `prompts/list`   -> only the truncated JSON line.
- `ping`           -> a proper empty result (shows the connection still reads).
"""

from __future__ import annotations

import json

from _jsonrpc import METHOD_NOT_FOUND, handle_handshake, messages, send_error, write_line

NAME = "malformed-jsonrpc"


def missing_version(request_id: object) -> str:
    """A reply that is valid JSON but lacks the `jsonrpc` member."""
    return json.dumps({"id": request_id, "result": {"tools": []}})


def result_and_error(request_id: object) -> str:
    """A reply carrying both `result` and `error` (forbidden by JSON-RPC 2.0)."""
    return json.dumps(
        {"jsonrpc": "2.0", "id": request_id, "result": {"resources": []}, "error": {"code": -32603, "message": "both"}}
    )


def truncated(request_id: object) -> str:
    """The first half of a JSON reply, cut off mid-object."""
    return f'{{"jsonrpc": "2.0", "id": {json.dumps(request_id)}, "result": {{"prompts": [{{"name": "cut'


def main() -> None:
    for message in messages():
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        if method == "tools/list":
            write_line(missing_version(request_id))
            write_line(result_and_error(request_id))
            write_line(truncated(request_id))
        elif method == "resources/list":
            write_line(result_and_error(request_id))
        elif method == "prompts/list":
            write_line(truncated(request_id))
        else:
            send_error(request_id, METHOD_NOT_FOUND, "Method not found")


if __name__ == "__main__":
    main()
