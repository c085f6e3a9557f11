"""An A2A agent's task operations: get, list, cancel and follow (subscribe), merged into the task views."""

from __future__ import annotations

from collections.abc import AsyncGenerator

from a2a.types import CancelTaskRequest, GetTaskRequest, ListTasksRequest, SubscribeToTaskRequest
from a2a.utils.errors import UnsupportedOperationError

from workbench.core.errors import ConnectionLostError, WorkbenchError
from workbench.core.protocols.a2a._funnel import RequestFunnel
from workbench.core.protocols.a2a._reading import Outcome, StreamReader
from workbench.core.protocols.a2a._session import Session
from workbench.core.protocols.a2a._turn_events import TurnEvents
from workbench.core.protocols.a2a.convert import state_value
from workbench.core.protocols.a2a.reducer import TaskReducer, TaskView
from workbench.core.protocols.base import AgentEvent, Failed, StatusChanged
from workbench.core.safe_text import neutralise_line


class TaskCalls:
    """Task requests of one agent; every task seen is merged into ``reducer``.

    Args:
        session: The agent's session.
        funnel: The agent's request funnel.
        reducer: The agent's task views.
        reader: Reads subscription streams.
        events: Builds the events that end or pause a turn.
    """

    def __init__(
        self, session: Session, funnel: RequestFunnel, reducer: TaskReducer, reader: StreamReader, events: TurnEvents
    ) -> None:
        self._session = session
        self._funnel = funnel
        self._reducer = reducer
        self._reader = reader
        self._events = events

    async def get_task(self, task_id: str, *, history_length: int | None = None) -> TaskView:
        """Fetch a task from the agent and merge it into the local view.

        Raises:
            NotFoundError: The agent does not know the task.
            WorkbenchError: Any other typed failure.
        """
        request = GetTaskRequest(id=task_id)
        if history_length is not None:
            request.history_length = history_length
        task = await self._funnel.request(f"getting task {task_id}", lambda c: c.get_task(request))
        change = self._reducer.apply_task(task)
        assert change.view is not None
        return change.view

    async def list_tasks(
        self,
        *,
        context_id: str | None = None,
        state: str | None = None,
        page_size: int | None = None,
        include_artifacts: bool = False,
    ) -> list[TaskView]:
        """List the agent's tasks (A2A 1.0 agents only), merged into the local view.

        Raises:
            UnsupportedCapabilityError: The agent speaks 0.3, which has no task listing.
        """
        request = ListTasksRequest(include_artifacts=include_artifacts)
        if context_id:
            request.context_id = context_id
        if state:
            request.status = state_value(state)  # type: ignore[assignment]
        if page_size is not None:
            request.page_size = page_size
        response = await self._funnel.request("listing tasks", lambda c: c.list_tasks(request))
        views = []
        for task in response.tasks:
            change = self._reducer.apply_task(task)
            assert change.view is not None
            views.append(change.view)
        return views

    async def cancel_task(self, task_id: str) -> TaskView:
        """Cancel a task (also one waiting for input) and return its view.

        Raises:
            NotFoundError: Unknown task.
            RemoteError: The task cannot be cancelled (e.g. already finished; remote code -32002).
        """
        request = CancelTaskRequest(id=task_id)
        task = await self._funnel.request(f"cancelling task {task_id}", lambda c: c.cancel_task(request))
        change = self._reducer.apply_task(task)
        assert change.view is not None
        return change.view

    async def cancel_events(self, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        """Cancel a task and say how it stands: ``StatusChanged`` (if it changed), then ``Completed``."""
        view = self._reducer.get(task_id)
        old = view.state if view is not None else None
        try:
            view = await self.cancel_task(task_id)
        except WorkbenchError as exc:
            yield self._events.failed(exc, task_id, view.context_id if view else None)
            return
        if view.state != old:
            yield StatusChanged(state=view.state, **self._events.common(view.task_id, view.context_id))
        yield self._events.completed(view)

    async def subscribe(self, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        """Follow a running task (see ``A2AAgent.subscribe``)."""
        events = self._events
        try:
            await self._session.connect()
        except WorkbenchError as exc:
            yield events.failed(exc, task_id)
            return
        outcome = Outcome()
        request = SubscribeToTaskRequest(id=task_id)
        source = self._funnel.stream(f"subscribing to task {task_id}", lambda c: c.subscribe(request))
        failure: Failed | None = None
        async for ev in self._reader.read(source, outcome):
            if isinstance(ev, Failed):
                failure = ev
                break
            yield ev
        if failure is not None:
            if isinstance(failure.error.__cause__, UnsupportedOperationError):
                # Subscribing to a finished task is refused; report how it ended instead.
                try:
                    ended = await self.get_task(task_id)
                except WorkbenchError:
                    yield failure
                    return
                if ended.terminal:
                    yield events.completed(ended)
                    return
            yield failure
            return
        view = outcome.view
        if view is None:
            yield events.failed(
                ConnectionLostError(f"The subscription to task {neutralise_line(task_id)} ended without events.")
            )
            return
        if view.interrupted:
            yield events.paused(view)
        elif not view.terminal:
            error = ConnectionLostError(
                f"The subscription to task {neutralise_line(task_id)} ended while the task was {view.state}."
            )
            yield events.failed(error, view.task_id, view.context_id)
            return
        yield events.completed(view)


class TaskMethods:
    """The ``A2AAgent`` façade's task methods, handed to its ``TaskCalls``."""

    _tasks: TaskCalls

    async def cancel(self, task_id: str) -> None:
        """Cancel a task on the agent (also one waiting for input)."""
        await self._tasks.cancel_task(task_id)

    async def get_task(self, task_id: str, *, history_length: int | None = None) -> TaskView:
        """Fetch a task from the agent and merge it into the local view.

        Raises:
            NotFoundError: The agent does not know the task.
            WorkbenchError: Any other typed failure.
        """
        return await self._tasks.get_task(task_id, history_length=history_length)

    async def list_tasks(
        self,
        *,
        context_id: str | None = None,
        state: str | None = None,
        page_size: int | None = None,
        include_artifacts: bool = False,
    ) -> list[TaskView]:
        """List the agent's tasks (A2A 1.0 agents only), merged into the local view.

        Args:
            context_id: Only tasks of this context.
            state: Only tasks in this state (neutral name like ``input_required``).
            page_size: Page size (the agent's default when ``None``; only the first page is read).
            include_artifacts: Ask for artifacts too.

        Raises:
            UnsupportedCapabilityError: The agent speaks 0.3, which has no task listing.
        """
        return await self._tasks.list_tasks(
            context_id=context_id, state=state, page_size=page_size, include_artifacts=include_artifacts
        )

    async def cancel_task(self, task_id: str) -> TaskView:
        """Cancel a task (also one waiting for input) and return its view.

        Raises:
            NotFoundError: Unknown task.
            RemoteError: The task cannot be cancelled (e.g. already finished; remote code -32002).
        """
        return await self._tasks.cancel_task(task_id)

    def subscribe(self, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        """Follow a running task (e.g. after the client dropped its stream).

        The agent first sends the task as it is now (what was missed shows up as new events), then
        live events. Reading stops at a terminal state (``Completed``) or when the task waits for
        input or auth (``InputRequired``/``AuthRequired`` then ``Completed`` with that state) —
        the agent would keep the stream open there. A task that already ended yields ``Completed``
        from ``get_task``.
        """
        return self._tasks.subscribe(task_id)
