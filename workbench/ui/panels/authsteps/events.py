"""``SessionAuthStep``: an auth step of a login or logout started for a profile (its own wire connection id)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from workbench.core.auth_steps import AuthStep


@dataclass(frozen=True, slots=True)
class SessionAuthStep(AuthStep):
    """An ``AuthStep`` of a login/logout session run for a saved profile.

    ``login()`` and ``logout()`` record their HTTP exchanges under a session connection id of their own
    (``oauth-login-…``); ``connection_id`` stays that id (the wire records of ``wire_seqs`` carry it),
    and ``profile_id`` says whose steps these are, so the auth steps view lists them with the profile.
    Published on the bus like any ``AuthStep`` (``CoreBridge.auth_step`` carries it).

    Attributes:
        profile_id: The profile (and connection id) the session was run for.
    """

    profile_id: str = ""

    @classmethod
    def of(cls, step: AuthStep, profile_id: str) -> SessionAuthStep:
        """``step`` tagged with the profile it belongs to."""
        values = {f.name: getattr(step, f.name) for f in dataclasses.fields(AuthStep)}
        return cls(**values, profile_id=profile_id)


def owner_of(step: AuthStep) -> str:
    """The connection (profile) id an auth step is listed under."""
    return step.profile_id if isinstance(step, SessionAuthStep) and step.profile_id else step.connection_id
