"""An A2A agent's push notifications: the task's push configs, and the events a ``PushReceiver`` gets."""

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

from workbench.core.protocols.a2a._config import A2AConfig
from workbench.core.protocols.a2a._funnel import RequestFunnel
from workbench.core.protocols.a2a._turn_events import TurnEvents
from workbench.core.protocols.a2a.push import PushNotification, PushReceiver
from workbench.core.protocols.a2a.reducer import TaskReducer
from workbench.core.protocols.a2a.translate import events_for
from workbench.core.protocols.base import AgentEvent


class PushCalls:
    """Push-notification configs of one agent's tasks, and the events pushed to a receiver.

    Args:
        config: The agent's options (its name and wire recorder).
        funnel: The agent's request funnel.
        reducer: The agent's task views (pushed events are merged into them).
        events: Builds the events that end or pause a turn.
    """

    def __init__(self, config: A2AConfig, funnel: RequestFunnel, reducer: TaskReducer, events: TurnEvents) -> None:
        self._config = config
        self._funnel = funnel
        self._reducer = reducer
        self._events = events

    async def set_config(
        self, task_id: str, receiver: PushReceiver | str, *, config_id: str | None = None, token: str | None = None
    ) -> dict[str, Any]:
        """Ask the agent to POST this task's events to ``receiver``; the stored config as JSON.

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
            self._config.add_secret(config.token)
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
        """The push notifications ``receiver`` gets for ``task_id``, as events (see ``A2AAgent.push_events``)."""
        notes: AsyncIterator[PushNotification] = receiver.events(task_id)
        async with aclosing(notes) as stream:  # type: ignore[type-var]
            async for note in stream:
                change = self._reducer.apply(note.event)
                for ev in events_for(change, agent=self._config.name, raw=note.event):
                    yield ev
                view = change.view
                if view is None or change.state is None:
                    continue
                if view.interrupted:
                    yield self._events.paused(view)
                if view.terminal or view.interrupted:
                    yield self._events.completed(view)
                    return


class PushMethods:
    """The ``A2AAgent`` façade's push-notification methods, handed to its ``PushCalls``."""

    _push: PushCalls

    async def set_push_config(
        self, task_id: str, receiver: PushReceiver | str, *, config_id: str | None = None, token: str | None = None
    ) -> dict[str, Any]:
        """Ask the agent to POST this task's events to ``receiver`` (a ``PushReceiver`` or a URL).

        Returns:
            The stored config as JSON (camelCase, as on the wire).

        Raises:
            UnsupportedCapabilityError: The agent does not do push notifications.
        """
        return await self._push.set_config(task_id, receiver, config_id=config_id, token=token)

    async def get_push_config(self, task_id: str, config_id: str) -> dict[str, Any]:
        """One push config of a task, as JSON."""
        return await self._push.get_config(task_id, config_id)

    async def list_push_configs(self, task_id: str) -> list[dict[str, Any]]:
        """All push configs of a task, as JSON."""
        return await self._push.list_configs(task_id)

    async def delete_push_config(self, task_id: str, config_id: str) -> None:
        """Delete a task's push config."""
        await self._push.delete_config(task_id, config_id)

    def push_events(self, receiver: PushReceiver, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        """Translate the push notifications ``receiver`` gets for ``task_id`` into events.

        Ends like ``subscribe``: ``Completed`` at a terminal state, ``InputRequired``/``AuthRequired``
        then ``Completed`` when the task waits.
        """
        return self._push.events(receiver, task_id)
