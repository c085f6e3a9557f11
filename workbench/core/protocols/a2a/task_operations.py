"""``A2ATaskOperations``: an A2A agent's tasks (get, list, cancel, follow, push configs), its ``agent.tasks``.

It speaks two shapes. The contract's ``TaskOperations`` (``known_tasks``, ``list_tasks``,
``get_task``, ``cancel_task``, ``follow``) answers with neutral snapshots for the window and the
command line; ``views``, ``get_view``, ``list_views`` and ``cancel_view`` answer with the ``TaskView``s
this client merged, with every A2A option. Every task seen is merged into the agent's reducer.
"""

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
from workbench.core.protocols.a2a.push_configs import PushConfigs
from workbench.core.protocols.a2a.reducer import TaskReducer, TaskView
from workbench.core.protocols.a2a.task_info import task_snapshot, task_summary, updated_at
from workbench.core.protocols.base import AgentEvent, Failed
from workbench.core.protocols.snapshot import TaskSnapshot, TaskSummary
from workbench.core.safe_text import neutralise_line


class A2ATaskOperations:
    """The tasks of one A2A agent: the contract's ``TaskOperations``, the ``TaskView``s, push configs.

    Args:
        session: The agent's session (connected lazily; its card says the protocol version).
        funnel: The agent's request funnel.
        reducer: The agent's task views (every task seen is merged into them).
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
        self.push = PushConfigs(session, funnel, reducer, events)
        """Push notifications: a task's push configs on the agent, and the events a receiver gets."""

    # ------------------------------------------------------------------ TaskOperations (neutral snapshots)

    @property
    def listing_supported(self) -> bool:
        """A2A 1.0 agents can list their tasks; 0.3 has no such operation."""
        return self._session.ensure_discovery().era != "0.3"

    def known_tasks(self) -> list[TaskSummary]:
        """Every task this client has seen, most recently updated first."""
        views = sorted(self._reducer.views.values(), key=lambda v: updated_at(v) or 0.0, reverse=True)
        return [task_summary(v) for v in views]

    def known_task(self, task_id: str) -> TaskSnapshot | None:
        """One task as this client knows it, in full (``None`` if never seen)."""
        view = self._reducer.get(task_id)
        return task_snapshot(view) if view is not None else None

    async def list_tasks(self) -> list[TaskSummary]:
        """Ask the agent for its tasks (first page, with artifacts); merged into ``known_tasks``.

        Raises:
            UnsupportedCapabilityError: The agent speaks 0.3, which has no task listing.
        """
        await self.list_views(include_artifacts=True)
        return self.known_tasks()

    async def get_task(self, task_id: str) -> TaskSnapshot:
        """Fetch one task (its full history) from the agent.

        Raises:
            NotFoundError: The agent does not know the task.
        """
        return task_snapshot(await self.get_view(task_id))

    async def cancel_task(self, task_id: str) -> TaskSnapshot:
        """Ask the agent to cancel a task (also one waiting for input); the task as it stands afterwards.

        Raises:
            NotFoundError: Unknown task.
            RemoteError: The task cannot be cancelled (e.g. already finished; remote code -32002).
        """
        return task_snapshot(await self.cancel_view(task_id))

    async def follow(self, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        """Follow a running task (resubscribe, e.g. after the client dropped its stream).

        The agent first sends the task as it is now (what was missed shows up as new events), then
        live events. Reading stops at a terminal state (``Completed``) or when the task waits for
        input or auth (``InputRequired``/``AuthRequired`` then ``Completed`` with that state) —
        the agent would keep the stream open there. A task that already ended yields ``Completed``
        from ``get_view``.
        """
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
                    ended = await self.get_view(task_id)
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

    # ------------------------------------------------------------------ A2A task views

    @property
    def views(self) -> dict[str, TaskView]:
        """Every task this client has seen, by id, as merged locally."""
        return dict(self._reducer.views)

    async def get_view(self, task_id: str, *, history_length: int | None = None) -> TaskView:
        """Fetch a task from the agent and merge it into the local view.

        Args:
            task_id: The task.
            history_length: How many of its messages to ask for (the agent's default when ``None``).

        Raises:
            NotFoundError: The agent does not know the task.
            WorkbenchError: Any other typed failure.
        """
        request = GetTaskRequest(id=task_id)
        if history_length is not None:
            request.history_length = history_length
        task = await self._funnel.request(f"getting task {task_id}", lambda c: c.get_task(request), idempotent=True)
        change = self._reducer.apply_task(task)
        assert change.view is not None
        return change.view

    async def list_views(
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
        request = ListTasksRequest(include_artifacts=include_artifacts)
        if context_id:
            request.context_id = context_id
        if state:
            request.status = state_value(state)  # type: ignore[assignment]
        if page_size is not None:
            request.page_size = page_size
        response = await self._funnel.request("listing tasks", lambda c: c.list_tasks(request), idempotent=True)
        views = []
        for task in response.tasks:
            change = self._reducer.apply_task(task)
            assert change.view is not None
            views.append(change.view)
        return views

    async def cancel_view(self, task_id: str) -> TaskView:
        """Cancel a task (also one waiting for input) and return its merged view.

        Raises:
            NotFoundError: Unknown task.
            RemoteError: The task cannot be cancelled (e.g. already finished; remote code -32002).
        """
        request = CancelTaskRequest(id=task_id)
        task = await self._funnel.request(f"cancelling task {task_id}", lambda c: c.cancel_task(request))
        change = self._reducer.apply_task(task)
        assert change.view is not None
        return change.view
