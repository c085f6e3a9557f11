"""The Login view while the browser is open: the authorization request is listed before anyone comes back.

Against real servers (``tests/servers/oauth_as.py``); the "browser" reads the view, then follows the
authorization URL with the core's ``follow_redirects_opener``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.servers.oauth_as import serve_oauth_protected_mcp
from tests.support.login_view import log_in_from_the_sidebar, login_context, step_titles
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.protocols.mcp.oauth import follow_redirects_opener
from workbench.ui.panels.authsteps.widget import AuthStepsWidget
from workbench.ui.panels.sidebar.widget import SidebarWidget


@pytest.mark.asyncio
async def test_the_login_view_lists_the_authorization_request_while_the_browser_is_open_then_the_callback(
    qtbot, tmp_path: Path
) -> None:
    store = MemoryCredentialStore()
    ctx = login_context(tmp_path, store)
    view = AuthStepsWidget(ctx)
    while_open: list[tuple[list[str], str]] = []

    async def browser(url: str) -> None:
        titles = step_titles(view)
        view.choose(view.model.rowCount() - 1)
        while_open.append((titles, view.details.toPlainText()))
        await follow_redirects_opener(url)

    sidebar = SidebarWidget(ctx, oauth_opener=browser)
    for widget in (sidebar, view):
        qtbot.addWidget(widget)
    async with serve_oauth_protected_mcp() as servers:
        profile = MCPHTTPProfile(id="prot", name="protected", url=servers.url, auth="oauth")
        try:
            await log_in_from_the_sidebar(sidebar, profile)
        finally:
            await ctx.services.connections.aclose()
    ((titles, details),) = while_open
    assert titles[-1] == "Authorization request" and "Callback" not in titles
    assert details.startswith(f"{len(titles)}. Authorization request — ok")
    assert "code_challenge_method=S256" in details and "state=" in details and "(in the browser)" in details
    assert "✓ pkce: " in details and "✓ state: " in details
    after = step_titles(view)
    assert after[len(titles) - 1 : len(titles) + 2] == ["Authorization request", "Callback", "Token"]
    view.choose(len(titles))
    assert "code=***" in view.details.toPlainText() and "✓ state: " in view.details.toPlainText()
