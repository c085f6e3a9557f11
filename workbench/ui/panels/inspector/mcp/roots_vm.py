"""RootsViewModel: the roots one MCP connection offers, as the Roots sub-tab shows and changes them.

The roots are the profile's (``core.roots.offer_roots`` saves a change and offers it to the open
connection at once); this view-model only knows which connection is on show, runs the change and
says what became of it. A connection whose profile is not saved (the demo's) has nowhere to keep
them: the roots offered here are shown while the connection that was offered them stays open.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from PySide6.QtCore import QObject, Signal

from workbench.core.errors import NotFoundError, WorkbenchError
from workbench.core.events import ConnectionState
from workbench.core.profiles import ConnectionProfile, Root
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.roots import offer_roots, root_from
from workbench.ui.asyncutil import spawn
from workbench.ui.context import PanelContext

OFFERED = "The server is told at once when you add or remove one (roots/list_changed)."
SAVED_ONLY = (
    "This connection does not advertise roots (its Roots capability is off in the profile): "
    "changes are saved and offered once it advertises them and reconnects."
)
CLOSED = "Not connected: changes are saved and offered when it connects."
UNSAVED = "Its profile is not saved: the roots added here last until it disconnects."


class RootsViewModel(QObject):
    """The shown connection's roots; adding or removing one saves it and tells the server.

    Signals:
        changed: The roots or whether the server takes them now changed (redraw).
        failed(ErrorView): A change failed (a bad URI, a profile that cannot be saved, the server gone).
    """

    changed = Signal()
    failed = Signal(object)

    def __init__(self, ctx: PanelContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self._cid: str | None = None
        self.pending: asyncio.Task[None] | None = None
        # by profile id, for profiles that are not saved: the agent offered them, and the roots
        self._offered: dict[str, tuple[RemoteAgent, list[Root]]] = {}

    @property
    def connection_id(self) -> str | None:
        """The connection on show."""
        return self._cid

    def show_connection(self, connection_id: str | None) -> None:
        """Show ``connection_id``'s roots (``None``: none)."""
        self._cid = connection_id
        self.changed.emit()

    def roots(self) -> list[Root]:
        """The roots of the connection on show: its saved profile's, else those offered here or it was opened with."""
        profile_id = self._profile_id()
        if profile_id is None:
            return []
        profile = self._saved_profile(profile_id)
        if profile is None:
            offered = self._offered.get(profile_id)
            if offered is not None and offered[0] is self._agent():
                return list(offered[1])
            conn = self.ctx.services.connections.get(self._cid or "")
            profile = conn.profile if conn is not None else None
        return list(getattr(profile, "roots", []) or [])

    def note(self) -> str:
        """Whether the server takes changes now, in words."""
        agent = self._agent()
        if agent is None:
            return CLOSED
        features = agent.server_features
        if features is None or features.roots is None:
            return SAVED_ONLY
        profile_id = self._profile_id()
        saved = profile_id is not None and self._saved_profile(profile_id) is not None
        return OFFERED if saved else f"{OFFERED} {UNSAVED}"

    def add_root(self, text: str, name: str = "") -> asyncio.Task[None] | None:
        """Add a folder or ``file://`` URI (named ``name``, else after its folder); saved and offered."""
        try:
            root = root_from(text, name or None)
        except WorkbenchError as exc:
            self._report(exc, "adding a root")
            return None
        return self._change([*self.roots(), root], "adding a root")

    def remove_root(self, uri: str) -> asyncio.Task[None] | None:
        """Take the root ``uri`` away; saved and offered."""
        return self._change([r for r in self.roots() if r.uri != uri], "removing a root")

    def _change(self, roots: Sequence[Root], doing: str) -> asyncio.Task[None] | None:
        profile_id = self._profile_id()
        if profile_id is None:
            return None
        agent = self._agent()

        async def run() -> None:
            try:
                offered = await offer_roots(self.ctx.services.profiles, profile_id, agent, roots)
            except WorkbenchError as exc:
                self._report(exc, doing)
            else:
                if offered and agent is not None and self._saved_profile(profile_id) is None:
                    kept: dict[str, Root] = {}
                    for root in roots:  # as offer_roots offers them: a URI given twice once
                        kept.setdefault(root.uri, root)
                    self._offered[profile_id] = (agent, list(kept.values()))
            self.changed.emit()

        self.pending = spawn(run(), doing=doing)
        return self.pending

    def _report(self, error: WorkbenchError, doing: str) -> None:
        self.failed.emit(self.ctx.errors.report(error, doing, connection_id=self._cid, inline=True))

    def _saved_profile(self, profile_id: str) -> ConnectionProfile | None:
        try:
            return self.ctx.services.profiles.get(profile_id)
        except (NotFoundError, WorkbenchError):
            return None

    def _profile_id(self) -> str | None:
        if self._cid is None:
            return None
        conn = self.ctx.services.connections.get(self._cid)
        return conn.profile.id if conn is not None else self._cid

    def _agent(self) -> RemoteAgent | None:
        conn = self.ctx.services.connections.get(self._cid or "")
        if conn is None or conn.state is not ConnectionState.CONNECTED or conn.agent is None:
            return None
        return conn.agent
