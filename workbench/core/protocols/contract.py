"""The agent contract: everything the UI, the CLI, the handoff router and the connection manager use.

An MCP server and an A2A agent look alike behind ``RemoteAgent``. Nothing outside
``workbench.core.protocols`` asks an agent what it is (no ``isinstance``, ``getattr`` or ``cast`` on
agents): what differs between protocols is said by ``AgentFeatures`` flags, and protocol-specific
operations come as optional *facets* — objects of their own, reached by a property and typed by
their own protocol, that are ``None`` when the agent has no such part::

    RemoteAgent
    ├── identity          name, connection_id, protocol
    ├── config            -> AgentConfig  (one frozen value: url, target_label, timeouts, wire)
    ├── lifecycle         connect(), aclose(), connected, set_loss_handler()
    ├── discovery         capabilities, features, tools, tool_specs(), describe() -> AgentSnapshot
    ├── tools             call_tool(), call_tool_stream()      (progress as AgentEvents)
    ├── conversation      stream_async(), invoke_async(), __call__, new_conversation(), cancel()
    └── facets
        ├── server_features  -> ServerFeatures | None  (resources, prompts, skills, completions, logging, roots)
        └── tasks            -> TaskOperations | None  (tasks the agent keeps: list, get, cancel, follow)

Each adapter's ``config`` holds more than ``AgentConfig`` names (``MCPConfig``, ``A2AConfig``); the
contract needs only what every agent has. The agents still answer the names these parts had before
(``agent.url``, ``agent.target_label``, ``agent.task_operations``) for one release, with a
``DeprecationWarning`` (``deprecated.moved_attribute``); they are not part of the contract.

``describe()`` returns a snapshot of everything the inspector shows, with no live object behind it,
so a saved session can be reopened offline. Later additions (MCP Apps' UI resources, the 2026 Tasks
extension, model-backed sampling, A2A over gRPC) extend this module with new facets or feature flags;
existing members keep their meaning.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, Protocol, runtime_checkable

from workbench.core.protocols.base import (
    AgentCapabilities,
    AgentEvent,
    AgentResult,
    ContentPart,
    InputResponse,
    ToolResult,
)

if TYPE_CHECKING:
    from workbench.core.errors import ConnectionLostError
    from workbench.core.protocols.catalog import (
        CompletionResult,
        PromptResult,
        PromptSpec,
        ResourceContents,
        ResourceSpec,
        ResourceTemplateSpec,
        ToolSpec,
    )
    from workbench.core.protocols.skills import LoadedSkill, SkillSpec
    from workbench.core.protocols.snapshot import AgentSnapshot, TaskSnapshot, TaskSummary
    from workbench.core.wire.recorder import WireRecorder

ProtocolName = Literal["mcp", "a2a"]
"""The protocols the workbench speaks."""

Prompt = str | InputResponse | list[ContentPart] | None
"""What ``stream_async`` sends: text, an answer to a waiting task, or content parts."""

ProgressCallback = Callable[[float, float | None, str | None], Any]
"""Receives ``(progress, total, message)`` during a tool call; may return an awaitable."""

LossHandler = Callable[["ConnectionLostError"], None]
"""Called once when the peer goes away on its own (process exit, stream closed)."""


@dataclass(frozen=True, slots=True)
class AgentFeatures:
    """Which optional parts of the contract an agent offers right now (after ``connect``).

    Attributes:
        chat: ``stream_async`` takes a prompt (A2A always; MCP when a tool is its entry point).
        message_data: ``stream_async(data=...)`` sends structured data beside the text (A2A).
        conversations: Messages continue a conversation until ``new_conversation()`` (A2A contexts).
        tasks: The ``tasks`` facet works (the agent keeps tasks that can be listed and followed).
        cancel: ``cancel(task_id)`` reaches the peer (A2A tasks; MCP calls are cancelled by closing
            their stream instead).
        server_features: The ``server_features`` facet is there (MCP resources, prompts, logging, ping).
        tool_results: ``call_tool_stream`` ends with a full ``ToolResult`` in ``Completed.result``
            (MCP); otherwise its text is streamed as ``TextDelta`` events (A2A skills).
    """

    chat: bool = False
    message_data: bool = False
    conversations: bool = False
    tasks: bool = False
    cancel: bool = False
    server_features: bool = False
    tool_results: bool = False


@runtime_checkable
class AgentConfig(Protocol):
    """What every agent's configuration says (``agent.config``): one frozen value, checked at construction."""

    @property
    def connection_id(self) -> str:
        """Id of the agent's traffic in the wire log and of its events."""
        ...

    @property
    def url(self) -> str | None:
        """The URL the user configured (``None`` for stdio and in-process servers)."""
        ...

    @property
    def target_label(self) -> str:
        """Where the agent is, for messages: its URL with secrets masked, or the stdio command."""
        ...

    @property
    def connect_timeout(self) -> float:
        """Seconds allowed to connect and discover, in total."""
        ...

    @property
    def request_timeout(self) -> float | None:
        """Seconds per request (``None``: no limit)."""
        ...

    @property
    def wire(self) -> WireRecorder:
        """The wire recorder every message goes to."""
        ...


