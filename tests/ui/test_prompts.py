"""UserPrompts end to end: real servers ask (sampling, URL elicitation, auth), the test answers the dialogs."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QUrl

from tests.support.panel_context import make_context
from workbench.core.errors import RemoteError
from workbench.core.protocols.base import (
    ContentPart,
    ElicitationRequest,
    ElicitationResponse,
    InputRequest,
    InputResponse,
    SamplingMessage,
    SamplingRequest,
    SamplingResponse,
    parts_text,
)
from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.demo.mcp_server.app import build_server
from workbench.ui.asyncutil import wait_signal
from workbench.ui.context import PanelContext
from workbench.ui.dialogs.auth_required import AuthRequiredDialog
from workbench.ui.dialogs.elicitation_url import UrlElicitationDialog
from workbench.ui.dialogs.sampling import SamplingDialog
from workbench.ui.prompts import SamplingRejectedError, UserPrompts

CONNECT_URL = "https://example.com/agent-workbench/connect-account?demo=1"
WAIT = 20.0


class Opener:
    """Records the URLs the dialog opened instead of starting a browser."""

    def __init__(self) -> None:
        self.opened: list[str] = []

    def __call__(self, url: QUrl) -> bool:
        self.opened.append(url.toString())
        return True


@pytest.fixture
def ctx(tmp_path: Path) -> PanelContext:
    return make_context(tmp_path)


@pytest.fixture
def opener() -> Opener:
    return Opener()


@pytest.fixture
def prompts(ctx: PanelContext, opener: Opener) -> UserPrompts:
    return UserPrompts(ctx, lambda: None, opener=opener)


@contextlib.asynccontextmanager
async def demo_agent(prompts: UserPrompts, ctx: PanelContext, mode: str = "auto") -> AsyncIterator[MCPAgent]:
    """The demo MCP server in process, asking ``prompts`` for sampling and elicitation answers.

    The dialogs depend on what the server asks, not on how its bytes travel; a stdio child would spend
    ~1.7 s of CPU importing the SDK per test.
    """
    agent = MCPAgent.in_process(
        build_server(),
        sampling_handler=prompts.sample,
        elicitation_handler=prompts.elicit,
        bus=ctx.services.bus,
        mode=mode,
        name="demo",
    )
    try:
        await asyncio.wait_for(agent.connect(), WAIT)
        yield agent
    finally:
        await asyncio.wait_for(agent.aclose(), WAIT)


def _handoff(agent: MCPAgent, message: str = "What is the weather in Oslo?") -> asyncio.Task[Any]:
    args = {"agent_uri": "http://127.0.0.1:9/weather", "message": message}
    return asyncio.ensure_future(agent.call_tool("handoff", args))


def _closed(dialog: Any) -> asyncio.Future[int]:
    """Resolves when ``dialog`` finishes (a plain connection: the dialog is deleted right after)."""
    future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    dialog.finished.connect(lambda code: future.done() or future.set_result(code))
    return future


def _sampling_request(text: str) -> SamplingRequest:
    return SamplingRequest(messages=[SamplingMessage("user", [ContentPart("text", text=text)])], max_tokens=10)


# ---------------------------------------------------------------------------------------------- sampling


@pytest.mark.asyncio
async def test_handoff_sampling_shows_the_request_and_the_approved_reply_is_the_tool_result(
    qtbot: Any, ctx: PanelContext, prompts: UserPrompts
) -> None:
    async with demo_agent(prompts, ctx) as demo:
        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        call = _handoff(demo)
        (dialog,) = await shown
        assert isinstance(dialog, SamplingDialog) and dialog.isVisible()
        assert prompts.pending_count == 1
        assert dialog.request.metadata == {"agent_uri": "http://127.0.0.1:9/weather"}
        assert dialog.request.agent == "demo"
        assert parts_text(dialog.request.messages[0].content) == "What is the weather in Oslo?"
        dialog.reply_edit.setPlainText("Sunny, 21 °C (typed by a person)")
        dialog.approve_button.click()
        result = await asyncio.wait_for(call, WAIT)
        assert result.text == "Sunny, 21 °C (typed by a person)"
        assert prompts.pending_count == 0


@pytest.mark.asyncio
async def test_a_rejected_sampling_request_fails_the_tool_call_with_a_remote_error(
    qtbot: Any, ctx: PanelContext, prompts: UserPrompts
) -> None:
    async with demo_agent(prompts, ctx) as demo:
        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        call = _handoff(demo)
        (dialog,) = await shown
        dialog.reply_edit.setPlainText("never sent")
        dialog.reject_button.click()
        with pytest.raises(RemoteError) as caught:
            await asyncio.wait_for(call, WAIT)
        assert caught.value.code == "remote"
        assert "never sent" not in str(caught.value)


@pytest.mark.asyncio
async def test_rejecting_raises_a_typed_sampling_rejected_error(qtbot: Any, prompts: UserPrompts) -> None:
    shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
    answer = asyncio.ensure_future(prompts.sample(_sampling_request("hi")))
    (dialog,) = await shown
    dialog.reject_button.click()
    with pytest.raises(SamplingRejectedError) as caught:
        await asyncio.wait_for(answer, WAIT)
    assert caught.value.code == "sampling-rejected"


@pytest.mark.asyncio
async def test_routing_seam_answers_sampling_with_another_real_agent(
    qtbot: Any, ctx: PanelContext, prompts: UserPrompts
) -> None:
    async with demo_agent(prompts, ctx) as demo:
        # The "other agent" is a second demo server's `ask` tool (its deterministic demo agent).
        other = MCPAgent.in_process(build_server(), name="other")
        await asyncio.wait_for(other.connect(), WAIT)
        routed: list[SamplingRequest] = []

        async def router(request: SamplingRequest) -> SamplingResponse:
            routed.append(request)
            reply = await other.call_tool("ask", {"message": parts_text(request.messages[-1].content)})
            return SamplingResponse(text=reply.text, model="other-demo-agent")

        try:
            prompts.set_sampling_router(router)
            shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
            call = _handoff(demo, "What is 2 + 3?")
            (dialog,) = await shown
            assert dialog.route_button.isVisibleTo(dialog)
            routed_signal = asyncio.ensure_future(wait_signal(dialog.routed, WAIT))
            dialog.route_button.click()
            (reply,) = await routed_signal
            assert routed and routed[0].metadata == {"agent_uri": "http://127.0.0.1:9/weather"}
            assert dialog.reply_edit.toPlainText() == reply.text
            dialog.approve_button.click()
            result = await asyncio.wait_for(call, WAIT)
            assert result.text == reply.text
            assert "5" in reply.text  # the demo agent does simple sums
        finally:
            await asyncio.wait_for(other.aclose(), WAIT)


@pytest.mark.asyncio
async def test_a_failed_routing_goes_to_the_error_presenter(
    qtbot: Any, ctx: PanelContext, prompts: UserPrompts
) -> None:
    from workbench.core.errors import UnreachableError

    async def router(request: SamplingRequest) -> SamplingResponse:
        raise UnreachableError("nobody there")

    prompts.set_sampling_router(router)
    shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
    answer = asyncio.ensure_future(prompts.sample(_sampling_request("hi")))
    (dialog,) = await shown
    reported = asyncio.ensure_future(wait_signal(ctx.errors.error_reported, WAIT))
    dialog.route_button.click()
    (view,) = await reported
    assert view.code == "unreachable"
    dialog.reply_edit.setPlainText("typed instead")
    dialog.approve_button.click()
    assert (await asyncio.wait_for(answer, WAIT)).text == "typed instead"


# ---------------------------------------------------------------------------------------------- queueing


@pytest.mark.asyncio
async def test_concurrent_requests_are_shown_one_dialog_at_a_time_in_order(
    qtbot: Any, ctx: PanelContext, prompts: UserPrompts
) -> None:
    async with demo_agent(prompts, ctx) as demo:
        counts: list[int] = []
        prompts.pending_changed.connect(counts.append)
        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        first = _handoff(demo, "first")
        (dialog1,) = await shown
        assert parts_text(dialog1.request.messages[0].content) == "first"
        second = _handoff(demo, "second")
        while prompts.pending_count < 2:  # the second request reached the queue (event-driven wait)
            await wait_signal(prompts.pending_changed, WAIT)
        visible = [d for d in qtbot_dialogs() if d.isVisible()]
        assert visible == [dialog1]
        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        dialog1.reply_edit.setPlainText("one")
        dialog1.approve_button.click()
        (dialog2,) = await shown
        assert parts_text(dialog2.request.messages[0].content) == "second"
        dialog2.reply_edit.setPlainText("two")
        dialog2.approve_button.click()
        assert (await asyncio.wait_for(first, WAIT)).text == "one"
        assert (await asyncio.wait_for(second, WAIT)).text == "two"
        assert counts[:2] == [1, 2] and counts[-1] == 0


def qtbot_dialogs() -> list[SamplingDialog]:
    from PySide6.QtWidgets import QApplication

    return [w for w in QApplication.topLevelWidgets() if isinstance(w, SamplingDialog)]


@pytest.mark.asyncio
async def test_cancelling_the_waiting_request_closes_its_dialog_and_frees_the_queue(
    qtbot: Any, prompts: UserPrompts
) -> None:
    shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
    first = asyncio.ensure_future(prompts.sample(_sampling_request("first")))
    (dialog1,) = await shown
    queued = asyncio.ensure_future(prompts.sample(_sampling_request("queued")))
    while prompts.pending_count < 2:
        await wait_signal(prompts.pending_changed, WAIT)
    closed = _closed(dialog1)
    queued.cancel()  # cancelled while waiting in the queue: never shown
    first.cancel()  # cancelled while shown: the dialog closes
    await asyncio.wait_for(closed, WAIT)
    for task in (first, queued):
        with pytest.raises(asyncio.CancelledError):
            await task
    assert prompts.pending_count == 0
    # The queue is free again.
    shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
    third = asyncio.ensure_future(prompts.sample(_sampling_request("third")))
    (dialog3,) = await shown
    assert parts_text(dialog3.request.messages[0].content) == "third"
    dialog3.reply_edit.setPlainText("3")
    dialog3.approve_button.click()
    assert (await asyncio.wait_for(third, WAIT)).text == "3"


@pytest.mark.asyncio
@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_cancelling_the_tool_call_closes_the_servers_sampling_dialog(
    qtbot: Any, ctx: PanelContext, prompts: UserPrompts, mode: str
) -> None:
    async with demo_agent(prompts, ctx, mode=mode) as demo:
        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        call = _handoff(demo)
        (dialog,) = await shown
        closed = _closed(dialog)
        call.cancel()  # the client cancels; the request the dialog answers is cancelled with it
        with pytest.raises(asyncio.CancelledError):
            await call
        await asyncio.wait_for(closed, WAIT)
        assert prompts.pending_count == 0


# ---------------------------------------------------------------------------------------------- URL elicitation


@pytest.mark.asyncio
async def test_url_elicitation_opens_only_on_request_and_the_server_confirmation_closes_the_dialog(
    qtbot: Any, ctx: PanelContext, prompts: UserPrompts, opener: Opener
) -> None:
    async with demo_agent(prompts, ctx, mode="legacy") as legacy_demo:
        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        call = asyncio.ensure_future(legacy_demo.call_tool("connect_account", {}))
        (dialog,) = await shown
        assert isinstance(dialog, UrlElicitationDialog)
        assert dialog.request.elicitation_id  # legacy era: the server will confirm
        assert dialog.url_view.toPlainText() == CONNECT_URL
        assert opener.opened == []
        closed = _closed(dialog)
        dialog.open_button.click()
        assert opener.opened == [CONNECT_URL]
        result = await asyncio.wait_for(call, WAIT)
        assert result.text == "connected"
        await asyncio.wait_for(closed, WAIT)  # notifications/elicitation/complete → bridge → mark_completed
        assert prompts.pending_count == 0


@pytest.mark.asyncio
async def test_url_elicitation_declined_is_reported_to_the_server(
    qtbot: Any, ctx: PanelContext, prompts: UserPrompts, opener: Opener
) -> None:
    async with demo_agent(prompts, ctx, mode="legacy") as legacy_demo:
        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        call = asyncio.ensure_future(legacy_demo.call_tool("connect_account", {}))
        (dialog,) = await shown
        dialog.decline_button.click()
        assert (await asyncio.wait_for(call, WAIT)).text == "declined"
        assert opener.opened == []


@pytest.mark.asyncio
async def test_url_elicitation_cancelled_is_reported_to_the_server(
    qtbot: Any, ctx: PanelContext, prompts: UserPrompts, opener: Opener
) -> None:
    async with demo_agent(prompts, ctx) as demo:
        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        call = asyncio.ensure_future(demo.call_tool("connect_account", {}))
        (dialog,) = await shown
        dialog.cancel_button.click()
        assert (await asyncio.wait_for(call, WAIT)).text == "cancelled"
        assert opener.opened == []


@pytest.mark.asyncio
async def test_url_elicitation_without_an_id_accepts_and_closes_when_opened(
    qtbot: Any, ctx: PanelContext, prompts: UserPrompts, opener: Opener
) -> None:
    async with demo_agent(prompts, ctx) as demo:
        # The default (2026-07-28) era carries no elicitation id, so there is nothing to wait for.
        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        call = asyncio.ensure_future(demo.call_tool("connect_account", {}))
        (dialog,) = await shown
        assert dialog.request.elicitation_id is None
        dialog.open_button.click()
        assert not dialog.isVisible()
        assert (await asyncio.wait_for(call, WAIT)).text == "connected"
        assert opener.opened == [CONNECT_URL]


@pytest.mark.asyncio
async def test_a_completion_for_another_elicitation_leaves_the_dialog_waiting(
    qtbot: Any, ctx: PanelContext, prompts: UserPrompts
) -> None:
    from workbench.core.events import ElicitationCompleted

    request = ElicitationRequest(mode="url", message="m", url=CONNECT_URL, elicitation_id="mine", agent="x")
    shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
    answer = asyncio.ensure_future(prompts.elicit(request))
    (dialog,) = await shown
    dialog.open_button.click()
    assert await asyncio.wait_for(answer, WAIT) == ElicitationResponse("accept")
    closed = _closed(dialog)
    ctx.services.bus.publish(ElicitationCompleted(connection_id="c", elicitation_id="someone-else"))
    assert dialog.waiting and dialog.isVisible()
    ctx.services.bus.publish(ElicitationCompleted(connection_id="c", elicitation_id="mine"))
    await asyncio.wait_for(closed, WAIT)


# ---------------------------------------------------------------------------------------------- A2A auth


@pytest.mark.asyncio
async def test_a2a_auth_required_token_from_the_dialog_resumes_the_task(qtbot: Any, prompts: UserPrompts) -> None:
    from tests.support.a2a_agents import INBAND_TOKEN, echo_app
    from workbench.core.protocols.a2a import A2AAgent
    from workbench.demo.a2a_agents import serve_agent

    async with (
        serve_agent(echo_app) as url,
        A2AAgent(url, input_handler=prompts.answer_input) as agent,
    ):
        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        run = asyncio.ensure_future(agent.invoke_async("need-auth"))
        (dialog,) = await shown
        assert isinstance(dialog, AuthRequiredDialog)
        assert dialog.request.kind == "auth" and dialog.request.text == "Sign in first."
        dialog.token_edit.setText(INBAND_TOKEN)
        dialog.send_button.click()
        result = await asyncio.wait_for(run, WAIT)
    assert result.state == "completed"
    assert result.text.startswith("resumed")


@pytest.mark.asyncio
async def test_dismissing_the_auth_dialog_defers_and_cancel_task_cancels(qtbot: Any, prompts: UserPrompts) -> None:
    request = InputRequest(kind="auth", text="Sign in", task_id="t", context_id="c", agent="a")
    shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
    answer = asyncio.ensure_future(prompts.answer_input(request))
    (dialog,) = await shown
    dialog.reject()
    assert await asyncio.wait_for(answer, WAIT) == InputResponse()
    shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
    answer = asyncio.ensure_future(prompts.answer_input(request))
    (dialog,) = await shown
    dialog.cancel_button.click()
    assert await asyncio.wait_for(answer, WAIT) == InputResponse(cancel=True)


def test_handlers_are_the_prompt_methods(qtbot: Any, ctx: PanelContext) -> None:
    prompts = UserPrompts(ctx, lambda: None)
    handlers = prompts.handlers()
    assert handlers.elicitation == prompts.elicit
    assert handlers.sampling == prompts.sample
    assert handlers.input == prompts.answer_input


# ---------------------------------------------------------------------------------------------- other helpers' dialogs


@pytest.mark.asyncio
async def test_form_elicitation_is_answered_with_the_form_dialog(
    qtbot: Any, ctx: PanelContext, prompts: UserPrompts
) -> None:
    from workbench.ui.dialogs.elicitation_form import ElicitationFormDialog

    async with demo_agent(prompts, ctx) as demo:
        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        call = asyncio.ensure_future(demo.call_tool("book_table", {}))
        (dialog,) = await shown
        assert isinstance(dialog, ElicitationFormDialog)
        dialog.form.set_value({"name": "Ada", "email": "ada@example.com", "party_size": 2})
        dialog.accept_button.click()
        result = await asyncio.wait_for(call, WAIT)
        assert result.text.startswith("Booked a table for 2 at 19:00")
        assert "ada@example.com" in result.text

        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        call = asyncio.ensure_future(demo.call_tool("book_table", {}))
        (dialog,) = await shown
        dialog.decline_button.click()
        assert (await asyncio.wait_for(call, WAIT)).text == "declined"


@pytest.mark.asyncio
async def test_a2a_input_required_is_answered_with_the_input_dialog(qtbot: Any, prompts: UserPrompts) -> None:
    from tests.support.a2a_agents import echo_app
    from workbench.core.protocols.a2a import A2AAgent
    from workbench.demo.a2a_agents import serve_agent
    from workbench.ui.dialogs.input_required import InputRequiredDialog

    async with (
        serve_agent(echo_app) as url,
        A2AAgent(url, input_handler=prompts.answer_input) as agent,
    ):
        shown = asyncio.ensure_future(wait_signal(prompts.prompt_shown, WAIT))
        run = asyncio.ensure_future(agent.invoke_async("ask-schema"))
        (dialog,) = await shown
        assert isinstance(dialog, InputRequiredDialog)
        assert dialog.request.kind == "input"
        dialog.form.set_value({"colour": "blue"})
        dialog.send_button.click()
        result = await asyncio.wait_for(run, WAIT)
    assert result.state == "completed"
    assert {"colour": "blue"} in [p.data for p in result.artifacts["answer"]]
