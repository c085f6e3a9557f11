"""The window asks before a profile's credentials go to an origin the user did not configure."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from tests.support.a2a_agents import BEARER, bearer_app
from tests.support.panel_context import make_context
from workbench.core.agent_factory import AgentHandlers, DefaultAgentFactory
from workbench.core.http.origins import CredentialOriginError
from workbench.core.profiles import A2AProfile, SecretRef
from workbench.demo.a2a_agents import serve_agent
from workbench.ui.dialogs.origin_approval import OriginApprovalDialog
from workbench.ui.prompts import UserPrompts

WAIT = 30.0


async def keyring(ref: SecretRef) -> str | None:
    return BEARER if ref.key == "echo-token" else None


def _labels(dialog: OriginApprovalDialog) -> str:
    from PySide6.QtWidgets import QLabel

    return "\n".join(label.text() for label in dialog.findChildren(QLabel))


async def _run(tmp_path: Path, qtbot: Any, *, allow: bool) -> tuple[Any, list[str], A2AProfile, str]:
    shown: list[str] = []
    async with serve_agent(bearer_app) as url:
        local = url.replace("127.0.0.1", "localhost")
        profile = A2AProfile(
            id="echo", name="Protected echo", url=local, secrets=[SecretRef(kind="bearer", key="echo-token")]
        )
        holder: dict[str, UserPrompts] = {}

        async def approve(question: Any) -> bool:
            return await holder["prompts"].approve_origin(question)

        factory = DefaultAgentFactory(resolve_secret=keyring, handlers=AgentHandlers(origin_approval=approve))
        ctx = make_context(tmp_path, factory=factory)
        ctx.services.profiles.upsert(profile)
        prompts = UserPrompts(ctx, lambda: None)
        holder["prompts"] = prompts

        def answer(dialog: Any) -> None:
            assert isinstance(dialog, OriginApprovalDialog)
            shown.append(_labels(dialog))
            (dialog.allow_button if allow else dialog.refuse_button).click()

        prompts.prompt_shown.connect(answer)
        conn = await asyncio.wait_for(ctx.services.connections.connect(profile), WAIT)
        try:
            outcome: Any = await asyncio.wait_for(conn.connected_agent().invoke_async("hello"), WAIT)
        except CredentialOriginError as exc:
            outcome = exc
        await ctx.services.connections.aclose()
        return outcome, shown, ctx.services.profiles.get("echo"), url


@pytest.mark.asyncio
async def test_allowing_the_cards_origin_sends_the_token_and_saves_the_origin(tmp_path: Path, qtbot: Any) -> None:
    outcome, shown, saved, url = await _run(tmp_path, qtbot, allow=True)
    assert outcome.artifacts["echo"][0].text == "hello"
    assert len(shown) == 1
    assert url.replace("127.0.0.1", "localhost").rstrip("/") in shown[0]  # what the user configured
    assert url.rstrip("/") in shown[0]  # where the card wants the token sent
    assert "Protected echo" in shown[0]
    assert saved.allowed_origins == [url.rstrip("/")]


@pytest.mark.asyncio
async def test_refusing_keeps_the_token_home_and_saves_nothing(tmp_path: Path, qtbot: Any) -> None:
    outcome, shown, saved, _ = await _run(tmp_path, qtbot, allow=False)
    assert isinstance(outcome, CredentialOriginError)
    assert len(shown) == 1
    assert saved.allowed_origins == []
