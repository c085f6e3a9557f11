"""Sidebar rows as data: one ``SidebarItem`` per profile with its live state, and how it is described."""

from __future__ import annotations

import time
from dataclasses import dataclass

from workbench.core.errors import WorkbenchError
from workbench.core.events import ConnectionState
from workbench.core.profiles import ConnectionProfile, MCPStdioProfile, a2a_oauth_set, uses_oauth
from workbench.core.shell_quote import shown_command
from workbench.core.timefmt import time_of_day
from workbench.ui.errors import hint_sentence

S = ConnectionState

KIND_LABELS: dict[str, str] = {
    "mcp-stdio": "MCP stdio",
    "mcp-http": "MCP HTTP",
    "mcp-sse": "MCP SSE",
    "a2a": "A2A",
}
"""The short badge text for each profile kind."""

LIVE_STATES = frozenset({S.CONNECTING, S.CONNECTED})
"""States in which a connection holds (or is acquiring) a process or socket."""


def is_oauth(profile: ConnectionProfile) -> bool:
    """Whether ``profile`` logs in with OAuth: an MCP one (``profiles.uses_oauth``), or an A2A one naming its client."""
    return uses_oauth(profile) or a2a_oauth_set(profile)


@dataclass(frozen=True, slots=True)
class OAuthStatus:
    """What the credential store holds for an OAuth profile (never a secret value).

    Attributes:
        known: Whether the store could be read (``False``: not read yet, or unreadable).
        logged_in: Tokens are stored.
        expires_at: When the stored access token expires (seconds since the epoch), if the server said.
        refreshable: A refresh token is stored too.
        registered: A client registration is stored (logout also forgets it).
        busy: ``logging in…`` / ``logging out…`` while that runs.
    """

    known: bool = False
    logged_in: bool = False
    expires_at: float | None = None
    refreshable: bool = False
    registered: bool = False
    busy: str = ""

    def text(self, now: float | None = None) -> str:
        """``logged in until 14:05``, ``login expired 13:00``, ``not logged in``, ``logging in…`` or ``""``."""
        if self.busy:
            return self.busy
        if not self.known:
            return ""
        if not self.logged_in:
            return "not logged in"
        if self.expires_at is None:
            return "logged in"
        now = time.time() if now is None else now
        if self.expires_at <= now:
            return f"login expired {time_of_day(self.expires_at, seconds=False)}" + (
                ", refreshed on use" if self.refreshable else ""
            )
        return f"logged in until {time_of_day(self.expires_at, seconds=False)}"


def kind_label(kind: str) -> str:
    """The badge text for a profile kind (``mcp-http`` → ``MCP HTTP``)."""
    return KIND_LABELS.get(kind, kind)


def target_text(profile: ConnectionProfile) -> str:
    """What the profile connects to: the command line of a stdio server, otherwise the URL."""
    if isinstance(profile, MCPStdioProfile):
        return shown_command([profile.command, *profile.args])
    return profile.url


@dataclass(frozen=True, slots=True)
class SidebarItem:
    """One row of the sidebar: a profile and what its connection is doing.

    Attributes:
        profile: The saved (or transient) profile.
        state: The connection's state (``DISCONNECTED`` when it never connected).
        detail: The protocol version when connected; the reason when failed.
        hint: What the user can do about a failure (may be empty).
        persisted: Whether the profile is saved in the profile store.
        oauth: The stored login of an OAuth profile (``None`` for other profiles).
        activity: What the agent is doing for a running handoff chain (``working…``), else empty.
        unseen_error: A failure of this connection reported while another one was selected, in words
            (control characters already neutralised); empty once the user selected the row or it
            reconnected. The row shows a warning sign and the text in its tooltip.
    """

    profile: ConnectionProfile
    state: ConnectionState = S.DISCONNECTED
    detail: str | None = None
    hint: str = ""
    persisted: bool = True
    oauth: OAuthStatus | None = None
    activity: str = ""
    unseen_error: str = ""

    @property
    def id(self) -> str:
        """The profile id (also the connection id)."""
        return self.profile.id

    @property
    def name(self) -> str:
        """The profile's name."""
        return self.profile.name

    @property
    def kind(self) -> str:
        """The badge text for the profile's kind."""
        return kind_label(self.profile.kind)

    @property
    def target(self) -> str:
        """The command line or URL."""
        return target_text(self.profile)

    @property
    def has_secrets(self) -> bool:
        """Whether the profile refers to secrets in the credential store (the row shows a key)."""
        return bool(self.profile.secrets)

    @property
    def is_oauth(self) -> bool:
        """Whether the profile logs in with OAuth (the Log in / Log out actions apply)."""
        return is_oauth(self.profile)

    @property
    def auth_text(self) -> str:
        """The OAuth login in words (``logged in until 14:05``); empty for other profiles."""
        return self.oauth.text() if self.oauth is not None else ""

    @property
    def state_text(self) -> str:
        """The state in words: ``connecting…``, ``connected · <version>``, ``failed`` ...

        An OAuth profile's login follows (``disconnected · logged in until 14:05``); a connected agent
        taking part in a handoff chain says so instead of its version (``connected · working…``). A
        failure is a state here: its reason is in the tooltip and the connection's workspace says it
        in full (``workbench.ui.errors``: an error is said once).
        """
        auth = self.auth_text
        if self.state is S.CONNECTING:
            text = "connecting…"
        elif self.state is S.CONNECTED and self.activity:
            text = f"connected · {self.activity}"
        elif self.state is S.CONNECTED:
            text = f"connected · {self.detail}" if self.detail else "connected"
        elif self.state is S.FAILED:
            text = "failed"
        else:
            text = self.state.value
        return f"{text} · {auth}" if auth else text

    @property
    def tooltip(self) -> str:
        """Plain text for the row's tooltip (convert with ``plain_tooltip`` before showing)."""
        lines = [self.name, f"{self.kind}: {self.target}", self.state_text]
        if self.unseen_error:
            lines.append(f"Error (select the connection for details): {self.unseen_error}")
        elif self.state is S.FAILED and self.detail:
            lines.append(self.detail)
        if self.has_secrets:
            lines.append("Secrets in the keyring for: " + ", ".join(ref.target for ref in self.profile.secrets))
        if self.is_oauth:
            lines.append("OAuth 2.1: " + (self.auth_text or "login state unknown"))
        if self.hint and not self.unseen_error:  # the unseen error's text ends with its hint
            lines.append(f"Hint: {hint_sentence(self.hint)}")
        if not self.persisted:
            lines.append("(not saved)")
        return "\n".join(lines)

    @property
    def is_live(self) -> bool:
        """Connecting or connected."""
        return self.state in LIVE_STATES


def detail_and_hint(state: ConnectionState, detail: str | None, error: BaseException | None) -> tuple[str | None, str]:
    """The row's detail (version or reason, without the hint) and the hint, for a state."""
    if state is S.CONNECTED:
        return detail, ""
    if state is S.FAILED:
        if isinstance(error, WorkbenchError):
            return error.message, error.hint or ""
        if error is not None and not detail:
            return f"{type(error).__name__}: {error}", ""
        return detail, ""
    return None, ""
