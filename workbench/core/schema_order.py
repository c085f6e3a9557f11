"""In which order a JSON Schema object's properties are shown: the form, the CLI's prompts and its printed schemas.

The schema's own order, unless it says otherwise (``ordered_properties``). What "its own order" is
depends on how it travelled: as JSON text (MCP, A2A over JSON-RPC or HTTP+JSON) it is the order the
peer wrote; an A2A data part read without its JSON (gRPC) arrives with its keys sorted by name, so a
peer that cares says the order itself with ``x-order`` (or ``ui:order`` / ``propertyOrder``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

ORDER_KEYS = ("x-order", "ui:order", "propertyOrder")
"""Keywords some schemas use to say in which order an object's fields are shown."""
MAX_DEPTH = 64
"""Deepest nesting ``in_display_order`` reorders (deeper schemas are left as they are)."""


def ordered_properties(schema: Mapping[str, Any]) -> list[tuple[str, Any]]:
    """An object schema's properties in the order to show them.

    The schema's own order, unless it says otherwise: a list under ``x-order`` / ``ui:order`` /
    ``propertyOrder``, or a numeric ``propertyOrder`` on each property. When the properties arrive
    sorted by name (an A2A data part read without its JSON, e.g. over gRPC: a protobuf ``Struct``
    keeps no order), the required ones come first, in the order ``required`` lists them (a list
    keeps its order in transit).
    """
    props = schema.get("properties")
    if not isinstance(props, Mapping):
        return []
    items = list(props.items())
    index = {name: i for i, (name, _) in enumerate(items)}
    for key in ORDER_KEYS:
        wanted = schema.get(key)
        if isinstance(wanted, list) and all(isinstance(n, str) for n in wanted):
            rank = {n: i for i, n in enumerate(wanted) if n in props}
            return sorted(items, key=lambda kv: rank.get(kv[0], len(rank) + index[kv[0]]))

    def position(sub: Any) -> float | None:
        pos = sub.get("propertyOrder") if isinstance(sub, Mapping) else None
        return float(pos) if isinstance(pos, (int, float)) and not isinstance(pos, bool) else None

    if any(position(sub) is not None for _, sub in items):
        return sorted(items, key=lambda kv: (position(kv[1]) is None, position(kv[1]) or 0.0, index[kv[0]]))
    names = list(index)
    listed = schema.get("required")
    required = [r for r in listed if isinstance(r, str) and r in props] if isinstance(listed, list) else []
    if len(names) > 1 and names == sorted(names) and required:
        rank = {n: i for i, n in enumerate(required)}
        return sorted(items, key=lambda kv: rank.get(kv[0], len(rank) + index[kv[0]]))
    return items


def in_display_order(schema: Any, depth: int = 0) -> Any:
    """A copy of ``schema`` whose objects' ``properties`` are in ``ordered_properties`` order, at every level.

    For showing a schema as JSON text (the CLI) in the order the form shows its fields.
    """
    if depth > MAX_DEPTH:
        return schema
    if isinstance(schema, list):
        return [in_display_order(item, depth + 1) for item in schema]
    if not isinstance(schema, Mapping):
        return schema
    out = {key: in_display_order(value, depth + 1) for key, value in schema.items()}
    if isinstance(schema.get("properties"), Mapping):
        out["properties"] = {name: out["properties"][name] for name, _ in ordered_properties(schema)}
    return out
