"""The 2026-07-28 ``subscriptions/listen`` stream: list changes and resource updates arrive only there.

The stream's notifications are also teed to the session's message handler, which does the
refreshing; this module keeps the stream open, re-opens it when the resource subscriptions change,
and lets callers wait until the server acknowledged the current subscription set.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

from mcp import Client

log = logging.getLogger(__name__)

ACK_TIMEOUT = 5.0


class ListenStream:
    """Keeps one ``subscriptions/listen`` stream open for a session.

    Args:
        subscriptions: Returns the resource URIs to subscribe to (read at each (re)open).
        target: The server, for log messages.
    """

    def __init__(self, subscriptions: Callable[[], list[str]], target: str) -> None:
        self._subscriptions = subscriptions
        self._target = target
        self._restart = asyncio.Event()
        self._opened = asyncio.Event()
        self._generation = 0

    async def run(self, client: Client, first_open: asyncio.Event) -> None:
        """Hold the stream until cancelled; ``first_open`` is set once the first ack arrived (or it failed)."""
        caps = client.server_capabilities
        try:
            while True:
                self._restart.clear()
                async with client.listen(
                    tools_list_changed=bool(caps.tools and caps.tools.list_changed),
                    prompts_list_changed=bool(caps.prompts and caps.prompts.list_changed),
                    resources_list_changed=bool(caps.resources and caps.resources.list_changed),
                    resource_subscriptions=self._subscriptions(),
                ) as sub:
                    self._generation += 1
                    self._opened.set()
                    first_open.set()
                    restart = asyncio.create_task(self._restart.wait())
                    try:
                        async for _event in _until(sub, restart):
                            pass  # the session's message handler acts on the teed notifications
                    finally:
                        restart.cancel()
                if not self._restart.is_set():
                    return
        except Exception as exc:
            log.info("subscriptions/listen on %s ended: %s", self._target, exc)
        finally:
            first_open.set()

    async def reopen(self) -> None:
        """Re-open with the current subscriptions and wait for the server's acknowledgement."""
        generation = self._generation
        self._restart.set()
        async with asyncio.timeout(ACK_TIMEOUT):
            while self._generation == generation:
                self._opened.clear()
                await self._opened.wait()


async def _until(sub: Any, stop: asyncio.Task[Any]) -> AsyncIterator[Any]:
    """Iterate ``sub`` until it ends or ``stop`` completes."""
    iterator = sub.__aiter__()
    while True:
        nxt = asyncio.ensure_future(iterator.__anext__())
        # Whatever happens to us, the pending read's outcome is consumed (no "never retrieved" noise).
        nxt.add_done_callback(lambda f: f.cancelled() or f.exception())
        try:
            done, _ = await asyncio.wait({nxt, stop}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            if not nxt.done():
                nxt.cancel()
        if nxt not in done:
            return
        try:
            item = nxt.result()
        except StopAsyncIteration:
            return
        yield item
