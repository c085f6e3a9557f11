"""What a login and a logout did, whichever protocol's: the results the window and the command line read."""

from __future__ import annotations

from dataclasses import dataclass

from workbench.core.auth_steps import AuthStep


@dataclass(frozen=True, slots=True)
class LoginResult:
    """What a login did.

    Attributes:
        steps: The auth steps, in order.
        expires_at: When the access token expires (seconds since the epoch), if known.
        scope: The granted scope, if the server said.
        redirect_port: The loopback port used (and registered); 0 when none was.
    """

    steps: tuple[AuthStep, ...]
    expires_at: float | None
    scope: str | None
    redirect_port: int


@dataclass(frozen=True, slots=True)
class LogoutResult:
    """What a logout did.

    Attributes:
        revoked: Whether the authorization server confirmed the revocation of every token sent.
        forgotten: How many stored entries (tokens, registration) were deleted.
        steps: The auth steps (the ``revoke`` step, when there was something to revoke).
    """

    revoked: bool
    forgotten: int
    steps: tuple[AuthStep, ...]
