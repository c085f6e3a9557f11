"""Auth steps view: the selected connection's OAuth steps as they arrive, and a click asks for their wire records.

Steps come over the real bus and bridge; the end-to-end test connects an OAuth-protected demo MCP server
(``tests/servers/oauth_as.py``) whose login the connection runs itself (the follow-redirects "browser").
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_asyncio
from PySide6.QtCore import Qt

from tests.servers.oauth_as import OAuthServers, serve_oauth_protected_mcp
from tests.support.panel_context import make_context
from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.auth_steps import AuthStage, AuthStep
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.events import ConnectionState
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.protocols.mcp.oauth import follow_redirects_opener
from workbench.core.wire.records import WireKind
from workbench.ui.context import PanelContext
from workbench.ui.panels.authsteps.events import SessionAuthStep, owner_of
from workbench.ui.panels.authsteps.itemmodel import Column, format_time, status_text, wire_text
from workbench.ui.panels.authsteps.widget import AuthStepsWidget
from workbench.ui.untrusted import plain_tooltip

BOUND = 30.0


def _widget(qtbot, ctx: PanelContext) -> AuthStepsWidget:
    widget = AuthStepsWidget(ctx)
    qtbot.addWidget(widget)
    return widget


def _requests(widget: AuthStepsWidget) -> list[tuple[str, int, int]]:
    seen: list[tuple[str, int, int]] = []
    widget.wire_records_requested.connect(lambda *args: seen.append(args))
    return seen


def _cell(widget: AuthStepsWidget, row: int, column: Column, role=Qt.ItemDataRole.DisplayRole):
    return widget.model.index(row, column).data(role)


@pytest.fixture
def ctx(tmp_path: Path) -> PanelContext:
    return make_context(tmp_path)


def test_steps_of_the_selected_connection_are_listed_in_order_with_status_marks_and_wire_ranges(qtbot, ctx):
    widget = _widget(qtbot, ctx)
    ctx.selection.select("c1")
    bus = ctx.services.bus
    bus.publish(AuthStep("c1", AuthStage.DISCOVERY, "ok", "protected resource http://x/mcp", (3, 4, 5, 6)))
    bus.publish(AuthStep("other", AuthStage.TOKEN, "ok", "not for c1", (9, 10)))
    bus.publish(AuthStep("c1", AuthStage.AUTHORIZE, "failed", "access_denied"))
    bus.publish(AuthStep("c1", AuthStage.REVOKE, "skipped", "no revocation endpoint"))
    assert widget.model.rowCount() == 3
    assert [_cell(widget, r, Column.STAGE) for r in range(3)] == [
        "Discovery",
        "Authorization request",
        "Revocation",
    ]
    assert [_cell(widget, r, Column.STATUS) for r in range(3)] == ["✓ ok", "✗ failed", "– skipped"]
    assert _cell(widget, 0, Column.WIRE) == "#3–#6 (4)" and _cell(widget, 1, Column.WIRE) == ""
    assert _cell(widget, 0, Column.DETAIL) == "protected resource http://x/mcp"
    assert len(_cell(widget, 0, Column.TIME)) == len("12:34:56.789")
    assert widget.clear_button.isEnabled()

    ctx.selection.select("other")
    assert [s.detail for s in widget.viewmodel.steps()] == ["not for c1"]
    ctx.selection.select(None)
    assert widget.model.rowCount() == 0 and not widget.clear_button.isEnabled()
    ctx.selection.select("c1")
    assert widget.model.rowCount() == 3  # kept while another connection was shown


def test_clicking_a_step_asks_for_its_wire_records_and_a_step_without_records_asks_nothing(qtbot, ctx):
    widget = _widget(qtbot, ctx)
    requested = _requests(widget)
    ctx.selection.select("c1")
    ctx.services.bus.publish(AuthStep("c1", AuthStage.TOKEN, "ok", "tokens issued", (12, 13)))
    ctx.services.bus.publish(AuthStep("c1", AuthStage.AUTHORIZE, "ok", "browser"))
    widget.table.clicked.emit(widget.model.index(0, Column.DETAIL))
    widget.table.clicked.emit(widget.model.index(1, Column.DETAIL))
    assert requested == [("c1", 12, 13)]


def test_a_login_session_step_is_listed_with_its_profile_and_asks_for_the_sessions_records(qtbot, ctx):
    widget = _widget(qtbot, ctx)
    requested = _requests(widget)
    ctx.selection.select("profile-1")
    step = SessionAuthStep.of(AuthStep("oauth-login-ab12", AuthStage.TOKEN, "ok", "tokens", (40, 41)), "profile-1")
    assert owner_of(step) == "profile-1" and isinstance(step, AuthStep)
    ctx.services.bus.publish(step)
    assert widget.viewmodel.steps() == [step]
    widget.table.clicked.emit(widget.model.index(0, 0))
    assert requested == [("oauth-login-ab12", 40, 41)]


def test_clear_forgets_only_the_shown_connections_steps(qtbot, ctx):
    widget = _widget(qtbot, ctx)
    ctx.selection.select("c1")
    ctx.services.bus.publish(AuthStep("c1", AuthStage.REFRESH, "ok", "refreshed"))
    ctx.services.bus.publish(AuthStep("c2", AuthStage.REFRESH, "ok", "refreshed too"))
    widget.clear_button.click()
    assert widget.model.rowCount() == 0 and widget.viewmodel.steps("c1") == []
    assert len(widget.viewmodel.steps("c2")) == 1


def test_details_from_the_server_are_shown_literally_and_tooltips_are_plain_text(qtbot, ctx):
    widget = _widget(qtbot, ctx)
    probe = "issuer <b style='color:red'>x</b><img src='file:///etc/passwd'>"
    ctx.selection.select("c1")
    ctx.services.bus.publish(AuthStep("c1", AuthStage.DISCOVERY, "ok", probe, (1,)))
    assert _cell(widget, 0, Column.DETAIL) == probe
    assert _cell(widget, 0, Column.DETAIL, Qt.ItemDataRole.ToolTipRole) == plain_tooltip(probe)


def test_the_formatting_helpers():
    assert status_text("ok") == "✓ ok" and status_text("failed") == "✗ failed"
    assert wire_text(()) == "" and wire_text((7,)) == "#7" and wire_text((5, 3, 4)) == "#3–#5 (3)"
    assert format_time(0.25).endswith(".250")


# --------------------------------------------------------------------------- a real OAuth login


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[OAuthServers]:
    async with serve_oauth_protected_mcp() as running:
        yield running


@pytest.mark.asyncio
async def test_a_connections_own_oauth_login_lists_its_steps_live_and_they_name_the_connections_wire_records(
    qtbot, tmp_path, servers
):
    store = MemoryCredentialStore()
    factory = DefaultAgentFactory(credentials=store, oauth_opener=follow_redirects_opener)
    ctx = make_context(tmp_path / "config", factory=factory)
    widget = _widget(qtbot, ctx)
    requested = _requests(widget)
    profile = MCPHTTPProfile(id="prot", name="protected", url=servers.url, auth="oauth")
    ctx.selection.select(profile.id)
    try:
        arrived: list[int] = []
        widget.model.rowsInserted.connect(lambda *_: arrived.append(widget.model.rowCount()))
        conn = await asyncio.wait_for(ctx.services.connections.connect(profile), BOUND)
        assert conn.state is ConnectionState.CONNECTED
        assert arrived == [1, 2, 3, 4, 5, 6]  # one row per step, as each finished
        steps = widget.viewmodel.steps()
        assert [s.stage for s in steps] == [
            AuthStage.DISCOVERY,
            AuthStage.DISCOVERY,
            AuthStage.REGISTRATION,
            AuthStage.AUTHORIZE,
            AuthStage.CALLBACK,
            AuthStage.TOKEN,
        ]
        assert all(s.status == "ok" and s.connection_id == profile.id for s in steps)
        wire = ctx.services.wire
        registration = steps[2]
        widget.table.clicked.emit(widget.model.index(2, Column.STAGE))
        first, last = min(registration.wire_seqs), max(registration.wire_seqs)
        assert requested == [(profile.id, first, last)]
        in_range = [r for r in wire.records() if first <= r.seq <= last and r.connection_id == profile.id]
        assert {r.seq for r in in_range} == set(registration.wire_seqs)
        urls = [r.http["url"] for r in in_range if r.kind is WireKind.HTTP_REQUEST]  # type: ignore[index]
        assert [u.rsplit("/", 1)[-1] for u in urls] == ["register"]
    finally:
        await ctx.services.connections.aclose()
