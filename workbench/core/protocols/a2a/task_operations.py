"""``A2ATaskOperations``: an A2A agent's tasks behind the neutral ``TaskOperations`` facet."""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import TYPE_CHECKING

from workbench.core.protocols.a2a.task_info import task_snapshot, task_summary, updated_at
from workbench.core.protocols.base import AgentEvent
from workbench.core.protocols.snapshot import TaskSnapshot, TaskSummary

if TYPE_CHECKING:
    from workbench.core.protocols.a2a.agent import A2AAgent


class A2ATaskOperations:
    """List, get, cancel and follow the tasks of one ``A2AAgent``, as neutral snapshots."""

    def __init__(self, agent: A2AAgent) -> None:
        self._agent = agent

    @property
    def listing_supported(self) -> bool:
        """A2A 1.0 agents can list their tasks; 0.3 has no such operation."""
        return self._agent.capabilities.era != "0.3"

    def known_tasks(self) -> list[TaskSummary]:
        """Every task this client has seen, most recently updated first."""
        views = sorted(self._agent.task_views.values(), key=lambda v: updated_at(v) or 0.0, reverse=True)
        return [task_summary(v) for v in views]

    def known_task(self, task_id: str) -> TaskSnapshot | None:
        """One task as this client knows it, in full (``None`` if never seen)."""
        view = self._agent.task_views.get(task_id)
        return task_snapshot(view) if view is not None else None

    async def list_tasks(self) -> list[TaskSummary]:
        """Ask the agent for its tasks (first page, with artifacts); merged into ``known_tasks``.

        Raises:
            UnsupportedCapabilityError: The agent does not list tasks.
        """
        await self._agent.list_tasks(include_artifacts=True)
        return self.known_tasks()

    async def get_task(self, task_id: str) -> TaskSnapshot:
        """Fetch one task (its full history) from the agent."""
        return task_snapshot(await self._agent.get_task(task_id))

    async def cancel_task(self, task_id: str) -> TaskSnapshot:
        """Ask the agent to cancel a task; the task as it stands afterwards."""
        return task_snapshot(await self._agent.cancel_task(task_id))

    def follow(self, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        """Resubscribe to a running task: its events until it ends or waits."""
        return self._agent.subscribe(task_id)
