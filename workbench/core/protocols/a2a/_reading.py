"""Reading one A2A event stream: merge each event into the reducer, translate it, stop where a turn ends.

A turn's stream ends at a terminal state, or when the task waits for input or auth (the agent
would keep the stream open there). A non-streaming agent may answer before its task is done;
``poll`` then asks for the task until it ends or waits.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import dataclass

import anyio
from a2a.types import GetTaskRequest, Message, StreamResponse

from workbench.core.errors import WorkbenchError
from workbench.core.fastinit import fast_constructor
from workbench.core.protocols.a2a._funnel import RequestFunnel
from workbench.core.protocols.a2a._session import Session
from workbench.core.protocols.a2a._turn_events import TurnEvents
from workbench.core.protocols.a2a.reducer import Change, TaskReducer, TaskView
from workbench.core.protocols.a2a.translate import PROTOCOL, events_for
from workbench.core.protocols.base import AgentEvent, ArtifactUpdated

POLL_INTERVALS = (0.2, 0.5, 1.0, 2.0)
"""Seconds between polls of a task a non-streaming agent has not finished (the last one repeats)."""
_artifact_updated = fast_constructor(ArtifactUpdated)


@dataclass(slots=True)
class Run:
    """One ``stream_async`` call: the task it is about, and whether it reached its end."""

    task_id: str | None = None
    finished: bool = False


@dataclass(slots=True)
class Outcome:
    """How one request's event stream ended."""

    view: TaskView | None = None
    reply: Message | None = None
    failed: bool = False

    def ids(self) -> tuple[str | None, str | None]:
        """The task and context ids seen, if any."""
        if self.view is not None:
            return self.view.task_id, self.view.context_id
        return None, None


def stops(change: Change, event: StreamResponse, *, first: bool, resuming: str | None) -> bool:
    """Whether the stream of a turn ends after ``change`` (the task ended or waits)."""
    view = change.view
    assert view is not None
    if not (view.terminal or view.interrupted):
        return False
    if change.state is None:
        return False  # an artifact update: the state did not change with it
    # A server may open a follow-up stream with the task snapshot still showing the state we
    # just answered; that is not the agent asking again.
    return not (first and resuming == view.task_id and event.WhichOneof("payload") == "task" and view.interrupted)


class StreamReader:
    """Merges and translates the events of one agent's streams.

    Args:
        session: The agent's session (its name).
        reducer: The agent's task views.
        funnel: The agent's request funnel (for polling).
        events: Builds the ``Failed`` events.
    """

    def __init__(self, session: Session, reducer: TaskReducer, funnel: RequestFunnel, events: TurnEvents) -> None:
        self._session = session
        self._reducer = reducer
        self._funnel = funnel
        self._events = events

    async def read(
        self,
        source: AsyncGenerator[StreamResponse, None],
        outcome: Outcome,
        *,
        resuming: str | None = None,
        sent_id: str | None = None,
        run: Run | None = None,
    ) -> AsyncGenerator[AgentEvent, None]:
        """Merge and translate a stream of ``StreamResponse``s; stop at a terminal or waiting state.

        Args:
            source: The stream (from the funnel).
            outcome: Filled with how the stream ended.
            resuming: The task this stream continues, if any: a snapshot of it as the first event is
                the agent re-sending the task, whose earlier turns are not reported again.
            sent_id: The id of the message that continues ``resuming``.
            run: The ``stream_async`` call this stream belongs to.

        A typed failure of the stream becomes a ``Failed`` event (and ``outcome.failed``).
        """
        run = run if run is not None else Run()
        first = True
        try:
            reducer, name = self._reducer, self._session.name
            apply, merge = reducer.apply, reducer.merge_artifact
            async with aclosing(source) as events:
                async for event in events:
                    if event.WhichOneof("payload") == "artifact_update":  # hot path: one event, no state change
                        view, av, content, append, last_chunk = merge(event.artifact_update)
                        outcome.view = view
                        run.task_id = view.task_id
                        first = False
                        yield _artifact_updated(
                            artifact_id=av.artifact_id,
                            name=av.name,
                            parts=content,
                            append=append,
                            last_chunk=last_chunk,
                            agent=name,
                            protocol=PROTOCOL,
                            task_id=view.task_id,
                            context_id=view.context_id,
                            raw=event,
                        )
                        continue
                    if first and resuming and event.WhichOneof("payload") == "task" and event.task.id == resuming:
                        change = reducer.apply_resent_task(event.task, sent_id)
                    else:
                        change = apply(event)
                    for ev in events_for(change, agent=name, raw=event):
                        yield ev
                    if change.reply is not None:
                        outcome.reply = change.reply
                        return
                    if change.view is not None:
                        outcome.view = change.view
                        run.task_id = change.view.task_id
                        if change.state is not None and stops(change, event, first=first, resuming=resuming):
                            return
                    first = False
        except WorkbenchError as exc:
            outcome.failed = True
            yield self._events.failed(exc, *outcome.ids())

    async def poll(self, view: TaskView, outcome: Outcome) -> AsyncGenerator[AgentEvent, None]:
        """Ask for the task until it ends or waits, yielding what changed."""
        step = 0
        request = GetTaskRequest(id=view.task_id)
        while not (view.terminal or view.interrupted):
            await anyio.sleep(POLL_INTERVALS[min(step, len(POLL_INTERVALS) - 1)])
            step += 1
            try:
                task = await self._funnel.request(
                    f"polling task {view.task_id}", lambda c: c.get_task(request), idempotent=True
                )
            except WorkbenchError as exc:
                outcome.failed = True
                yield self._events.failed(exc, view.task_id, view.context_id)
                return
            change = self._reducer.apply_task(task)
            for ev in events_for(change, agent=self._session.name, raw=task):
                yield ev
