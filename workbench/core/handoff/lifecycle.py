"""A hop's life: started, checked (depth, loops), let through by its route's policy or refused, then ended."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from workbench.core.errors import (
    ConfigError,
    HandoffDeniedError,
    HandoffDepthError,
    HandoffError,
    HandoffLoopError,
    RemoteError,
    UsageError,
    WorkbenchError,
)
from workbench.core.handoff.agent_tools import RegisteredAgent
from workbench.core.handoff.events import USER, HopKind, HopState
from workbench.core.handoff.hops import Hop, HopBook, short
from workbench.core.handoff.policy import ApprovalHandler, ApprovalRequest, HandoffPolicies, Policy, as_decision
from workbench.core.protocols.base import AgentResult

DEFAULT_MAX_DEPTH = 5
"""Deepest chain allowed by default (the user's question is depth 1)."""


class HopLifecycle:
    """Starts hops, decides whether each may reach its target, and ends each with its outcome.

    Args:
        book: Where open hops are kept and their events published.
        policies: Route policies.
        approval: Decides hops whose policy is ``ask`` (without one they are refused).
        max_depth: Deepest chain allowed (the question is depth 1).

    Raises:
        ConfigError: ``max_depth`` is below 1.
    """

    def __init__(
        self,
        book: HopBook,
        *,
        policies: HandoffPolicies,
        approval: ApprovalHandler | None = None,
        max_depth: int = DEFAULT_MAX_DEPTH,
    ) -> None:
        if max_depth < 1:
            raise ConfigError("The handoff depth limit must be at least 1.", details={"max_depth": max_depth})
        self.book = book
        self.policies = policies
        self.approval = approval
        self.max_depth = max_depth

    def start(self, parent: Hop | None, source: str, entry: RegisteredAgent, kind: HopKind) -> Hop:
        """A new hop from ``source`` to ``entry`` (not yet published): under ``parent``, or a new chain."""
        return self.book.start(
            parent=parent,
            source=source,
            target=entry.name,
            protocol=entry.protocol,
            kind=kind,
            connection_id=entry.connection_id,
        )

    async def open(
        self,
        parent: Hop | None,
        source: str,
        entry: RegisteredAgent,
        kind: HopKind,
        summary: str,
        detail: dict[str, Any],
    ) -> Hop:
        """Start a hop to ``entry``: depth and loop checks, the policy, then ``WORKING``.

        Raises:
            HandoffDepthError, HandoffLoopError, HandoffDeniedError: The hop was refused (and reported).
        """
        hop = self.start(parent, source, entry, kind)
        try:
            self.check_chain(hop)
        except HandoffError as exc:
            self.fail(hop, exc)
            raise
        policy = self.policies.resolve(source, entry.name)
        if policy is Policy.DENY:
            denied = HandoffDeniedError(
                f"Handoffs from {source} to {entry.name} are not allowed.",
                hint="change the route's policy to ask or auto",
                details={"policy": "deny", "source": source, "target": entry.name},
            )
            self.fail(hop, denied)
            raise denied
        if policy is Policy.ASK:
            await self._approve(hop, summary, detail)
        self.book.emit(hop, HopState.WORKING, summary, {**detail, "policy": policy.value})
        return hop

    def check_chain(self, hop: Hop) -> None:
        """Refuse a hop deeper than ``max_depth`` or to an agent already taking part in the chain above.

        Raises:
            HandoffDepthError: The chain would be too deep.
            HandoffLoopError: The target is the source or an agent above it.
        """
        if hop.depth > self.max_depth:
            raise HandoffDepthError(
                f"Handing off from {hop.source} to {hop.target} would make the chain {hop.depth} deep "
                f"(the limit is {self.max_depth}).",
                hint="raise the router's depth limit if the chain really needs it",
                details={"depth": hop.depth, "max_depth": self.max_depth},
            )
        above = hop.parent.agents() if hop.parent is not None else []
        if hop.target == hop.source or hop.target in above:
            raise HandoffLoopError(
                f"{hop.source} hands off to {hop.target}, which is already part of this chain.",
                hint="an agent cannot be asked again by a hop it caused",
                details={"path": [*above, hop.target] if above else [hop.source, hop.target]},
            )

    def start_user_hop(
        self, source: str, entry: RegisteredAgent | None, parent: Hop | None, question: str, detail: dict[str, Any]
    ) -> Hop:
        """A ``USER_INPUT`` hop from ``source`` to the user, published as ``WAITING_FOR_USER``."""
        hop = self.book.start(
            parent=parent,
            source=source,
            target=USER,
            protocol=entry.protocol if entry is not None else "local",
            kind=HopKind.USER_INPUT,
            connection_id=entry.connection_id if entry is not None else None,
        )
        self.book.emit(hop, HopState.WAITING_FOR_USER, question or f"{source} asks for input", detail)
        return hop

    def finish(self, hop: Hop, result: AgentResult) -> WorkbenchError | None:
        """End ``hop`` from the agent's result: ``DONE`` when it completed, else ``FAILED`` (returned)."""
        if result.state == "completed" and not result.is_error:
            self.book.emit(hop, HopState.DONE, result.text, {"answer": short(result.text, 500), "state": result.state})
            return None
        error = RemoteError(
            f"{hop.target} ended with {result.state}: {short(result.text) or 'no reason given'}",
            remote_code=result.state,
            details={"agent": hop.target, "task_id": result.task_id},
        )
        self.fail(hop, error)
        return error

    def fail(self, hop: Hop, error: WorkbenchError) -> None:
        """End ``hop`` as ``DENIED`` (a refused handoff) or ``FAILED``, and tell its parent why."""
        state = HopState.DENIED if isinstance(error, HandoffDeniedError) else HopState.FAILED
        body = jsonable(error.to_dict())
        detail: dict[str, Any] = {"error": body}
        if hop.child_errors:
            detail["caused_by"] = list(hop.child_errors)
        self.book.emit(hop, state, error.message, detail)
        if hop.parent is not None:
            hop.parent.child_errors.append(
                {"handoff_id": hop.handoff_id, "kind": hop.kind.value, "target": hop.target, "code": error.code}
                | ({"caused_by": list(hop.child_errors)} if hop.child_errors else {})
            )

    async def _approve(self, hop: Hop, summary: str, detail: dict[str, Any]) -> None:
        self.book.emit(hop, HopState.PENDING, summary, {**detail, "policy": "ask"})
        if self.approval is None:
            denied = HandoffDeniedError(
                f"{hop.source} wants to hand off to {hop.target}, and no one can approve it here.",
                hint="give the router an approval handler, or set the route's policy to auto",
                details={"policy": "ask", "source": hop.source, "target": hop.target},
            )
            self.fail(hop, denied)
            raise denied
        request = ApprovalRequest(
            chain_id=hop.chain_id,
            handoff_id=hop.handoff_id,
            parent_id=hop.parent_id,
            source=hop.source,
            target=hop.target,
            kind=hop.kind,
            protocol=hop.protocol,
            summary=short(summary),
            arguments=jsonable(detail.get("arguments", {"message": detail.get("message", summary)})),
            depth=hop.depth,
        )
        try:
            decision = as_decision(await self.approval(request))
        except BaseException as exc:
            self.fail(hop, as_error(exc, "asking for approval"))
            raise
        if decision.remember:
            self.policies.set(hop.target, Policy.AUTO if decision.approved else Policy.DENY, source=hop.source)
        if not decision.approved:
            denied = HandoffDeniedError(
                f"The handoff from {hop.source} to {hop.target} was not approved.",
                hint=decision.reason,
                details={"policy": "ask", "source": hop.source, "target": hop.target},
            )
            self.fail(hop, denied)
            raise denied


def as_error(exc: BaseException, doing: str) -> WorkbenchError:
    """The typed error behind a failure (cancellation and foreign exceptions are wrapped)."""
    if isinstance(exc, WorkbenchError):
        return exc
    if isinstance(exc, asyncio.CancelledError):
        return UsageError(f"Cancelled while {doing}.", details={"cancelled": True})
    return RemoteError(f"{type(exc).__name__} while {doing}: {exc}", remote_code="exception")


def jsonable(value: Any) -> Any:
    """``value`` as plain JSON data (what ``json`` cannot write becomes its ``str``)."""
    return json.loads(json.dumps(value, default=str, ensure_ascii=False))
