"""Whether a tool call needs the user's yes first, and asking for it: one gate for every caller.

The window's tool form, its chat (a model's tool calls), an MCP App's ``tools/call`` and the command line
all call tools through ``ToolCallGate.check``. A profile's ``tool_approval`` policy says when to ask:

- ``always``: every call;
- ``destructive`` (the default): calls of tools annotated ``destructiveHint: true`` (and not
  ``readOnlyHint: true``, which the MCP spec says makes the destructive hint meaningless);
- ``never``: no call.

A tool without annotations is not asked about under ``destructive``: the MCP spec's default of
``destructiveHint: true`` for an unannotated tool would make nearly every tool ask, and annotations are
hints from the server, not guarantees (``always`` is there for a server one does not trust). The user's
answer comes from an ``approver`` (the window's dialog, the terminal's question); with none, a call that
needs a yes is refused.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, get_args

from workbench.core.errors import WorkbenchError
from workbench.core.profiles.model import ToolApprovalPolicy
from workbench.core.protocols.catalog import ToolSpec

__all__ = [
    "DEFAULT_POLICY",
    "POLICIES",
    "ToolApprovalPolicy",
    "ToolApprover",
    "ToolCallDeniedError",
    "ToolCallGate",
    "ToolCallRequest",
    "ToolHints",
    "is_destructive",
    "needs_approval",
    "policy_of",
]

POLICIES: tuple[ToolApprovalPolicy, ...] = get_args(ToolApprovalPolicy)
DEFAULT_POLICY: ToolApprovalPolicy = "destructive"


class ToolCallDeniedError(WorkbenchError):
    """A tool call that needed the user's yes did not get it (refused, or nobody could be asked)."""

    code = "tool-call-denied"


@dataclass(frozen=True, slots=True)
class ToolHints:
    """A tool's behaviour hints (``annotations``), each ``None`` when the server did not say.

    Attributes:
        read_only: ``readOnlyHint``: changes nothing.
        destructive: ``destructiveHint``: may delete or overwrite.
        idempotent: ``idempotentHint``: calling again with the same arguments does nothing more.
        open_world: ``openWorldHint``: reaches outside the server (the web, other systems).
    """

    read_only: bool | None = None
    destructive: bool | None = None
    idempotent: bool | None = None
    open_world: bool | None = None

    @classmethod
    def of(cls, tool: ToolSpec) -> ToolHints:
        """The hints ``tool`` declares (values that are not booleans count as unsaid)."""
        notes = tool.annotations if isinstance(tool.annotations, dict) else {}

        def flag(name: str) -> bool | None:
            value = notes.get(name)
            return value if isinstance(value, bool) else None

        return cls(flag("readOnlyHint"), flag("destructiveHint"), flag("idempotentHint"), flag("openWorldHint"))

    def lines(self) -> list[tuple[str, str]]:
        """(label, value) rows for a dialog or a terminal: destructive, idempotent, open-world, read-only."""

        def said(value: bool | None) -> str:
            return "not said" if value is None else "yes" if value else "no"

        return [
            ("Destructive", said(self.destructive)),
            ("Idempotent", said(self.idempotent)),
            ("Open world", said(self.open_world)),
            ("Read-only", said(self.read_only)),
        ]


def is_destructive(tool: ToolSpec) -> bool:
    """Whether ``tool`` says it may destroy something (``destructiveHint: true``, not read-only)."""
    hints = ToolHints.of(tool)
    return hints.destructive is True and hints.read_only is not True


def needs_approval(tool: ToolSpec, policy: ToolApprovalPolicy) -> bool:
    """Whether a call of ``tool`` asks the user first under ``policy``."""
    if policy == "always":
        return True
    if policy == "never":
        return False
    return is_destructive(tool)


def policy_of(profile: object) -> ToolApprovalPolicy:
    """A profile's policy (``tool_approval``; the default for a profile without one, such as A2A's)."""
    value = getattr(profile, "tool_approval", DEFAULT_POLICY)
    return value if value in POLICIES else DEFAULT_POLICY


@dataclass(frozen=True, slots=True)
class ToolCallRequest:
    """One call waiting for the user's yes.

    Attributes:
        connection: The connection's name, as the user knows it.
        tool: The tool to call (its name, description and annotations are shown).
        arguments: The arguments it would be called with.
        caller: Who asks: ``you`` (the tool form), ``model:NAME`` (the chat's model), ``app:URI`` (an MCP App),
            ``cli``.
    """

    connection: str
    tool: ToolSpec
    arguments: dict[str, Any] = field(default_factory=dict)
    caller: str = "you"

    @property
    def hints(self) -> ToolHints:
        """The tool's hints."""
        return ToolHints.of(self.tool)


ToolApprover = Callable[[ToolCallRequest], Awaitable[bool]]
"""Asks the user about one call; ``True`` lets it go out."""


class ToolCallGate:
    """The one place tool calls wait for the user's yes, whoever makes them.

    Args:
        approver: Asks the user (``None``: nobody can be asked, and calls that need a yes are refused).
    """

    def __init__(self, approver: ToolApprover | None = None) -> None:
        self.approver = approver

    async def check(self, request: ToolCallRequest, policy: ToolApprovalPolicy) -> None:
        """Return when the call may go out; the user is asked if ``policy`` wants it.

        Raises:
            ToolCallDeniedError: The user refused, or nobody could be asked.
        """
        if not needs_approval(request.tool, policy):
            return
        name = request.tool.name[:80]
        details = {"tool": name, "caller": request.caller[:200], "policy": policy}
        if self.approver is None:
            raise ToolCallDeniedError(
                f"The call of {name!r} needs your approval, and nobody can be asked here.",
                hint="approve it where you can be asked (a terminal, --yes, the window), or change the policy",
                details=details,
            )
        if not await self.approver(request):
            raise ToolCallDeniedError(f"The call of {name!r} was not approved.", details=details)

    async def check_for(
        self, profile: object, tool: ToolSpec, arguments: dict[str, Any], *, caller: str, connection: str = ""
    ) -> None:
        """``check`` under ``profile``'s policy, the connection named as the profile is.

        Raises:
            ToolCallDeniedError: The user refused, or nobody could be asked.
        """
        name = connection or str(getattr(profile, "name", "") or "")
        await self.check(ToolCallRequest(name, tool, dict(arguments), caller), policy_of(profile))
