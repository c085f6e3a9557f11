"""Fault server (stdio, hand-written, legacy era): a listing that never ends.

Run as `endless_pages.py forever` or `endless_pages.py loop`:

- `tools/list`     -> `forever`: a page of one tool and a new `nextCursor`, every time;
                      `loop`: a page and the same `nextCursor` again and again.
- `prompts/list`, `resources/list`, `resources/templates/list` -> one proper page.
"""

from __future__ import annotations

import itertools
import sys

from _jsonrpc import METHOD_NOT_FOUND, handle_handshake, messages, send_error, send_result

NAME = "endless-pages"
_pages = itertools.count(1)


def main() -> None:
    for message in messages():
        if message.get("method") == "initialize":
            send_result(
                message.get("id"),
                {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {"tools": {}, "prompts": {}, "resources": {}},
                    "serverInfo": {"name": NAME, "version": "0.1.0"},
                },
            )
            continue
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if method == "tools/list":
            n = next(_pages)
            tool = {"name": f"tool-{n}", "inputSchema": {"type": "object"}}
            cursor = f"page-{n + 1}" if sys.argv[1:] == ["forever"] else "again"
            send_result(request_id, {"tools": [tool], "nextCursor": cursor})
        elif method == "prompts/list":
            send_result(request_id, {"prompts": [{"name": "p"}]})
        elif method == "resources/list":
            send_result(request_id, {"resources": []})
        elif method == "resources/templates/list":
            send_result(request_id, {"resourceTemplates": []})
        elif request_id is not None:
            send_error(request_id, METHOD_NOT_FOUND, f"unknown method {method}")


if __name__ == "__main__":
    main()
