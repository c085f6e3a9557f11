"""``Conversation``: the reducer that turns what the user sent and the agent's events into transcript items.

How items arise::

    user sends text            add_user_message()   → UserMessage      (starts a Turn)
    user answers a paused task add_answer()         → Answer           (starts a Turn on that task)
    a handler answered a question record_answer()   → Answer           (in the running turn)
    TextDelta                  apply()              → AgentMessage     (chunks appended; a new one
                                                                         starts after any other item)
    StatusChanged              apply()              → StatusLine       (not for a final state: the
                                                                         Completion/Failure says it)
    ArtifactUpdated            apply()              → Artifact         (``append`` chunks grow the
                                                                         same item, by artifact id)
    ProgressReported           apply()              → Progress         (one per turn, updated)
    LogMessage                 apply()              → LogLine
    ToolCallRequested          apply()              → ToolCall
    ToolCallAnswered           apply()              → ToolCall         (its ``result`` set, in place)
    Elicitation/Sampling/InputRequired/AuthRequired → Question     (``status`` pending →
                                                                         answered / waiting)
    Completed                  apply()              → Completion       (ends the turn)
    Failed                     apply()              → Failure          (ends the turn)
    the caller stopped it      end_turn()           → Completion       (state ``canceled``)
    an error before any event  fail()               → Failure

Every mutating call returns the ``ItemChange``s it caused (an index appended or updated) so a view
can redraw only what changed. A turn keeps the task and context ids its events carried; a turn that
ended ``input_required`` / ``auth_required`` leaves ``waiting_task_id`` set, and the next
``add_answer`` continues that task.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from workbench.core.conversation.items import (
    AgentMessage,
    Answer,
    AnyItem,
    Artifact,
    Completion,
    Failure,
    ItemChange,
    ItemKind,
    LogLine,
    Progress,
    Question,
    RequestKind,
    StatusLine,
    ToolCall,
    UserMessage,
    answer_tool_call,
)
from workbench.core.protocols.base import (
    AgentEvent,
    ArtifactUpdated,
    AuthRequired,
    Completed,
    ElicitationRequested,
    Failed,
    InputRequired,
    LogMessage,
    ProgressReported,
    SamplingRequested,
    StatusChanged,
    TextDelta,
    ToolCallAnswered,
    ToolCallRequested,
)

WAITING_STATES = frozenset({"input_required", "auth_required"})
"""Completion states that mean the task is paused, waiting for the user."""
FINAL_STATES = frozenset({"completed", "failed", "canceled", "rejected"})
"""Task states that end it: the turn's Completion (or Failure) line says them, no status line does."""


@dataclass(slots=True)
class Turn:
    """One exchange: what the user sent and everything the agent answered until it ended or paused.

    Attributes:
        index: Position in ``Conversation.turns``.
        prompt: The text the user sent.
        continues_task: The waiting task this turn answers, if any.
        task_id: The task the agent's events named (the latest one).
        context_id: The context the agent's events named.
        state: ``running`` until the turn ends, then the final state.
        started_at: Wall-clock start.
        ended_at: Wall-clock end, once ended.
        first_item: Index of the turn's first item.
        reported_state: The final state a status change announced (shown by the turn's last line).
    """

    index: int
    prompt: str
    continues_task: str | None = None
    task_id: str | None = None
    context_id: str | None = None
    state: str = "running"
    started_at: float = field(default_factory=time.time)
    ended_at: float | None = None
    first_item: int = 0
    reported_state: str | None = None

    @property
    def running(self) -> bool:
        """Whether the turn has not ended."""
        return self.state == "running"


# --------------------------------------------------------------------------- the conversation


