"""The Login view while the browser is open: the authorization request is listed before anyone comes back.

Against real servers (``tests/servers/oauth_as.py``); the "browser" reads the view, then follows the
authorization URL with the core's ``follow_redirects_opener``.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.servers.oauth_as import serve_oauth_protected_mcp
from tests.support.panel_context import make_context
from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.protocols.mcp.oauth import follow_redirects_opener
from workbench.ui.panels.authsteps.itemmodel import Column
from workbench.ui.panels.authsteps.widget import AuthStepsWidget
from workbench.ui.panels.sidebar.widget import SidebarWidget

BOUND = 30.0


@pytest.mark.asyncio
async def test_the_login_view_lists_the_authorization_request_while_the_browser_is_open_then_the_callback(
    qtbot, tmp_path: Path
) -> None:
    store = MemoryCredentialStore()
    ctx = make_context(tmp_path / "config", factory=DefaultAgentFactory(credentials=store))
    ctx.services.credentials = store
    view = AuthStepsWidget(ctx)
    while_open: list[tuple[list[str], str]] = []

    async def browser(url: str) -> None:
        titles = [view.model.index(r, Column.STAGE).data() for r in range(view.model.rowCount())]
        view.choose(view.model.rowCount() - 1)
        while_open.append((titles, view.details.toPlainText()))
        await follow_redirects_opener(url)

    sidebar = SidebarWidget(ctx, oauth_opener=browser)
    for widget in (sidebar, view):
        qtbot.addWidget(widget)
    async with serve_oauth_protected_mcp() as servers:
        profile = MCPHTTPProfile(id="prot", name="protected", url=servers.url, auth="oauth")
        assert sidebar.viewmodel.add(profile)
        sidebar.select(profile.id)
        sidebar.actions_by_id["login"].trigger()
        task = sidebar.viewmodel.task(profile.id)
        assert task is not None
        try:
            await asyncio.wait_for(task, BOUND)
        finally:
            await ctx.services.connections.aclose()
    ((titles, details),) = while_open
    assert titles[-1] == "Authorization request" and "Callback" not in titles
    assert details.startswith(f"{len(titles)}. Authorization request — ok")
    assert "code_challenge_method=S256" in details and "state=" in details and "(in the browser)" in details
    assert "✓ pkce: " in details and "✓ state: " in details
    after = [view.model.index(r, Column.STAGE).data() for r in range(view.model.rowCount())]
    assert after[len(titles) - 1 : len(titles) + 2] == ["Authorization request", "Callback", "Token"]
    view.choose(len(titles))
    assert "code=***" in view.details.toPlainText() and "✓ state: " in view.details.toPlainText()
