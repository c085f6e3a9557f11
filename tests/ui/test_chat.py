"""The chat pane against real agents: the demo A2A travel agent and the demo MCP server (in process: what
the chat shows does not depend on how the bytes travel, and a stdio child costs ~1.7 s of CPU)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QFileDialog

from tests.support.chat_drawing import draw_all
from tests.support.demo_mcp import InProcessDemoFactory, demo_stdio_profile
from tests.support.panel_context import make_context
from workbench.core.conversation import AgentMessage, Artifact, Completion, ItemKind, LogLine, Progress, Question
from workbench.core.profiles import A2AProfile, MCPStdioProfile
from workbench.core.protocols.base import AgentEvent, AgentResult, ArtifactUpdated, Completed, ContentPart, TextDelta
from workbench.core.protocols.mcp import MCPAgent
from workbench.demo.a2a_agents import run_demo_agents, serve_agent, travel_app_factory
from workbench.ui.asyncutil import wait_signal
from workbench.ui.context import PanelContext
from workbench.ui.panels.chat import ChatWidget

SERVERS = Path(__file__).resolve().parent.parent / "servers"
TRIP = {"departure_date": "2026-12-01", "return_date": "2026-12-08", "travellers": 2, "cabin_class": "business"}
TIMEOUT = 20.0


def demo_agents(**options: Any) -> contextlib.AbstractAsyncContextManager[dict[str, str]]:
    """``run_demo_agents`` for a UI test."""
    return run_demo_agents(**options)


def slow_travel_agent(chunk_delay: float) -> contextlib.AbstractAsyncContextManager[str]:
    """The travel agent alone, pacing its chunks."""
    return serve_agent(travel_app_factory(chunk_delay=chunk_delay))


def demo_mcp_profile() -> MCPStdioProfile:
    """The demo MCP server's stdio profile; ``context`` serves it in process."""
    return demo_stdio_profile()


def context(tmp_path: Path) -> PanelContext:
    """A panel context whose connection manager serves the demo MCP server in process."""
    return make_context(tmp_path / "config", factory=InProcessDemoFactory())


async def send_and_wait(widget: ChatWidget, text: str) -> str:
    """Type ``text``, send it, wait for the turn to end and for the transcript to be drawn."""
    widget.input.setPlainText(text)
    assert widget.send_button.isEnabled()
    widget.send_button.click()
    assert widget.input.toPlainText() == ""
    assert widget.cancel_button.isEnabled() and not widget.send_button.isEnabled()
    _, state = await wait_signal(widget.viewmodel.turn_finished, timeout=TIMEOUT)
    draw_all(widget)
    return state


def transcript(widget: ChatWidget) -> str:
    return widget.transcript.toPlainText()


def image_fragments(widget: ChatWidget) -> int:
    doc = widget.transcript.document()
    found = 0
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            if it.fragment().charFormat().isImageFormat():
                found += 1
            it += 1
        block = block.next()
    return found


def chat(ctx: PanelContext, qtbot: Any) -> ChatWidget:
    widget = ChatWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(900, 700)
    widget.show()
    return widget


