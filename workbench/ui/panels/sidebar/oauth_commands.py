"""OAuthCommands: the sidebar's OAuth logins and logouts, and the stored login each OAuth row shows."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import Awaitable, Callable
from typing import Protocol

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices

from workbench.core.auth_steps import AuthStep
from workbench.core.errors import AuthRequiredError, WorkbenchError
from workbench.core.oauth_login import login, logout, oauth_status
from workbench.core.profiles import A2AProfile, ConnectionProfile, MCPHTTPProfile, MCPSSEProfile
from workbench.core.timefmt import time_of_day
from workbench.ui.asyncutil import spawn
from workbench.ui.context import PanelContext
from workbench.ui.panels.authsteps.events import SessionAuthStep
from workbench.ui.panels.sidebar.connection_commands import ConnectionCommands
from workbench.ui.panels.sidebar.items import OAuthStatus, SidebarItem

BrowserOpener = Callable[[str], Awaitable[None]]
"""Shows the user an OAuth authorization URL (the core's ``BrowserOpener``)."""


async def desktop_browser_opener(url: str) -> None:
    """Open an OAuth authorization URL in the user's browser (``QDesktopServices``).

    Raises:
        AuthRequiredError: No browser could be started.
    """
    if not QDesktopServices.openUrl(QUrl(url)):
        raise AuthRequiredError(
            "No web browser could be opened for the OAuth login.",
            hint="log in from a terminal instead: workbench login NAME --no-browser",
            details={"oauth": "no-browser"},
        )


class OAuthRows(Protocol):
    """The sidebar rows as the OAuth commands see them (the ``SidebarViewModel``)."""

    def item(self, profile_id: str) -> SidebarItem | None:
        """The row for ``profile_id``, if there is one."""
        ...

    def set_oauth_status(self, profile_id: str, status: OAuthStatus) -> None:
        """Show ``status`` in an OAuth profile's row."""
        ...


class OAuthCommands:
    """Logs OAuth profiles in and out (the core's ``login()`` / ``logout()``) and reads their stored logins.

    A login runs with ``opener`` and records into ``ctx.services.wire``; each step is published on
    ``ctx.services.bus`` as a ``SessionAuthStep`` and noted on the status bar. While one runs, the
    row says so (``logging in…``); afterwards it shows the stored login again.

    Args:
        ctx: The panel context.
        rows: The rows to read profiles from and show logins in.
        connections: Closes a live connection before a login or logout, and connects after a login.
        notify: Shows a passing note on the status bar.
        opener: Shows an OAuth authorization URL.
    """

    def __init__(
        self,
        ctx: PanelContext,
        rows: OAuthRows,
        connections: ConnectionCommands,
        *,
        notify: Callable[[str], None],
        opener: BrowserOpener,
    ) -> None:
        self._ctx = ctx
        self._rows = rows
        self._connections = connections
        self._notify = notify
        self.opener = opener
        self._reads: dict[str, asyncio.Task[None]] = {}

    def read_status(self, profile_id: str) -> asyncio.Task[None] | None:
        """Read (again) what the credential store holds for an OAuth profile, in the background.

        Returns:
            The task, or ``None`` when no event loop runs or the profile does not use OAuth.
        """
        item = self._rows.item(profile_id)
        if item is None or not item.is_oauth:
            return None
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            return None  # built outside the loop (a plain sync test): the row just says nothing yet
        previous = self._reads.get(profile_id)
        if previous is not None and not previous.done():
            previous.cancel()
        task = spawn(self._read_status(profile_id), doing=f"reading the login of {item.name!r}")
        self._reads[profile_id] = task
        return task

    async def _read_status(self, profile_id: str) -> None:
        item = self._rows.item(profile_id)
        if item is None:
            return
        try:
            stored = await oauth_status(item.profile, self._ctx.services.credentials)
        except WorkbenchError:
            stored = None  # no usable keyring: connecting says why; the row stays quiet
        status = (
            OAuthStatus(
                known=True,
                logged_in=stored.logged_in,
                expires_at=stored.expires_at,
                refreshable=stored.refreshable,
                registered=stored.registered,
            )
            if stored is not None
            else OAuthStatus()
        )
        self._rows.set_oauth_status(profile_id, status)

    def _set_busy(self, profile_id: str, busy: str) -> None:
        item = self._rows.item(profile_id)
        if item is not None:
            self._rows.set_oauth_status(profile_id, dataclasses.replace(item.oauth or OAuthStatus(), busy=busy))

    def _step_publisher(self, profile: ConnectionProfile, doing: str) -> Callable[[AuthStep], None]:
        bus = self._ctx.services.bus

        def publish(step: AuthStep) -> None:
            bus.publish(SessionAuthStep.of(step, profile.id))
            mark = {"ok": "✓", "failed": "✗"}.get(step.status, "–")
            self._notify(f"{doing} {profile.name}: {step.stage.value} {mark}")

        return publish

    async def _exchange[R](
        self,
        profile: ConnectionProfile,
        busy: str,
        doing: str,
        exchange: Callable[[], Awaitable[R]],
        *,
        started: str = "",
        failed: str = "",
    ) -> R | None:
        """Close the live connection and run ``exchange`` (a login or logout) while the row says ``busy``.

        Args:
            profile: The OAuth profile.
            busy: The row's text meanwhile (``logging in…``).
            doing: What failed, for ``ctx.errors``.
            exchange: Starts the login or logout.
            started: A status-bar note once the row is busy (none when empty).
            failed: A status-bar note before a failure is reported (none when empty).

        Returns:
            What ``exchange`` returned, once the row shows the stored login again; ``None`` when it
            failed (the failure is reported to ``ctx.errors``).
        """
        self._set_busy(profile.id, busy)
        if started:
            self._notify(started)
        try:
            await self._connections.close_live(profile.id)
            result = await exchange()
        except WorkbenchError as exc:
            self._set_busy(profile.id, "")
            self.read_status(profile.id)
            if failed:
                self._notify(failed)
            self._ctx.errors.report(exc, doing)
            return None
        except BaseException:  # cancelled: the row must not stay "logging in…"
            with contextlib.suppress(RuntimeError):  # the view-model was deleted (window closed)
                self._set_busy(profile.id, "")
            raise
        self._set_busy(profile.id, "")
        await self._read_status(profile.id)
        return result

    async def login(self, profile: ConnectionProfile) -> None:
        """Log in afresh in the browser (a live connection is closed first), then connect the profile.

        Progress shows in the row (``logging in…``), on the status bar and as auth steps; a failure
        goes to ``ctx.errors``.
        """
        assert isinstance(profile, MCPHTTPProfile | MCPSSEProfile | A2AProfile)
        store = self._ctx.services.credentials
        result = await self._exchange(
            profile,
            "logging in…",
            f"logging in to {profile.name!r}",
            lambda: login(
                profile,
                store,
                opener=self.opener,
                wire=self._ctx.services.wire,
                on_step=self._step_publisher(profile, "Logging in to"),
                resolve_secret=store.resolve,
                connection_id=profile.id,  # the login's wire records sit with the connection
            ),
            started=f"Logging in to {profile.name}: finish the login in your browser…",
            failed=f"Login to {profile.name} failed.",
        )
        if result is None:
            return
        until = (
            f" (token valid until {time_of_day(result.expires_at, seconds=False)})"
            if result.expires_at is not None
            else ""
        )
        self._notify(f"Logged in to {profile.name}{until}.")
        current = self._rows.item(profile.id)
        await self._connections.connect(current.profile if current is not None else profile)

    async def logout(self, profile: ConnectionProfile) -> None:
        """Close the profile's live connection, revoke its tokens at the authorization server and forget them."""
        assert isinstance(profile, MCPHTTPProfile | MCPSSEProfile | A2AProfile)
        result = await self._exchange(
            profile,
            "logging out…",
            f"logging out of {profile.name!r}",
            lambda: logout(
                profile,
                self._ctx.services.credentials,
                wire=self._ctx.services.wire,
                on_step=self._step_publisher(profile, "Logging out of"),
                connection_id=profile.id,
            ),
        )
        if result is None:
            return
        revoked = "; the tokens were revoked" if result.revoked else ""
        self._notify(f"Logged out of {profile.name}: forgot {result.forgotten} stored item(s){revoked}.")
