"""SidebarViewModel: saved profiles with their live connection state, and the commands on them.

Saving, duplicating and removing a profile with its secrets are the core's use cases
(``ctx.services.profile_service``); this view model runs them, keeps the rows in step and reports
what failed. MCP HTTP/SSE profiles with ``auth="oauth"`` also log in and out here (the core's
``login()`` / ``logout()``); their rows say whether a login is stored and until when its access token
is valid.

The view model holds the rows, decides which command a row may run and runs it as the row's task;
the commands themselves are three collaborators it holds: ``profile_commands`` (``ProfileCommands``),
``connection_commands`` (``ConnectionCommands``) and ``oauth_commands`` (``OAuthCommands``).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from workbench.core.errors import WorkbenchError
from workbench.core.events import ConnectionState, ConnectionStateChanged
from workbench.core.profiles import ConnectionProfile
from workbench.core.profiles.service import SecretChanges
from workbench.core.safe_text import neutralise
from workbench.ui.asyncutil import spawn
from workbench.ui.context import PanelContext
from workbench.ui.errors import ErrorView
from workbench.ui.panels.sidebar.connection_commands import ConnectionCommands
from workbench.ui.panels.sidebar.items import OAuthStatus, SidebarItem, detail_and_hint, is_oauth
from workbench.ui.panels.sidebar.oauth_commands import BrowserOpener, OAuthCommands, desktop_browser_opener
from workbench.ui.panels.sidebar.profile_commands import ProfileCommands

if TYPE_CHECKING:
    from workbench.core.protocols.contract import RemoteAgent

S = ConnectionState


class SidebarViewModel(QObject):
    """The sidebar's state and commands; widgets only forward intent to it.

    Profiles come from ``ctx.services.profiles`` (plus transient ones added with ``persist=False``);
    states follow ``ctx.bridge.connection_state_changed``. Commands that touch a connection run in the
    background (``asyncutil.spawn``); failures are shown inline (the row's state) and reported to
    ``ctx.errors``.

    OAuth profiles: ``login_profile`` logs in with ``oauth_opener`` and then connects;
    ``logout_profile`` disconnects, then revokes and forgets (``OAuthCommands``).

    Attributes:
        profile_commands: Saves, duplicates and removes profiles through the core's ``ProfileService``.
        connection_commands: Connects, disconnects and reconnects through the connection manager.
        oauth_commands: Logs OAuth profiles in and out and reads the logins their rows show.

    Signals:
        items_reset: The list of profiles changed (added, removed, reordered, edited).
        item_changed(str): The row of this profile id changed (its state or detail).
        status_message(str): A passing note for the status bar (e.g. secrets went to an insecure keyring).
        busy_changed(str): A background command of this profile id started or ended (``task(id)``).

    Args:
        ctx: The panel context.
        parent: Qt parent.
        oauth_opener: Shows an OAuth authorization URL (default: the desktop's browser); tests pass the
            core's ``follow_redirects_opener``.
    """

    items_reset = Signal()
    item_changed = Signal(str)
    status_message = Signal(str)
    busy_changed = Signal(str)

    def __init__(
        self, ctx: PanelContext, parent: QObject | None = None, *, oauth_opener: BrowserOpener | None = None
    ) -> None:
        super().__init__(parent)
        self._ctx = ctx
        self._items: list[SidebarItem] = []
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self.profile_commands = ProfileCommands(ctx, show=self._put, notify=self.status_message.emit)
        self.connection_commands = ConnectionCommands(ctx)
        self.oauth_commands = OAuthCommands(
            ctx,
            self,
            self.connection_commands,
            notify=self.status_message.emit,
            opener=oauth_opener or desktop_browser_opener,
        )
        ctx.bridge.connection_state_changed.connect(self.on_bridge_connection_state_changed)
        ctx.errors.error_reported.connect(self.on_errors_error_reported)
        ctx.selection.changed.connect(self.on_selection_changed)
        self.reload()

    # ------------------------------------------------------------------ queries

    def items(self) -> list[SidebarItem]:
        """The rows, in display order."""
        return list(self._items)

    def item(self, profile_id: str) -> SidebarItem | None:
        """The row for ``profile_id``, if there is one."""
        index = self.index_of(profile_id)
        return self._items[index] if index >= 0 else None

    def index_of(self, profile_id: str) -> int:
        """The row number of ``profile_id``, or -1."""
        for index, item in enumerate(self._items):
            if item.id == profile_id:
                return index
        return -1

    def task(self, profile_id: str) -> asyncio.Task[None] | None:
        """The command running for ``profile_id`` (connect, disconnect ...), if any."""
        task = self._tasks.get(profile_id)
        return task if task is not None and not task.done() else None

    # ------------------------------------------------------------------ profile commands

    def reload(self) -> None:
        """Read the saved profiles again (transient ones are kept); an unreadable file is reported."""
        try:
            saved = self._ctx.services.profile_service.saved()
        except WorkbenchError as exc:
            self._ctx.errors.report(exc, "loading saved connections")
            saved = []
        transient = [i for i in self._items if not i.persisted and all(p.id != i.id for p in saved)]
        old = {i.id: i for i in self._items}
        self._items = [
            self._with_live_state(
                SidebarItem(
                    p,
                    oauth=old[p.id].oauth if is_oauth(p) and p.id in old else None,
                    unseen_error=old[p.id].unseen_error if p.id in old else "",
                )
            )
            for p in saved
        ] + transient
        self.items_reset.emit()
        for item in self._items:
            if item.is_oauth:
                self.oauth_commands.read_status(item.id)

    def add(self, profile: ConnectionProfile, *, persist: bool = True) -> bool:
        """Add ``profile`` (or replace the one with the same id) and save it unless ``persist`` is False.

        Returns:
            Whether it was added (a failure to save is reported to ``ctx.errors``).
        """
        if persist and self.profile_commands.put(profile, "saving the connection") is not None:
            return False
        self._put(profile, persist)
        return True

    def _put(self, profile: ConnectionProfile, persist: bool) -> None:
        """Show ``profile`` in its row (a new row, or the one with the same id)."""
        item = self._with_live_state(SidebarItem(profile, persisted=persist))
        index = self.index_of(profile.id)
        if index >= 0:
            old = self._items[index]
            self._items[index] = dataclasses.replace(
                old, profile=profile, persisted=persist or old.persisted, oauth=old.oauth if is_oauth(profile) else None
            )
        else:
            self._items.append(item)
        self.items_reset.emit()
        if is_oauth(profile):
            self.oauth_commands.read_status(profile.id)

    def update(self, profile: ConnectionProfile) -> bool:
        """Replace the profile with the same id (an edit); a live connection keeps the old one until reconnected.

        Returns:
            Whether it was saved.
        """
        index = self.index_of(profile.id)
        persisted = self._items[index].persisted if index >= 0 else True
        return self.add(profile, persist=persisted)

    async def save_profile(
        self, profile: ConnectionProfile, changes: SecretChanges | None = None
    ) -> WorkbenchError | None:
        """Save the profile with its secret changes (the core's ``ProfileService.save``), then show it.

        When the credential store refuses a value (no secure keyring, a locked one) or the profile
        cannot be written, nothing is saved (the values written are rolled back) and the row is unchanged.

        Returns:
            ``None`` once saved; otherwise the error that stopped it (already reported to ``ctx.errors`` as
            shown inline: the caller's connection dialog shows it, the window nowhere else).
        """
        index = self.index_of(profile.id)
        persist = self._items[index].persisted if index >= 0 else True
        shown = self._shown_profiles(except_id=profile.id)
        return await self.profile_commands.save(profile, changes, persist=persist, shown=shown)

    def duplicate(self, profile_id: str) -> ConnectionProfile | None:
        """Save a copy of the profile under a new id and the name "<name> (copy)".

        Returns:
            The copy, or ``None`` when there is no such profile or it could not be saved.
        """
        item = self.item(profile_id)
        return self.profile_commands.duplicate(item.profile) if item is not None else None

    def remove(self, profile_id: str) -> asyncio.Task[None] | None:
        """Disconnect the profile's connection, then remove it with its credentials (``ProfileService.remove``).

        When the keyring refuses to forget a secret, the row and the saved profile stay (the failure
        is reported): removing again retries.

        Returns:
            The background task, or ``None`` when there is no such profile.
        """
        item = self.item(profile_id)
        if item is None:
            return None
        return self._run(profile_id, self._remove(item), f"removing {item.name!r}")

    def _shown_profiles(self, *, except_id: str) -> list[ConnectionProfile]:
        """The rows' profiles but ``except_id``'s (session-only ones refer to stored keys too)."""
        return [i.profile for i in self._items if i.id != except_id]

    async def _remove(self, item: SidebarItem) -> None:
        shown = self._shown_profiles(except_id=item.id)
        if not await self.profile_commands.remove(item.profile, persisted=item.persisted, shown=shown):
            return
        index = self.index_of(item.id)
        if index >= 0:
            del self._items[index]
            self.items_reset.emit()
        if self._ctx.selection.current == item.id:
            self._ctx.selection.select(None)

    # ------------------------------------------------------------------ connection commands

    def connect_profile(self, profile_id: str) -> asyncio.Task[None] | None:
        """Connect the profile in the background (nothing happens when it is already connecting or connected).

        Returns:
            The background task, or ``None`` when nothing was started.
        """
        item = self.item(profile_id)
        if item is None or item.is_live:
            return None
        return self._run(profile_id, self.connection_commands.connect(item.profile), f"connecting to {item.name!r}")

    def disconnect_profile(self, profile_id: str) -> asyncio.Task[None] | None:
        """Disconnect the profile's connection in the background.

        Returns:
            The background task, or ``None`` when it has no connection.
        """
        item = self.item(profile_id)
        if item is None or self._ctx.services.connections.get(profile_id) is None:
            return None
        return self._run(profile_id, self.connection_commands.disconnect(profile_id), f"disconnecting {item.name!r}")

    def reconnect_profile(self, profile_id: str) -> asyncio.Task[None] | None:
        """Close the connection if it is open and connect again with the current (possibly edited) profile.

        Returns:
            The background task, or ``None`` when there is no such profile.
        """
        item = self.item(profile_id)
        if item is None:
            return None
        return self._run(profile_id, self.connection_commands.reconnect(item.profile), f"reconnecting to {item.name!r}")

    def add_and_connect(self, profile: ConnectionProfile, *, persist: bool = True) -> asyncio.Task[None] | None:
        """Add ``profile`` (saved unless ``persist`` is False) and connect it.

        Returns:
            The connect task, or ``None`` when the profile could not be added or is already live.
        """
        if not self.add(profile, persist=persist):
            return None
        return self.connect_profile(profile.id)

    def connect_agent(self, profile_id: str, agent: RemoteAgent) -> asyncio.Task[None] | None:
        """Connect the row's profile with ``agent``, built elsewhere (the handoff router's agents).

        The connection manager then owns it like any other connection (state in the row, inspector,
        closed with the window); a later reconnect builds a fresh agent from the profile.

        Returns:
            The background task, or ``None`` when there is no such profile or it is already live.
        """
        item = self.item(profile_id)
        if item is None or item.is_live:
            return None
        return self._run(
            profile_id, self.connection_commands.connect(item.profile, agent), f"connecting to {item.name!r}"
        )

    def set_activity(self, profile_id: str, activity: str) -> None:
        """Say what the row's agent is doing (``working…``; ``""`` when idle) while it is connected."""
        index = self.index_of(profile_id)
        if index < 0 or self._items[index].activity == activity:
            return
        self._items[index] = dataclasses.replace(self._items[index], activity=activity)
        self.item_changed.emit(profile_id)

    def _run(self, profile_id: str, coro: Coroutine[Any, Any, None], doing: str) -> asyncio.Task[None]:
        task = spawn(coro, doing=doing, name=f"sidebar:{profile_id}")
        self._tasks[profile_id] = task
        self.busy_changed.emit(profile_id)

        def forget(done: asyncio.Task[None]) -> None:
            if self._tasks.get(profile_id) is done:
                del self._tasks[profile_id]
                with contextlib.suppress(RuntimeError):  # the view-model was deleted (window closed)
                    self.busy_changed.emit(profile_id)

        task.add_done_callback(forget)
        return task

    # ------------------------------------------------------------------ OAuth commands

    def login_profile(self, profile_id: str) -> asyncio.Task[None] | None:
        """Log in to an OAuth profile's server (``login()``: a fresh browser login), then connect it.

        A live connection is closed first (it holds the old tokens). Progress shows in the row
        (``logging in…``), on the status bar and as auth steps; a failure goes to ``ctx.errors``.

        Returns:
            The background task, or ``None`` when the profile does not log in with OAuth or is busy.
        """
        return self._run_oauth(profile_id, self.oauth_commands.login, "logging in to")

    def logout_profile(self, profile_id: str) -> asyncio.Task[None] | None:
        """Disconnect an OAuth profile, revoke its tokens at the authorization server and forget them.

        Returns:
            The background task, or ``None`` when the profile does not log in with OAuth or is busy.
        """
        return self._run_oauth(profile_id, self.oauth_commands.logout, "logging out of")

    def _run_oauth(
        self, profile_id: str, command: Callable[[ConnectionProfile], Coroutine[Any, Any, None]], doing: str
    ) -> asyncio.Task[None] | None:
        """Run ``command`` on an OAuth profile in the background (``None`` when it is not OAuth or is busy)."""
        item = self.item(profile_id)
        if item is None or not item.is_oauth or self.task(profile_id) is not None:
            return None
        return self._run(profile_id, command(item.profile), f"{doing} {item.name!r}")

    def set_oauth_status(self, profile_id: str, status: OAuthStatus) -> None:
        """Show ``status`` in an OAuth profile's row (``OAuthCommands`` calls it)."""
        index = self.index_of(profile_id)
        if index < 0 or not self._items[index].is_oauth:
            return
        self._items[index] = dataclasses.replace(self._items[index], oauth=status)
        self.item_changed.emit(profile_id)

    # ------------------------------------------------------------------ state

    def on_bridge_connection_state_changed(self, event: ConnectionStateChanged) -> None:
        """Record a connection's new state in its row."""
        index = self.index_of(event.connection_id)
        if index < 0:
            return
        old = self._items[index]
        detail, hint = detail_and_hint(event.new, event.detail, event.error)
        unseen = "" if event.new is S.CONNECTED else old.unseen_error  # reconnected: the error is behind it
        self._items[index] = dataclasses.replace(old, state=event.new, detail=detail, hint=hint, unseen_error=unseen)
        self.item_changed.emit(event.connection_id)
        if old.is_oauth and event.new in (S.CONNECTED, S.FAILED, S.CLOSED):
            # The connection may have logged in (browser), refreshed or dropped a refused token.
            self.oauth_commands.read_status(event.connection_id)

    def on_errors_error_reported(self, view: ErrorView) -> None:
        """A failure of a connection the user is not looking at: its row shows it until selected.

        What the window shows of an error (its banner, a panel's error line, a failed connection's
        workspace) is the selected connection's; another connection's error would otherwise go unseen.
        """
        cid = view.connection_id
        if cid is None or cid == self._ctx.selection.current or self.index_of(cid) < 0:
            return
        text = "\n".join(neutralise(part) for part in (view.headline, view.message, view.hint) if part)
        self._set_unseen_error(cid, text)

    def on_selection_changed(self, connection_id: str | None) -> None:
        """The user looks at the connection now (the window shows its error): its row's error sign goes."""
        if connection_id is not None:
            self._set_unseen_error(connection_id, "")

    def _set_unseen_error(self, profile_id: str, text: str) -> None:
        index = self.index_of(profile_id)
        if index < 0 or self._items[index].unseen_error == text:
            return
        self._items[index] = dataclasses.replace(self._items[index], unseen_error=text)
        self.item_changed.emit(profile_id)

    def _with_live_state(self, item: SidebarItem) -> SidebarItem:
        conn = self._ctx.services.connections.get(item.id)
        if conn is None:
            return item
        detail = conn.protocol_version if conn.state is S.CONNECTED else None
        if conn.state is S.FAILED and conn.error is not None:
            detail = str(conn.error)
        detail, hint = detail_and_hint(conn.state, detail, conn.error)
        return dataclasses.replace(item, state=conn.state, detail=detail, hint=hint)
