"""The demo MCP server for tests: the command that starts it over stdio, its profile, and an agent
factory that serves that profile in this process (Qt-free)."""

from __future__ import annotations

import atexit
import sys
from typing import TYPE_CHECKING, Any

from tests.support import forkserver
from tests.support.processes import SHARED_SERVER_PIDS
from workbench.core.agent_factory import AgentHandlers, DefaultAgentFactory
from workbench.core.events import EventBus
from workbench.core.profiles import ConnectionProfile, MCPStdioProfile
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.wire.recorder import WireRecorder

if TYPE_CHECKING:  # importing the MCP SDK is left to the tests that use it
    from workbench.core.protocols.mcp import MCPAgent

DEMO_STDIO_ARGS = ["-m", "workbench.demo.mcp_server", "--stdio"]
"""What starts the demo MCP server as a stdio child (after ``sys.executable``)."""

DEMO_STDIO = [sys.executable, *DEMO_STDIO_ARGS]
"""The whole command that starts the demo MCP server as a stdio child."""


DEMO_SERVER_IMPORTS = ["anyio", "mcp.server.stdio", "workbench.demo.mcp_server", "workbench.demo.mcp_server.app"]
"""What the demo server's start imports (``-X importtime``): done once in this worker's fork server."""
_demo_forkserver: list[forkserver.ForkServer] = []


def demo_stdio_command() -> list[str]:
    """A command that starts the demo MCP server as a stdio child, through this worker's fork server.

    The child is a process of its own on the command's standard streams (``tests/support/forkserver.py``):
    what crosses the process boundary is tested as with ``DEMO_STDIO``, less the ~1 s of CPU its imports
    cost each time. ``WORKBENCH_TEST_FORKSERVER=0``: ``DEMO_STDIO`` itself.
    """
    if not forkserver.enabled():
        return list(DEMO_STDIO)
    if not _demo_forkserver:
        server = forkserver.ForkServer(DEMO_SERVER_IMPORTS)
        atexit.register(server.close)
        SHARED_SERVER_PIDS.add(server.pid)  # kept for the worker's tests: no test's leak
        _demo_forkserver.append(server)
    return _demo_forkserver[0].argv(*DEMO_STDIO_ARGS)


def demo_stdio_profile(**kwargs: Any) -> MCPStdioProfile:
    """The demo MCP server as a stdio profile: a real child, unless the context's factory serves it in process."""
    kwargs.setdefault("name", "demo")
    return MCPStdioProfile(command=sys.executable, args=list(DEMO_STDIO_ARGS), **kwargs)


def is_demo_stdio(profile: ConnectionProfile) -> bool:
    """Whether ``profile`` starts the demo MCP server over stdio, with nothing for the child alone.

    A profile with an environment, secrets or a working directory tests what reaches the process.
    """
    return (
        isinstance(profile, MCPStdioProfile)
        and profile.command == sys.executable
        and profile.args == DEMO_STDIO_ARGS
        and not profile.env
        and not profile.secrets
        and profile.cwd is None
    )


def in_process_demo(
    profile: MCPStdioProfile,
    *,
    wire: WireRecorder | None,
    bus: EventBus | None,
    connection_id: str | None = None,
    handlers: AgentHandlers | None = None,
) -> MCPAgent:
    """The demo server in this process, with what ``build_agent`` gives ``profile``'s stdio agent.

    A test of what the window shows of the demo server does not depend on how its bytes travel, and a
    stdio child spends ~1.7 s of CPU importing the MCP SDK before it serves. Tests of the process or
    the transport (stderr, exits, the transport's name) keep a real child.
    """
    from workbench.core.protocols.mcp import MCPAgent  # lazy: the SDK only for the tests that use it
    from workbench.demo.mcp_server.app import build_server

    handlers = handlers or AgentHandlers()
    return MCPAgent.in_process(
        build_server(),
        name=profile.name,
        mode=profile.mode,
        agent_tool=profile.agent_tool,
        # as build_agent: declared with no roots yet only where the host edits them while connected
        roots=[(r.uri, r.name) for r in profile.roots] or ([] if handlers.edits_roots else None),
        client_capabilities=profile.client_capabilities,
        renders_apps=handlers.renders_apps,
        elicitation_handler=handlers.elicitation,
        sampling_handler=handlers.sampling,
        wire=wire,
        bus=bus,
        connection_id=connection_id or profile.id,
        connect_timeout=profile.connect_timeout,
        request_timeout=profile.request_timeout,
    )


class InProcessDemoFactory:
    """The app's ``DefaultAgentFactory``, except that the demo stdio profile's server runs in this process.

    Args:
        handlers: What the UI answers the peer's requests with (given to both paths).
        **options: The rest of ``DefaultAgentFactory``'s arguments.
    """

    def __init__(self, *, handlers: AgentHandlers | None = None, **options: Any) -> None:
        self._handlers = handlers or AgentHandlers()
        self._default = DefaultAgentFactory(handlers=self._handlers, **options)

    async def __call__(
        self, profile: ConnectionProfile, *, connection_id: str, wire: WireRecorder | None, bus: EventBus | None
    ) -> RemoteAgent:
        """The in-process demo agent for the demo stdio profile, else what the app would build."""
        if isinstance(profile, MCPStdioProfile) and is_demo_stdio(profile):
            return in_process_demo(profile, wire=wire, bus=bus, connection_id=connection_id, handlers=self._handlers)
        return await self._default(profile, connection_id=connection_id, wire=wire, bus=bus)
