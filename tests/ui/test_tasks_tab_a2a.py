"""The Tasks tab with A2A agents (demo and test agents on 127.0.0.1): listing, Get, Cancel, Resubscribe, polling.

The same tab and view-model serve MCP servers (test_tasks_tab_mcp.py)."""

from __future__ import annotations

import asyncio
import contextlib
import json
from functools import partial
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.support.a2a_agents import echo_app
from tests.support.a2a_inspector import BOUND, children, inspector_for, settled
from tests.support.panel_context import make_context
from tests.support.reset_proxy import ResettingProxy
from tests.support.signals import until
from workbench.core.errors import RemoteError
from workbench.core.profiles import A2AProfile
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import AgentEvent
from workbench.demo.a2a_agents import (
    build_travel_app,
    run_demo_agents,
    serve_agent,
    travel_app_factory,
)
from workbench.ui.asyncutil import wait_signal
from workbench.ui.context import PanelContext
from workbench.ui.panels.inspector.a2a.widget import A2AInspectorWidget
from workbench.ui.panels.inspector.tasks.eventline import STATUS_HISTORY
from workbench.ui.panels.inspector.tasks.viewmodel import LISTING_NOTE, LOCAL_NOTE_0_3

TRIP = {"departure_date": "2026-12-01", "return_date": "2026-12-08", "travellers": 2, "cabin_class": "business"}
HTML_DESCRIPTION = '<b style="color:red">URGENT</b> **strong** <img src="file:///etc/hosts"> [docs](file:///etc/passwd)'


# ---------------------------------------------------------------------- helpers


@pytest.fixture
def ctx(tmp_path: Path, qapp: Any) -> PanelContext:
    return make_context(tmp_path)


# ---------------------------------------------------------------------- tasks


@pytest.mark.asyncio
async def test_a_task_started_elsewhere_is_listed_by_the_agent_and_get_shows_its_history(
    ctx: PanelContext, qtbot: Any
) -> None:
    async with (
        settled(),
        run_demo_agents(chunk_delay=0.0) as urls,
        inspector_for(ctx, qtbot, A2AProfile(id="travel", name="travel", url=urls["travel"])) as (widget, agent),
    ):
        tasks = widget.tasks_widget
        assert tasks.listing_label.text() == LISTING_NOTE
        assert tasks.model.rowCount() == 0
        async with A2AAgent(urls["travel"]) as other:  # a different client: only the listing can reveal it
            result = await asyncio.wait_for(other.invoke_async("Plan a trip to Lisbon"), BOUND)
        assert result.state == "input_required"
        assert result.task_id not in agent.tasks.views
        tasks.refresh_button.click()
        await until(widget.vm.refreshed, lambda: tasks.model.rowCount() == 1)
        row = tasks.model.rows()[0]
        assert (row.task_id, row.state, row.artifacts) == (result.task_id, "input_required", 1)
        assert [tasks.model.index(0, c).data() for c in range(3)] == [
            result.task_id,
            result.context_id,
            "input_required",
        ]
        assert tasks.model.index(0, 3).data()  # HH:MM:SS.mmm
        assert widget.tabs.tabText(3) == "Tasks (1)"

        tasks.table.selectRow(0)
        await until(widget.vm.task_changed, lambda: tasks.detail_tree.topLevelItemCount() == 4)
        assert widget.vm.selected_task_id == result.task_id
        tasks.get_button.click()
        await until(widget.vm.busy_changed, lambda: tasks.busy_label.text() == "")
        history = [c.text(0) for c in children(tasks.detail_tree, STATUS_HISTORY)]
        assert history == ["1. input_required"]  # a task this client never streamed: only its current state
        status_values = [c.text(1) for c in children(tasks.detail_tree, STATUS_HISTORY)]
        assert "When do you travel, how many travellers, and which cabin class?" in status_values
        messages = [(c.text(0), c.text(1)) for c in children(tasks.detail_tree, "Messages")]
        assert messages[0] == ("1. user", "Plan a trip to Lisbon")
        assert ("2–4. agent", "Planning a trip to Lisbon.") in messages  # the streamed chunks, one row
        artifacts = {c.text(0): c.text(1) for c in children(tasks.detail_tree, "Artifacts")}
        assert list(artifacts) == ["Destination brief"]
        assert artifacts["Destination brief"].endswith("part(s)")
        shown = json.loads(tasks.json_view.text())
        assert shown["task_id"] == result.task_id and shown["state"] == "input_required"
        assert tasks.cancel_button.isEnabled()


