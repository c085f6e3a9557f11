"""ProfileCommands: the sidebar's saving, duplicating and removing of profiles, through the core's ProfileService."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from workbench.core.credentials import BackendInfo
from workbench.core.errors import WorkbenchError
from workbench.core.profiles import ConnectionProfile
from workbench.core.profiles.service import CredentialFailure, SecretChanges
from workbench.ui.context import PanelContext


class ProfileCommands:
    """Runs the profile use cases (``ctx.services.profile_service``) and reports what failed to ``ctx.errors``.

    The view model keeps the rows: it says which profiles are shown, and ``show`` puts a saved profile
    in its row.

    Args:
        ctx: The panel context.
        show: Puts a saved profile in its row (and whether it is saved beyond this session).
        notify: Shows a passing note on the status bar.
    """

    def __init__(
        self,
        ctx: PanelContext,
        *,
        show: Callable[[ConnectionProfile, bool], None],
        notify: Callable[[str], None],
    ) -> None:
        self._ctx = ctx
        self._show = show
        self._notify = notify

    def put(self, profile: ConnectionProfile, doing: str) -> WorkbenchError | None:
        """Write ``profile`` to the profile file (no secrets change).

        Returns:
            ``None`` once written; otherwise the error, reported to ``ctx.errors`` as ``doing``.
        """
        try:
            self._ctx.services.profile_service.put(profile)
        except WorkbenchError as exc:
            self._ctx.errors.report(exc, doing)
            return exc
        return None

    async def save(
        self,
        profile: ConnectionProfile,
        changes: SecretChanges | None,
        *,
        persist: bool,
        shown: list[ConnectionProfile],
    ) -> WorkbenchError | None:
        """Save the profile with its secret changes (``ProfileService.save``), then show it.

        Args:
            profile: The profile to save.
            changes: The secret values to store and the keys to forget.
            persist: Write it to the profile file (``False``: this session only).
            shown: The other rows' profiles (session-only ones refer to stored keys too).

        Returns:
            ``None`` once saved; otherwise the error that stopped it, reported to ``ctx.errors`` as
            shown inline (the caller's connection dialog shows it).
        """
        try:
            leftovers = await self._ctx.services.profile_service.save(profile, changes, persist=persist, shown=shown)
        except WorkbenchError as exc:
            self._ctx.errors.report(exc, f"saving the connection {profile.name!r}", inline=True)
            return exc
        self._show(profile, persist)
        self._report_failures(leftovers, f"the old secrets of {profile.name!r}")
        if changes is not None and changes.store:
            self._announce_backend()
        return None

    async def credential_backend(self) -> tuple[BackendInfo | None, WorkbenchError | None]:
        """Which credential backend secrets would go to, or why there is none (checked off the event loop)."""
        try:
            return await asyncio.to_thread(self._ctx.services.credentials.backend), None
        except WorkbenchError as exc:
            return None, exc

    def duplicate(self, profile: ConnectionProfile) -> ConnectionProfile | None:
        """Save a copy of ``profile`` under a new id and the name "<name> (copy)", then show it.

        Returns:
            The copy, or ``None`` when it could not be saved (reported to ``ctx.errors``).
        """
        try:
            copy = self._ctx.services.profile_service.duplicate(profile)
        except WorkbenchError as exc:
            self._ctx.errors.report(exc, f"duplicating the connection {profile.name!r}")
            return None
        self._show(copy, True)
        return copy

    async def remove(self, profile: ConnectionProfile, *, persisted: bool, shown: list[ConnectionProfile]) -> bool:
        """Close and forget the profile's connection, then remove it with its credentials (``ProfileService.remove``).

        Returns:
            Whether it was removed; when the keyring refuses to forget a secret it was not (the failure
            is reported), and removing again retries.
        """
        connections = self._ctx.services.connections
        if connections.get(profile.id) is not None:
            await connections.remove(profile.id)
        try:
            await self._ctx.services.profile_service.remove(profile, persisted=persisted, shown=shown)
        except WorkbenchError as exc:
            self._ctx.errors.report(exc, f"removing the connection {profile.name!r}")
            return False
        return True

    def _announce_backend(self) -> None:
        """Tell the status bar when secrets went to a backend the user opted in to despite its risk."""
        try:
            info = self._ctx.services.credentials.backend()
        except WorkbenchError:
            return
        if info.warning:
            self._notify(f"Secrets saved, but: {info.warning}")

    def _report_failures(self, failures: list[CredentialFailure], whose: str) -> None:
        for doing, failure in failures:
            self._ctx.errors.report(failure, f"{doing} of {whose}")