class Conversation:
    """An ordered transcript of user messages and agent events, for either protocol.

    Args:
        title: A label for the conversation (the connection's name, say).
    """

    def __init__(self, title: str = "") -> None:
        self.title = title
        self.items: list[AnyItem] = []
        self.turns: list[Turn] = []
        self._artifacts: dict[tuple[int, str], int] = {}
        self._progress: dict[int, int] = {}
        self._open_message: int | None = None
        self._pending_requests: list[int] = []

    # ------------------------------------------------------------------ reading

    def __len__(self) -> int:
        return len(self.items)

    def __iter__(self) -> Iterator[AnyItem]:
        return iter(self.items)

    def __getitem__(self, index: int) -> AnyItem:
        return self.items[index]

    @property
    def current_turn(self) -> Turn | None:
        """The last turn, if any."""
        return self.turns[-1] if self.turns else None

    @property
    def running(self) -> bool:
        """Whether the last turn is still receiving events."""
        turn = self.current_turn
        return turn is not None and turn.running

    @property
    def waiting_task_id(self) -> str | None:
        """The task paused in ``input_required`` / ``auth_required`` at the end of the last turn."""
        turn = self.current_turn
        if turn is None or turn.state not in WAITING_STATES:
            return None
        return turn.task_id

    @property
    def waiting_request(self) -> Question | None:
        """The question the waiting task asked (the last request of the last turn), if any."""
        if self.waiting_task_id is None:
            return None
        for item in reversed(self.items):
            if isinstance(item, Question):
                return item
            if isinstance(item, UserMessage | Answer):
                break
        return None

    def items_of_kind(self, kind: ItemKind) -> list[AnyItem]:
        """Every item of ``kind``, in order."""
        return [item for item in self.items if item.kind is kind]

    def messages(self) -> list[tuple[str, str]]:
        """The conversation as ``(role, text)`` pairs, for handing it to another agent.

        ``user`` for messages and answers, ``agent`` for agent text; everything else is left out.
        """
        out: list[tuple[str, str]] = []
        for item in self.items:
            if isinstance(item, UserMessage | Answer):
                out.append(("user", item.text))
            elif isinstance(item, AgentMessage) and item.text:
                out.append(("agent", item.text))
        return out

    def to_dicts(self) -> list[dict[str, Any]]:
        """Every item as a JSON-ready dict."""
        return [item.to_dict() for item in self.items]

    # ------------------------------------------------------------------ user side

    def add_user_message(self, text: str) -> list[ItemChange]:
        """Start a turn with the user's ``text``.

        Raises:
            ValueError: The previous turn is still running.
        """
        turn = self._start_turn(text, continues_task=None)
        return [*self._close_message(), self._append(UserMessage(text=text, turn=turn.index))]

    def add_answer(self, text: str, *, data: Any = None) -> list[ItemChange]:
        """Start a turn that answers the waiting task (``waiting_task_id``) with ``text`` / ``data``.

        Raises:
            ValueError: No task is waiting, or the previous turn is still running.
        """
        task_id = self.waiting_task_id
        if task_id is None:
            raise ValueError("no task is waiting for an answer")
        previous = self.current_turn
        request = self.waiting_request
        turn = self._start_turn(text, continues_task=task_id)
        turn.task_id = task_id
        turn.context_id = previous.context_id if previous else None
        changes: list[ItemChange] = []
        if request is not None and request.status != "answered":
            request.status = "answered"
            changes.append(ItemChange(self.items.index(request), "updated"))
        answer = Answer(text=text, data=data, turn=turn.index, task_id=task_id, context_id=turn.context_id)
        return [*changes, self._append(answer)]

    def record_answer(self, request: Any, text: str, *, data: Any = None) -> list[ItemChange]:
        """Show what the user answered to a question a handler asked while the turn runs (a dialog).

        Args:
            request: The request object of the question (``Question.request``: the very object
                the event carried and the handler was given).
            text: The answer as the user reads it.
            data: The structured answer, if any.

        Returns:
            The changes; none when no question of this conversation carries ``request``.
        """
        for index in range(len(self.items) - 1, -1, -1):
            item = self.items[index]
            if isinstance(item, Question) and item.request is request:
                break
        else:
            return []
        changes = self._close_message()
        if item.status != "answered":
            item.status = "answered"
            changes.append(ItemChange(index, "updated"))
        if index in self._pending_requests:
            self._pending_requests.remove(index)
        turn = self.current_turn
        turn_index = turn.index if turn is not None else item.turn
        answer = Answer(text=text, data=data, turn=turn_index, task_id=item.task_id, context_id=item.context_id)
        changes.append(self._append(answer))
        return changes

    def end_turn(self, state: str = "canceled", text: str = "") -> list[ItemChange]:
        """End the running turn without a final event (the caller stopped reading, e.g. cancel).

        A turn whose task already announced a final state ends in that state, not ``incomplete``.
        """
        turn = self.current_turn
        if turn is None or not turn.running:
            return []
        if state == "incomplete" and turn.reported_state is not None:
            state = turn.reported_state
        changes = self._close_message()
        item = Completion(state=state, text=text, turn=turn.index, task_id=turn.task_id, context_id=turn.context_id)
        changes.append(self._append(item))
        changes += self._finish(turn, state)
        return changes

    def fail(self, error: BaseException, *, code: str | None = None) -> list[ItemChange]:
        """End the running turn with ``error`` (raised before or instead of a ``Failed`` event).

        Starts a turn first when none is running, so the failure still shows in the transcript.
        """
        turn = self.current_turn
        if turn is None or not turn.running:
            turn = self._start_turn("", continues_task=None)
        changes = self._close_message()
        changes.append(self._append(_failure(error, code, "", turn)))
        changes += self._finish(turn, "failed")
        return changes

    # ------------------------------------------------------------------ agent side

    def apply(self, event: AgentEvent) -> list[ItemChange]:
        """Add what ``event`` says to the transcript.

        Events arriving with no running turn (a stray notification) open a turn with an empty prompt.

        Returns:
            The changes, in order (indexes into ``items``).
        """
        turn = self.current_turn
        if turn is None or not turn.running:
            turn = self._start_turn("", continues_task=None)
        if event.task_id is not None:
            turn.task_id = event.task_id
        if event.context_id is not None:
            turn.context_id = event.context_id
        if isinstance(event, TextDelta):
            return self._text(event, turn)
        final = isinstance(event, Completed | Failed)
        changes = [] if final else self._settle_requests()
        if isinstance(event, ArtifactUpdated):
            return changes + self._artifact(event, turn)
        if isinstance(event, ProgressReported):
            return changes + self._progress_update(event, turn)
        changes += self._close_message()
        common: dict[str, Any] = {"turn": turn.index, "task_id": event.task_id, "context_id": event.context_id}
        if isinstance(event, StatusChanged):
            if event.state in FINAL_STATES:
                turn.reported_state = event.state  # the Completion / Failure line that follows says it
            else:
                changes.append(self._append(StatusLine(state=event.state, message=event.message, **common)))
        elif isinstance(event, LogMessage):
            changes.append(self._append(LogLine(level=event.level, logger=event.logger, data=event.data, **common)))
        elif isinstance(event, ToolCallRequested):
            tool = ToolCall(name=event.name, arguments=dict(event.arguments), call_id=event.call_id, **common)
            changes.append(self._append(tool))
        elif isinstance(event, ToolCallAnswered):
            index = answer_tool_call(self.items, event.call_id, event.name, event.text, event.is_error)
            changes += [] if index is None else [ItemChange(index, "updated")]
        elif isinstance(event, ElicitationRequested | SamplingRequested | InputRequired | AuthRequired):
            changes.append(self._append(_request_item(event, common)))
            self._pending_requests.append(len(self.items) - 1)
        elif isinstance(event, Completed):
            changes += self._completed(event, turn, common)
        elif isinstance(event, Failed):
            code = getattr(event.error, "code", None)
            changes.append(self._append(_failure(event.error, code, event.message, turn, common)))
            changes += self._finish(turn, "failed")
        return changes

    # ------------------------------------------------------------------ internals

    def _start_turn(self, prompt: str, *, continues_task: str | None) -> Turn:
        current = self.current_turn
        if current is not None and current.running:
            raise ValueError("the previous turn is still running")
        turn = Turn(index=len(self.turns), prompt=prompt, continues_task=continues_task, first_item=len(self.items))
        self.turns.append(turn)
        return turn

    def _append(self, item: AnyItem) -> ItemChange:
        self.items.append(item)
        return ItemChange(len(self.items) - 1, "appended")

    def _close_message(self) -> list[ItemChange]:
        """The streaming agent message (if any) ends: the next text starts a new one."""
        index = self._open_message
        if index is None:
            return []
        self._open_message = None
        message = self.items[index]
        assert isinstance(message, AgentMessage)
        message.streaming = False
        return [ItemChange(index, "updated")]

    def _settle_requests(self) -> list[ItemChange]:
        """The stream went on after a question: a handler answered it."""
        changes = []
        for index in self._pending_requests:
            item = self.items[index]
            assert isinstance(item, Question)
            if item.status == "pending":
                item.status = "answered"
                changes.append(ItemChange(index, "updated"))
        self._pending_requests.clear()
        return changes

    def _text(self, event: TextDelta, turn: Turn) -> list[ItemChange]:
        index = self._open_message
        if index is not None and index == len(self.items) - 1:
            message = self.items[index]
            assert isinstance(message, AgentMessage)
            message.chunks.append(event.text)
            return [ItemChange(index, "updated")]
        changes = self._settle_requests() + self._close_message()
        message = AgentMessage(turn=turn.index, task_id=event.task_id, context_id=event.context_id)
        message.chunks.append(event.text)
        changes.append(self._append(message))
        self._open_message = len(self.items) - 1
        return changes

    def _artifact(self, event: ArtifactUpdated, turn: Turn) -> list[ItemChange]:
        key = (turn.index, event.artifact_id)
        index = self._artifacts.get(key)
        if index is None:
            changes = self._close_message()
            item = Artifact(
                artifact_id=event.artifact_id,
                name=event.name,
                turn=turn.index,
                task_id=event.task_id,
                context_id=event.context_id,
            )
            item.add(list(event.parts), replace=False)
            item.last_chunk = event.last_chunk
            changes.append(self._append(item))
            self._artifacts[key] = len(self.items) - 1
            return changes
        artifact = self.items[index]
        assert isinstance(artifact, Artifact)
        artifact.add(list(event.parts), replace=not event.append)
        if event.name:
            artifact.name = event.name
        artifact.last_chunk = event.last_chunk
        return [ItemChange(index, "updated")]

    def _progress_update(self, event: ProgressReported, turn: Turn) -> list[ItemChange]:
        index = self._progress.get(turn.index)
        if index is None:
            changes = self._close_message()
            item = Progress(
                progress=event.progress,
                total=event.total,
                message=event.message,
                turn=turn.index,
                task_id=event.task_id,
                context_id=event.context_id,
            )
            changes.append(self._append(item))
            self._progress[turn.index] = len(self.items) - 1
            return changes
        progress = self.items[index]
        assert isinstance(progress, Progress)
        progress.progress = event.progress
        progress.total = event.total if event.total is not None else progress.total
        progress.message = event.message if event.message is not None else progress.message
        progress.updates += 1
        return [ItemChange(index, "updated")]

    def _completed(self, event: Completed, turn: Turn, common: dict[str, Any]) -> list[ItemChange]:
        result = event.result
        if result.task_id is not None:
            turn.task_id = result.task_id
        if result.context_id is not None:
            turn.context_id = result.context_id
        shown = (AgentMessage, Artifact, Question)  # the result text repeats what these showed
        echoed = any(isinstance(item, shown) for item in self.items[turn.first_item :])
        item = Completion(state=result.state, text=result.text, echoed=echoed, result=result, **common)
        changes = [self._append(item)]
        return changes + self._finish(turn, result.state)

    def _finish(self, turn: Turn, state: str) -> list[ItemChange]:
        changes = self._close_message()
        turn.state = state
        turn.ended_at = time.time()
        for (turn_index, _), index in self._artifacts.items():
            artifact = self.items[index]
            if turn_index == turn.index and isinstance(artifact, Artifact) and not artifact.last_chunk:
                changes.append(ItemChange(index, "updated"))  # no longer streaming, though never marked last
        for index in self._pending_requests:
            item = self.items[index]
            assert isinstance(item, Question)
            if item.status == "pending":
                item.status = "waiting" if state in WAITING_STATES else "answered"
                changes.append(ItemChange(index, "updated"))
        self._pending_requests.clear()
        return changes


