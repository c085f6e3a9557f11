"""Typed errors of the workbench core: each carries a user message, a hint and a stable code.

The tree (codes in brackets; tests assert codes, never message text)::

    WorkbenchError                      [error]
    ├── UsageError                      [usage]             the caller used the API wrongly
    │   └── SyncCallInLoopError         [sync-in-loop]      sync API called inside a running loop
    ├── ConfigError                     [config]            bad target / profile / argument
    ├── UnsupportedCapabilityError      [unsupported]       the agent cannot do what was asked
    ├── NotFoundError                   [not-found]         unknown tool, prompt, resource, task
    ├── ConnectError                    [connect]           could not reach or handshake with the peer
    │   ├── UnreachableError            [unreachable]       DNS / refused / no route / spawn failed
    │   ├── AuthRequiredError           [auth-required]     HTTP 401/403 or a credential is missing
    │   │   └── OAuthRefusedError       [oauth-refused]     an OAuth login step failed a check
    │   └── AgentCardError              [agent-card]        A2A card missing, invalid or unreadable
    ├── ConnectionLostError             [connection-lost]   the peer went away mid-session
    ├── ProtocolError                   [protocol]          the peer sent something malformed
    │   ├── SkillEntryError             [skill-entry-invalid] a skill's listing entry cannot be loaded
    │   └── SkillVerificationError      [skill-verification]  a skill file is not what its entry says
    │       ├── SkillSizeMismatchError        [skill-size-mismatch]
    │       ├── SkillDigestMismatchError      [skill-digest-mismatch]
    │       ├── SkillFrontmatterMismatchError [skill-frontmatter-mismatch]
    │       └── SkillFileUnlistedError        [skill-file-unlisted]
    ├── RemoteError                     [remote]            the peer answered with an error object
    ├── RequestTimeoutError             [timeout]           no answer within the configured time
    ├── SamplingRejectedError           [sampling-rejected] the user rejected a peer's sampling request
    ├── ModelEndpointError              [model-endpoint]    a sampling responder's model endpoint failed
    │   ├── ModelTimeoutError           [model-timeout]     no (complete) answer within the endpoint's time
    │   ├── ModelResponseError          [model-response]    the endpoint sent something malformed or too big
    │   └── SamplingToolError           [sampling-unknown-tool] the model called a tool the request did not offer
    ├── SecureStorageUnavailableError   [no-secure-storage] no secure keyring backend
    └── HandoffError                    [handoff]           a multi-agent handoff was refused
        ├── HandoffDeniedError          [handoff-denied]    a policy or the user refused the hop
        ├── HandoffLoopError            [handoff-loop]      the target is already on the chain (A→B→A)
        └── HandoffDepthError           [handoff-depth]     the chain would be deeper than allowed

``except Exception`` belongs only in top-level handlers; everything else catches these.
"""

from __future__ import annotations

from typing import Any, ClassVar


class WorkbenchError(Exception):
    """Base of every error the workbench core raises on purpose.

    Args:
        message: What failed, in words a user understands.
        hint: What the user can do about it (optional).
        details: Structured extras for "Details" views and JSON output (never secrets).
    """

    code: ClassVar[str] = "error"

    def __init__(self, message: str, *, hint: str | None = None, details: dict[str, Any] | None = None):
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.details: dict[str, Any] = dict(details or {})

    def __str__(self) -> str:
        return f"{self.message} ({self.hint})" if self.hint else self.message

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready description: code, message, hint and details."""
        out: dict[str, Any] = {"code": self.code, "type": type(self).__name__, "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        if self.details:
            out["details"] = self.details
        return out


class UsageError(WorkbenchError):
    """The library was used in a way it does not support."""

    code = "usage"


class SyncCallInLoopError(UsageError):
    """A synchronous convenience method was called from inside a running event loop."""

    code = "sync-in-loop"


class ConfigError(WorkbenchError):
    """A target, profile or argument is invalid."""

    code = "config"


class UnsupportedCapabilityError(WorkbenchError):
    """The remote agent does not offer what was asked of it."""

    code = "unsupported"


class NotFoundError(WorkbenchError):
    """A named tool, prompt, resource, template or task does not exist on the peer."""

    code = "not-found"


class ConnectError(WorkbenchError):
    """The peer could not be reached or the handshake failed."""

    code = "connect"


class UnreachableError(ConnectError):
    """Nothing answered at the target (refused, unknown host, executable missing)."""

    code = "unreachable"


class AuthRequiredError(ConnectError):
    """The peer demands credentials that were missing or rejected."""

    code = "auth-required"


class OAuthRefusedError(AuthRequiredError):
    """An OAuth login stopped at a step whose check failed; nothing of it was stored.

    ``details``: ``step`` (the auth stage: ``discovery``, ``registration``, ``authorize``,
    ``callback``, ``token``, ``refresh``), ``reason`` (``resource-mismatch``, ``issuer-mismatch``,
    ``iss-mismatch``, ``state-mismatch``, ``client-metadata-mismatch``,
    ``client-metadata-unsupported``, ``registration-failed``, ``token-refused``, ``flow-failed``).
    """

    code = "oauth-refused"


class AgentCardError(ConnectError):
    """An A2A agent card could not be fetched or is invalid."""

    code = "agent-card"


class ConnectionLostError(WorkbenchError):
    """The peer went away while the session was open (process exit, stream closed)."""

    code = "connection-lost"


CLOSED_WITHOUT_ANSWER = "closed-without-answer"
"""``details["cause"]`` of a ``ConnectionLostError`` for a connection that ended before the answer came."""


class ProtocolError(WorkbenchError):
    """The peer sent a message that does not follow the protocol."""

    code = "protocol"


class SkillEntryError(ProtocolError):
    """A skill's entry (``skills/list``) is invalid or past the limits, so the skill is not loaded."""

    code = "skill-entry-invalid"