@pytest.mark.asyncio
async def test_travel_agent_streams_pauses_for_input_and_the_next_send_continues_the_same_task(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = context(tmp_path)
    try:
        async with demo_agents(chunk_delay=0.0) as urls:
            conn = await ctx.services.connections.connect(A2AProfile(name="travel", url=urls["travel"]))
            widget = chat(ctx, qtbot)
            assert not widget.input.isEnabled()  # nothing selected yet
            ctx.selection.select(conn.id)
            assert widget.input.isEnabled() and widget.banner.isHidden()

            assert await send_and_wait(widget, "Plan a trip to Lisbon") == "input_required"
            conv = widget.viewmodel.conversation()
            assert conv is not None
            [message] = [i for i in conv if isinstance(i, AgentMessage)]
            assert message.text == "Planning a trip to Lisbon." and message.chunk_count == 3
            states = [i.state for i in conv.items_of_kind(ItemKind.STATUS)]  # type: ignore[attr-defined]
            assert states[:2] == ["submitted", "working"] and states[-1] == "input_required"
            [request] = [i for i in conv if isinstance(i, Question)]
            assert request.status == "waiting" and set(request.schema["properties"]) == set(TRIP)
            [brief] = [i for i in conv if isinstance(i, Artifact)]
            assert brief.title == "Destination brief" and brief.chunks == 3 and brief.last_chunk
            paused_task = conv.waiting_task_id
            assert paused_task is not None
            assert widget.viewmodel.input_state().waiting
            shown = transcript(widget)
            assert "Planning a trip to Lisbon." in shown and "Artifact: Destination brief" in shown
            assert "waiting for your answer" in shown
            assert "or answer in a form…" in shown and "form…." not in shown  # its "…" ends the sentence
            assert widget.renderer.drawn_chunks == message.chunk_count + brief.chunks == 6

            saved = tmp_path / "brief.md"
            widget.save_artifact_to(conv.items.index(brief), saved)
            (path,) = await wait_signal(widget.artifact_saved, timeout=TIMEOUT)
            assert Path(path) == saved and saved.read_text().startswith("# Lisbon\n")

            assert await send_and_wait(widget, json.dumps(TRIP)) == "completed"
            turn = conv.turns[-1]
            assert turn.continues_task == paused_task and turn.task_id == paused_task
            assert request.status == "answered" and conv.waiting_task_id is None
            itinerary = next(i for i in conv if isinstance(i, Artifact) and i.artifact_id == "itinerary")
            assert itinerary.chunks == 4 and "Day 2: walking tour of Lisbon." in itinerary.text()
            booking = next(i for i in conv if isinstance(i, Artifact) and i.artifact_id == "booking")
            assert booking.parts[0].data["travellers"] == 2
            final = conv.items[-1]
            assert isinstance(final, Completion) and final.state == "completed"
            assert "Your trip to Lisbon is planned (demo)." in transcript(widget)
            assert not widget.viewmodel.input_state().waiting and widget.send_button.isEnabled()
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_cancel_while_streaming_ends_the_turn_canceled_and_cancels_the_task_on_the_agent(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = context(tmp_path)
    try:
        async with slow_travel_agent(0.5) as url:
            conn = await ctx.services.connections.connect(A2AProfile(name="slow travel", url=url))
            widget = chat(ctx, qtbot)
            ctx.selection.select(conn.id)
            widget.input.setPlainText("Plan a trip to Kyoto")
            assert widget.send()
            conv = widget.viewmodel.conversation()
            assert conv is not None
            while not any(isinstance(i, AgentMessage) for i in conv):
                await wait_signal(widget.flushed, timeout=TIMEOUT)
            assert widget.cancel_button.isEnabled()
            widget.cancel_button.click()
            _, state = await wait_signal(widget.viewmodel.turn_finished, timeout=TIMEOUT)
            assert state == "canceled"
            draw_all(widget)
            final = conv.items[-1]
            assert isinstance(final, Completion) and final.state == "canceled"
            assert not widget.cancel_button.isEnabled() and widget.send_button.isEnabled()
            task_id = conv.turns[-1].task_id
            assert task_id is not None
            agent = conn.agent
            assert agent is not None and agent.tasks is not None
            snapshot = await agent.tasks.get_task(task_id)
            assert snapshot.summary.state == "canceled"
            assert not widget.viewmodel.cancel()  # nothing runs any more
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_new_conversation_clears_the_transcript_and_starts_a_new_context(qtbot: Any, tmp_path: Path) -> None:
    ctx = context(tmp_path)
    try:
        async with demo_agents(chunk_delay=0.0) as urls:
            conn = await ctx.services.connections.connect(A2AProfile(name="travel", url=urls["travel"]))
            widget = chat(ctx, qtbot)
            ctx.selection.select(conn.id)
            await send_and_wait(widget, "Plan a trip to Oslo")
            first = widget.viewmodel.conversation()
            assert first is not None and first.turns[0].context_id is not None
            old_context = first.turns[0].context_id
            assert conn.agent.context_id == old_context  # type: ignore[union-attr]

            widget.new_button.click()
            fresh = widget.viewmodel.conversation()
            assert fresh is not None and fresh is not first and len(fresh) == 0
            assert transcript(widget).strip() == ""
            assert conn.agent.context_id is None  # type: ignore[union-attr]
            assert not widget.viewmodel.input_state().waiting  # the old paused task is not continued

            await send_and_wait(widget, "Plan a trip to Rome")
            assert fresh.turns[0].continues_task is None
            assert fresh.turns[0].context_id not in (None, old_context)
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_demo_mcp_server_answers_through_its_ask_entry_point_with_progress_and_log_lines(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = context(tmp_path)
    try:
        conn = await ctx.services.connections.connect(demo_mcp_profile())
        widget = chat(ctx, qtbot)
        ctx.selection.select(conn.id)
        assert widget.input.isEnabled()
        assert await send_and_wait(widget, "What is the weather in Paris?") == "completed"
        conv = widget.viewmodel.conversation()
        assert conv is not None
        [message] = [i for i in conv if isinstance(i, AgentMessage)]
        assert message.text == "The weather in Paris is sunny, 18 °C."
        [progress] = [i for i in conv if isinstance(i, Progress)]
        assert (progress.progress, progress.total, progress.message, progress.updates) == (3, 3, "done", 3)
        logs = [i for i in conv if isinstance(i, LogLine)]
        assert logs and logs[0].level == "info" and logs[0].logger == "demo"
        shown = transcript(widget)
        assert "progress [" in shown and "3/3" in shown
        assert "[info] demo: ask: received 6 words" in shown
        assert "The weather in Paris is sunny" in shown
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_html_and_images_in_agent_text_show_literally_and_links_go_to_the_link_gate(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = context(tmp_path)
    try:
        conn = await ctx.services.connections.connect(demo_mcp_profile())
        widget = chat(ctx, qtbot)
        ctx.selection.select(conn.id)
        probe = '<b style="color:red">URGENT</b> ![x](file:///etc/hostname) [docs](https://example.org/a)'
        await send_and_wait(widget, probe)
        shown = transcript(widget)
        assert '<b style="color:red">URGENT</b>' in shown
        assert "[image: file:///etc/hostname]" in shown
        assert image_fragments(widget) == 0
        offered: list[QUrl] = []
        ctx.links.link_requested.connect(offered.append)
        widget.on_transcript_link_clicked(QUrl("https://example.org/a"))
        assert offered == [QUrl("https://example.org/a")]
        # A link that looks like an artifact action but lacks the secret scheme is only offered.
        widget.on_transcript_link_clicked(QUrl("wb-000000000000:save/0"))
        assert len(offered) == 1
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_mcp_server_without_entry_point_says_so_plainly_and_disables_the_input(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = context(tmp_path)
    try:
        from tests.servers import crash_mid_call  # a server with tools but no entry point, in process

        profile = MCPStdioProfile(name="plain", command=sys.executable, args=[str(SERVERS / "crash_mid_call.py")])
        plain = MCPAgent.in_process(
            crash_mid_call.server,
            name=profile.name,
            wire=ctx.services.wire,
            bus=ctx.services.bus,
            connection_id=profile.id,
        )
        conn = await ctx.services.connections.connect(profile, agent=plain)
        widget = chat(ctx, qtbot)
        ctx.selection.select(conn.id)
        assert not widget.input.isEnabled() and not widget.send_button.isEnabled()
        assert widget.banner.isVisible()
        assert widget.banner.text() == (
            "This server has no agent entry point (tools: echo, crash). Use the Inspector's Tools tab to call a tool."
        )
        widget.input.setPlainText("hello")
        assert not widget.send() and not widget.viewmodel.is_streaming()
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_transcripts_are_kept_per_connection_and_a_closed_connection_disables_the_input(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = context(tmp_path)
    try:
        async with demo_agents(chunk_delay=0.0) as urls:
            travel = await ctx.services.connections.connect(A2AProfile(name="travel", url=urls["travel"]))
            demo = await ctx.services.connections.connect(demo_mcp_profile())
            widget = chat(ctx, qtbot)
            ctx.selection.select(travel.id)
            await send_and_wait(widget, "Plan a trip to Lima")
            ctx.selection.select(demo.id)
            assert "Lima" not in transcript(widget)
            qtbot.keyClicks(widget.input, "2 + 3")
            qtbot.keyClick(widget.input, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
            _, state = await wait_signal(widget.viewmodel.turn_finished, timeout=TIMEOUT)
            assert state == "completed"
            draw_all(widget)
            assert "2 + 3 = 5" in transcript(widget)
            ctx.selection.select(travel.id)
            draw_all(widget)  # a shown conversation is drawn a time budget at a time (the rest on the next tick)
            assert "Planning a trip to Lima." in transcript(widget) and "2 + 3 = 5" not in transcript(widget)

            await ctx.services.connections.disconnect(travel.id)
            state_now = widget.viewmodel.input_state()
            assert not state_now.enabled and "closed" in state_now.reason
            assert not widget.input.isEnabled() and widget.banner.isVisible()
            assert "Planning a trip to Lima." in transcript(widget)  # the transcript stays
            ctx.selection.select(None)
            assert not widget.input.isEnabled() and transcript(widget).strip() == ""
    finally:
        await ctx.services.connections.aclose()


async def chunks(n: int) -> AsyncIterator[AgentEvent]:
    for i in range(n):
        yield TextDelta(text=f"w{i} ", protocol="a2a")
        await asyncio.sleep(0)  # a producer that yields to the loop after every chunk, as a socket would
    yield Completed(result=AgentResult(text=""), protocol="a2a")


@pytest.mark.asyncio
async def test_a_fast_stream_is_coalesced_into_few_redraws_and_every_chunk_is_drawn(qtbot: Any, tmp_path: Path) -> None:
    ctx = context(tmp_path)
    widget = chat(ctx, qtbot)
    ctx.selection.select("replay")
    flushes: list[int] = []
    widget.flushed.connect(lambda: flushes.append(1))
    widget.viewmodel.play("replay", "go", chunks(5000))
    _, state = await wait_signal(widget.viewmodel.turn_finished, timeout=TIMEOUT)
    assert state == "completed"
    draw_all(widget)
    conv = widget.viewmodel.conversation()
    assert conv is not None
    [message] = [i for i in conv if isinstance(i, AgentMessage)]
    assert message.chunk_count == 5000 and widget.renderer.drawn_chunks == 5000
    assert len(flushes) < 200  # coalesced, not one redraw per chunk
    shown = transcript(widget)
    assert shown.index("w4998 w4999") < shown.index("■ completed")


@pytest.mark.asyncio
async def test_cancelling_an_mcp_agent_call_ends_the_turn_and_keeps_the_connection(qtbot: Any, tmp_path: Path) -> None:
    ctx = context(tmp_path)
    try:
        profile = demo_mcp_profile().model_copy(update={"agent_tool": "slow_count"})
        conn = await ctx.services.connections.connect(profile)
        widget = chat(ctx, qtbot)
        ctx.selection.select(conn.id)
        widget.input.setPlainText("count")
        assert widget.send()
        conv = widget.viewmodel.conversation()
        assert conv is not None
        while not any(isinstance(i, Progress) for i in conv):
            await wait_signal(widget.flushed, timeout=TIMEOUT)
        assert widget.cancel()
        _, state = await wait_signal(widget.viewmodel.turn_finished, timeout=TIMEOUT)
        assert state == "canceled"
        draw_all(widget)
        assert "■ canceled" in transcript(widget)
        assert conn.state.value == "connected" and widget.send_button.isEnabled()
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_artifact_links_expand_the_block_and_offer_saving_while_forged_ones_do_not(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = context(tmp_path)
    widget = chat(ctx, qtbot)
    ctx.selection.select("replay")

    async def artifact() -> AsyncIterator[AgentEvent]:
        body = "".join(f"line {i}\n" for i in range(400))
        yield ArtifactUpdated(artifact_id="log", name="Long log", parts=[ContentPart(type="text", text=body)])
        yield Completed(result=AgentResult(text=body), protocol="a2a")

    widget.viewmodel.play("replay", "go", artifact())
    await wait_signal(widget.viewmodel.turn_finished, timeout=TIMEOUT)
    draw_all(widget)
    conv = widget.viewmodel.conversation()
    assert conv is not None
    index = next(i for i, item in enumerate(conv) if isinstance(item, Artifact))
    assert "line 0\n" not in transcript(widget) and "line 399" in transcript(widget)  # collapsed: the tail
    assert transcript(widget).count("line 399") == 1  # the result text repeats the artifact: not shown twice
    widget.on_transcript_link_clicked(widget.renderer.action_url("toggle", index))
    assert widget.renderer.is_expanded(index) and "line 0\n" in transcript(widget)
    widget.on_transcript_link_clicked(widget.renderer.action_url("toggle", index))
    assert not widget.renderer.is_expanded(index)
    widget.on_transcript_link_clicked(widget.renderer.action_url("save", index))
    dialog = widget.findChild(QFileDialog)
    assert dialog is not None and dialog.isVisible()
    saved = tmp_path / "log.txt"
    dialog.selectFile(str(saved))
    dialog.accept()
    (path,) = await wait_signal(widget.artifact_saved, timeout=TIMEOUT)
    assert Path(path) == saved and saved.read_text() == "".join(f"line {i}\n" for i in range(400))
