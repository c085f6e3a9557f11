"""What the wire log holds: one ``WireRecord`` per message, HTTP exchange, line or event, its direction and kind.

``WireRecord`` is a slotted frozen dataclass rather than a pydantic class: the recorder holds up
to a million of them, and a pydantic instance costs several times the memory and construction time.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any


class Direction(StrEnum):
    """Which way a wire record travelled, seen from the workbench."""

    OUT = "out"  # workbench -> peer
    IN = "in"  # peer -> workbench
    LOCAL = "local"  # observed locally (stderr line, process exit, transport fault)


class WireKind(StrEnum):
    """What a wire record is."""

    JSONRPC = "jsonrpc"  # one JSON-RPC message (request, response, notification, error)
    HTTP_REQUEST = "http-request"
    HTTP_RESPONSE = "http-response"
    SSE_EVENT = "sse-event"  # one server-sent event as it arrived (keep-alive comments included)
    STDERR = "stderr"  # one line a stdio server wrote to stderr
    RAW = "raw"  # bytes that arrived but are not valid protocol messages (garbage on stdout)
    PROCESS = "process"  # stdio process started / exited
    ERROR = "error"  # a transport fault observed locally
    AUTH_STEP = "auth-step"  # one step of an OAuth login, refresh or logout: its outcome, checks and failure


@dataclass(frozen=True, slots=True)
class WireRecord:
    """One observed unit of traffic, already redacted.

    Attributes:
        seq: Recorder-wide sequence number (monotonic, starts at 1).
        connection_id: Which connection it belongs to.
        direction: in / out / local.
        kind: What it is (see ``WireKind``).
        wall_time: ``time.time()`` when observed.
        mono_time: ``time.monotonic()`` when observed (for latencies and ordering).
        method: JSON-RPC method, HTTP method, or SSE event name.
        rpc_id: JSON-RPC id as a string, when the message has one.
        latency_ms: For a response: milliseconds since its request (same connection and id).
        size: Payload size in bytes as it travelled (UTF-8 of the JSON text).
        payload: Redacted JSON text, SSE data, stderr line or raw text.
        http: For HTTP records: url, status, headers (redacted), session id.
        protocol: ``mcp`` or ``a2a`` (or ``""`` when unknown).
        summary: Short one-line description for tables.
    """

    seq: int
    connection_id: str
    direction: Direction
    kind: WireKind
    wall_time: float
    mono_time: float
    method: str | None
    rpc_id: str | None
    latency_ms: float | None
    size: int
    payload: str
    http: dict[str, Any] | None = None
    protocol: str = ""
    summary: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Return the record as a JSON-ready dict (the JSONL export format)."""
        out: dict[str, Any] = {
            "seq": self.seq,
            "connection_id": self.connection_id,
            "direction": self.direction.value,
            "kind": self.kind.value,
            "wall_time": self.wall_time,
            "mono_time": self.mono_time,
            "method": self.method,
            "rpc_id": self.rpc_id,
            "latency_ms": self.latency_ms,
            "size": self.size,
            "payload": self.payload,
            "protocol": self.protocol,
        }
        if self.http is not None:
            out["http"] = self.http
        if self.summary:
            out["summary"] = self.summary
        return out
