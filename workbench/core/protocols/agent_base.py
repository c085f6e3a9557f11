"""Behaviour shared by every agent: sync façade, ``invoke_async`` from the stream, bound tools.

The synchronous methods (``agent(...)``, ``agent.tools["x"](...)``) run coroutines on one
background event loop owned by this module, so a connection opened by a sync call stays alive for
the next one. Inside a running event loop they refuse with ``SyncCallInLoopError`` instead of
deadlocking.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import threading
import weakref
from collections.abc import AsyncGenerator, AsyncIterator, Coroutine, Iterator, Mapping
from concurrent.futures import Future
from typing import Any, TypeVar

from workbench.core.errors import SyncCallInLoopError, UsageError
from workbench.core.protocols.base import (
    AgentEvent,
    AgentResult,
    Completed,
    Failed,
    ToolResult,
)
from workbench.core.protocols.catalog import ToolSpec

T = TypeVar("T")


class _BackgroundLoop:
    """One daemon thread running an event loop for the synchronous API."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self.closers: weakref.WeakSet[Any] = weakref.WeakSet()

    def loop(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                thread = threading.Thread(target=loop.run_forever, name="workbench-sync", daemon=True)
                thread.start()
                self._loop, self._thread = loop, thread
            return self._loop

    def run(self, coro: Coroutine[Any, Any, T]) -> T:
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            coro.close()
            raise SyncCallInLoopError(
                "A synchronous agent method was called inside a running event loop.",
                hint="use the async form instead: 'await agent.invoke_async(...)' or "
                "'await agent.call_tool(name, args)'",
            )
        future: Future[T] = asyncio.run_coroutine_threadsafe(coro, self.loop())
        try:
            return future.result()
        except KeyboardInterrupt:
            future.cancel()
            raise

    def shutdown(self) -> None:
        loop = self._loop
        if loop is None:
            return
        agents = list(self.closers)
        if agents:

            async def close_all() -> None:
                await asyncio.gather(*(a.aclose() for a in agents), return_exceptions=True)

            # The interpreter is exiting: nothing sensible is left to report a failure to.
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(close_all(), loop).result(timeout=15)
        loop.call_soon_threadsafe(loop.stop)
        if self._thread is not None:
            self._thread.join(timeout=5)


_background = _BackgroundLoop()
atexit.register(_background.shutdown)


def run_sync[T](coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on the shared background loop and wait for its result.

    Raises:
        SyncCallInLoopError: When called from inside a running event loop.
    """
    return _background.run(coro)


def register_for_exit(agent: Any) -> None:
    """Make sure ``agent.aclose()`` runs at interpreter exit (no stdio child survives)."""
    _background.closers.add(agent)


class LoopBinding:
    """Remembers the event loop an agent connected on and refuses use from another loop."""

    def __init__(self, agent_name: str) -> None:
        self._agent_name = agent_name
        self._loop: asyncio.AbstractEventLoop | None = None

    def bind(self) -> None:
        """Bind to the running loop, or check that it is the one bound before."""
        loop = asyncio.get_running_loop()
        if self._loop is None or self._loop.is_closed():
            self._loop = loop
            return
        if self._loop is not loop:
            raise UsageError(
                f"Agent {self._agent_name!r} is connected on another event loop.",
                hint="use one agent per event loop; call 'await agent.aclose()' before reusing it elsewhere",
            )

    def release(self) -> None:
        """Forget the bound loop (after close)."""
        self._loop = None


class BoundTool:
    """A tool of a specific agent: call it sync with keyword arguments, or ``await call_async``."""

    def __init__(self, agent: Any, spec: ToolSpec) -> None:
        self._agent = agent
        self.spec = spec

    @property
    def name(self) -> str:
        """The tool's name."""
        return self.spec.name

    async def call_async(self, **arguments: Any) -> ToolResult:
        """Call the tool and return its full result."""
        result: ToolResult = await self._agent.call_tool(self.spec.name, arguments)
        return result

    def __call__(self, **arguments: Any) -> ToolResult:
        """Call the tool synchronously (outside any running event loop)."""
        return run_sync(self.call_async(**arguments))

    def __repr__(self) -> str:
        return f"<BoundTool {self.spec.name!r} of {getattr(self._agent, 'name', '?')!r}>"


class ToolRegistry(Mapping[str, BoundTool]):
    """Read-only mapping of tool name to ``BoundTool``; a missing name lists the available ones."""

    def __init__(self, agent: Any, specs: list[ToolSpec]) -> None:
        self._agent = agent
        self._tools = {s.name: BoundTool(agent, s) for s in specs}

    def __getitem__(self, name: str) -> BoundTool:
        try:
            return self._tools[name]
        except KeyError:
            from workbench.core.errors import NotFoundError

            available = ", ".join(sorted(self._tools)) or "none"
            raise NotFoundError(
                f"{getattr(self._agent, 'name', 'agent')!r} has no tool {name!r}.",
                hint=f"available: {available}",
                details={"tool": name, "available": sorted(self._tools)},
            ) from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._tools)

    def __len__(self) -> int:
        return len(self._tools)

    def specs(self) -> list[ToolSpec]:
        """The specifications, in the order the peer listed them."""
        return [t.spec for t in self._tools.values()]


async def drain_to_result(events: AsyncIterator[AgentEvent]) -> AgentResult:
    """Consume a ``stream_async`` iterator and return the ``Completed`` result or raise the failure."""
    result: AgentResult | None = None
    async for event in events:
        if isinstance(event, Completed):
            result = event.result
        elif isinstance(event, Failed):
            raise event.error
    if result is None:
        raise UsageError("The agent's stream ended without a result.")
    return result


class AgentBase:
    """Mixin giving ``invoke_async`` and ``__call__`` on top of a subclass's ``stream_async``."""

    name: str

    def stream_async(
        self,
        prompt: Any = None,
        *,
        task_id: str | None = None,
        context_id: str | None = None,
        data: Any = None,
        new_conversation: bool = False,
        cancel_on_exit: bool = False,
    ) -> AsyncGenerator[AgentEvent, None]:
        """Implemented by the protocol adapter."""
        raise NotImplementedError

    async def invoke_async(self, prompt: Any = None, **kwargs: Any) -> AgentResult:
        """Send ``prompt`` and return the final result (drains ``stream_async``).

        Raises:
            WorkbenchError: The typed error behind a ``Failed`` event.
        """
        return await drain_to_result(self.stream_async(prompt, **kwargs))

    def __call__(self, prompt: Any = None, **kwargs: Any) -> AgentResult:
        """Synchronous ``invoke_async``.

        Raises:
            SyncCallInLoopError: When called from inside a running event loop.
        """
        return run_sync(self.invoke_async(prompt, **kwargs))
