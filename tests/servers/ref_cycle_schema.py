"""Fault server (stdio, hand-written, legacy era): tools whose `inputSchema` has `$ref` cycles.

- `tree`: a node whose `children` are nodes (`#/$defs/Node` -> itself), the legitimate kind of cycle;
- `loop`: `#/$defs/A` -> `#/$defs/B` -> `#/$defs/A`, references with no schema at the end;
- `fan`: the root refers to itself from eight properties (`$ref: "#"`), a cycle that branches.

`tools/call` of any answers `ok <name>` with the arguments echoed as structured content.
"""

from __future__ import annotations

from _jsonrpc import METHOD_NOT_FOUND, handle_handshake, messages, send_error, send_result

NAME = "ref-cycle-schema"
TOOLS = [
    {
        "name": "tree",
        "description": "A recursive tree.",
        "inputSchema": {
            "type": "object",
            "properties": {"root": {"$ref": "#/$defs/Node"}},
            "$defs": {
                "Node": {
                    "type": "object",
                    "properties": {
                        "label": {"type": "string"},
                        "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                    },
                }
            },
        },
    },
    {
        "name": "loop",
        "description": "References that only point at each other.",
        "inputSchema": {
            "type": "object",
            "properties": {"x": {"$ref": "#/$defs/A"}},
            "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}},
        },
    },
    {
        "name": "fan",
        "description": "The root refers to itself from eight properties.",
        "inputSchema": {"type": "object", "properties": {f"p{i}": {"$ref": "#"} for i in range(8)}},
    },
]


def main() -> None:
    for message in messages():
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if method == "tools/list":
            send_result(request_id, {"tools": TOOLS})
        elif method == "tools/call":
            params = message.get("params") or {}
            send_result(
                request_id,
                {
                    "content": [{"type": "text", "text": f"ok {params.get('name')}"}],
                    "structuredContent": {"arguments": params.get("arguments") or {}},
                },
            )
        elif request_id is not None:
            send_error(request_id, METHOD_NOT_FOUND, f"unknown method {method}")


if __name__ == "__main__":
    main()
