"""Sampling per connection, for the window (and any host): which responder and policy each connection has.

``SamplingService`` is one ``SamplingHandler`` for every connection: it routes each request by
``request.agent`` (the connection's name) to that connection's ``SamplingResponders``, built from its
saved choice (``sampling.json`` in the configuration directory: ``{"version": 1, "connections":
{NAME: {"responder": "model:local", "policy": "auto"}}}``; no secret in it) and the saved model
endpoints. Every answer is published on the bus as ``SamplingAnswered`` (the visible log), and each
connection's ledger counts requests, tokens and cost. A model's HTTP exchanges are recorded in the wire log
(when the service has one) as records of the connection that asked (``request.connection_id``, protocol
``model``, the endpoint's key redacted), as the model chat's are.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.core.config_dir import resolve_config_dir
from workbench.core.errors import ConfigError
from workbench.core.events import CoreEvent, EventBus
from workbench.core.protocols.base import SamplingHandler, SamplingRequest, SamplingResponse
from workbench.core.sampling.endpoints import ModelEndpointStore
from workbench.core.sampling.responders import (
    PERSON,
    Approver,
    SamplingLedger,
    SamplingLogEntry,
    SamplingPolicy,
    SamplingResponders,
)
from workbench.core.wire.recorder import WireRecorder

CHOICES_FILE = "sampling.json"


@dataclass(frozen=True, slots=True)
class SamplingChoice:
    """Who answers a connection's sampling requests, and under which policy.

    Attributes:
        responder: ``person``, ``script:PATH`` or ``model:NAME``.
        policy: ``ask``, ``auto`` or ``deny`` (a person answering is asked whatever the policy, but deny).
    """

    responder: str = PERSON
    policy: SamplingPolicy = SamplingPolicy.ASK


@dataclass(frozen=True, slots=True)
class SamplingAnswered(CoreEvent):
    """A connection's sampling request was answered, refused or failed (one entry of the visible log)."""

    connection: str
    entry: SamplingLogEntry


