"""The A2A workspace warns, above its tabs, when the URL's path had no card and the server root's card was used."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.a2a_inspector import inspector_for
from tests.support.panel_context import make_context
from workbench.core.profiles import A2AProfile
from workbench.demo.a2a_agents import serve_agent, travel_app_factory


@pytest.mark.asyncio
async def test_a_url_with_a_wrong_path_shows_a_warning_naming_both_urls_above_the_tabs(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = make_context(tmp_path)
    async with serve_agent(travel_app_factory()) as url:
        wrong = f"{url}/agents/hotel"
        profile = A2AProfile(id="hotel", name="hotel", url=wrong)
        async with inspector_for(ctx, qtbot, profile) as (widget, _agent):
            widget.resize(900, 600)
            widget.show()
            warning = widget.card_warning
            assert warning.isVisible()
            text = widget.card_warning_label.text()
            assert wrong in text and f"{url}/.well-known/agent-card.json" in text
            assert warning.geometry().bottom() <= widget.tabs.geometry().top()  # above the tabs, any tab open
            widget.tabs.setCurrentWidget(widget.tasks_widget)
            assert warning.isVisible()


@pytest.mark.asyncio
async def test_the_agents_own_url_shows_no_warning(qtbot: Any, tmp_path: Path) -> None:
    ctx = make_context(tmp_path)
    async with (
        serve_agent(travel_app_factory()) as url,
        inspector_for(ctx, qtbot, A2AProfile(id="travel", name="travel", url=url)) as (widget, _agent),
    ):
        widget.show()
        assert not widget.card_warning.isVisible()
