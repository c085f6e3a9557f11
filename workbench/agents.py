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
"""

from workbench.core.auth_steps import AuthStage, AuthStep
from workbench.core.client_metadata_server import serve_client_metadata
from workbench.core.credentials import CredentialStore, KeyringCredentialStore, MemoryCredentialStore
from workbench.core.errors import (
    AgentCardError,
    AuthRequiredError,
    ConfigError,
    ConnectError,
    ConnectionLostError,
    NotFoundError,
    OAuthRefusedError,
    ProtocolError,
    RemoteError,
    RequestTimeoutError,
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
    StatusChanged,
    TextDelta,
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
from workbench.core.protocols.skills import LoadedSkill, SkillFile, SkillSpec
from workbench.core.protocols.snapshot import AgentSnapshot, TaskSnapshot, TaskSummary
from workbench.core.wire.recorder import WireRecorder

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
    "MCPAgent",
    "MemoryCredentialStore",
    "MetadataDocumentClient",
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
    "SamplingRequest",
    "SamplingRequested",
    "SamplingResponse",
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
    "ToolCallRequested",
    "ToolResult",
    "UnreachableError",
    "UnsupportedCapabilityError",
    "UsageError",
    "WireRecorder",
    "WorkbenchError",
    "follow_redirects_opener",
    "serve_client_metadata",
    "system_browser_opener",
]