def _request_item(
    event: ElicitationRequested | SamplingRequested | InputRequired | AuthRequired, common: dict[str, Any]
) -> Question:
    if isinstance(event, ElicitationRequested):
        req = event.request
        text = req.message if req.mode == "form" else f"{req.message}\n{req.url or ''}".strip()
        return Question(request_kind="elicitation", text=text, schema=req.requested_schema, request=req, **common)
    if isinstance(event, SamplingRequested):
        sampling = event.request
        lines = [f"{m.role}: " + "".join(p.text or "" for p in m.content) for m in sampling.messages]
        return Question(request_kind="sampling", text="\n".join(lines), request=sampling, **common)
    kind: RequestKind = "auth" if isinstance(event, AuthRequired) else "input"
    asked = event.request
    return Question(request_kind=kind, text=asked.text, schema=asked.schema, data=asked.data, request=asked, **common)


def _failure(
    error: BaseException, code: str | None, message: str, turn: Turn, common: dict[str, Any] | None = None
) -> Failure:
    common = common or {"turn": turn.index, "task_id": turn.task_id, "context_id": turn.context_id}
    text = message or getattr(error, "message", None) or str(error) or type(error).__name__
    hint = getattr(error, "hint", None)
    return Failure(
        code=code or getattr(error, "code", None) or "internal",
        message=str(text),
        hint=hint if isinstance(hint, str) else None,
        error=error,
        **common,
    )