@runtime_checkable
class Skills(Protocol):
    """The skills a server serves (MCP's skills extension): entries listed unread, one loaded verified."""

    async def available(self) -> bool:
        """Whether the server serves skills."""
        ...

    async def list(self) -> list[SkillSpec]:
        """The entries of the skills the server lists; no skill file is read."""
        ...

    async def get(self, uri: str) -> SkillSpec:
        """The entry of the skill whose ``SKILL.md`` is at ``uri``, listed or not."""
        ...

    async def load(self, skill: SkillSpec | str, *, allow_dynamic: bool = False) -> LoadedSkill:
        """A skill's ``SKILL.md``, returned only once it matches its entry (size, digest, frontmatter)."""
        ...

    async def read_file(self, skill: LoadedSkill, path: str) -> bytes:
        """A file of a loaded skill that its entry lists, checked against the entry."""
        ...


@runtime_checkable
class ServerFeatures(Protocol):
    """What an MCP server offers beyond tools: resources, prompts, skills, completions, logging, ping, and roots."""

    @property
    def skills(self) -> Skills:
        """The skills the server serves."""
        ...

    @property
    def resources(self) -> list[ResourceSpec]:
        """Resources the server listed."""
        ...

    @property
    def resource_templates(self) -> list[ResourceTemplateSpec]:
        """Resource templates the server listed."""
        ...

    @property
    def prompts(self) -> list[PromptSpec]:
        """Prompts the server listed."""
        ...

    @property
    def log_level(self) -> str | None:
        """The log level asked of the server (``None``: its default)."""
        ...

    async def read_resource(self, uri: str) -> ResourceContents:
        """Read a resource (or a filled-in template URI)."""
        ...

    async def subscribe_resource(self, uri: str) -> None:
        """Ask to be told when ``uri`` changes."""
        ...

    async def unsubscribe_resource(self, uri: str) -> None:
        """Stop being told about ``uri``."""
        ...

    async def get_prompt(self, name: str, arguments: Mapping[str, str] | None = None) -> PromptResult:
        """Render a prompt with its arguments."""
        ...

    async def complete(
        self,
        ref_type: Literal["prompt", "resource"],
        ref: str,
        argument: str,
        value: str,
        context: Mapping[str, str] | None = None,
    ) -> CompletionResult:
        """Suggestions for one argument of a prompt or resource template."""
        ...

    async def set_logging_level(self, level: str) -> None:
        """Ask the server to send log messages at ``level`` and above."""
        ...

    async def ping(self) -> float:
        """Round-trip time in milliseconds."""
        ...

    @property
    def roots(self) -> list[tuple[str, str | None]] | None:
        """The roots offered to the server, ``(uri, name)`` (``None``: the roots capability is not declared)."""
        ...

    async def set_roots(self, roots: list[tuple[str, str | None]]) -> None:
        """Offer ``roots`` instead, and tell the server they changed."""
        ...


