"""The window's sampling responders: each connection's choice (a person, a script, a model) and policy, the
draft a person approves under "ask", the status-bar log under "auto", and the dialog that chooses them."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.support.windows import plain_window
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.profiles.store import ProfileStore
from workbench.core.protocols.base import ContentPart, SamplingMessage, SamplingRequest, SamplingResponse
from workbench.core.sampling.endpoints import ModelEndpoint, ModelEndpointStore
from workbench.core.sampling.responders import SamplingPolicy
from workbench.core.sampling.service import SamplingChoice, SamplingService
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.sampling import SamplingDialog
from workbench.ui.dialogs.sampling_responder import SamplingResponderDialog

pytestmark = pytest.mark.asyncio
WAIT = 10.0


def _request(agent: str = "demo") -> SamplingRequest:
    message = SamplingMessage("user", [ContentPart("text", text="hello")])
    return SamplingRequest(messages=[message], max_tokens=20, agent=agent)


def _script(tmp_path: Path) -> str:
    path = tmp_path / "canned.json"
    path.write_text('{"model": "canned", "rules": [{"reply": "a canned reply"}]}', encoding="utf-8")
    return f"script:{path}"


async def test_under_ask_a_scripts_draft_waits_for_the_person_and_under_auto_it_is_logged(
    qtbot, tmp_path: Path
) -> None:
    async with plain_window(tmp_path / "config", qtbot) as window:
        service = window.ctx.services.sampling
        assert service is not None
        service.set_choice("demo", SamplingChoice(_script(tmp_path), SamplingPolicy.ASK))
        shown = asyncio.ensure_future(wait_signal(window.prompts.prompt_shown, WAIT))
        answer = asyncio.ensure_future(service(_request()))
        (dialog,) = await shown
        assert isinstance(dialog, SamplingDialog)
        assert dialog.reply_edit.toPlainText() == "a canned reply" and dialog.model_edit.text() == "canned"
        dialog.reply_edit.setPlainText("edited by me")
        dialog.approve_button.click()
        assert (await asyncio.wait_for(answer, WAIT)).text == "edited by me"

        service.set_choice("demo", SamplingChoice(_script(tmp_path), SamplingPolicy.AUTO))
        with qtbot.waitSignal(window.ctx.bridge.sampling_answered, timeout=int(WAIT * 1000)) as logged:
            reply = await asyncio.wait_for(service(_request()), WAIT)  # no dialog: answered at once
        assert reply.text == "a canned reply"
        (event,) = logged.args
        assert event.connection == "demo" and event.entry.outcome == "answered"
        assert "canned" in window.statusBar().currentMessage()
        assert service.ledger("demo").requests == 2


async def test_a_connection_without_a_choice_is_answered_by_the_person(qtbot, tmp_path: Path) -> None:
    asked: list[SamplingRequest] = []

    async def person(request: SamplingRequest) -> SamplingResponse:
        asked.append(request)
        return SamplingResponse(text="typed")

    service = SamplingService(person, ModelEndpointStore(tmp_path, MemoryCredentialStore()), config_dir=tmp_path)
    assert (await service(_request("other"))).text == "typed"
    assert service.choice("other") == SamplingChoice()


async def test_the_responder_dialog_saves_a_model_and_a_policy_for_the_selected_connection(
    qtbot, tmp_path: Path
) -> None:
    config = tmp_path / "config"
    from tests.support.demo_mcp import demo_stdio_profile

    ProfileStore(config).upsert(demo_stdio_profile(name="demo"))
    async with plain_window(config, qtbot) as window:
        service = window.ctx.services.sampling
        assert service is not None
        service.endpoints.put(
            ModelEndpoint(name="local", api="openai", base_url="http://127.0.0.1:11434/v1", model="m")
        )
        window.sidebar.select(window.sidebar.viewmodel.items()[0].profile.id)
        dialog = window.open_sampling_responder()
        assert isinstance(dialog, SamplingResponderDialog)
        combo = dialog.responder_combo
        assert [combo.itemData(i) for i in range(combo.count())] == ["person", "model:local"]
        combo.setCurrentIndex(1)
        dialog.policy_combo.setCurrentIndex(dialog.policy_combo.findData("auto"))
        dialog.on_buttons_accepted()
        assert service.choice("demo") == SamplingChoice("model:local", SamplingPolicy.AUTO)


async def test_a_person_may_ask_a_saved_model_for_a_draft_of_one_reply(qtbot, tmp_path: Path) -> None:
    from tests.servers.model_api import serve_model_api

    async with serve_model_api() as api, plain_window(tmp_path / "config", qtbot) as window:
        service = window.ctx.services.sampling
        assert service is not None
        service.endpoints.put(ModelEndpoint(name="local", api="openai", base_url=api.openai_url, model="echo"))
        shown = asyncio.ensure_future(wait_signal(window.prompts.prompt_shown, WAIT))
        answer = asyncio.ensure_future(service(_request()))
        (dialog,) = await shown
        assert isinstance(dialog, SamplingDialog)
        assert dialog.drafter_combo.currentData() == "model:local" and dialog.draft_button.isVisibleTo(dialog)
        dialog.draft_button.click()
        await wait_signal(dialog.routed, WAIT)
        assert dialog.reply_edit.toPlainText() == "echo: hello" and dialog.model_edit.text() == "echo"
        dialog.approve_button.click()
        assert (await asyncio.wait_for(answer, WAIT)).text == "echo: hello"
        assert [e.responder for e in service.ledger("demo").entries] == ["model:local", "person"]
