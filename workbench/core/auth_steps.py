"""Auth steps (OAuth login, refresh, logout): what the flow did, in order, with the wire records of each step.

A step groups the HTTP exchanges of one stage (a discovery fallback that 404s and the URL that
answers are one step) and names their wire-record sequence numbers, so an "auth steps" view can
jump from a step to its requests and responses. Each step also carries those exchanges as the wire
log holds them (redacted: tokens, codes and client secrets are ``***``), what was checked
(``AuthCheck``: issuer, resource, https, audience, PKCE, state) and, when it failed, why and what to
change (``AuthFailure``). Nothing here imports the SDK.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireKind, WireRecord

log = logging.getLogger(__name__)

StepStatus = Literal["ok", "failed", "skipped"]
CheckOutcome = Literal["passed", "failed", "skipped"]

BODY_LIMIT = 2000
"""Characters of a request or response body a step keeps (the wire log has the rest)."""


class AuthStage(StrEnum):
    """The stages of an OAuth 2.1 authorization for an MCP server, in the order they happen."""

    DISCOVERY = "discovery"
    """Protected-resource metadata (RFC 9728) and authorization-server metadata (RFC 8414)."""
    REGISTRATION = "registration"
    """Dynamic client registration (RFC 7591)."""
    AUTHORIZE = "authorize"
    """The authorization request (PKCE S256, state) the browser is sent to, recorded as it opens."""
    CALLBACK = "callback"
    """The redirect back to the loopback receiver: a code (state and issuer checked), an error, or none in time."""
    TOKEN = "token"
    """The authorization code exchanged for tokens."""
    REFRESH = "refresh"
    """A refresh token exchanged for new tokens."""
    REVOKE = "revoke"
    """Tokens revoked at logout (RFC 7009)."""


STEP_TITLES: dict[tuple[AuthStage, str], str] = {
    (AuthStage.DISCOVERY, "protected-resource"): "Resource metadata",
    (AuthStage.DISCOVERY, "authorization-server"): "Authorization-server metadata",
    (AuthStage.DISCOVERY, "other"): "Discovery",
    (AuthStage.REGISTRATION, "client"): "Client registration",
    (AuthStage.AUTHORIZE, ""): "Authorization request",
    (AuthStage.CALLBACK, ""): "Callback",
    (AuthStage.TOKEN, "authorization_code"): "Token",
    (AuthStage.REFRESH, "refresh_token"): "Refresh",
    (AuthStage.REVOKE, ""): "Revocation",
}
"""What a step is called, by stage and subject (``step_title`` falls back to the stage's)."""

_STAGE_TITLES = {
    AuthStage.DISCOVERY: "Discovery",
    AuthStage.REGISTRATION: "Client registration",
    AuthStage.AUTHORIZE: "Authorization request",
    AuthStage.CALLBACK: "Callback",
    AuthStage.TOKEN: "Token",
    AuthStage.REFRESH: "Refresh",
    AuthStage.REVOKE: "Revocation",
}


def step_title(stage: AuthStage, subject: str = "") -> str:
    """The name of a step for people: ``Resource metadata``, ``Authorization-server metadata``, ``Token``."""
    return STEP_TITLES.get((stage, subject)) or _STAGE_TITLES[stage]


class FailureCode(StrEnum):
    """Why a step failed: the typed code of ``AuthFailure`` (also ``details["oauth"]`` of the error raised)."""

    ISSUER_MISMATCH = "issuer-mismatch"
    """The authorization server's metadata names another issuer than the one it was discovered by (RFC 8414 §3.3)."""
    RESOURCE_MISMATCH = "resource-mismatch"
    """The protected-resource metadata names another resource than the server's URL (RFC 9728 §3.3, RFC 8707)."""
    INSECURE_ENDPOINT = "insecure-endpoint"
    """An endpoint is plain http off this machine."""
    AUDIENCE_MISMATCH = "audience-mismatch"
    """The access token was issued for another audience than this server."""
    STATE_MISMATCH = "state-mismatch"
    """The callback's ``state`` is not the one the authorization request sent."""
    PKCE_MISSING = "pkce-missing"
    """The authorization request does not use PKCE with S256."""
    HTTP_ERROR = "http-error"
    """The endpoint answered with an HTTP error."""
    INVALID_RESPONSE = "invalid-response"
    """The answer is not what the step expects (not JSON, a field missing)."""
    REFUSED = "authorization-refused"
    """The authorization server redirected back with an error (e.g. access denied)."""
    TIMEOUT = "login-timeout"
    """Nobody came back from the browser in time."""
    LOGIN_REQUIRED = "login-required"
    """A login is needed, and this connection may not open a browser."""
    OTHER = "flow-failed"
    """Any other failure of the flow."""


@dataclass(frozen=True, slots=True)
class AuthCheck:
    """One thing a step checked, and the outcome.

    Attributes:
        name: What was checked: ``issuer``, ``resource``, ``https``, ``audience``, ``pkce``, ``state``,
            ``iss``, ``status`` …
        outcome: ``passed``, ``failed`` or ``skipped`` (nothing to check, e.g. an opaque token's audience).
        detail: One line for people (values from the peer are untrusted text).
    """

    name: str
    outcome: CheckOutcome
    detail: str

    @property
    def passed(self) -> bool:
        """Whether the check passed."""
        return self.outcome == "passed"

    def to_dict(self) -> dict[str, str]:
        """JSON-ready: name, outcome, detail."""
        return {"name": self.name, "outcome": self.outcome, "detail": self.detail}


@dataclass(frozen=True, slots=True)
class AuthFailure:
    """Why a step failed and what to change.

    Attributes:
        code: The typed code (``FailureCode``).
        reason: What went wrong, in words (values from the peer are untrusted text).
        hint: What to change so the step passes.
    """

    code: FailureCode
    reason: str
    hint: str

    def to_dict(self) -> dict[str, str]:
        """JSON-ready: code, reason, hint."""
        return {"code": self.code.value, "reason": self.reason, "hint": self.hint}


@dataclass(frozen=True, slots=True)
class AuthExchange:
    """One request of a step and its answer, as the wire log holds them (redacted, bodies trimmed).

    The browser's legs (the authorization request and the redirect back) are not on the wire: they
    are described here with ``via="browser"``.

    Attributes:
        method: The HTTP method.
        url: The URL (credential parameters ``***``).
        status: The answer's HTTP status (``None`` when none came).
        request_headers: Request headers, credentials masked.
        request_body: The request body (trimmed to ``BODY_LIMIT``), secrets masked.
        response_headers: Response headers, credentials masked.
        response_body: The response body (trimmed), tokens masked.
        request_seq: The request's wire record (``None`` for the browser's legs).
        response_seq: The response's wire record.
        via: ``http`` (this client sent it) or ``browser``.
    """

    method: str
    url: str
    status: int | None = None
    request_headers: tuple[tuple[str, str], ...] = ()
    request_body: str = ""
    response_headers: tuple[tuple[str, str], ...] = ()
    response_body: str = ""
    request_seq: int | None = None
    response_seq: int | None = None
    via: Literal["http", "browser"] = "http"

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, every field."""
        out = dataclasses.asdict(self)
        out["request_headers"] = dict(self.request_headers)
        out["response_headers"] = dict(self.response_headers)
        return out


@dataclass(frozen=True, slots=True)
class AuthStep:
    """One finished step of an OAuth flow (an event: published on the bus and given to callbacks).

    Attributes:
        connection_id: The connection (or login/logout session) whose wire records it names.
        stage: Which stage it was.
        status: ``ok``, ``failed`` or ``skipped`` (e.g. no revocation endpoint).
        detail: One line for people; never a token, code, verifier or client secret.
        wire_seqs: Sequence numbers of the wire records (HTTP requests and responses) of the step.
        title: What the step is called (``step_title``), e.g. ``Authorization-server metadata``.
        checks: What the step checked, in order.
        exchanges: Its requests and answers, redacted.
        failure: Why it failed and what to change (``None`` unless ``status`` is ``failed``).
        record_seq: The step's own wire record (``WireKind.AUTH_STEP``), once published.
    """

    connection_id: str
    stage: AuthStage
    status: StepStatus
    detail: str
    wire_seqs: tuple[int, ...] = ()
    title: str = ""
    checks: tuple[AuthCheck, ...] = ()
    exchanges: tuple[AuthExchange, ...] = field(default=(), compare=False)
    failure: AuthFailure | None = None
    record_seq: int | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        """``title``, or the stage's title when none was given."""
        return self.title or step_title(self.stage)

    def to_dict(self, *, exchanges: bool = True) -> dict[str, Any]:
        """JSON-ready: step (the stage), title, status, detail, wire_seqs, checks, failure (and exchanges)."""
        out: dict[str, Any] = {
            "step": self.stage.value,
            "title": self.name,
            "status": self.status,
            "detail": self.detail,
            "wire_seqs": list(self.wire_seqs),
            "checks": [check.to_dict() for check in self.checks],
            "failure": self.failure.to_dict() if self.failure is not None else None,
        }
        if exchanges:
            out["exchanges"] = [exchange.to_dict() for exchange in self.exchanges]
        return out


StepCallback = Callable[[AuthStep], None]
"""Receives each ``AuthStep`` as it finishes."""


class StepCollector:
    """A ``StepCallback`` that keeps each step, in order, and passes it on.

    Args:
        on_step: Receives each step too, if given.
    """

    def __init__(self, on_step: StepCallback | None) -> None:
        self.steps: list[AuthStep] = []
        self._on_step = on_step

    def __call__(self, step: AuthStep) -> None:
        """Keep ``step`` and pass it on."""
        self.steps.append(step)
        if self._on_step is not None:
            self._on_step(step)


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

    def exchange(
        self,
        stage: AuthStage,
        subject: str,
        status: StepStatus,
        detail: str,
        seqs: list[int],
        *,
        checks: Iterable[AuthCheck] = (),
        failure: AuthFailure | None = None,
    ) -> None:
        """Add one exchange: merged into the pending step when it continues it, else starts a new one.

        A merged step keeps the checks of every exchange and the latest status, detail and failure.
        """
        key = (stage, subject)
        previous = self._pending_step
        if previous is not None and self._pending == key:
            self._pending_step = dataclasses.replace(
                previous,
                status=status,
                detail=detail,
                wire_seqs=(*previous.wire_seqs, *seqs),
                checks=(*previous.checks, *checks),
                failure=failure,
            )
            return
        self.flush()
        self._pending = key
        title = step_title(stage, subject)
        self._pending_step = AuthStep(
            self.connection_id, stage, status, detail, tuple(seqs), title, tuple(checks), (), failure
        )

    def step(
        self,
        stage: AuthStage,
        status: StepStatus,
        detail: str,
        seqs: tuple[int, ...] = (),
        *,
        subject: str = "",
        checks: Iterable[AuthCheck] = (),
        failure: AuthFailure | None = None,
        exchanges: Iterable[AuthExchange] = (),
    ) -> None:
        """Emit a step that stands alone (after flushing the pending one).

        A failure without a reason right after a step of the same stage that failed with one (the
        SDK's error after a check here already refused the answer) is the same failure: not repeated.
        """
        self.flush()
        last = self.steps[-1] if self.steps else None
        if (
            status == "failed"
            and failure is None
            and last is not None
            and last.stage is stage
            and last.failure is not None
        ):
            return
        title = step_title(stage, subject)
        self._publish(
            AuthStep(self.connection_id, stage, status, detail, seqs, title, tuple(checks), tuple(exchanges), failure)
        )

    @property
    def failure(self) -> AuthStep | None:
        """The last step emitted or pending that failed with a reason (``failure`` set), if any."""
        pending = self._pending_step
        if pending is not None and pending.failure is not None:
            return pending
        return next((step for step in reversed(self.steps) if step.failure is not None), None)

    def flush(self) -> None:
        """Emit the pending step, if any."""
        step, self._pending_step, self._pending = self._pending_step, None, None
        if step is not None:
            self._publish(step)

    def _record(self, step: AuthStep) -> int:
        """Put the step itself in the wire log, after its exchanges: outcome, checks, failure, browser legs."""
        mark = {"ok": "✓", "failed": "✗", "skipped": "–"}.get(step.status, "?")
        code = f" [{step.failure.code.value}]" if step.failure is not None else ""
        summary = f"OAuth step {step.name}: {mark} {step.status}{code}"
        data = step.to_dict(exchanges=False)
        browser = [exchange.to_dict() for exchange in step.exchanges if exchange.via == "browser"]
        if browser:
            # The browser's legs are on no other wire record: the step's record carries them (redacted).
            data["exchanges"] = browser
        payload = json.dumps(data, ensure_ascii=False)
        return self.wire.local(self.connection_id, WireKind.AUTH_STEP, summary, payload).seq

    def _publish(self, step: AuthStep) -> None:
        if step.wire_seqs:
            # The answers are recorded once read, after the exchange's capture: found by pairing.
            found = wire_exchanges(self.wire, step.wire_seqs)
            answers = [e.response_seq for e in found if e.response_seq is not None]
            seqs = tuple(sorted({*step.wire_seqs, *answers}))
            step = dataclasses.replace(step, wire_seqs=seqs, exchanges=(*found, *step.exchanges))
        step = dataclasses.replace(step, record_seq=self._record(step))
        self.steps.append(step)
        if self._emit is None:
            return
        try:
            self._emit(step)
        except Exception:
            log.exception("auth step callback failed")


def trimmed(text: str, limit: int = BODY_LIMIT) -> str:
    """``text`` cut to ``limit`` characters, saying how much was left out."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text) - limit} more characters in the wire log)"


def wire_exchanges(wire: WireRecorder, seqs: Iterable[int]) -> list[AuthExchange]:
    """The HTTP requests among ``seqs`` and their answers, as the (redacting) recorder holds them."""
    out = []
    for seq in seqs:
        record = wire.get(seq)
        if record is None or record.kind is not WireKind.HTTP_REQUEST:
            continue
        http = record.http or {}
        answer = wire.find_response(record)
        answer_http = (answer.http or {}) if answer is not None else {}
        out.append(
            AuthExchange(
                method=str(http.get("method") or record.method or ""),
                url=str(http.get("url") or ""),
                status=answer_http.get("status"),
                request_headers=tuple((http.get("headers") or {}).items()),
                request_body=trimmed(record.payload),
                response_headers=tuple((answer_http.get("headers") or {}).items()),
                response_body=trimmed(answer.payload) if answer is not None else "",
                request_seq=record.seq,
                response_seq=answer.seq if answer is not None else None,
            )
        )
    return out
