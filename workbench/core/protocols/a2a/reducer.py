"""The client's own view of each A2A task, merged from stream events and task snapshots.

The SDK client does not merge events, so ``TaskReducer`` does: it keeps per task the status
history and the messages (user and agent, de-duplicated by id) — the first and the latest of each,
counting those in between (``capped.CappedHistory``) — and artifacts grown chunk by chunk
(``append`` extends, otherwise replaces; ``last_chunk`` marks an artifact complete). ``apply``
returns a ``Change`` saying what is new, which ``translate`` turns into ``AgentEvent``s.

A task's status history reads in the order the task went through its states, whatever order the
reports arrived in (``TaskReducer._set_status`` decides). A report can arrive late: a listing or a
poll may show the task working before the stream's first event, the snapshot taken when the task
was submitted, is read. A report is late when the agent's timestamp is older than the newest one
seen, or, without a timestamp, when it says ``submitted`` (where every task starts) after the task
moved on. A late report goes into the history at its place in time and does not become the task's
status; the same report seen twice (state, agent time, message id) is kept once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from a2a.types import Message, Role, StreamResponse, Task, TaskArtifactUpdateEvent, TaskStatus

from workbench.core.protocols.a2a.convert import (
    INTERRUPTED_STATES,
    TERMINAL_STATES,
    message_text,
    part_to_content,
    parts_to_content,
    state_name,
    struct_to_python,
)
from workbench.core.protocols.a2a.task_view import ArtifactView, StatusEntry, TaskView, parse_timestamp
from workbench.core.protocols.base import ContentPart

__all__ = ["ArtifactChange", "ArtifactView", "Change", "StatusEntry", "TaskReducer", "TaskView"]


@dataclass(slots=True)
class ArtifactChange:
    """One artifact update, as the agent sent it (``parts`` is the delta when ``append``)."""

    artifact_id: str
    name: str | None
    parts: list[ContentPart]
    append: bool
    last_chunk: bool


@dataclass(slots=True)
class Change:
    """What one event changed.

    Attributes:
        task_id: The task it belongs to (``None`` for a message-only reply without a task).
        context_id: Its context id.
        state: The state after a status change or snapshot (``None`` for artifact updates and
            message-only replies).
        state_changed: The state differs from the one known before.
        status_message: A status message not seen before, if any.
        agent_messages: Agent messages newly seen in a snapshot's history (not the status message).
        artifacts: Artifact updates, in order.
        reply: The message of a message-only reply.
        view: The task's view after the event.
    """

    task_id: str | None = None
    context_id: str | None = None
    state: str | None = None
    state_changed: bool = False
    status_message: Message | None = None
    agent_messages: tuple[Message, ...] = ()
    artifacts: tuple[ArtifactChange, ...] = ()
    reply: Message | None = None
    view: TaskView | None = None


MAX_TASK_VIEWS = 1_000
"""Task views one agent keeps; past it the oldest ended task is forgotten (a long session stays bounded)."""


class TaskReducer:
    """Keeps a ``TaskView`` per task id from everything the client sees.

    Args:
        max_views: Most views kept; when a new task would pass it, the oldest ended task's view goes
            (the oldest view of all when none has ended).
    """

    def __init__(self, max_views: int = MAX_TASK_VIEWS) -> None:
        self.views: dict[str, TaskView] = {}
        self.max_views = max(1, max_views)

    def _keep(self, view: TaskView) -> None:
        """Add a new task's view, forgetting the oldest ended one when there are too many."""
        views = self.views
        views[view.task_id] = view
        if len(views) <= self.max_views:
            return
        old = next((tid for tid, v in views.items() if v.terminal and tid != view.task_id), None)
        if old is None:
            old = next(tid for tid in views if tid != view.task_id)
        del views[old]

    def get(self, task_id: str) -> TaskView | None:
        """The view of ``task_id``, if it was seen."""
        return self.views.get(task_id)

    def record_outgoing(self, message: Message) -> None:
        """Add a message the client sent to its task's history (if the task is known).

        The task's status message (the question a waiting task asked) joins the history first, as the
        server does when the message arrives: the answer comes after the question it answers.
        """
        if message.task_id and (view := self.views.get(message.task_id)) is not None:
            if (asked := view.status_message) is not None:
                view._add_message(asked)
            view._add_message(message)

    def apply(self, event: StreamResponse) -> Change:
        """Merge one ``StreamResponse`` and say what changed."""
        kind = event.WhichOneof("payload")
        if kind == "artifact_update":  # the hot path of long streams: keep it lean
            return self._apply_artifact(event.artifact_update)
        if kind == "task":
            return self.apply_task(event.task)
        if kind == "status_update":
            su = event.status_update
            return self._apply_status(su.task_id, su.context_id, su.status, dict(struct_to_python(su.metadata)))
        if kind == "artifact_update":
            return self._apply_artifact(event.artifact_update)
        if kind == "message":
            msg = event.message
            change = Change(task_id=msg.task_id or None, context_id=msg.context_id or None, reply=msg)
            if msg.task_id and (view := self.views.get(msg.task_id)) is not None:
                view._add_message(msg)
                change.view = view
            return change
        return Change()

    def apply_task(self, task: Task) -> Change:
        """Merge a full task snapshot (first stream event, subscribe, get, cancel, non-streaming send)."""
        view = self.views.get(task.id)
        change = Change(task_id=task.id, context_id=task.context_id)
        if view is None:
            view = TaskView(task_id=task.id, context_id=task.context_id)
            self._keep(view)
            old_state: str | None = None
        else:
            old_state = view.state
            if task.context_id:
                view.context_id = task.context_id
        status_msg_id = task.status.message.message_id if task.status.HasField("message") else None
        change.agent_messages = tuple(
            msg
            for msg in task.history
            if view._add_message(msg) and msg.role == Role.ROLE_AGENT and msg.message_id != status_msg_id
        )
        if task.HasField("metadata"):
            view.metadata = dict(struct_to_python(task.metadata))
        terminal = state_name(task.status.state) in TERMINAL_STATES
        changed: list[ArtifactChange] = []
        for art in task.artifacts:
            known = view.artifacts.get(art.artifact_id)
            if known is not None and known.artifact == art:
                if terminal:
                    known.complete = True
                continue
            content = parts_to_content(art.parts)
            av = ArtifactView.of(art, content)
            av.chunks = (known.chunks if known else 0) + 1
            av.complete = terminal
            view.artifacts[art.artifact_id] = av
            changed.append(ArtifactChange(art.artifact_id, av.name, content, False, terminal))
        change.artifacts = tuple(changed)
        self._set_status(view, task.status, change, old_state)
        change.view = view
        return change

    def apply_resent_task(self, task: Task, sent_message_id: str | None) -> Change:
        """Merge the snapshot an agent sends first when a waiting task is continued; report only what is new.

        Some agents (the JS SDK's) re-send the whole task before the new turn's events. What it holds
        from earlier turns was delivered already (to this client, or to an earlier run continued now
        from another process): the history up to the message just sent, the artifacts, and a status
        still waiting with the question just answered. They are merged without being reported again;
        history after the sent message and a status that moved on are new.

        Args:
            task: The snapshot (the first event of the continuation's stream, for the task continued).
            sent_message_id: The id of the message that continues the task.
        """
        view = self.views.get(task.id)
        if view is None:
            view = TaskView(task_id=task.id, context_id=task.context_id)
            self._keep(view)
        ids = [m.message_id for m in task.history]
        earlier = ids.index(sent_message_id) + 1 if sent_message_id and sent_message_id in ids else len(ids)
        for msg in task.history[:earlier]:
            view._add_message(msg)
        for art in task.artifacts:
            known = view.artifacts.get(art.artifact_id)
            if known is None or known.artifact != art:  # the agent's merge of chunks may differ from ours
                av = ArtifactView.of(art, parts_to_content(art.parts))
                av.chunks, av.complete = (known.chunks, known.complete) if known is not None else (1, True)
                view.artifacts[art.artifact_id] = av
        if not view.status_history and state_name(task.status.state) in INTERRUPTED_STATES:
            view.status = _copy(task.status)  # the question just answered: the earlier turn's status
        return self.apply_task(task)

    def _view_for(self, task_id: str, context_id: str) -> TaskView:
        view = self.views.get(task_id)
        if view is None:
            # An update for a task whose snapshot we never saw (e.g. a follow-up's first event).
            view = TaskView(task_id=task_id, context_id=context_id)
            self._keep(view)
        return view

    def _apply_status(self, task_id: str, context_id: str, status: TaskStatus, metadata: dict[str, Any]) -> Change:
        view = self._view_for(task_id, context_id)
        old_state = view.state if view.status_history else None
        change = Change(task_id=task_id, context_id=view.context_id or context_id)
        # The previous status message becomes history (the server does the same).
        if (prev := view.status_message) is not None:
            view._add_message(prev)
        if metadata:
            view.metadata.update(metadata)
        self._set_status(view, status, change, old_state)
        change.view = view
        return change

    def _set_status(self, view: TaskView, status: TaskStatus, change: Change, old_state: str | None) -> None:
        new_state = state_name(status.state)
        if old_state in TERMINAL_STATES and new_state != old_state:
            # A task that ended stays ended: a later status (a confused or replaying agent) is not applied.
            change.state, change.state_changed = old_state, False
            for av in view.artifacts.values():
                av.complete = True
            return
        timestamp = status.timestamp.ToJsonString() if status.HasField("timestamp") else None
        at = parse_timestamp(timestamp)
        if view.status_history and _is_late(view, new_state, at):
            self._record_late(view, new_state, timestamp, at, status)
            change.state, change.state_changed = None, False  # the task's state did not change with it
            return
        current_id = view.status.message.message_id if view.status.HasField("message") else None
        # A fresh copy each time, never CopyFrom into the old one: protobuf (upb) keeps what an
        # overwritten message held until the message itself goes, so 1,000 updates would cost 1,000
        # status messages. The copy is the one the history entry (and later ``messages``) refer to.
        view.status = _copy(status)
        message = view.status.message if view.status.HasField("message") else None
        fresh_message = message is not None and (
            not message.message_id or (not view.knows_message(message.message_id) and message.message_id != current_id)
        )
        if fresh_message:
            change.status_message = message
        last = view.status_history[-1] if view.status_history else None
        if last is None or last.state != new_state or (fresh_message and message is not None and message_text(message)):
            entry = StatusEntry(new_state, timestamp, message)
            if not view.knows_status(entry):
                view.record_status(entry)
        change.state = new_state
        change.state_changed = old_state != new_state
        if new_state in TERMINAL_STATES:
            for av in view.artifacts.values():
                av.complete = True

    @staticmethod
    def _record_late(view: TaskView, state: str, timestamp: str | None, at: float | None, status: TaskStatus) -> None:
        """Put a late report into the history where it belongs in time (see the module docstring)."""
        late = _copy(status)
        entry = StatusEntry(state, timestamp, late.message if late.HasField("message") else None)
        if view.knows_status(entry):
            return
        history = view.status_history
        beside: StatusEntry | None
        if at is None:  # "submitted" without a time: where the task started
            index, beside = 0, history[0]
        else:  # before the first report the agent timed later
            index = next((i for i, known in enumerate(history) if (t := known.at) is not None and t > at), len(history))
            beside = history[index - 1] if index > 0 else None
        if beside is not None and beside.state == state and entry.text is None:
            return  # the history already says so there
        view.record_status(entry, index)

    def merge_artifact(
        self, update: TaskArtifactUpdateEvent
    ) -> tuple[TaskView, ArtifactView, list[ContentPart], bool, bool]:
        """Merge one artifact chunk; the hot path of long streams.

        Returns:
            The task's view, the artifact's view, the chunk's parts (converted), whether they were
            appended (``False`` when they replaced the artifact or started it), and ``last_chunk``.
        """
        task_id = update.task_id
        view = self.views.get(task_id)
        if view is None:
            view = self._view_for(task_id, update.context_id)
        artifact = update.artifact
        artifact_id = artifact.artifact_id
        known = view.artifacts.get(artifact_id)
        content = [part_to_content(p) for p in artifact.parts]
        append = update.append
        if append and known is not None:
            known.content.extend(content)
            known._cache = None
            if known.name is None and artifact.name:
                known.name = known._base.name = artifact.name
            if artifact.HasField("metadata"):
                known._base.metadata.MergeFrom(artifact.metadata)
            av = known
        else:
            append = False  # a replacement, or an append to an artifact never seen: the parts are all there is
            av = ArtifactView.of(artifact, content)
            if known is not None:
                av.chunks = known.chunks
            view.artifacts[artifact_id] = av
        av.chunks += 1
        last_chunk = update.last_chunk
        if last_chunk or (view.status_history and view.state in TERMINAL_STATES):
            av.complete = True  # its last chunk, or the task has ended: nothing more will come
        return view, av, content, append, last_chunk

    def _apply_artifact(self, update: TaskArtifactUpdateEvent) -> Change:
        view, av, content, append, last_chunk = self.merge_artifact(update)
        return Change(
            view.task_id,
            view.context_id or update.context_id,
            artifacts=(ArtifactChange(av.artifact_id, av.name, content, append, last_chunk),),
            view=view,
        )


def _is_late(view: TaskView, state: str, at: float | None) -> bool:
    """Whether a report is older than what the view knows (see the module docstring)."""
    if at is not None:
        latest = view.latest_status_at
        return latest is not None and at < latest
    return state == "submitted" and view.state != "submitted"


def _copy(status: TaskStatus) -> TaskStatus:
    fresh = TaskStatus()
    fresh.CopyFrom(status)
    return fresh
