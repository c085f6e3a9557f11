"""The A2A adapter: the only package that imports the A2A SDK, httpx and protobuf.

``A2AAgent`` implements ``RemoteAgent``; the other modules are its parts (discovery, reducer,
conversion, wire tap, push receiver, error mapping, security schemes) and CLI helpers.
"""

from workbench.core.protocols.a2a.agent import SKILL_METADATA_KEY, A2AAgent
from workbench.core.protocols.a2a.cli_support import describe_card
from workbench.core.protocols.a2a.push import PushNotification, PushReceiver
from workbench.core.protocols.a2a.reducer import ArtifactView, StatusEntry, TaskReducer, TaskView
from workbench.core.protocols.a2a.security import CredentialField, CredentialNeed, required_credentials
from workbench.core.protocols.a2a.security_auth import SecurityAuth, credential_key
from workbench.core.serving import serve_asgi

__all__ = [
    "SKILL_METADATA_KEY",
    "A2AAgent",
    "ArtifactView",
    "CredentialField",
    "CredentialNeed",
    "PushNotification",
    "PushReceiver",
    "SecurityAuth",
    "StatusEntry",
    "TaskReducer",
    "TaskView",
    "credential_key",
    "describe_card",
    "required_credentials",
    "serve_asgi",
]