@pytest.mark.asyncio
async def test_a_tasks_messages_read_as_a_conversation_chunks_joined_and_the_form_answer_after_its_question(
    ctx: PanelContext, qtbot: Any
) -> None:
    async with (
        settled(),
        run_demo_agents(chunk_delay=0.0) as urls,
        inspector_for(ctx, qtbot, A2AProfile(id="travel", name="travel", url=urls["travel"])) as (widget, agent),
    ):
        asked = await asyncio.wait_for(agent.invoke_async("Plan a trip to Lisbon"), BOUND)
        assert asked.state == "input_required"
        done = await asyncio.wait_for(agent.invoke_async(None, task_id=asked.task_id, data=TRIP), BOUND)
        assert done.state == "completed"
        refresh = widget.vm.refresh()  # what the window asks for when a chat turn completes
        assert refresh is not None
        await asyncio.wait_for(refresh, BOUND)
        tasks = widget.tasks_widget
        row = tasks.table.visualRect(tasks.model.index(tasks.model.row_of(asked.task_id), 0)).center()
        qtbot.mouseClick(tasks.table.viewport(), Qt.MouseButton.LeftButton, pos=row)
        await until(widget.vm.task_changed, lambda: tasks.detail_tree.topLevelItemCount() == 4)
        await until(widget.vm.busy_changed, lambda: tasks.busy_label.text() == "")  # the agent's copy merged
        messages = [(c.text(0), c.text(1)) for c in children(tasks.detail_tree, "Messages")]
        assert [label for label, _ in messages] == ["1. user", "2–4. agent", "5. agent", "6. user", "7. agent"]
        assert messages[1][1] == "Planning a trip to Lisbon."  # "Planning " / "a trip " / "to Lisbon." streamed
        assert messages[2][1].startswith("When do you travel")  # the question, then the answer to it
        assert messages[3][1].startswith("[data] ") and '"travellers": 2' in messages[3][1]
        assert all(value for _, value in messages)  # no row without words
        chunks = children(tasks.detail_tree, "Messages")[1]
        assert [chunks.child(i).text(1) for i in range(chunks.childCount())] == ["Planning", "a trip", "to Lisbon."]


@pytest.mark.asyncio
async def test_a_chat_turn_shows_up_after_refresh_and_cancel_moves_it_to_canceled(
    ctx: PanelContext, qtbot: Any
) -> None:
    async with (
        settled(),
        run_demo_agents(chunk_delay=0.0) as urls,
        inspector_for(ctx, qtbot, A2AProfile(id="travel", name="travel", url=urls["travel"])) as (widget, agent),
    ):
        result = await asyncio.wait_for(agent.invoke_async("Plan a trip to Lisbon"), BOUND)
        widget.refresh()  # what the window calls when a chat turn completes
        tasks = widget.tasks_widget
        assert tasks.model.rows()[0].task_id == result.task_id  # the local view shows at once
        tasks.table.selectRow(0)
        await until(widget.vm.task_changed, lambda: tasks.cancel_button.isEnabled())
        tasks.cancel_button.click()
        await until(widget.vm.tasks_changed, lambda: tasks.model.rows()[0].state == "canceled")
        assert agent.tasks.views[result.task_id].state == "canceled"
        await until(widget.vm.task_changed, lambda: not tasks.cancel_button.isEnabled())
        assert tasks.detail_tree.values("Task")["State"] == "canceled"
        history = [c.text(0).split(". ", 1)[1] for c in children(tasks.detail_tree, STATUS_HISTORY)]
        assert history[0] in ("submitted", "working") and "input_required" in history and history[-1] == "canceled"
        assert tasks.error_label.isHidden()


@pytest.mark.asyncio
async def test_cancelling_a_task_that_already_ended_shows_the_agents_refusal_inline_and_reports_it(
    ctx: PanelContext, qtbot: Any
) -> None:
    async with (
        settled(),
        run_demo_agents(chunk_delay=0.0) as urls,
        inspector_for(ctx, qtbot, A2AProfile(id="travel", name="travel", url=urls["travel"])) as (widget, agent),
    ):
        result = await asyncio.wait_for(agent.invoke_async("Plan a trip to Lisbon"), BOUND)
        widget.refresh()
        widget.tasks_widget.table.selectRow(0)
        async with A2AAgent(urls["travel"]) as other:  # ended behind the inspector's back
            await other.tasks.cancel_view(result.task_id)
        reported: list[Any] = []
        ctx.errors.error_reported.connect(reported.append)
        task = widget.vm.cancel_task()
        assert task is not None
        await asyncio.wait_for(task, BOUND)
        banner = widget.tasks_widget.error_label
        assert not banner.isHidden()
        assert banner.textFormat() == Qt.TextFormat.PlainText
        assert [v.code for v in reported] == [RemoteError.code]