@runtime_checkable
class TaskOperations(Protocol):
    """Tasks an agent keeps: what this client saw, what the agent lists, and following one live."""

    @property
    def listing_supported(self) -> bool:
        """Whether the agent can list its tasks (``list_tasks`` may still be refused at run time)."""
        ...

    def known_tasks(self) -> list[TaskSummary]:
        """Every task this client has seen, most recently updated first."""
        ...

    def known_task(self, task_id: str) -> TaskSnapshot | None:
        """One task as this client knows it, in full (``None`` if never seen)."""
        ...

    async def list_tasks(self) -> list[TaskSummary]:
        """Ask the agent for its tasks (merged into ``known_tasks``)."""
        ...

    async def get_task(self, task_id: str) -> TaskSnapshot:
        """Fetch one task from the agent."""
        ...

    async def cancel_task(self, task_id: str) -> TaskSnapshot:
        """Ask the agent to cancel a task; the task as it stands afterwards."""
        ...

    def follow(self, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        """Resubscribe to a running task: its events until it ends or waits."""
        ...


@runtime_checkable
class RemoteAgent(Protocol):
    """The one agent contract: an MCP server and an A2A agent behave alike behind it.

    ``connect`` and ``aclose`` are called by one task (the connection's owner); everything else may
    be awaited from any task on the same event loop. ``capabilities``, ``features``, ``tools`` and
    ``describe`` are valid after ``connect``.
    """

    name: str
    """Display name (the server's or card's name once known)."""

    connection_id: str
    """Id of this agent's traffic in the wire log and of its events."""

    @property
    def protocol(self) -> ProtocolName:
        """``mcp`` or ``a2a``."""
        ...

    @property
    def config(self) -> AgentConfig:
        """What the agent was given (URL, timeouts, wire recorder …): one frozen value."""
        ...

    @property
    def connected(self) -> bool:
        """A session is open and the peer has not gone away."""
        ...

    async def connect(self) -> None:
        """Open the session (spawn / handshake / fetch the card); idempotent."""
        ...

    async def aclose(self) -> None:
        """Close the session; safe to call twice."""
        ...

    def set_loss_handler(self, handler: LossHandler | None) -> None:
        """Be told once (with a ``ConnectionLostError``) when the peer goes away on its own."""
        ...

    @property
    def capabilities(self) -> AgentCapabilities:
        """What the peer declared, in the neutral shape."""
        ...

    @property
    def features(self) -> AgentFeatures:
        """Which optional parts of this contract the agent offers."""
        ...

    @property
    def tools(self) -> Mapping[str, Any]:
        """Tools (MCP tools, A2A skills) by name; each is callable (``BoundTool``)."""
        ...

    def tool_specs(self) -> list[ToolSpec]:
        """The tools' specifications, in the order the peer listed them."""
        ...

    def describe(self) -> AgentSnapshot:
        """Everything discovered, as a snapshot with no live object behind it."""
        ...

    async def call_tool(
        self,
        name: str,
        arguments: Mapping[str, Any] | None = None,
        *,
        timeout: float | None = None,
        on_progress: ProgressCallback | None = None,
    ) -> ToolResult:
        """Call a tool (an A2A skill: its ``message`` argument is sent) and return its full result."""
        ...

    def call_tool_stream(
        self, name: str, arguments: Mapping[str, Any] | None = None, *, timeout: float | None = None
    ) -> AsyncGenerator[AgentEvent, None]:
        """Call a tool, yielding progress, logs and requests as events, then ``Completed`` or ``Failed``.

        Closing the iterator early cancels the call on the peer.
        """
        ...

    def stream_async(
        self,
        prompt: Prompt = None,
        *,
        task_id: str | None = None,
        context_id: str | None = None,
        data: Any = None,
        new_conversation: bool = False,
        cancel_on_exit: bool = False,
    ) -> AsyncGenerator[AgentEvent, None]:
        """Send ``prompt`` and yield events as they arrive; the last is ``Completed`` or ``Failed``."""
        ...

    async def invoke_async(self, prompt: Prompt = None, **kwargs: Any) -> AgentResult:
        """Send ``prompt`` and return the final result (``stream_async`` drained)."""
        ...

    def new_conversation(self) -> None:
        """The next message starts a new conversation (no-op where there are none)."""
        ...

    async def cancel(self, task_id: str) -> None:
        """Cancel a running task on the peer (see ``features.cancel``)."""
        ...

    @property
    def server_features(self) -> ServerFeatures | None:
        """Resources, prompts, completions, logging and ping (MCP servers), else ``None``."""
        ...

    @property
    def tasks(self) -> TaskOperations | None:
        """The tasks the agent keeps (A2A tasks; MCP tasks, see ``features.tasks``), else ``None``."""
        ...
