"""The A2A workspace: card, skills, raw JSON with real demo and test agents (tasks: test_tasks_tab_a2a)."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from a2a.types import (
    AgentExtension,
    AgentProvider,
    AgentSkill,
    ClientCredentialsOAuthFlow,
)
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from tests.support.a2a_agents import BEARER, ECHO_SKILL, SECRET_SKILL, EchoExecutor, bearer_app
from tests.support.a2a_inspector import children, inspector_for, settled
from tests.support.panel_context import make_context
from workbench.core.agent_factory import DefaultAgentFactory
from workbench.core.profiles import A2AProfile, SecretRef
from workbench.demo.a2a_agents import (
    make_app,
    make_card,
    run_demo_agents,
    serve_agent,
)
from workbench.ui.context import PanelContext

HTML_DESCRIPTION = '<b style="color:red">URGENT</b> **strong** <img src="file:///etc/hosts"> [docs](file:///etc/passwd)'


# ---------------------------------------------------------------------- helpers


def texts(tree: QTreeWidget) -> list[tuple[str, str]]:
    """Every (label, value) pair in a tree, depth first."""
    out: list[tuple[str, str]] = []

    def walk(item: QTreeWidgetItem) -> None:
        out.append((item.text(0), item.text(1)))
        for i in range(item.childCount()):
            walk(item.child(i))

    for i in range(tree.topLevelItemCount()):
        walk(tree.topLevelItem(i))
    return out


@pytest.fixture
def ctx(tmp_path: Path, qapp: Any) -> PanelContext:
    return make_context(tmp_path)


def kitchen_sink_app(base_url: str, *, icon_hits: list[str]) -> Starlette:
    """An echo agent whose card has every optional field, three security schemes and HTML in a skill."""
    tricky = AgentSkill(
        id="tricky",
        name="<i>Tricky</i>",
        description=HTML_DESCRIPTION,
        tags=["<b>tag</b>"],
        examples=["<script>alert(1)</script>"],
        input_modes=["text/plain"],
        output_modes=["text/html"],
    )
    card = make_card(base_url, name="Kitchen <b>Sink</b>", description=HTML_DESCRIPTION, skills=[ECHO_SKILL, tricky])
    card.provider.CopyFrom(AgentProvider(organization="Example Org", url="https://example.org"))
    card.documentation_url = "https://example.org/docs"
    card.icon_url = f"{base_url}/icon.png"
    card.capabilities.extensions.append(
        AgentExtension(uri="https://example.org/ext/trace", description="Tracing", required=True)
    )
    card.security_schemes["key"].api_key_security_scheme.location = "header"
    card.security_schemes["key"].api_key_security_scheme.name = "X-API-Key"
    oauth = card.security_schemes["oauth"].oauth2_security_scheme
    oauth.flows.client_credentials.CopyFrom(
        ClientCredentialsOAuthFlow(token_url="https://auth.example.org/token", scopes={"read": "Read things"})
    )
    card.security_schemes[
        "oidc"
    ].open_id_connect_security_scheme.open_id_connect_url = "https://auth.example.org/.well-known/openid-configuration"
    requirement = card.security_requirements.add()
    requirement.schemes["oauth"].list.extend(["read"])
    requirement.schemes["key"].list.extend([])

    async def icon(request: Request) -> Response:
        icon_hits.append(request.url.path)
        return Response(b"", media_type="image/png")

    return make_app(card, EchoExecutor(), extra_routes=[Route("/icon.png", icon)])


# ---------------------------------------------------------------------- card


@pytest.mark.asyncio
async def test_the_card_tab_shows_the_travel_agents_identity_capabilities_modes_and_interfaces(
    ctx: PanelContext, qtbot: Any
) -> None:
    async with (
        settled(),
        run_demo_agents(chunk_delay=0.0) as urls,
        inspector_for(ctx, qtbot, A2AProfile(id="travel", name="travel", url=urls["travel"])) as (widget, agent),
    ):
        card = widget.card_widget
        assert card.name_label.text() == "Travel Planner (demo)"
        assert card.name_label.textFormat() == Qt.TextFormat.PlainText
        assert card.description_label.text().startswith("Plans trips")
        identity = card.tree.values("Identity")
        assert identity["Version"] == "1.0.0"
        assert identity["Icon URL"] == "—"
        protocol = card.tree.values("Protocol")
        assert protocol["Protocol version"] == "1.0"
        assert protocol["Card URL"] == agent.discovery.fetch.url
        assert protocol["Card URL"].endswith("/.well-known/agent-card.json")
        assert protocol["Extended card"] == "not offered"
        caps = card.tree.values("Capabilities")
        assert caps["Streaming"] == "yes"
        assert caps["Push notifications"] == "yes"
        assert caps["Extensions"] == "none"
        assert caps["State transition history"].startswith("not stated")
        modes = card.tree.values("Modes")
        assert modes["Default input modes"] == "text/plain, application/json"
        interfaces = card.tree.values("Interfaces")
        assert interfaces == {
            urls["travel"] + "/": "JSONRPC 1.0",
            urls["travel"] + "/rest": "HTTP+JSON 1.0",
        }
        assert card.tree.values("Security schemes") == {"(none)": "the card declares no security schemes"}
        assert widget.note_label.isHidden()


@pytest.mark.asyncio
async def test_the_skills_tab_lists_each_skill_with_its_examples_tags_and_modes(ctx: PanelContext, qtbot: Any) -> None:
    async with (
        settled(),
        run_demo_agents(chunk_delay=0.0) as urls,
        inspector_for(ctx, qtbot, A2AProfile(id="travel", name="travel", url=urls["travel"])) as (widget, _),
    ):
        skills = widget.skills_widget
        assert skills.list.topLevelItemCount() == 1
        item = skills.list.topLevelItem(0)
        assert [item.text(i) for i in range(3)] == ["Plan a trip", "plan-trip", "travel, demo, input-required"]
        details = skills.details.toPlainText()
        assert "Plan a trip to Lisbon" in details
        assert "Plan a trip to Kyoto" in details
        assert "Output modes: text/plain, text/markdown" in details
        assert "asks for dates, travellers and cabin class" in details
        assert widget.tabs.tabText(1) == "Skills (1)"


@pytest.mark.asyncio
async def test_the_raw_card_tab_shows_the_published_json_pretty_printed(ctx: PanelContext, qtbot: Any) -> None:
    async with (
        settled(),
        run_demo_agents(chunk_delay=0.0) as urls,
        inspector_for(ctx, qtbot, A2AProfile(id="travel", name="travel", url=urls["travel"])) as (widget, agent),
    ):
        raw = widget.raw_widget
        assert json.loads(raw.payload.text()) == agent.discovery.fetch.raw
        shown = raw.payload.editor.toPlainText()
        assert '\n  "name": "Travel Planner (demo)"' in shown
        assert raw.which.isHidden()


@pytest.mark.asyncio
async def test_a_bearer_protected_agent_shows_its_security_scheme_and_requirement(
    ctx: PanelContext, qtbot: Any
) -> None:
    async with (
        settled(),
        serve_agent(bearer_app) as url,
        inspector_for(ctx, qtbot, A2AProfile(id="echo", name="echo", url=url)) as (widget, _),
    ):
        tree = widget.card_widget.tree
        assert tree.values("Security schemes") == {"bearer": "http (Bearer)"}
        (bearer,) = children(tree, "Security schemes")
        details = {bearer.child(i).text(0): bearer.child(i).text(1) for i in range(bearer.childCount())}
        assert details == {"type": "http", "scheme": "Bearer"}
        assert tree.values("Security requirements") == {"Requirement 1": "bearer"}
        assert tree.values("Protocol")["Extended card"].startswith("offered, not fetched")
        assert tree.values("Capabilities")["Extended agent card"] == "yes"


@pytest.mark.asyncio
async def test_with_a_credential_the_extended_card_is_shown_and_its_json_offered(tmp_path: Path, qtbot: Any) -> None:
    async def secret(ref: SecretRef) -> str | None:
        return BEARER if ref.key == "echo-token" else None

    ctx = make_context(tmp_path, factory=DefaultAgentFactory(resolve_secret=secret))
    async with settled(), serve_agent(bearer_app) as url:
        profile = A2AProfile(id="echo", name="echo", url=url, secrets=[SecretRef(kind="bearer", key="echo-token")])
        async with inspector_for(ctx, qtbot, profile) as (widget, _):
            assert widget.card_widget.tree.values("Protocol")["Extended card"].startswith("extended card shown")
            ids = [widget.skills_widget.list.topLevelItem(i).text(1) for i in range(2)]
            assert ids == [ECHO_SKILL.id, SECRET_SKILL.id]
            raw = widget.raw_widget
            assert not raw.which.isHidden()
            assert SECRET_SKILL.id not in raw.payload.text()  # the published card
            raw.which.setCurrentIndex(1)
            assert SECRET_SKILL.id in json.dumps(json.loads(raw.payload.text()))


@pytest.mark.asyncio
async def test_html_and_markdown_from_the_card_show_literally_and_the_icon_is_never_fetched(
    ctx: PanelContext, qtbot: Any
) -> None:
    hits: list[str] = []
    async with (
        settled(),
        serve_agent(partial(kitchen_sink_app, icon_hits=hits)) as url,
        inspector_for(ctx, qtbot, A2AProfile(id="sink", name="sink", url=url)) as (widget, _),
    ):
        widget.resize(1000, 800)
        widget.show()
        for index in range(widget.tabs.count()):
            widget.tabs.setCurrentIndex(index)
            widget.grab()  # paint every tab: nothing may load the icon or any image
        card = widget.card_widget
        assert card.name_label.text() == "Kitchen <b>Sink</b>"
        assert card.description_label.text() == HTML_DESCRIPTION
        identity = card.tree.values("Identity")
        assert identity["Description"] == HTML_DESCRIPTION
        assert identity["Provider"] == "Example Org"
        assert identity["Provider URL"] == "https://example.org"
        assert identity["Documentation URL"] == "https://example.org/docs"
        assert identity["Icon URL"] == f"{url}/icon.png"
        (description_item,) = [c for c in children(card.tree, "Identity") if c.text(0) == "Description"]
        assert "&lt;b" in description_item.toolTip(1)  # tooltip escaped, never rich text
        schemes = card.tree.values("Security schemes")
        assert schemes == {
            "key": "apiKey (header: X-API-Key)",
            "oauth": "oauth2 (clientCredentials)",
            "oidc": "openIdConnect (https://auth.example.org/.well-known/openid-configuration)",
        }
        all_rows = texts(card.tree)
        assert ("tokenUrl", "https://auth.example.org/token") in all_rows
        assert ("read", "Read things") in all_rows
        assert card.tree.values("Security requirements") == {"Requirement 1": "key + oauth (read)"}
        assert card.tree.values("Capabilities")["Extensions"] == "1"
        assert ("https://example.org/ext/trace", "required") in all_rows

        skills = widget.skills_widget
        skills.list.setCurrentItem(skills.list.topLevelItem(1))
        assert skills.list.topLevelItem(1).text(0) == "<i>Tricky</i>"
        assert skills.list.topLevelItem(1).text(2) == "<b>tag</b>"
        plain = skills.details.toPlainText()
        assert HTML_DESCRIPTION in plain
        assert "<script>alert(1)</script>" in plain
        html = skills.details.toHtml()
        assert "<img" not in html and "<b style" not in html and "<script>" not in html
        assert "&lt;b style" in html
        assert hits == []
