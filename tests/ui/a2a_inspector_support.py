"""Helpers for the A2A workspace tests: bounded signal waits, a workspace showing a connected agent."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

from PySide6.QtCore import SignalInstance
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from workbench.core.profiles import A2AProfile
from workbench.core.protocols.a2a import A2AAgent
from workbench.ui.asyncutil import wait_signal
from workbench.ui.context import PanelContext
from workbench.ui.panels.inspector.a2a.widget import A2AInspectorWidget

BOUND = 30.0
"""Seconds any single wait in these tests may take."""


async def until(signal: SignalInstance, predicate: Callable[[], bool], timeout: float = BOUND) -> None:
    """Wait (bounded) until ``predicate()`` holds, re-checking after each emission of ``signal``."""
    async with asyncio.timeout(timeout):
        while not predicate():
            await wait_signal(signal, timeout)


@contextlib.asynccontextmanager
async def settled() -> AsyncIterator[None]:
    """Wrap an async test body (kept for readability; loop hygiene now lives in AppEventLoop and serve_asgi)."""
    yield


@contextlib.asynccontextmanager
async def inspector_for(
    ctx: PanelContext, qtbot: Any, profile: A2AProfile
) -> AsyncIterator[tuple[A2AInspectorWidget, A2AAgent]]:
    """Connect ``profile`` and show it in a fresh inspector (first refresh finished); close at the end."""
    try:
        conn = await asyncio.wait_for(ctx.services.connections.connect(profile), BOUND)
        agent = conn.agent
        assert isinstance(agent, A2AAgent)
        widget = A2AInspectorWidget(ctx)
        qtbot.addWidget(widget)
        widget.show_connection(profile.id)
        refresh = widget.vm.refresh()
        assert refresh is not None
        await asyncio.wait_for(refresh, BOUND)
        yield widget, agent
        widget.show_connection(None)
    finally:
        await asyncio.wait_for(ctx.services.connections.aclose(), BOUND)


def children(tree: QTreeWidget, section: str) -> list[QTreeWidgetItem]:
    """The rows under ``section`` of a two-column tree."""
    head = next(
        tree.topLevelItem(i) for i in range(tree.topLevelItemCount()) if tree.topLevelItem(i).text(0) == section
    )
    return [head.child(i) for i in range(head.childCount())]