@pytest.mark.asyncio
async def test_resubscribe_streams_a_running_tasks_events_live_until_it_waits_for_input(
    ctx: PanelContext, qtbot: Any
) -> None:
    async with (
        settled(),
        serve_agent(travel_app_factory(chunk_delay=0.15)) as url,
        inspector_for(ctx, qtbot, A2AProfile(id="travel", name="travel", url=url)) as (widget, agent),
    ):
        first: AgentEvent | None = None
        async with contextlib.aclosing(agent.stream_async("Plan a trip to Porto")) as events:
            async for event in events:
                if event.task_id:
                    first = event
                    break  # drop the stream: the task keeps running on the agent
        assert first is not None and first.task_id
        widget.refresh()
        tasks = widget.tasks_widget
        tasks.table.selectRow(tasks.model.row_of(first.task_id))
        await until(widget.vm.task_changed, lambda: widget.vm.selected_task_id == first.task_id)
        assert agent.tasks.views[first.task_id].state in ("submitted", "working")
        tasks.resubscribe_button.click()
        assert widget.vm.subscribed and tasks.stop_button.isEnabled()
        assert tasks.detail_tabs.currentWidget() is tasks.events_view
        await until(widget.vm.subscription_changed, lambda: not widget.vm.subscribed)
        lines = tasks.events_view.toPlainText().splitlines()
        assert any("artifact Destination brief" in line for line in lines)
        assert any("input_required When do you travel" in line for line in lines)
        assert lines[-1].endswith("ended: input_required")
        assert not tasks.stop_button.isEnabled()
        assert tasks.model.rows()[tasks.model.row_of(first.task_id)].state == "input_required"
        assert tasks.detail_tree.values("Task")["State"] == "input_required"


@pytest.mark.asyncio
async def test_stop_ends_a_resubscription_while_the_task_keeps_running(ctx: PanelContext, qtbot: Any) -> None:
    async with (
        settled(),
        serve_agent(echo_app) as url,
        inspector_for(ctx, qtbot, A2AProfile(id="echo", name="echo", url=url)) as (widget, agent),
    ):
        task_id = ""
        async with contextlib.aclosing(agent.stream_async("silent 3")) as events:
            async for event in events:
                if event.task_id:
                    task_id = event.task_id
                    break
        widget.refresh()
        tasks = widget.tasks_widget
        tasks.table.selectRow(tasks.model.row_of(task_id))
        await until(widget.vm.task_changed, lambda: widget.vm.selected_task_id == task_id)
        reported: list[Any] = []
        ctx.errors.error_reported.connect(reported.append)
        subscription = widget.vm.resubscribe()
        assert subscription is not None
        tasks.stop_button.click()
        assert not widget.vm.subscribed and not tasks.stop_button.isEnabled()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(subscription, BOUND)
        assert subscription.cancelled()
        view = await agent.tasks.get_view(task_id)
        assert view.state == "working"  # only the stream stopped
        await agent.tasks.cancel_view(task_id)
        assert reported == []


@pytest.mark.asyncio
async def test_an_a2a_0_3_agent_says_plainly_that_it_cannot_list_tasks(ctx: PanelContext, qtbot: Any) -> None:
    async with (
        settled(),
        serve_agent(partial(build_travel_app, protocol_version="0.3", chunk_delay=0.0)) as url,
        inspector_for(ctx, qtbot, A2AProfile(id="old", name="old", url=url)) as (widget, agent),
    ):
        assert widget.card_widget.tree.values("Protocol")["Protocol version"].startswith("0.3")
        assert widget.tasks_widget.listing_label.text() == LOCAL_NOTE_0_3
        result = await asyncio.wait_for(agent.invoke_async("Plan a trip to Oslo"), BOUND)
        refresh = widget.vm.refresh()
        assert refresh is not None
        await asyncio.wait_for(refresh, BOUND)
        assert [r.task_id for r in widget.tasks_widget.model.rows()] == [result.task_id]
        assert widget.tasks_widget.error_label.isHidden()


def test_without_a_connected_a2a_agent_the_inspector_says_so(ctx: PanelContext, qtbot: Any) -> None:
    widget = A2AInspectorWidget(ctx)
    qtbot.addWidget(widget)
    assert not widget.note_label.isHidden() and not widget.tabs.isEnabled()
    widget.show_connection("nobody")
    assert widget.note_label.text() == "Not connected to an A2A agent."
    assert widget.card_widget.tree.topLevelItemCount() == 0
    assert widget.vm.refresh() is None and widget.vm.fetch_task() is None and widget.vm.resubscribe() is None


