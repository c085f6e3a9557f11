"""The A2A workspace for tests: an inspector showing a connected agent, and reading its trees."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

from workbench.core.profiles import A2AProfile
from workbench.core.protocols.a2a import A2AAgent
from workbench.ui.context import PanelContext
from workbench.ui.panels.inspector.a2a.widget import A2AInspectorWidget

BOUND = 30.0
"""Seconds any single wait in the A2A workspace tests may take."""


@contextlib.asynccontextmanager
async def settled() -> AsyncIterator[None]:
    """A context around an async test body that adds nothing (AppEventLoop and serve_asgi keep the loop clean)."""
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
