"""Continuing a waiting task does not replay the earlier turn, against an agent that re-sends the whole task
first (as the JS SDK's agents do): its "thinking…" status text and its artifacts are not emitted again,
whether the same agent object continues or a new one does (``workbench send --task-id`` in a new process).
"""

from __future__ import annotations

import pytest
from a2a.helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentSkill, Task
from starlette.applications import Starlette

from tests.support.cli_runner import workbench
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import AgentEvent, ArtifactUpdated, Completed, StatusChanged, TextDelta
from workbench.demo.a2a_agents.common import make_app, make_card, serve_agent

pytestmark = pytest.mark.asyncio
THINKING = "thinking…"
STEPS = ("step 1", "step 2", "step 3")
QUESTION = "Which city?"


class ResendingExecutor(AgentExecutor):
    """First turn: thinking…, an artifact built in three chunks, a question. A continuation re-sends the task
    as it stands (history, artifacts, the question) before the new turn's events, then answers."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        assert context.message is not None
        task = context.current_task
        if task is None:
            task = new_task_from_user_message(context.message)
            await event_queue.enqueue_event(task)
            up = TaskUpdater(event_queue, task.id, task.context_id)
            await up.start_work(up.new_agent_message([new_text_part(THINKING)]))
            for i, step in enumerate(STEPS):
                await up.add_artifact(
                    [new_text_part(step + "\n")], artifact_id="steps", name="steps", append=i > 0, last_chunk=i == 2
                )
            await up.requires_input(up.new_agent_message([new_text_part(QUESTION)]))
            return
        resent = Task()
        resent.CopyFrom(task)
        await event_queue.enqueue_event(resent)  # the whole task again, first (the JS SDK's agents do this)
        up = TaskUpdater(event_queue, task.id, task.context_id)
        await up.start_work(up.new_agent_message([new_text_part(THINKING)]))
        await up.add_artifact(list(context.message.parts), artifact_id="answer", name="answer", last_chunk=True)
        await up.complete(up.new_agent_message([new_text_part("booked")]))

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        raise NotImplementedError


def resending_app(base_url: str) -> Starlette:
    skill = AgentSkill(id="plan", name="Plan", description="Plans a trip", tags=["test"])
    return make_app(
        make_card(base_url, name="Resender", description="re-sends the task", skills=[skill]), ResendingExecutor()
    )


def texts(events: list[AgentEvent]) -> list[str]:
    """What the agent said: reply text, and status texts (a status text is also its state's message)."""
    return [e.text for e in events if isinstance(e, TextDelta)]


def status_texts(events: list[AgentEvent]) -> list[str]:
    return [e.message for e in events if isinstance(e, StatusChanged) and e.message]


def artifact_ids(events: list[AgentEvent]) -> list[str]:
    return [e.artifact_id for e in events if isinstance(e, ArtifactUpdated)]


# The a2a-sdk server logs an ERROR for a task the executor enqueues again ("Ignoring task replacement")
# and still streams it, which is the re-sent snapshot these tests need.
@pytest.mark.expected_error_logs
@pytest.mark.parametrize("binding", ["JSONRPC", "HTTP+JSON"])
@pytest.mark.parametrize("same_agent", [True, False])
async def test_continuing_a_task_does_not_replay_the_earlier_turn(binding: str, same_agent: bool) -> None:
    async with serve_agent(resending_app) as url, A2AAgent(url, binding=binding) as agent:  # type: ignore[arg-type]
        first = [ev async for ev in agent.stream_async("Plan a trip")]
        assert artifact_ids(first) == ["steps"] * 3 and THINKING in texts(first)
        done = first[-1]
        assert isinstance(done, Completed) and done.result.state == "input_required"
        task_id, context_id = done.result.task_id, done.result.context_id
        if same_agent:
            second = [ev async for ev in agent.stream_async("Lisbon", task_id=task_id, context_id=context_id)]
        else:  # another process continuing the task knows nothing of the first turn
            async with A2AAgent(url, binding=binding) as other:  # type: ignore[arg-type]
                second = [ev async for ev in other.stream_async("Lisbon", task_id=task_id, context_id=context_id)]
    assert artifact_ids(second) == ["answer"]
    assert texts(second).count(THINKING) == 1  # this turn's, not the first turn's again
    assert status_texts(second).count(THINKING) == 1
    said = texts(second) + status_texts(second)
    assert not any(step in t for t in said for step in STEPS) and QUESTION not in said
    last = second[-1]
    assert isinstance(last, Completed) and last.result.state == "completed"
    assert last.result.artifacts["answer"][0].text == "Lisbon"


@pytest.mark.expected_error_logs
async def test_send_continuing_a_task_prints_only_the_new_turn() -> None:
    async with serve_agent(resending_app) as url:
        async with A2AAgent(url) as agent:
            done = [ev async for ev in agent.stream_async("Plan a trip")][-1]
        assert isinstance(done, Completed)
        ids = ["--task-id", str(done.result.task_id), "--context-id", str(done.result.context_id)]
        code, out, err = await workbench("send", "--a2a", url, *ids, "Lisbon")
    assert code == 0, err
    assert "Lisbon" in out and "booked" in out
    assert "step 1" not in out + err and out.count(THINKING) == 1 and err.count(THINKING) == 1  # text; status note
