"""Stdio server (hand-written) speaking MCP 2026-07-28 whose results never carry `resultType`.

SEP-2322: a result without `resultType` is a complete result. Every answer here leaves the field
out (`server/discover`, `tools/list`, `tools/call`); otherwise each is a valid 2026-07-28 result.
`echo` returns its text; `ping`, `initialize` and other methods get -32601 (a modern-only server).
"""

from __future__ import annotations

from typing import Any

from _jsonrpc import ECHO_TOOL, METHOD_NOT_FOUND, messages, send_error, send_result

MODERN = "2026-07-28"
CACHE_HINTS = {"ttlMs": 0, "cacheScope": "private"}


def discover_result() -> dict[str, Any]:
    """The `server/discover` answer: tools only, this one version."""
    return {
        "supportedVersions": [MODERN],
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "no-result-type", "version": "0.1.0"},
        **CACHE_HINTS,
    }


def main() -> None:
    for message in messages():
        method, request_id = message.get("method"), message.get("id")
        params = message.get("params") or {}
        if method == "server/discover":
            send_result(request_id, discover_result())
        elif method == "tools/list":
            send_result(request_id, {"tools": [ECHO_TOOL], **CACHE_HINTS})
        elif method == "tools/call":
            text = str((params.get("arguments") or {}).get("text", ""))
            send_result(request_id, {"content": [{"type": "text", "text": text}], "isError": False})
        elif request_id is not None:
            send_error(request_id, METHOD_NOT_FOUND, "Method not found")


if __name__ == "__main__":
    main()
