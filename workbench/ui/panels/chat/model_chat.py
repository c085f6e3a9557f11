"""Which saved model chats for each MCP server that has no agent entry point, and its conversation (a ``ToolChat``).

The chat view-model asks this object whether a connection can chat through a model (an MCP server with tools
and no entry point, once a saved model endpoint is picked), and for the stream of one turn. The model's
endpoint is read with its key when the turn starts; its HTTP exchanges are recorded in the wire log as
records of the connection (redacted), its tool calls go through the window's tool-call gate.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import dataclass

from workbench.core.errors import UsageError, WorkbenchError
from workbench.core.protocols.base import AgentEvent
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.sampling.model import ModelResponder
from workbench.core.sampling.tool_chat import ToolChat
from workbench.ui.services import Services


@dataclass(frozen=True, slots=True)
class ModelPicker:
    """What the chat shows to pick a model for a server without an entry point.

    Attributes:
        names: The saved model endpoints (empty: none saved; the Model endpoints… dialog adds one).
        chosen: The one chatting for this connection, if any.
    """

    names: tuple[str, ...]
    chosen: str | None


class ModelChats:
    """Each connection's chosen model and its conversation with the server's tools.

    Args:
        services: The window's services (saved model endpoints, the wire log, the tool-call gate).
    """

    def __init__(self, services: Services) -> None:
        self.services = services
        self._chosen: dict[str, str] = {}
        self._chats: dict[str, tuple[str, ToolChat]] = {}

    @staticmethod
    def applies(agent: RemoteAgent | None) -> bool:
        """Whether ``agent`` is an MCP server a model may chat for (tools, no entry point of its own)."""
        return agent is not None and not agent.features.chat and agent.server_features is not None

    def names(self) -> tuple[str, ...]:
        """The saved model endpoints' names (an unreadable ``models.json``: none)."""
        sampling = self.services.sampling
        if sampling is None:
            return ()
        try:
            return tuple(e.name for e in sampling.endpoints.load())
        except WorkbenchError:
            return ()

    def picker(self, connection_id: str) -> ModelPicker:
        """The names to pick from and the one chosen for ``connection_id``."""
        return ModelPicker(self.names(), self._chosen.get(connection_id))

    def chosen(self, connection_id: str) -> str | None:
        """The model chatting for ``connection_id``."""
        return self._chosen.get(connection_id)

    def choose(self, connection_id: str, name: str | None) -> None:
        """Let the model ``name`` chat for ``connection_id`` (``None``: no model); the conversation starts over."""
        if name:
            self._chosen[connection_id] = name
        else:
            self._chosen.pop(connection_id, None)
        self._chats.pop(connection_id, None)

    def forget(self, connection_id: str) -> None:
        """Start the model's conversation over (the choice stays)."""
        self._chats.pop(connection_id, None)

    async def turn(self, connection_id: str, agent: RemoteAgent, text: str) -> AsyncGenerator[AgentEvent, None]:
        """One turn of the chosen model's conversation with ``agent``'s tools.

        Raises:
            UsageError: No model was chosen. NotFoundError, ConfigError: the endpoint cannot be used.
        """
        name = self._chosen.get(connection_id)
        sampling = self.services.sampling
        if name is None or sampling is None:
            raise UsageError("No model is chosen to chat for this server.", hint="pick a saved model endpoint")
        kept = self._chats.get(connection_id)
        if kept is None or kept[0] != name or kept[1].agent is not agent:
            endpoint = sampling.endpoints.find(name)
            key = await sampling.endpoints.key(endpoint)
            model = ModelResponder(endpoint, key, wire=self.services.wire, connection_id=connection_id)
            conn = self.services.connections.get(connection_id)
            profile = conn.profile if conn is not None else None
            chat = ToolChat(
                agent,
                model,
                gate=self.services.tool_calls,
                profile=profile,
                connection=profile.name if profile is not None else agent.name,
            )
            kept = self._chats[connection_id] = (name, chat)
        async with aclosing(kept[1].send(text)) as events:
            async for event in events:
                yield event
