"""The client's own view of each A2A task, merged from stream events and task snapshots.

The SDK client does not merge events, so ``TaskReducer`` does: it keeps per task the status
history, every message (user and agent, de-duplicated by id), and artifacts grown chunk by chunk
(``append`` extends, otherwise replaces; ``last_chunk`` marks an artifact complete). ``apply``
returns a ``Change`` saying what is new, which ``translate`` turns into ``AgentEvent``s.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from a2a.types import Artifact, Message, Role, StreamResponse, Task, TaskStatus

from workbench.core.protocols.a2a.convert import (
    INTERRUPTED_STATES,
    TERMINAL_STATES,
    message_text,
    message_to_dict,
    parts_to_content,
    state_name,
    struct_to_python,
)
from workbench.core.protocols.base import ContentPart


@dataclass(slots=True)
class StatusEntry:
    """One status the task went through (as seen by this client).

    Attributes:
        state: Neutral state name.
        text: The status message's text, if any.
        timestamp: The agent's timestamp (RFC 3339), if it gave one.
        message: The status message (proto), if any.
    """

    state: str
    text: str | None = None
    timestamp: str | None = None
    message: Message | None = None

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out: dict[str, Any] = {"state": self.state}
        if self.text:
            out["text"] = self.text
        if self.timestamp:
            out["timestamp"] = self.timestamp
        return out


@dataclass(slots=True)
class ArtifactView:
    """An artifact as merged so far.

    Attributes:
        artifact_id: The artifact's id.
        name: Its name, if given.
        description: Its description, if given.
        chunks: How many updates built it.
        complete: ``last_chunk`` was seen (or the task ended).
        artifact: The merged proto ``Artifact``.
    """

    artifact_id: str
    name: str | None = None
    description: str | None = None
    chunks: int = 0
    complete: bool = False
    artifact: Artifact = field(default_factory=Artifact)

    @property
    def parts(self) -> list[ContentPart]:
        """The merged parts, converted."""
        return parts_to_content(self.artifact.parts)

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict."""
        out: dict[str, Any] = {
            "artifact_id": self.artifact_id,
            "chunks": self.chunks,
            "complete": self.complete,
            "parts": [p.to_dict() for p in self.parts],
        }
        if self.name:
            out["name"] = self.name
        if self.description:
            out["description"] = self.description
        return out


@dataclass(slots=True)
class TaskView:
    """One task as merged by this client.

    Attributes:
        task_id: The task id.
        context_id: The task's context id.
        status_history: Every state seen, oldest first (consecutive duplicates kept only when the
            message differs).
        messages: User and agent messages in order (de-duplicated by message id).
        artifacts: Artifacts by id, in order of first appearance.
        metadata: The task's metadata (last snapshot).
        status: The current proto status.
    """

    task_id: str
    context_id: str
    status_history: list[StatusEntry] = field(default_factory=list)
    messages: list[Message] = field(default_factory=list)
    artifacts: dict[str, ArtifactView] = field(default_factory=dict)
    metadata: dict[str, Any] = field(default_factory=dict)
    status: TaskStatus = field(default_factory=TaskStatus)
    _message_ids: set[str] = field(default_factory=set, repr=False)

    @property
    def state(self) -> str:
        """The current neutral state name."""
        return state_name(self.status.state)

    @property
    def terminal(self) -> bool:
        """The task has finished (completed, failed, canceled, rejected)."""
        return self.state in TERMINAL_STATES

    @property
    def interrupted(self) -> bool:
        """The task waits for input or authentication."""
        return self.state in INTERRUPTED_STATES

    @property
    def status_message(self) -> Message | None:
        """The current status message, if any."""
        return self.status.message if self.status.HasField("message") else None

    def to_task(self) -> Task:
        """Rebuild a proto ``Task`` from the view (what ``get_task`` would return, as far as seen)."""
        task = Task(id=self.task_id, context_id=self.context_id)
        task.status.CopyFrom(self.status)
        task.history.extend(self.messages)
        task.artifacts.extend(a.artifact for a in self.artifacts.values())
        if self.metadata:
            task.metadata.update(self.metadata)
        return task

    def to_dict(self) -> dict[str, Any]:
        """Return a JSON-ready dict (the task in camelCase wire form plus the client's bookkeeping)."""
        return {
            "task_id": self.task_id,
            "context_id": self.context_id,
            "state": self.state,
            "status_history": [s.to_dict() for s in self.status_history],
            "messages": [message_to_dict(m) for m in self.messages],
            "artifacts": [a.to_dict() for a in self.artifacts.values()],
        }

    def _add_message(self, message: Message) -> bool:
        if message.message_id and message.message_id in self._message_ids:
            return False
        if message.message_id:
            self._message_ids.add(message.message_id)
        self.messages.append(message)
        return True


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
        state: The state after the event (``None`` for message-only replies).
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
    agent_messages: list[Message] = field(default_factory=list)
    artifacts: list[ArtifactChange] = field(default_factory=list)
    reply: Message | None = None
    view: TaskView | None = None


