"""The public library surface: one agent contract for MCP servers and A2A agents.

``MCPAgent`` and ``A2AAgent`` both satisfy ``RemoteAgent``; the protocol is chosen explicitly by
the class you construct, never guessed from a URL.

An MCP server behind OAuth 2.1::

    agent = MCPAgent(
        "https://mcp.example/mcp",
        oauth=OAuth(client=PreRegisteredClient("my-id", secret), scopes=("read",)),
        credentials=MemoryCredentialStore(),      # default: the OS keyring
        open_browser=system_browser_opener,       # or follow_redirects_opener; None: stored tokens only
    )
    async with agent: ...

Without a browser, and with DPoP-bound tokens::

    OAuth(client=PreRegisteredClient("svc", secret), grant=ClientCredentials())
    OAuth(client=PrivateKeyJWTClient.from_file("svc", "key.pem", "ES256"), grant=ClientCredentials())
    OAuth(client=PreRegisteredClient("workload"), grant=JWTBearer(workload_jwt))
    OAuth(client=PreRegisteredClient("app", secret), grant=EnterpriseManaged(idp_token_url, "idp-app", id_token))
    OAuth(..., dpop=DPoP())                       # proofs from a key kept in the credential store

Sampling answered by a script or a model (OpenAI-compatible or Anthropic, the ``models`` extra)::

    model = ModelResponder(ModelEndpoint(name="local", api="openai", base_url="http://127.0.0.1:11434/v1",
                                         model="llama3.2"), key=None)
    sampling = SamplingResponders({"model:local": model}, "model:local", policy=SamplingPolicy.AUTO)
    agent = MCPAgent(url, sampling_handler=sampling)   # sampling.ledger counts requests, tokens, cost
    SamplingScript.from_file("replies.yaml")           # rules: match the last user message, reply or call a tool

A model chatting through an MCP server's tools, destructive calls asked about first::

    chat = ToolChat(agent, model, gate=ToolCallGate(ask_the_user))   # ask_the_user(ToolCallRequest) -> bool
    async for event in chat.send("reset the counter"):   # TextDelta, ToolCallRequested, ToolCallAnswered …
        ...

Log in (or out) without opening a session, each step reported as it happens::

    result = await login(url, oauth=OAuth(...), credentials=store, on_step=print)   # tokens stored
    await logout(url, oauth=OAuth(...), credentials=store)   # revoked (RFC 7009) where offered, forgotten
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.core.auth_steps import AuthStage, AuthStep
    from workbench.core.client_metadata_server import serve_client_metadata
    from workbench.core.credentials import CredentialStore, KeyringCredentialStore, MemoryCredentialStore
    from workbench.core.errors import (
        AgentCardError,
        AuthRequiredError,
        ConfigError,
        ConnectError,
        ConnectionLostError,
        ModelEndpointError,
        ModelResponseError,
        ModelTimeoutError,
        NotFoundError,
        OAuthRefusedError,
        ProtocolError,
        RemoteError,
        RequestTimeoutError,
        SamplingRejectedError,
        SamplingToolError,
        SkillDigestMismatchError,
        SkillEntryError,
        SkillFileUnlistedError,
        SkillFrontmatterMismatchError,
        SkillSizeMismatchError,
        SkillVerificationError,
        SyncCallInLoopError,
        UnreachableError,
        UnsupportedCapabilityError,
        UsageError,
        WorkbenchError,
    )
    from workbench.core.http.browser import BrowserOpener, follow_redirects_opener, system_browser_opener
    from workbench.core.http.oauth_endpoints import InsecureEndpointError
    from workbench.core.oauth_grant_options import ClientCredentials, EnterpriseManaged, JWTBearer, PrivateKeyJWTClient
    from workbench.core.oauth_options import (
        AuthorizationCode,
        DPoP,
        DynamicClient,
        MetadataDocumentClient,
        OAuth,
        OAuthClient,
        OAuthGrant,
        PreRegisteredClient,
    )
    from workbench.core.profiles.client_capabilities import ClientCapabilitySwitches
    from workbench.core.protocols.a2a import A2AAgent
    from workbench.core.protocols.base import (
        AgentCapabilities,
        AgentEvent,
        AgentEventKind,
        AgentResult,
        ArtifactUpdated,
        AuthRequired,
        Completed,
        ContentPart,
        ElicitationRequest,
        ElicitationRequested,
        ElicitationResponse,
        Failed,
        InputRequest,
        InputRequired,
        InputResponse,
        LogMessage,
        ProgressReported,
        SamplingRequest,
        SamplingRequested,
        SamplingResponse,
        SamplingUsage,
        StatusChanged,
        TextDelta,
        ToolCallAnswered,
        ToolCallRequested,
        ToolResult,
    )
    from workbench.core.protocols.contract import (
        AgentConfig,
        AgentFeatures,
        RemoteAgent,
        ServerFeatures,
        Skills,
        TaskOperations,
    )
    from workbench.core.protocols.mcp import MCPAgent
    from workbench.core.protocols.mcp.oauth import LoginResult, LogoutResult
    from workbench.core.protocols.mcp.oauth_account import login, logout
    from workbench.core.protocols.skills import LoadedSkill, SkillFile, SkillSpec
    from workbench.core.protocols.snapshot import AgentSnapshot, TaskSnapshot, TaskSummary
    from workbench.core.sampling.endpoints import ModelEndpoint, ModelEndpointStore
    from workbench.core.sampling.model import ModelResponder
    from workbench.core.sampling.responders import SamplingLogEntry, SamplingPolicy, SamplingResponders
    from workbench.core.sampling.script import SamplingScript
    from workbench.core.sampling.service import SamplingChoice, SamplingService
    from workbench.core.sampling.tool_chat import ToolChat, ToolChatLimitError, ToolChatLimits
    from workbench.core.tool_approval import ToolCallDeniedError, ToolCallGate, ToolCallRequest
    from workbench.core.wire.recorder import WireRecorder

_SOURCES: dict[str, str] = {
    "AuthStage": "workbench.core.auth_steps",
    "AuthStep": "workbench.core.auth_steps",
    "serve_client_metadata": "workbench.core.client_metadata_server",
    "CredentialStore": "workbench.core.credentials",
    "KeyringCredentialStore": "workbench.core.credentials",
    "MemoryCredentialStore": "workbench.core.credentials",
    "AgentCardError": "workbench.core.errors",
    "AuthRequiredError": "workbench.core.errors",
    "ConfigError": "workbench.core.errors",
    "ConnectError": "workbench.core.errors",
    "ConnectionLostError": "workbench.core.errors",
    "NotFoundError": "workbench.core.errors",
    "OAuthRefusedError": "workbench.core.errors",
    "ProtocolError": "workbench.core.errors",
    "RemoteError": "workbench.core.errors",
    "RequestTimeoutError": "workbench.core.errors",
    "SkillDigestMismatchError": "workbench.core.errors",
    "SkillEntryError": "workbench.core.errors",
    "SkillFileUnlistedError": "workbench.core.errors",
    "SkillFrontmatterMismatchError": "workbench.core.errors",
    "SkillSizeMismatchError": "workbench.core.errors",
    "SkillVerificationError": "workbench.core.errors",
    "SyncCallInLoopError": "workbench.core.errors",
    "UnreachableError": "workbench.core.errors",
    "UnsupportedCapabilityError": "workbench.core.errors",
    "UsageError": "workbench.core.errors",
    "WorkbenchError": "workbench.core.errors",
    "BrowserOpener": "workbench.core.http.browser",
    "follow_redirects_opener": "workbench.core.http.browser",
    "system_browser_opener": "workbench.core.http.browser",
    "InsecureEndpointError": "workbench.core.http.oauth_endpoints",
    "ClientCredentials": "workbench.core.oauth_grant_options",
    "EnterpriseManaged": "workbench.core.oauth_grant_options",
    "JWTBearer": "workbench.core.oauth_grant_options",
    "PrivateKeyJWTClient": "workbench.core.oauth_grant_options",
    "ClientCapabilitySwitches": "workbench.core.profiles.client_capabilities",
    "AuthorizationCode": "workbench.core.oauth_options",
    "DPoP": "workbench.core.oauth_options",
    "DynamicClient": "workbench.core.oauth_options",
    "MetadataDocumentClient": "workbench.core.oauth_options",
    "OAuth": "workbench.core.oauth_options",
    "OAuthClient": "workbench.core.oauth_options",
    "OAuthGrant": "workbench.core.oauth_options",
    "PreRegisteredClient": "workbench.core.oauth_options",
    "A2AAgent": "workbench.core.protocols.a2a",
    "AgentCapabilities": "workbench.core.protocols.base",
    "AgentEvent": "workbench.core.protocols.base",
    "AgentEventKind": "workbench.core.protocols.base",
    "AgentResult": "workbench.core.protocols.base",
    "ArtifactUpdated": "workbench.core.protocols.base",
    "AuthRequired": "workbench.core.protocols.base",
    "Completed": "workbench.core.protocols.base",
    "ContentPart": "workbench.core.protocols.base",
    "ElicitationRequest": "workbench.core.protocols.base",
    "ElicitationRequested": "workbench.core.protocols.base",
    "ElicitationResponse": "workbench.core.protocols.base",
    "Failed": "workbench.core.protocols.base",
    "InputRequest": "workbench.core.protocols.base",
    "InputRequired": "workbench.core.protocols.base",
    "InputResponse": "workbench.core.protocols.base",
    "LogMessage": "workbench.core.protocols.base",
    "ProgressReported": "workbench.core.protocols.base",
    "SamplingRequest": "workbench.core.protocols.base",
    "SamplingRequested": "workbench.core.protocols.base",
    "SamplingResponse": "workbench.core.protocols.base",
    "StatusChanged": "workbench.core.protocols.base",
    "TextDelta": "workbench.core.protocols.base",
    "ToolCallAnswered": "workbench.core.protocols.base",
    "ToolCallRequested": "workbench.core.protocols.base",
    "ToolResult": "workbench.core.protocols.base",
    "AgentConfig": "workbench.core.protocols.contract",
    "AgentFeatures": "workbench.core.protocols.contract",
    "RemoteAgent": "workbench.core.protocols.contract",
    "ServerFeatures": "workbench.core.protocols.contract",
    "Skills": "workbench.core.protocols.contract",
    "TaskOperations": "workbench.core.protocols.contract",
    "MCPAgent": "workbench.core.protocols.mcp",
    "LoginResult": "workbench.core.protocols.mcp.oauth",
    "LogoutResult": "workbench.core.protocols.mcp.oauth",
    "login": "workbench.core.protocols.mcp.oauth_account",
    "logout": "workbench.core.protocols.mcp.oauth_account",
    "LoadedSkill": "workbench.core.protocols.skills",
    "SkillFile": "workbench.core.protocols.skills",
    "SkillSpec": "workbench.core.protocols.skills",
    "AgentSnapshot": "workbench.core.protocols.snapshot",
    "TaskSnapshot": "workbench.core.protocols.snapshot",
    "TaskSummary": "workbench.core.protocols.snapshot",
    "ModelEndpointError": "workbench.core.errors",
    "ModelResponseError": "workbench.core.errors",
    "ModelTimeoutError": "workbench.core.errors",
    "SamplingRejectedError": "workbench.core.errors",
    "SamplingToolError": "workbench.core.errors",
    "SamplingUsage": "workbench.core.protocols.base",
    "ModelEndpoint": "workbench.core.sampling.endpoints",
    "ModelEndpointStore": "workbench.core.sampling.endpoints",
    "ModelResponder": "workbench.core.sampling.model",
    "SamplingLogEntry": "workbench.core.sampling.responders",
    "SamplingPolicy": "workbench.core.sampling.responders",
    "SamplingResponders": "workbench.core.sampling.responders",
    "SamplingScript": "workbench.core.sampling.script",
    "SamplingChoice": "workbench.core.sampling.service",
    "SamplingService": "workbench.core.sampling.service",
    "ToolChat": "workbench.core.sampling.tool_chat",
    "ToolChatLimitError": "workbench.core.sampling.tool_chat",
    "ToolChatLimits": "workbench.core.sampling.tool_chat",
    "ToolCallDeniedError": "workbench.core.tool_approval",
    "ToolCallGate": "workbench.core.tool_approval",
    "ToolCallRequest": "workbench.core.tool_approval",
    "WireRecorder": "workbench.core.wire.recorder",
}
"""Public name -> the module that defines it. A name's module is imported when the name is first read
(PEP 562), so an MCP client never loads the A2A SDK and an A2A client never loads the MCP SDK; type
checkers read the imports under ``TYPE_CHECKING`` above, which name the same modules."""

__all__ = [
    "A2AAgent",
    "AgentCapabilities",
    "AgentCardError",
    "AgentConfig",
    "AgentEvent",
    "AgentEventKind",
    "AgentFeatures",
    "AgentResult",
    "AgentSnapshot",
    "ArtifactUpdated",
    "AuthRequired",
    "AuthRequiredError",
    "AuthStage",
    "AuthStep",
    "AuthorizationCode",
    "BrowserOpener",
    "ClientCapabilitySwitches",
    "ClientCredentials",
    "Completed",
    "ConfigError",
    "ConnectError",
    "ConnectionLostError",
    "ContentPart",
    "CredentialStore",
    "DPoP",
    "DynamicClient",
    "ElicitationRequest",
    "ElicitationRequested",
    "ElicitationResponse",
    "EnterpriseManaged",
    "Failed",
    "InputRequest",
    "InputRequired",
    "InputResponse",
    "InsecureEndpointError",
    "JWTBearer",
    "KeyringCredentialStore",
    "LoadedSkill",
    "LogMessage",
    "LoginResult",
    "LogoutResult",
    "MCPAgent",
    "MemoryCredentialStore",
    "MetadataDocumentClient",
    "ModelEndpoint",
    "ModelEndpointError",
    "ModelEndpointStore",
    "ModelResponder",
    "ModelResponseError",
    "ModelTimeoutError",
    "NotFoundError",
    "OAuth",
    "OAuthClient",
    "OAuthGrant",
    "OAuthRefusedError",
    "PreRegisteredClient",
    "PrivateKeyJWTClient",
    "ProgressReported",
    "ProtocolError",
    "RemoteAgent",
    "RemoteError",
    "RequestTimeoutError",
    "SamplingChoice",
    "SamplingLogEntry",
    "SamplingPolicy",
    "SamplingRejectedError",
    "SamplingRequest",
    "SamplingRequested",
    "SamplingResponders",
    "SamplingResponse",
    "SamplingScript",
    "SamplingService",
    "SamplingToolError",
    "SamplingUsage",
    "ServerFeatures",
    "SkillDigestMismatchError",
    "SkillEntryError",
    "SkillFile",
    "SkillFileUnlistedError",
    "SkillFrontmatterMismatchError",
    "SkillSizeMismatchError",
    "SkillSpec",
    "SkillVerificationError",
    "Skills",
    "StatusChanged",
    "SyncCallInLoopError",
    "TaskOperations",
    "TaskSnapshot",
    "TaskSummary",
    "TextDelta",
    "ToolCallAnswered",
    "ToolCallDeniedError",
    "ToolCallGate",
    "ToolCallRequest",
    "ToolCallRequested",
    "ToolChat",
    "ToolChatLimitError",
    "ToolChatLimits",
    "ToolResult",
    "UnreachableError",
    "UnsupportedCapabilityError",
    "UsageError",
    "WireRecorder",
    "WorkbenchError",
    "follow_redirects_opener",
    "login",
    "logout",
    "serve_client_metadata",
    "system_browser_opener",
]


def __getattr__(name: str) -> Any:
    """Import the module that defines ``name`` on first use and keep the name here."""
    module = _SOURCES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """Every public name, loaded or not, beside the module's own attributes."""
    return sorted(set(globals()) | set(__all__))
