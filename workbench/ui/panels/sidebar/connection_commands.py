"""ConnectionCommands: what the sidebar's connect, disconnect and reconnect do with the connection manager."""

from __future__ import annotations

from collections.abc import Awaitable, Coroutine
from typing import TYPE_CHECKING, Any

from workbench.core.errors import ConnectError, WorkbenchError
from workbench.core.profiles import ConnectionProfile
from workbench.ui.context import PanelContext
from workbench.ui.panels.sidebar.items import LIVE_STATES

if TYPE_CHECKING:
    from workbench.core.connection import Connection
    from workbench.core.protocols.contract import RemoteAgent


class ConnectionCommands:
    """The sidebar's connection commands: the connection manager's calls, a failure reported as the connection's.

    The view model decides which row may run a command and runs it as that row's task; these are the
    commands it runs.

    Args:
        ctx: The panel context (its connection manager and error presenter).
    """

    def __init__(self, ctx: PanelContext) -> None:
        self._ctx = ctx

    def connect(self, profile: ConnectionProfile, agent: RemoteAgent | None = None) -> Coroutine[Any, Any, None]:
        """Connect ``profile`` (with ``agent``, built elsewhere, if given); a failure goes to ``ctx.errors``.

        The connect starts now (``ConnectionManager.start_connect``): the row and the workspace say
        "connecting" before the returned coroutine, which waits for the outcome, gets to run.
        """
        pending: Awaitable[Connection] | WorkbenchError
        try:
            pending = self._ctx.services.connections.start_connect(profile, agent=agent)
        except WorkbenchError as exc:
            pending = exc
        return self._outcome(pending, profile)

    async def _outcome(self, pending: Awaitable[Connection] | WorkbenchError, profile: ConnectionProfile) -> None:
        try:
            if isinstance(pending, WorkbenchError):
                raise pending
            await pending
        except WorkbenchError as exc:
            self._report_connect_failure(exc, f"connecting to {profile.name!r}", profile.id)

    async def disconnect(self, profile_id: str) -> None:
        """Close the profile's connection."""
        await self._ctx.services.connections.disconnect(profile_id)

    async def reconnect(self, profile: ConnectionProfile) -> None:
        """Close the profile's connection if it has one and connect ``profile``; a failure goes to ``ctx.errors``."""
        connections = self._ctx.services.connections
        try:
            if connections.get(profile.id) is not None:
                await connections.disconnect(profile.id)
            await connections.connect(profile)
        except WorkbenchError as exc:
            self._report_connect_failure(exc, f"reconnecting to {profile.name!r}", profile.id)

    async def close_live(self, profile_id: str) -> None:
        """Close the profile's connection when it is connecting or connected (an OAuth login replaces its tokens)."""
        connections = self._ctx.services.connections
        conn = connections.get(profile_id)
        if conn is not None and conn.state in LIVE_STATES:
            await connections.disconnect(profile_id)

    def _report_connect_failure(self, exc: WorkbenchError, doing: str, profile_id: str) -> None:
        # A connection the user closed while it was connecting is not a failure worth announcing.
        if isinstance(exc, ConnectError) and exc.details.get("closed"):
            return
        # The failure is that connection's, whichever one the user looks at meanwhile; its workspace
        # shows it while the connection stays failed (inline: not again in the window's banner).
        self._ctx.errors.report(exc, doing, connection_id=profile_id, inline=True)
