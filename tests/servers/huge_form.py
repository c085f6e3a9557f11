"""Fault server (stdio, hand-written, legacy era): a tool whose call asks for a form of COUNT fields.

Run as `huge_form.py [COUNT]` (default 50,000). `tools/call` of `ask` sends an `elicitation/create`
request whose `requestedSchema` has COUNT string fields, every one required (about 2 MB of schema),
then answers the call with the action and the number of fields the client sent back.
"""

from __future__ import annotations

import sys

from _jsonrpc import METHOD_NOT_FOUND, PROTOCOL_VERSION, handle_handshake, messages, send, send_error, send_result

NAME = "huge-form"
ELICIT_ID = "elicit-1"


def schema(count: int) -> dict[str, object]:
    names = [f"field_{i:05d}" for i in range(count)]
    properties = {name: {"type": "string", "title": f"Field {name[6:]}"} for name in names}
    return {"type": "object", "properties": properties, "required": names}


def main() -> None:
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 50_000
    waiting = None
    for message in messages():
        if message.get("method") == "initialize":
            result = {
                "protocolVersion": PROTOCOL_VERSION,
                "capabilities": {"tools": {}},
                "serverInfo": {"name": NAME, "version": "0.1.0"},
            }
            send_result(message.get("id"), result)
            continue
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if method == "tools/list":
            send_result(request_id, {"tools": [{"name": "ask", "inputSchema": {"type": "object"}}]})
        elif method == "tools/call":
            waiting = request_id
            params = {"mode": "form", "message": "Fill in every field.", "requestedSchema": schema(count)}
            send({"jsonrpc": "2.0", "id": ELICIT_ID, "method": "elicitation/create", "params": params})
        elif method is None and request_id == ELICIT_ID and waiting is not None:
            answer = message.get("result") or {}
            text = f"{answer.get('action')}: {len(answer.get('content') or {})} fields"
            send_result(waiting, {"content": [{"type": "text", "text": text}]})
            waiting = None
        elif request_id is not None and method is not None:
            send_error(request_id, METHOD_NOT_FOUND, f"unknown method {method}")


if __name__ == "__main__":
    main()