class SamplingService:
    """Routes sampling requests to each connection's responders.

    Args:
        person: How a person answers (the window's dialog).
        endpoints: The saved model endpoints (and their keys).
        approver: Shows a script's or model's draft to a person under the ``ask`` policy.
        bus: Where ``SamplingAnswered`` events go.
        config_dir: Where ``sampling.json`` lives.
        wire: Where a model's HTTP exchanges are recorded, as records of the connection that asked
            (``None``: not recorded).
    """

    def __init__(
        self,
        person: SamplingHandler,
        endpoints: ModelEndpointStore,
        *,
        approver: Approver | None = None,
        bus: EventBus | None = None,
        config_dir: str | os.PathLike[str] | None = None,
        wire: WireRecorder | None = None,
    ) -> None:
        self.person = person
        self.wire = wire
        self.endpoints = endpoints
        self.approver = approver
        self.bus = bus
        self.path = resolve_config_dir(config_dir) / CHOICES_FILE
        self._routers: dict[str, tuple[SamplingChoice, str, SamplingResponders]] = {}
        self._ledgers: dict[str, SamplingLedger] = {}

    # ------------------------------------------------------------------ choices

    def choices(self) -> dict[str, SamplingChoice]:
        """Every saved choice by connection name (an unreadable file: none)."""
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
            entries = raw.get("connections") or {}
            return {
                str(name): SamplingChoice(str(v.get("responder") or PERSON), SamplingPolicy(v.get("policy") or "ask"))
                for name, v in entries.items()
                if isinstance(v, dict)
            }
        except (OSError, ValueError, AttributeError):
            return {}

    def choice(self, connection: str) -> SamplingChoice:
        """The connection's choice (a person who is asked, unless one was saved)."""
        return self.choices().get(connection, SamplingChoice())

    def set_choice(self, connection: str, choice: SamplingChoice) -> None:
        """Save the connection's choice; its next request uses it.

        Raises:
            ConfigError: An unknown kind of responder, or the file cannot be written.
        """
        if choice.responder != PERSON and not choice.responder.startswith(("script:", "model:")):
            raise ConfigError(
                f"Unknown sampling responder {choice.responder!r}.", hint="person, script:PATH, model:NAME"
            )
        entries: dict[str, Any] = {
            n: {"responder": c.responder, "policy": c.policy.value} for n, c in self.choices().items()
        }
        entries[connection] = {"responder": choice.responder, "policy": choice.policy.value}
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_suffix(".tmp")
        try:
            tmp.write_text(json.dumps({"version": 1, "connections": entries}, indent=2), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError as exc:
            raise ConfigError(f"Cannot write {self.path}.", hint=str(exc)) from None
        self._routers.pop(connection, None)

    def ledger(self, connection: str) -> SamplingLedger:
        """The connection's counters (kept while the service lives, across choice changes)."""
        return self._ledgers.setdefault(connection, SamplingLedger())

    # ------------------------------------------------------------------ answering

    async def responder(self, choice: SamplingChoice, connection_id: str = "") -> SamplingHandler:
        """The handler a choice names (a script read now, a model with its key from the store).

        Args:
            choice: Who answers.
            connection_id: The connection a model's wire records carry (``""``: they are not recorded).

        Raises:
            ConfigError: An unreadable script; NotFoundError: an unknown endpoint.
        """
        if choice.responder.startswith("script:"):
            from workbench.core.sampling.script import SamplingScript

            return SamplingScript.from_file(Path(choice.responder.removeprefix("script:")))
        if choice.responder.startswith("model:"):
            from workbench.core.sampling.model import ModelResponder

            endpoint = self.endpoints.find(choice.responder.removeprefix("model:"))
            key = await self.endpoints.key(endpoint)
            wire = self.wire if connection_id else None
            return ModelResponder(endpoint, key, wire=wire, connection_id=connection_id or "model")
        return self.person

    def drafters(self, connection: str) -> list[str]:
        """The responders that can draft one reply for ``connection``: its script, then every saved model."""
        chosen = self.choice(connection).responder
        script = [chosen] if chosen.startswith("script:") else []
        return script + [f"model:{e.name}" for e in self.endpoints.load()]

    async def draft(self, responder: str, request: SamplingRequest) -> SamplingResponse:
        """One reply from ``responder`` (``script:PATH``, ``model:NAME``) for this request alone, counted.

        Raises:
            WorkbenchError: The responder failed or cannot be used.
        """
        router = SamplingResponders(
            {responder: await self.responder(SamplingChoice(responder), request.connection_id)},
            responder,
            policy=SamplingPolicy.AUTO,
        )
        router.ledger = self.ledger(request.agent)
        router.subscribe(lambda entry: self._publish(request.agent, entry))
        return await router(request)

    async def _router(self, connection: str, connection_id: str) -> SamplingResponders:
        choice = self.choice(connection)
        cached = self._routers.get(connection)
        if cached is not None and cached[:2] == (choice, connection_id):
            return cached[2]
        handlers = {PERSON: self.person}
        if choice.responder != PERSON:
            handlers[choice.responder] = await self.responder(choice, connection_id)
        router = SamplingResponders(handlers, choice.responder, policy=choice.policy, approver=self.approver)
        router.ledger = self.ledger(connection)
        router.subscribe(lambda entry: self._publish(connection, entry))
        self._routers[connection] = (choice, connection_id, router)
        return router

    def _publish(self, connection: str, entry: SamplingLogEntry) -> None:
        if self.bus is not None:
            self.bus.publish(SamplingAnswered(connection=connection, entry=entry))

    async def __call__(self, request: SamplingRequest) -> SamplingResponse:
        """Answer with the responders of the connection that asked (``request.agent``).

        Raises:
            SamplingRejectedError: The policy or a person refused.
            WorkbenchError: The responder failed, or the connection's choice cannot be used.
        """
        router = await self._router(request.agent, request.connection_id)
        return await router(request)