@pytest.mark.asyncio
async def test_the_tasks_tab_on_screen_shows_a_new_task_without_refresh(ctx: PanelContext, qtbot: Any) -> None:
    async with (
        settled(),
        run_demo_agents(chunk_delay=0.0) as urls,
        inspector_for(ctx, qtbot, A2AProfile(id="travel", name="travel", url=urls["travel"])) as (widget, agent),
    ):
        tasks = widget.tasks_widget
        widget.vm.set_poll_interval(50)
        widget.show()
        widget.tabs.setCurrentWidget(tasks)
        assert widget.vm.polling  # on screen: polling
        result = await asyncio.wait_for(agent.invoke_async("Plan a trip to Lisbon"), BOUND)
        # nobody presses Refresh or calls refresh(): the poll brings the task in
        await until(widget.vm.tasks_changed, lambda: any(r.task_id == result.task_id for r in tasks.model.rows()))
        widget.tabs.setCurrentWidget(widget.card_widget)
        assert not widget.vm.polling  # off screen: quiet


@pytest.mark.asyncio
async def test_a_failed_poll_shows_its_error_until_a_later_poll_lists_the_tasks_again(
    ctx: PanelContext, qtbot: Any
) -> None:
    proxy = ResettingProxy()  # in front of the agent: resets the requests it is told to
    factory = travel_app_factory(chunk_delay=0)
    async with (
        proxy.running(),
        serve_agent(lambda _own_url: factory(proxy.url)) as url,
    ):
        proxy.target = url
        profile = A2AProfile(id="travel", name="travel", url=proxy.url)
        async with inspector_for(ctx, qtbot, profile) as (widget, agent):
            tasks = widget.tasks_widget
            banner = tasks.error_label
            widget.show()
            widget.tabs.setCurrentWidget(tasks)
            proxy.reset_next(2)  # a poll's listing and its one resend both meet a reset
            widget.vm.set_poll_interval(50)
            await until(widget.vm.refreshed, lambda: banner.isVisible(), timeout=BOUND)
            assert proxy.resets == 2
            assert banner.height() > 0 and banner.text()
            await until(widget.vm.refreshed, lambda: not banner.isVisible(), timeout=BOUND)  # the next poll worked
            assert banner.text() == ""

            result = await asyncio.wait_for(agent.invoke_async("Plan a trip to Lisbon"), BOUND)
            await until(widget.vm.tasks_changed, lambda: tasks.model.rowCount() == 1)
            tasks.table.selectRow(0)
            await until(widget.vm.busy_changed, lambda: tasks.busy_label.text() == "")  # the selected task got
            await asyncio.wait_for(agent.tasks.cancel_task(result.task_id), BOUND)  # ended behind the tab's back
            cancel = widget.vm.cancel_task()  # refused by the agent: an error that is not the listing's
            assert cancel is not None
            await asyncio.wait_for(cancel, BOUND)
            assert banner.isVisible()
            shown_error = banner.text()
            for _ in range(2):  # polls that list the tasks
                await wait_signal(widget.vm.refreshed, BOUND)
            assert banner.isVisible() and banner.text() == shown_error  # they leave the cancel's error in place


@pytest.mark.asyncio
async def test_a_chat_turn_in_the_window_refreshes_the_agents_tasks_by_itself(tmp_path: Path, qtbot: Any) -> None:
    from workbench.app import build_workbench
    from workbench.core.credentials import MemoryCredentialStore

    bench = build_workbench(tmp_path / "config", credentials=MemoryCredentialStore())
    window = bench.window
    qtbot.addWidget(window)
    window.show()
    try:
        async with run_demo_agents(chunk_delay=0.0) as urls:
            profile = A2AProfile(id="travel", name="travel", url=urls["travel"])
            window.sidebar.viewmodel.add(profile, persist=False)
            await asyncio.wait_for(bench.ctx.services.connections.connect(profile), BOUND)
            bench.ctx.selection.select("travel")
            a2a = window.inspector.inspector("a2a")
            assert a2a is not None and a2a.tabs.currentWidget() is window.chat  # chatting, Tasks tab not on screen
            assert a2a.vm.rows == []
            window.chat.input.setPlainText("Plan a trip to Lisbon")
            asked = asyncio.ensure_future(wait_signal(window.prompts.prompt_shown, BOUND))
            assert window.chat.send()
            (dialog,) = await asked
            dialog.close_button.click()  # answer later: the task keeps waiting, the turn ends
            await until(window.chat.viewmodel.turn_finished, lambda: not window.chat.viewmodel.is_streaming("travel"))
            await until(a2a.vm.tasks_changed, lambda: len(a2a.vm.rows) == 1)
            assert a2a.vm.rows[0].state == "input_required"
    finally:
        done = asyncio.ensure_future(wait_signal(window.shutdown_finished, BOUND))
        window.close()
        await done