class SkillVerificationError(ProtocolError):
    """A skill file read from the server is not what the skill's entry describes; it is not used."""

    code = "skill-verification"


class SkillSizeMismatchError(SkillVerificationError):
    """A skill file's length in bytes differs from its entry's ``size``."""

    code = "skill-size-mismatch"


class SkillDigestMismatchError(SkillVerificationError):
    """A skill file's SHA-256 differs from its entry's ``digest``."""

    code = "skill-digest-mismatch"


class SkillFrontmatterMismatchError(SkillVerificationError):
    """A ``SKILL.md``'s YAML frontmatter is missing, unreadable, or differs from its entry's ``frontmatter``."""

    code = "skill-frontmatter-mismatch"


class SkillFileUnlistedError(SkillVerificationError):
    """A file asked of a skill is not among the files its entry lists (nothing is read)."""

    code = "skill-file-unlisted"


class RemoteError(WorkbenchError):
    """The peer answered with an error object (JSON-RPC error, A2A error).

    Args:
        message: The peer's message, prefixed with what was being done.
        remote_code: The numeric or symbolic code the peer sent.
        remote_data: The peer's ``data`` field, unchanged.
    """

    code = "remote"

    def __init__(
        self,
        message: str,
        *,
        remote_code: int | str | None = None,
        remote_data: Any = None,
        hint: str | None = None,
        details: dict[str, Any] | None = None,
    ):
        merged = dict(details or {})
        if remote_code is not None:
            merged.setdefault("remote_code", remote_code)
        if remote_data is not None:
            merged.setdefault("remote_data", remote_data)
        super().__init__(message, hint=hint, details=merged)
        self.remote_code = remote_code
        self.remote_data = remote_data


class RequestTimeoutError(WorkbenchError):
    """A request got no answer within its timeout (and was cancelled on the peer)."""

    code = "timeout"


class SamplingRejectedError(WorkbenchError):
    """The user rejected a peer's sampling request (the peer gets an error response, never a fake reply)."""

    code = "sampling-rejected"


class ModelEndpointError(WorkbenchError):
    """A model endpoint that answers sampling requests failed (refused, unreachable, an HTTP error status).

    The message names the endpoint and the status, never the key sent to it.
    """

    code = "model-endpoint"


class ModelTimeoutError(ModelEndpointError):
    """The model endpoint did not finish its answer within the endpoint's timeout."""

    code = "model-timeout"


class ModelResponseError(ModelEndpointError):
    """The model endpoint's answer is malformed (not JSON, an unknown event, a cut stream) or too big."""

    code = "model-response"


class SamplingToolError(ModelEndpointError):
    """The model asked to call a tool that the sampling request did not offer."""

    code = "sampling-unknown-tool"


class SecureStorageUnavailableError(WorkbenchError):
    """No secure credential store is available; secrets are never written in plain text."""

    code = "no-secure-storage"


class HandoffError(WorkbenchError):
    """A hop of a multi-agent chain was refused before it reached its target."""

    code = "handoff"


class HandoffDeniedError(HandoffError):
    """The route's policy, or the user asked to approve, refused the hop."""

    code = "handoff-denied"


class HandoffLoopError(HandoffError):
    """The hop's target already takes part in the chain above it (A → B → A)."""

    code = "handoff-loop"


class HandoffDepthError(HandoffError):
    """The hop would nest the chain deeper than the router's depth limit."""

    code = "handoff-depth"
