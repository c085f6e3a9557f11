"""A panel context whose logins keep their tokens in a given store, a login started from the sidebar, and the
Login view's steps: for tests of the sidebar's login and the Login view against real servers."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.support.panel_context import make_context
from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.profiles import ConnectionProfile
from workbench.ui.context import PanelContext
from workbench.ui.panels.authsteps.itemmodel import Column
from workbench.ui.panels.authsteps.widget import AuthStepsWidget
from workbench.ui.panels.sidebar.widget import SidebarWidget

LOGIN_BOUND = 30.0
"""Seconds a login from the sidebar may take, the loopback "browser" included."""


def login_context(tmp_path: Path, store: MemoryCredentialStore) -> PanelContext:
    """A panel context (configuration under ``tmp_path/config``) whose connections and logins use ``store``."""
    ctx = make_context(tmp_path / "config", factory=DefaultAgentFactory(credentials=store))
    ctx.services.credentials = store
    return ctx


async def log_in_from_the_sidebar(sidebar: SidebarWidget, profile: ConnectionProfile) -> None:
    """Add ``profile`` to the sidebar, choose it, trigger its login action and wait for the login to end."""
    assert sidebar.viewmodel.add(profile)
    sidebar.select(profile.id)
    assert sidebar.actions_by_id["login"].isEnabled()
    sidebar.actions_by_id["login"].trigger()
    task = sidebar.viewmodel.task(profile.id)
    assert task is not None
    await asyncio.wait_for(task, LOGIN_BOUND)


def step_titles(view: AuthStepsWidget) -> list[str]:
    """The titles of the steps the Login view lists, in order."""
    return [view.model.index(row, Column.STAGE).data() for row in range(view.model.rowCount())]
