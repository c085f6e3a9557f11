"""A panel context whose logins keep their tokens in a given store, a login started from the sidebar, and the
Login view's steps: for tests of the sidebar's login and the Login view against real servers."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path

from tests.support.panel_context import make_context, reported_errors
from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.http.browser import follow_redirects_opener
from workbench.core.profiles import ConnectionProfile
from workbench.ui.context import PanelContext
from workbench.ui.errors import ErrorView
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


@dataclass
class LoginPanels:
    """A sidebar whose logins follow the authorization URL, and the Login view, over one context."""

    ctx: PanelContext
    errors: list[ErrorView]
    sidebar: SidebarWidget
    view: AuthStepsWidget


def login_panels(qtbot, tmp_path: Path, store: MemoryCredentialStore) -> LoginPanels:
    """``login_context``, the errors reported to it from now on, and its sidebar and Login view (owned by
    ``qtbot``); the sidebar's "browser" is ``follow_redirects_opener``."""
    ctx = login_context(tmp_path, store)
    errors = reported_errors(ctx)
    sidebar = SidebarWidget(ctx, oauth_opener=follow_redirects_opener)
    view = AuthStepsWidget(ctx)
    for widget in (sidebar, view):
        qtbot.addWidget(widget)
    return LoginPanels(ctx, errors, sidebar, view)


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
