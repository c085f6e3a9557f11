"""Who answers a connection's sampling requests, under which policy, and what it has cost so far.

``SamplingResponders`` is a ``SamplingHandler``: give it to an agent (``sampling_handler=``) and it
routes each request to the responder chosen for the connection (a person, a script, a model, another
agent), or to the one a per-request chooser names. The policy decides what happens first:

    ask   the responder drafts, a person approves, edits or rejects the draft (a person answering
          needs no approval); without an approver the request is refused
    auto  the responder's reply goes back at once; every answer is a ``SamplingLogEntry`` that
          listeners see (the visible log)
    deny  every request is refused (the server gets the spec's "user rejected" error)

The ledger counts requests, tokens and cost per responder as the endpoints report them.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum

from workbench.core.errors import ConfigError, SamplingRejectedError, WorkbenchError
from workbench.core.protocols.base import SamplingHandler, SamplingRequest, SamplingResponse

log = logging.getLogger(__name__)

PERSON = "person"


class SamplingPolicy(StrEnum):
    """What happens to a sampling request before its reply goes back."""

    ASK = "ask"
    AUTO = "auto"
    DENY = "deny"


Approver = Callable[[SamplingRequest, SamplingResponse], Awaitable[SamplingResponse | None]]
"""Shows a draft reply to a person: returns it (possibly edited) to send, or ``None`` to reject."""


@dataclass(frozen=True, slots=True)
class SamplingLogEntry:
    """One answered (or refused) sampling request.

    Attributes:
        responder: Who answered (``person``, ``script:FILE``, ``model:NAME``).
        policy: The policy in force.
        outcome: ``answered``, ``rejected`` or ``failed``.
        request: The request.
        response: The reply sent, if any.
        error: Why it failed or was refused, if it was.
        seconds: How long answering took.
    """

    responder: str
    policy: SamplingPolicy
    outcome: str
    request: SamplingRequest
    response: SamplingResponse | None = None
    error: WorkbenchError | None = None
    seconds: float = 0.0


@dataclass(slots=True)
class SamplingLedger:
    """Counters over a connection's sampling: requests, tokens and cost, per responder and in all."""

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0
    by_responder: dict[str, int] = field(default_factory=dict)
    entries: list[SamplingLogEntry] = field(default_factory=list)

    def add(self, entry: SamplingLogEntry) -> None:
        """Count one entry (the last 500 are kept)."""
        self.requests += 1
        self.by_responder[entry.responder] = self.by_responder.get(entry.responder, 0) + 1
        usage = entry.response.usage if entry.response is not None else None
        if usage is not None:
            self.input_tokens += usage.input_tokens or 0
            self.output_tokens += usage.output_tokens or 0
            self.cost += usage.cost or 0.0
        self.entries = [*self.entries[-499:], entry]


class SamplingResponders:
    """Routes a connection's sampling requests to its responders, under its policy.

    Args:
        responders: Responders by name (``person``, ``script:demo.yaml``, ``model:local``, …).
        default: The name of the one that answers unless ``choose`` names another.
        policy: ``ask``, ``auto`` or ``deny``.
        approver: Shows a non-person draft to a person under ``ask``.
        choose: Per request: the name of the responder to use (``None``: the default).

    Raises:
        ConfigError: ``default`` is not among ``responders``.
    """

    def __init__(
        self,
        responders: dict[str, SamplingHandler],
        default: str,
        *,
        policy: SamplingPolicy = SamplingPolicy.AUTO,
        approver: Approver | None = None,
        choose: Callable[[SamplingRequest], str | None] | None = None,
    ) -> None:
        if default not in responders:
            raise ConfigError(f"No sampling responder is called {default!r}.", hint=", ".join(sorted(responders)))
        self.responders = dict(responders)
        self.default = default
        self.policy = policy
        self.approver = approver
        self.choose = choose
        self.ledger = SamplingLedger()
        self._listeners: list[Callable[[SamplingLogEntry], None]] = []

    def subscribe(self, listener: Callable[[SamplingLogEntry], None]) -> Callable[[], None]:
        """Be told of every entry; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _record(self, entry: SamplingLogEntry) -> None:
        self.ledger.add(entry)
        for listener in list(self._listeners):
            listener(entry)

    def _pick(self, request: SamplingRequest) -> str:
        name = self.choose(request) if self.choose is not None else None
        if name is None:
            return self.default
        if name not in self.responders:
            raise ConfigError(f"No sampling responder is called {name!r}.", hint=", ".join(sorted(self.responders)))
        return name

    async def __call__(self, request: SamplingRequest) -> SamplingResponse:
        """Answer ``request`` (a ``SamplingHandler``).

        Raises:
            SamplingRejectedError: The policy, the person or a script refused.
            WorkbenchError: The responder failed (e.g. ``ModelEndpointError``).
        """
        started = time.monotonic()
        name = self._pick(request)
        policy = self.policy
        try:
            if policy is SamplingPolicy.DENY:
                raise SamplingRejectedError("This connection's sampling policy denies every request.")
            if policy is SamplingPolicy.ASK and name != PERSON and self.approver is None:
                raise SamplingRejectedError(
                    "This connection's sampling policy asks a person first, and none can be asked here.",
                    hint="choose the auto policy, or answer as a person",
                )
            response = await self.responders[name](request)
            if policy is SamplingPolicy.ASK and name != PERSON:
                assert self.approver is not None
                approved = await self.approver(request, response)
                if approved is None:
                    raise SamplingRejectedError("The user rejected the drafted reply.")
                response = approved
        except SamplingRejectedError as exc:
            self._record(SamplingLogEntry(name, policy, "rejected", request, error=exc, seconds=_since(started)))
            raise
        except WorkbenchError as exc:
            self._record(SamplingLogEntry(name, policy, "failed", request, error=exc, seconds=_since(started)))
            raise
        if not response.responder:
            response = _with_responder(response, name)
        self._record(SamplingLogEntry(name, policy, "answered", request, response=response, seconds=_since(started)))
        return response


def _since(started: float) -> float:
    return round(time.monotonic() - started, 3)


def _with_responder(response: SamplingResponse, name: str) -> SamplingResponse:
    from dataclasses import replace

    return replace(response, responder=name)
