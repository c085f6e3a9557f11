"""The A2A adapter: the only package that imports the A2A SDK, httpx and protobuf.

``A2AAgent`` implements ``RemoteAgent``; the other modules are its parts (card fetch and what the
card says, reducer, conversion, wire tap, tasks and push configs, push receiver, error mapping,
security schemes).
"""

from workbench.core.protocols.a2a._config import A2AConfig
from workbench.core.protocols.a2a.agent import SKILL_METADATA_KEY, A2AAgent
from workbench.core.protocols.a2a.card_description import describe_card
from workbench.core.protocols.a2a.card_fetch import Discovery
from workbench.core.protocols.a2a.push_configs import PushConfigs
from workbench.core.protocols.a2a.push_receiver import PushNotification, PushReceiver
from workbench.core.protocols.a2a.reducer import ArtifactView, StatusEntry, TaskReducer, TaskView
from workbench.core.protocols.a2a.security import CredentialField, CredentialNeed, required_credentials
from workbench.core.protocols.a2a.security_auth import SecurityAuth, credential_key
from workbench.core.protocols.a2a.task_operations import A2ATaskOperations
from workbench.core.serving import serve_asgi

__all__ = [
    "SKILL_METADATA_KEY",
    "A2AAgent",
    "A2AConfig",
    "A2ATaskOperations",
    "ArtifactView",
    "CredentialField",
    "CredentialNeed",
    "Discovery",
    "PushConfigs",
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
