"""The Login view at a failed step: a login from the sidebar stopped by a mismatched issuer, read with the keys.

Against real servers (``tests/servers/oauth_as.py``): the authorization server's metadata names an issuer
other than its own URL, so the login stops at its second step. The "browser" is the core's
``follow_redirects_opener``; the connection itself may not open one.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from tests.servers.oauth_as import serve_oauth_protected_mcp
from tests.support.login_view import log_in_from_the_sidebar, login_panels
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.protocols.mcp.oauth_storage import tokens_key
from workbench.core.wire.records import WireKind
from workbench.ui.panels.authsteps.itemmodel import Column
from workbench.ui.panels.authsteps.widget import CHOOSE_TEXT, EMPTY_TEXT
from workbench.ui.panels.wirelog.format import is_error
from workbench.ui.theme import semantic_color

IMPOSTOR = "https://impostor.example/"


@pytest.mark.asyncio
async def test_a_login_stopped_by_a_mismatched_issuer_shows_the_failed_step_its_reason_and_the_change(
    qtbot, tmp_path: Path
) -> None:
    store = MemoryCredentialStore()
    panels = login_panels(qtbot, tmp_path, store)
    ctx, errors, sidebar, view = panels.ctx, panels.errors, panels.sidebar, panels.view
    view.resize(1100, 320)
    view.show()
    qtbot.waitExposed(view)
    attention: list[bool] = []
    view.viewmodel.attention_requested.connect(lambda: attention.append(True))
    requested: list[tuple[str, int, int]] = []
    view.wire_records_requested.connect(lambda *args: requested.append(args))
    # Nothing listed: the explanation fills the details pane, and no step is offered to choose.
    assert view.details.placeholderText() == EMPTY_TEXT and not view.empty_label.isVisible()
    assert not view.failure_label.isVisible()

    async with serve_oauth_protected_mcp(metadata_overrides={"issuer": IMPOSTOR}) as servers:
        profile = MCPHTTPProfile(id="prot", name="protected", url=servers.url, auth="oauth")
        await log_in_from_the_sidebar(sidebar, profile)
        assert servers.provider.counters.registrations == 0
    try:
        assert await store.get(tokens_key(profile.id)) is None
        assert [e.code for e in errors] == ["oauth-refused"]

        # Two steps listed; the failed one is chosen, in the error colour, with its reason and the change.
        assert view.model.rowCount() == 2 and attention
        assert view.details.placeholderText() == CHOOSE_TEXT and view.empty_label.isVisible()
        assert view.current_row() == 1
        failed = view.model.index(1, Column.STAGE)
        assert failed.data() == "Authorization-server metadata"
        assert failed.data(Qt.ItemDataRole.ForegroundRole) == semantic_color("error-text")
        assert view.model.index(0, Column.STAGE).data(Qt.ItemDataRole.ForegroundRole) is None
        assert view.failure_label.isVisible()
        text = view.failure_label.text()
        assert text.startswith("✗ Step 2, Authorization-server metadata, failed [issuer-mismatch]: ")
        assert IMPOSTOR in text and "\nWhat to change: " in text
        details = view.details.toPlainText()
        assert "✗ issuer: " in details and "✓ pkce: " in details
        assert "GET http://127.0.0.1:" in details and "HTTP 200" in details and IMPOSTOR in details

        # Measured: the failure's words fit their label (nothing clipped), inside the view, beside the table.
        label = view.failure_label
        assert label.height() >= label.heightForWidth(label.width()) > 2 * label.fontMetrics().height()
        inside = label.mapTo(view, label.rect().bottomRight())
        assert view.rect().contains(inside)
        assert label.mapTo(view, label.rect().topLeft()).x() >= view.table.width()
        assert view.details.height() >= 3 * view.details.fontMetrics().height()

        # Up reads the first step (no failure); Down comes back; Enter asks for the failed step's records.
        view.table.setFocus()
        qtbot.keyClick(view.table, Qt.Key.Key_Up)
        assert view.current_row() == 0 and not view.failure_label.isVisible()
        assert view.details.toPlainText().startswith("1. Resource metadata — ok")
        assert "✓ resource: " in view.details.toPlainText()
        qtbot.keyClick(view.table, Qt.Key.Key_Down)
        assert view.current_row() == 1 and view.failure_label.isVisible()
        qtbot.keyClick(view.table, Qt.Key.Key_Return)
        step = view.viewmodel.steps()[1]
        assert requested == [(step.connection_id, min(step.wire_seqs), max(step.wire_seqs))]
        assert view.wire_button.isEnabled()
        qtbot.mouseClick(view.wire_button, Qt.MouseButton.LeftButton)
        assert requested[-1] == requested[0]

        # The steps are wire records too: outcome, checks and failure, after their exchanges.
        records = [r for r in ctx.services.wire.records() if r.kind is WireKind.AUTH_STEP]
        assert [json.loads(r.payload)["status"] for r in records] == ["ok", "failed"]
        assert json.loads(records[1].payload)["failure"]["code"] == "issuer-mismatch"
        assert step.record_seq == records[1].seq > max(step.wire_seqs)
        assert [is_error(r) for r in records] == [False, True]  # the wire log shows the failed one as an error
    finally:
        await ctx.services.connections.aclose()
