"""Auth steps (OAuth login, refresh, logout): what the flow did, in order, with the wire records of each step.

A step groups the HTTP exchanges of one stage (a discovery fallback that 404s and the URL that
answers are one step) and names their wire-record sequence numbers, so an "auth steps" view can
jump from a step to its requests and responses. Nothing here imports the SDK.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from typing import Literal

from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind, WireRecord

log = logging.getLogger(__name__)

StepStatus = Literal["ok", "failed", "skipped"]


class AuthStage(StrEnum):
    """The stages of an OAuth 2.1 authorization for an MCP server, in the order they happen."""

    DISCOVERY = "discovery"
    """Protected-resource metadata (RFC 9728) and authorization-server metadata (RFC 8414)."""
    REGISTRATION = "registration"
    """Dynamic client registration (RFC 7591)."""
    AUTHORIZE = "authorize"
    """The browser visit to the authorization endpoint and the loopback redirect back (PKCE)."""
    TOKEN = "token"
    """The authorization code exchanged for tokens."""
    REFRESH = "refresh"
    """A refresh token exchanged for new tokens."""
    REVOKE = "revoke"
    """Tokens revoked at logout (RFC 7009)."""


@dataclass(frozen=True, slots=True)
class AuthStep:
    """One finished step of an OAuth flow (an event: published on the bus and given to callbacks).

    Attributes:
        connection_id: The connection (or login/logout session) whose wire records it names.
        stage: Which stage it was.
        status: ``ok``, ``failed`` or ``skipped`` (e.g. no revocation endpoint).
        detail: One line for people; never a token, code, verifier or client secret.
        wire_seqs: Sequence numbers of the wire records (HTTP requests and responses) of the step.
    """

    connection_id: str
    stage: AuthStage
    status: StepStatus
    detail: str
    wire_seqs: tuple[int, ...] = ()


StepCallback = Callable[[AuthStep], None]
"""Receives each ``AuthStep`` as it finishes."""


class StepLog:
    """Collects the wire records of each exchange and emits merged ``AuthStep`` events in order.

    Args:
        connection_id: The connection whose HTTP records belong to the flow.
        wire: The recorder the HTTP client records into.
        emit: Called with each finished step (exceptions are logged, never raised).
    """

    def __init__(self, connection_id: str, wire: WireRecorder, emit: StepCallback | None) -> None:
        self.connection_id = connection_id
        self.wire = wire
        self._emit = emit
        self._pending: tuple[AuthStage, str] | None = None
        self._pending_step: AuthStep | None = None
        self.steps: list[AuthStep] = []

    @contextmanager
    def capture(self) -> Iterator[list[int]]:
        """Collect the seqs of HTTP requests on this connection (and their responses) made inside the block.

        The SDK's OAuth provider holds a lock while it runs its flow, so no other request of the
        connection starts meanwhile; responses are matched to the captured requests.
        """
        seqs: list[int] = []
        requests: set[int] = set()

        def on_record(record: WireRecord) -> None:
            if record.connection_id != self.connection_id:
                return
            if record.kind is WireKind.HTTP_REQUEST:
                requests.add(record.seq)
                seqs.append(record.seq)
            elif record.kind is WireKind.HTTP_RESPONSE and (record.http or {}).get("request_seq") in requests:
                seqs.append(record.seq)

        unsubscribe = self.wire.subscribe(on_record)
        try:
            yield seqs
        finally:
            unsubscribe()

    def exchange(self, stage: AuthStage, subject: str, status: StepStatus, detail: str, seqs: list[int]) -> None:
        """Add one exchange: merged into the pending step when it continues it, else starts a new one."""
        key = (stage, subject)
        previous = self._pending_step
        if previous is not None and self._pending == key:
            self._pending_step = AuthStep(self.connection_id, stage, status, detail, (*previous.wire_seqs, *seqs))
            return
        self.flush()
        self._pending = key
        self._pending_step = AuthStep(self.connection_id, stage, status, detail, tuple(seqs))

    def step(self, stage: AuthStage, status: StepStatus, detail: str, seqs: tuple[int, ...] = ()) -> None:
        """Emit a step that stands alone (after flushing the pending one)."""
        self.flush()
        self._publish(AuthStep(self.connection_id, stage, status, detail, seqs))

    def flush(self) -> None:
        """Emit the pending step, if any."""
        step, self._pending_step, self._pending = self._pending_step, None, None
        if step is not None:
            self._publish(step)

    def _publish(self, step: AuthStep) -> None:
        self.steps.append(step)
        if self._emit is None:
            return
        try:
            self._emit(step)
        except Exception:
            log.exception("auth step callback failed")