class TaskReducer:
    """Keeps a ``TaskView`` per task id from everything the client sees."""

    def __init__(self) -> None:
        self.views: dict[str, TaskView] = {}

    def get(self, task_id: str) -> TaskView | None:
        """The view of ``task_id``, if it was seen."""
        return self.views.get(task_id)

    def record_outgoing(self, message: Message) -> None:
        """Add a message the client sent to its task's history (if the task is known)."""
        if message.task_id and (view := self.views.get(message.task_id)) is not None:
            view._add_message(message)

    def apply(self, event: StreamResponse) -> Change:
        """Merge one ``StreamResponse`` and say what changed."""
        kind = event.WhichOneof("payload")
        if kind == "task":
            return self.apply_task(event.task)
        if kind == "status_update":
            su = event.status_update
            return self._apply_status(su.task_id, su.context_id, su.status, dict(struct_to_python(su.metadata)))
        if kind == "artifact_update":
            au = event.artifact_update
            return self._apply_artifact(au.task_id, au.context_id, au.artifact, au.append, au.last_chunk)
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
            self.views[task.id] = view
            old_state: str | None = None
        else:
            old_state = view.state
            if task.context_id:
                view.context_id = task.context_id
        status_msg_id = task.status.message.message_id if task.status.HasField("message") else None
        for msg in task.history:
            if view._add_message(msg) and msg.role == Role.ROLE_AGENT and msg.message_id != status_msg_id:
                change.agent_messages.append(msg)
        if task.HasField("metadata"):
            view.metadata = dict(struct_to_python(task.metadata))
        terminal = state_name(task.status.state) in TERMINAL_STATES
        for art in task.artifacts:
            known = view.artifacts.get(art.artifact_id)
            if known is not None and known.artifact == art:
                if terminal:
                    known.complete = True
                continue
            av = ArtifactView(art.artifact_id, art.name or None, art.description or None)
            av.artifact.CopyFrom(art)
            av.chunks = (known.chunks if known else 0) + 1
            av.complete = terminal
            view.artifacts[art.artifact_id] = av
            change.artifacts.append(
                ArtifactChange(art.artifact_id, art.name or None, parts_to_content(art.parts), False, terminal)
            )
        self._set_status(view, task.status, change, old_state)
        change.view = view
        return change

    def _view_for(self, task_id: str, context_id: str) -> TaskView:
        view = self.views.get(task_id)
        if view is None:
            # An update for a task whose snapshot we never saw (e.g. a follow-up's first event).
            view = TaskView(task_id=task_id, context_id=context_id)
            self.views[task_id] = view
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
        message = status.message if status.HasField("message") else None
        fresh_message = message is not None and (not message.message_id or message.message_id not in view._message_ids)
        view.status.CopyFrom(status)
        if message is not None and message.message_id:
            view._message_ids.add(message.message_id)
        if fresh_message:
            change.status_message = message
        text = message_text(message) if message is not None else None
        last = view.status_history[-1] if view.status_history else None
        if last is None or last.state != new_state or (fresh_message and text):
            timestamp = status.timestamp.ToJsonString() if status.HasField("timestamp") else None
            view.status_history.append(StatusEntry(new_state, text or None, timestamp, message))
        change.state = new_state
        change.state_changed = old_state != new_state
        if new_state in TERMINAL_STATES:
            for av in view.artifacts.values():
                av.complete = True

    def _apply_artifact(
        self, task_id: str, context_id: str, artifact: Artifact, append: bool, last_chunk: bool
    ) -> Change:
        view = self._view_for(task_id, context_id)
        change = Change(task_id=task_id, context_id=view.context_id or context_id, state=None)
        known = view.artifacts.get(artifact.artifact_id)
        if append and known is not None:
            known.artifact.parts.extend(artifact.parts)
            if artifact.name and not known.artifact.name:
                known.artifact.name = artifact.name
                known.name = artifact.name
            if artifact.HasField("metadata"):
                known.artifact.metadata.MergeFrom(artifact.metadata)
            av = known
        else:
            av = ArtifactView(artifact.artifact_id, artifact.name or None, artifact.description or None)
            av.artifact.CopyFrom(artifact)
            if known is not None:
                av.chunks = known.chunks
            view.artifacts[artifact.artifact_id] = av
        av.chunks += 1
        if last_chunk:
            av.complete = True
        change.state = view.state if view.status_history else None
        change.artifacts.append(
            ArtifactChange(
                artifact.artifact_id, av.name, parts_to_content(artifact.parts), bool(append and known), last_chunk
            )
        )
        change.view = view
        return change
