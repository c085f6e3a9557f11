"""Fault server (stdio, hand-written, legacy era): answers `tools/call fail` with the JSON-RPC error it is asked for.

`fail` takes `{"code": int, "message": str}` and answers the call with exactly that error object, so
a test can send the codes a client library uses for its own failures (-32000 "connection closed",
-32001 "request timeout") and see whether they are read as the server's.
"""

from __future__ import annotations

from _jsonrpc import METHOD_NOT_FOUND, handle_handshake, messages, send_error, send_result

NAME = "server-errors"
FAIL_TOOL = {
    "name": "fail",
    "description": "Answer with the JSON-RPC error given.",
    "inputSchema": {
        "type": "object",
        "properties": {"code": {"type": "integer"}, "message": {"type": "string"}},
        "required": ["code", "message"],
    },
}


def main() -> None:
    for message in messages():
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue
        if method == "tools/list":
            send_result(request_id, {"tools": [FAIL_TOOL]})
        elif method == "tools/call":
            arguments = (message.get("params") or {}).get("arguments") or {}
            send_error(request_id, int(arguments.get("code", -32603)), str(arguments.get("message", "")))
        else:
            send_error(request_id, METHOD_NOT_FOUND, "Method not found")


if __name__ == "__main__":
    main()
