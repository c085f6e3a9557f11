"""The key order of data parts as the agent's JSON had it, which a protobuf ``Struct`` does not keep.

An A2A data part holds a ``google.protobuf.Value``; its objects are ``Struct``s, which are maps, and
the protobuf runtime (upb) iterates a map in an order that changes from one process to the next.
Converted as it is, a form's JSON Schema would show its fields in a different order on every run.
``DataOrder`` remembers the key order of the data parts of the latest messages the agent sent, read
from the JSON itself (``NormalisingTransport`` hands it each JSON-RPC or HTTP+JSON body and each SSE
event before the SDK parses them), by message id; ``DataOrder.apply`` gives converted parts their
keys in that order. Messages in the A2A 1.0 and 0.3 shapes are both read (``messageId``/
``message_id``, ``parts[].data``, 0.3's ``data_part_compat`` wrapper).

Where there is no JSON — the gRPC binding, push notifications, a document over
``MAX_DOCUMENT_BYTES``, a message no longer remembered, artifacts (they have no message id) — the
keys stay sorted by name (``convert.struct_to_python``): the same on every run, though not the
agent's order. A schema can say its order itself (``x-order`` / ``propertyOrder``, see
``workbench.core.schema_order``), which the form and the CLI honour either way.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from dataclasses import replace
from typing import Any

from workbench.core.protocols.base import ContentPart

MAX_DOCUMENT_BYTES = 2 * 1024 * 1024
"""Largest JSON document read for key orders (a larger one is passed on unread)."""
MAX_KEPT_BYTES = 4 * 1024 * 1024
"""Most bytes of JSON whose orders are kept together (each message counts its whole document)."""
MAX_MESSAGES = 32
"""Most messages whose orders are kept (the newest)."""
MAX_DEPTH = 64
"""Deepest nesting searched for messages and ordered (deeper values keep sorted keys)."""
_MARKERS = (b'"messageId"', b'"message_id"')
_NO_DATA = object()
"""A part that is not a data part (its slot in a message's list of data orders)."""


def _skeleton(value: Any, depth: int = 0) -> Any:
    """``value``'s objects and lists with their scalars left out (``None``): all its order needs."""
    if depth > MAX_DEPTH:
        return None
    if isinstance(value, dict):
        return {k: _skeleton(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_skeleton(v, depth + 1) for v in value]
    return None


def in_json_order(value: Any, order: Any, depth: int = 0) -> Any:
    """``value`` with its objects' keys in the order ``order`` (a skeleton of the JSON) has them.

    Keys the JSON lacks follow in their current order; a list of another length keeps its items' order.
    """
    if depth > MAX_DEPTH:
        return value
    if isinstance(value, dict) and isinstance(order, dict):
        keys = [k for k in order if k in value]
        if len(keys) < len(value):
            keys += [k for k in value if k not in order]
        return {k: in_json_order(value[k], order.get(k), depth + 1) for k in keys}
    if isinstance(value, list) and isinstance(order, list) and len(value) == len(order):
        return [in_json_order(v, o, depth + 1) for v, o in zip(value, order, strict=True)]
    return value


def _part_data(part: Any) -> Any:
    """The skeleton of a JSON part's data, or ``_NO_DATA``."""
    if not isinstance(part, dict) or "data" not in part:
        return _NO_DATA
    data = part["data"]
    metadata = part.get("metadata")
    if isinstance(metadata, dict) and metadata.get("data_part_compat") and isinstance(data, dict) and "value" in data:
        data = data["value"]  # a 0.3 data part wrapping a non-object value
    if not isinstance(data, dict | list):
        return _NO_DATA
    return _skeleton(data)


def _messages(doc: Any) -> list[tuple[str, list[Any]]]:
    """Every message in ``doc`` with data parts: its id and its parts' skeletons; status messages last."""
    found: list[tuple[bool, str, list[Any]]] = []
    stack: list[tuple[Any, int, bool]] = [(doc, 0, False)]
    while stack:
        node, depth, in_status = stack.pop()
        if depth > MAX_DEPTH:
            continue
        if isinstance(node, dict):
            parts = node.get("parts")
            message_id = node.get("messageId", node.get("message_id"))
            if isinstance(parts, list) and isinstance(message_id, str) and message_id:
                data = [_part_data(p) for p in parts]
                if any(d is not _NO_DATA for d in data):
                    found.append((in_status, message_id, data))
            children = ((v, depth + 1, in_status or k == "status") for k, v in node.items())
            stack.extend(c for c in children if isinstance(c[0], dict | list))
        elif isinstance(node, list):
            stack.extend((v, depth + 1, in_status) for v in node if isinstance(v, dict | list))
    found.sort(key=lambda f: f[0])  # the status message (the question) is the one to keep longest
    return [(message_id, data) for _, message_id, data in found]


class DataOrder:
    """The JSON key order of the data parts of an agent's latest messages, by message id (bounded)."""

    def __init__(self) -> None:
        self._orders: OrderedDict[str, tuple[list[Any], int]] = OrderedDict()
        self._bytes = 0

    def observe(self, document: bytes) -> None:
        """Read one JSON document the agent sent (a body or an SSE event) and remember its messages' orders."""
        if len(document) > MAX_DOCUMENT_BYTES or not any(m in document for m in _MARKERS):
            return
        try:
            doc = json.loads(document)
        except (ValueError, RecursionError):
            return  # not JSON: the SDK says so itself
        size = len(document)
        for message_id, data in _messages(doc):
            self._remember(message_id, data, size)

    def _remember(self, message_id: str, data: list[Any], size: int) -> None:
        old = self._orders.pop(message_id, None)
        if old is not None:
            self._bytes -= old[1]
        self._orders[message_id] = (data, size)
        self._bytes += size
        while len(self._orders) > 1 and (len(self._orders) > MAX_MESSAGES or self._bytes > MAX_KEPT_BYTES):
            _, (_, dropped) = self._orders.popitem(last=False)
            self._bytes -= dropped

    def __len__(self) -> int:
        return len(self._orders)

    def apply(self, message_id: str, parts: list[ContentPart]) -> list[ContentPart]:
        """``parts`` (a message's parts, converted) with their data in the JSON's key order, when known."""
        known = self._orders.get(message_id)
        if known is None or len(known[0]) != len(parts):
            return parts
        out = []
        for part, order in zip(parts, known[0], strict=True):
            if part.type == "data" and order is not _NO_DATA:
                part = replace(part, data=in_json_order(part.data, order))
            out.append(part)
        return out
