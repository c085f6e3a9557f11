"""``PushConfigs``: a task's push-notification configs on an A2A agent, and the events a ``PushReceiver`` gets."""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator
from contextlib import aclosing
from typing import Any

from a2a.types import (
    DeleteTaskPushNotificationConfigRequest,
    GetTaskPushNotificationConfigRequest,
    ListTaskPushNotificationConfigsRequest,
    TaskPushNotificationConfig,
)
from google.protobuf.json_format import MessageToDict

from workbench.core.protocols.a2a._funnel import RequestFunnel
from workbench.core.protocols.a2a._session import Session
from workbench.core.protocols.a2a._turn_events import TurnEvents
from workbench.core.protocols.a2a.push_receiver import PushNotification, PushReceiver
from workbench.core.protocols.a2a.reducer import TaskReducer
from workbench.core.protocols.a2a.translate import events_for
from workbench.core.protocols.base import AgentEvent


class PushConfigs:
    """Push-notification configs of one agent's tasks, and the events pushed to a receiver (``agent.tasks.push``).

    Args:
        session: The agent's session (its name; a config's token is redacted from its wire log).
        funnel: The agent's request funnel.
        reducer: The agent's task views (pushed events are merged into them).
        events: Builds the events that end or pause a turn.
    """

    def __init__(self, session: Session, funnel: RequestFunnel, reducer: TaskReducer, events: TurnEvents) -> None:
        self._session = session
        self._funnel = funnel
        self._reducer = reducer
        self._events = events

    async def set_config(
        self, task_id: str, receiver: PushReceiver | str, *, config_id: str | None = None, token: str | None = None
    ) -> dict[str, Any]:
        """Ask the agent to POST this task's events to ``receiver`` (a ``PushReceiver`` or a URL).

        Args:
            task_id: The task.
            receiver: Where the agent posts: a running ``PushReceiver`` (its URL and token) or a URL.
            config_id: The config's id (the agent chooses one when ``None``).
            token: The token the agent sends back (default: the receiver's).

        Returns:
            The stored config as JSON (camelCase, as on the wire).

        Raises:
            UnsupportedCapabilityError: The agent does not do push notifications.
        """
        config = TaskPushNotificationConfig(task_id=task_id)
        if isinstance(receiver, PushReceiver):
            config.url = receiver.url
            config.token = token or receiver.token
        else:
            config.url = receiver
            if token:
                config.token = token
        if config_id:
            config.id = config_id
        if config.token:
            self._session.add_secret(config.token)
        stored = await self._funnel.request(
            f"setting the push config of task {task_id}", lambda c: c.create_task_push_notification_config(config)
        )
        return MessageToDict(stored)

    async def get_config(self, task_id: str, config_id: str) -> dict[str, Any]:
        """One push config of a task, as JSON."""
        request = GetTaskPushNotificationConfigRequest(task_id=task_id, id=config_id)
        got = await self._funnel.request(
            f"getting push config {config_id}", lambda c: c.get_task_push_notification_config(request)
        )
        return MessageToDict(got)

    async def list_configs(self, task_id: str) -> list[dict[str, Any]]:
        """All push configs of a task, as JSON."""
        request = ListTaskPushNotificationConfigsRequest(task_id=task_id)
        got = await self._funnel.request(
            f"listing push configs of task {task_id}", lambda c: c.list_task_push_notification_configs(request)
        )
        return [MessageToDict(c) for c in got.configs]

    async def delete_config(self, task_id: str, config_id: str) -> None:
        """Delete a task's push config."""
        request = DeleteTaskPushNotificationConfigRequest(task_id=task_id, id=config_id)
        await self._funnel.request(
            f"deleting push config {config_id}", lambda c: c.delete_task_push_notification_config(request)
        )

    async def events(self, receiver: PushReceiver, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        """Translate the push notifications ``receiver`` gets for ``task_id`` into events.

        Ends as ``tasks.follow`` does: ``Completed`` at a terminal state, ``InputRequired`` /
        ``AuthRequired`` then ``Completed`` when the task waits.
        """
        notes: AsyncIterator[PushNotification] = receiver.events(task_id)
        async with aclosing(notes) as stream:  # type: ignore[type-var]
            async for note in stream:
                change = self._reducer.apply(note.event)
                for ev in events_for(change, agent=self._session.name, raw=note.event):
                    yield ev
                view = change.view
                if view is None or change.state is None:
                    continue
                if view.interrupted:
                    yield self._events.paused(view)
                if view.terminal or view.interrupted:
                    yield self._events.completed(view)
                    return
