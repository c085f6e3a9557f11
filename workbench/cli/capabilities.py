"""What an MCP session negotiated, for ``inspect``: what the client declared and what the server did.

The client's capabilities are read from the wire log (``initialize``, or a 2026-era request's
``_meta``), so ``inspect`` reports what was really sent, not a hard-coded list.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from workbench.core.wire.records import Direction, WireKind, WireRecord

_CLIENT_META = "io.modelcontextprotocol/clientCapabilities"


def client_capabilities(records: Iterable[WireRecord]) -> dict[str, Any] | None:
    """The capabilities the client declared: ``initialize``'s, or a 2026-era request's ``_meta`` ones.

    ``None`` when no such request was recorded.
    """
    for record in records:
        if record.kind is not WireKind.JSONRPC or record.direction is not Direction.OUT or record.method is None:
            continue
        try:
            message = json.loads(record.payload)
        except ValueError:
            continue
        params = message.get("params") if isinstance(message, dict) else None
        if not isinstance(params, dict):
            continue
        if record.method == "initialize" and isinstance(params.get("capabilities"), dict):
            return dict(params["capabilities"])
        meta = params.get("_meta")
        if isinstance(meta, dict) and isinstance(meta.get(_CLIENT_META), dict):
            return dict(meta[_CLIENT_META])
    return None


def capability_words(capabilities: dict[str, Any]) -> list[str]:
    """``{"tools": {"listChanged": true}, "logging": {}}`` → ``["tools (list changed)", "logging"]``."""
    words = []
    for name, value in capabilities.items():
        flags = []
        if isinstance(value, dict):
            for flag, on in value.items():
                if on is True or isinstance(on, dict):  # listChanged: true; elicitation: {"form": {}}
                    flags.append(_spaced(flag))
        words.append(f"{_spaced(name)} ({', '.join(flags)})" if flags else _spaced(name))
    return words


def _spaced(name: str) -> str:
    return "".join(f" {c.lower()}" if c.isupper() else c for c in str(name)).strip()
