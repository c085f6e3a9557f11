"""The MCP inspector for tests: a live inspector over the real demo server, and what its tests do to it."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.support.demo_mcp import InProcessDemoFactory, demo_stdio_profile
from tests.support.panel_context import make_context
from tests.support.signals import until, wait_until
from workbench.core.agent_factory import AgentHandlers
from workbench.core.profiles import ConnectionProfile, MCPStdioProfile
from workbench.ui.context import PanelContext
from workbench.ui.panels.inspector.mcp import MCPInspectorWidget
from workbench.ui.panels.inspector.mcp.catalog_list import CatalogListWidget
from workbench.ui.panels.inspector.mcp.completing import CompletingLineEdit
from workbench.ui.panels.inspector.tasks.widget import TasksWidget

FOCUS_WAIT = 5.0
"""Seconds the window may take to become active (offscreen: at once)."""


def stdio_profile(**kwargs: Any) -> MCPStdioProfile:
    """The demo server as a stdio profile (``inspector`` serves it in process unless told otherwise)."""
    return demo_stdio_profile(**kwargs)


@dataclass
class Inspected:
    """What ``inspector`` yields: the panel context, the inspector widget and the connection it shows."""

    ctx: PanelContext
    widget: MCPInspectorWidget
    connection_id: str


@contextlib.asynccontextmanager
async def inspector(
    tmp_path: Path,
    qtbot: Any,
    profile: ConnectionProfile | None = None,
    *,
    child_process: bool = False,
    handlers: AgentHandlers | None = None,
) -> AsyncIterator[Inspected]:
    """An inspector showing a live connection to ``profile`` (default: the demo server's stdio profile).

    The demo server's stdio profile is served in this process unless ``child_process``: what the
    inspector shows depends on the server, not on how its bytes travel, and a stdio child spends
    ~1.7 s of CPU importing the SDK per test. Every other profile gets a real connection.
    ``handlers`` answer the server's requests (elicitation, sampling) of a connection served in process.
    """
    ctx = make_context(tmp_path, factory=None if child_process else InProcessDemoFactory(handlers=handlers))
    try:
        conn = await ctx.services.connections.connect(profile if profile is not None else stdio_profile())
        widget = MCPInspectorWidget(ctx)
        qtbot.addWidget(widget)
        widget.resize(1200, 800)
        widget.show()
        widget.show_connection(conn.id)
        yield Inspected(ctx, widget, conn.id)
    finally:
        await ctx.services.connections.aclose()
        ctx.bridge.detach()


async def listed_tasks(widget: MCPInspectorWidget, timeout: float) -> TasksWidget:
    """The Tasks tab, shown and polling every 50 ms, once it lists a task."""
    widget.tasks_vm.set_poll_interval(50)
    widget.tabs.setCurrentWidget(widget.tasks)
    tasks = widget.tasks
    await until(widget.tasks_vm.tasks_changed, lambda: bool(tasks.model.rows()), timeout)
    return tasks


async def cancel_first_task(widget: MCPInspectorWidget, timeout: float) -> None:
    """Choose the Tasks tab's first task, press Cancel once it is enabled, and wait until the task is cancelled."""
    tasks = widget.tasks
    tasks.table.selectRow(0)
    await until(widget.tasks_vm.task_changed, lambda: tasks.cancel_button.isEnabled(), timeout)
    tasks.cancel_button.click()
    await until(widget.tasks_vm.tasks_changed, lambda: tasks.model.rows()[0].state == "cancelled", timeout)


async def activate(it: Inspected) -> None:
    """Bounded wait until the inspector's window is active, so keys go where the focus is."""
    window = it.widget.window()
    window.activateWindow()
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    await wait_until(window.isActiveWindow, app.focusWindowChanged, FOCUS_WAIT)


def click_row(qtbot: Any, catalog: CatalogListWidget, key: str) -> None:
    """Click the row of ``key`` in a catalog list, as a user picks an entry."""
    row = catalog.model.visible_keys().index(key)
    rect = catalog.view.visualRect(catalog.model.index(row))
    qtbot.mouseClick(catalog.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert catalog.current_key == key


async def focused_template_field(
    qtbot: Any, it: Inspected, template: str = "demo://items/{item_id}", name: str = "item_id"
) -> CompletingLineEdit:
    """The field ``name`` of a resource template, picked and clicked into as a user would, with the focus."""
    await activate(it)
    resources = it.widget.resources
    it.widget.tabs.setCurrentWidget(resources)
    click_row(qtbot, resources.template_list, template)
    field = resources.template_page.fields[name]
    QApplication.processEvents()  # the new field is laid out before the user can click it
    qtbot.mouseClick(field, Qt.MouseButton.LeftButton)
    assert field.hasFocus()
    return field
