"""Who may hand off to whom: per-route policies (ask, auto, deny) and the approval request a person answers."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from workbench.core.errors import ConfigError
from workbench.core.handoff.events import HopKind


class Policy(StrEnum):
    """What the router does before a hop reaches its target."""

    ASK = "ask"  # ask the approval handler (a person, or a scripted answer)
    AUTO = "auto"  # go ahead
    DENY = "deny"  # refuse with HandoffDeniedError


@dataclass(frozen=True, slots=True)
class ApprovalRequest:
    """Who asks whom for what; what an approval handler decides on.

    Attributes:
        chain_id: The chain the hop belongs to.
        handoff_id: The hop waiting for the decision (its events show ``PENDING``).
        parent_id: The hop that caused it.
        source: Who asks (an agent name).
        target: Who is asked (an agent name).
        kind: What kind of hop (tool call, sampling, agent tool).
        protocol: The target's protocol.
        summary: One line: what is asked (untrusted text; show it plain).
        arguments: The tool arguments or message, JSON-ready (untrusted).
        depth: How deep in the chain the hop would be (the question is 1).
    """

    chain_id: str
    handoff_id: str
    parent_id: str | None
    source: str
    target: str
    kind: HopKind
    protocol: str
    summary: str
    arguments: dict[str, Any] = field(default_factory=dict)
    depth: int = 1

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return {
            "chain_id": self.chain_id,
            "handoff_id": self.handoff_id,
            "parent_id": self.parent_id,
            "source": self.source,
            "target": self.target,
            "kind": self.kind.value,
            "protocol": self.protocol,
            "summary": self.summary,
            "arguments": self.arguments,
            "depth": self.depth,
        }


@dataclass(frozen=True, slots=True)
class ApprovalDecision:
    """An approval handler's answer.

    Attributes:
        approved: Let the hop go ahead.
        remember: Apply the decision to this route from now on (``auto`` or ``deny``).
        reason: Why (shown in the hop's detail when refused).
    """

    approved: bool
    remember: bool = False
    reason: str | None = None


ApprovalHandler = Callable[[ApprovalRequest], Awaitable["bool | ApprovalDecision"]]
"""Decides on an ``ApprovalRequest`` (the GUI opens a dialog; headless runs pass a scripted answer)."""


async def approve_all(request: ApprovalRequest) -> bool:
    """An approval handler that approves every hop (headless demos, tests)."""
    return True


def as_decision(answer: bool | ApprovalDecision) -> ApprovalDecision:
    """Normalise an approval handler's answer."""
    return answer if isinstance(answer, ApprovalDecision) else ApprovalDecision(approved=bool(answer))


class HandoffPolicies:
    """Policies per route (source → target) and per target, over a default.

    The most specific wins: the route, then the target, then the default.

    Args:
        default: The policy of routes nobody configured (``ask`` unless told otherwise).
        auto: Targets approved without asking.
        deny: Targets always refused.
    """

    def __init__(
        self, default: Policy | str = Policy.ASK, *, auto: Iterable[str] = (), deny: Iterable[str] = ()
    ) -> None:
        self.default = _policy(default)
        self._targets: dict[str, Policy] = {}
        self._routes: dict[tuple[str, str], Policy] = {}
        for name in auto:
            self._targets[name] = Policy.AUTO
        for name in deny:
            self._targets[name] = Policy.DENY

    def set(self, target: str, policy: Policy | str, *, source: str | None = None) -> None:
        """Set the policy of every route to ``target``, or of the one route ``source`` → ``target``."""
        if source is None:
            self._targets[target] = _policy(policy)
        else:
            self._routes[(source, target)] = _policy(policy)

    def clear(self, target: str, *, source: str | None = None) -> None:
        """Forget what ``set`` said for the target (or the route)."""
        if source is None:
            self._targets.pop(target, None)
        else:
            self._routes.pop((source, target), None)

    def resolve(self, source: str, target: str) -> Policy:
        """The policy that applies to ``source`` → ``target``."""
        route = self._routes.get((source, target))
        if route is not None:
            return route
        return self._targets.get(target, self.default)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready description (for settings and ``--json`` output)."""
        return {
            "default": self.default.value,
            "targets": {k: v.value for k, v in sorted(self._targets.items())},
            "routes": [{"source": s, "target": t, "policy": p.value} for (s, t), p in sorted(self._routes.items())],
        }


def _policy(value: Policy | str) -> Policy:
    try:
        return Policy(value)
    except ValueError:
        raise ConfigError(
            f"Unknown handoff policy {value!r}.", hint="use ask, auto or deny", details={"policy": str(value)}
        ) from None
