"""ChatViewModel: one conversation per connection, streams started and cancelled, the input's state.

The view-model owns no widgets. It turns ``send(text)`` into ``agent.stream_async(...)`` on the
selected connection, feeds every ``AgentEvent`` into that connection's ``Conversation`` and tells
the widget *that* something changed (``items_changed``, at most once until the widget takes the
changes with ``take_changes``), so a stream of thousands of chunks costs one signal per redraw.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncGenerator
from contextlib import aclosing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import anyio
from PySide6.QtCore import QObject, Signal

from workbench.core.conversation import Artifact, Conversation, ItemChange, Question, answer_text
from workbench.core.errors import UsageError, WorkbenchError
from workbench.core.events import ConnectionState, ConnectionStateChanged
from workbench.core.protocols.base import AgentEvent, Failed, InputRequest, InputResponse
from workbench.core.protocols.contract import RemoteAgent
from workbench.ui.asyncutil import spawn
from workbench.ui.context import PanelContext
from workbench.ui.errors import connection_state_text
from workbench.ui.names import connection_name
from workbench.ui.panels.chat.model_chat import ModelChats, ModelPicker

log = logging.getLogger(__name__)

NO_SELECTION = "Select a connection to chat with it."
NO_ENTRY_POINT = "This server has no agent entry point (tools: {tools}). Use the Inspector's Tools tab to call a tool."
PICK_A_MODEL = "Or pick a model above to chat through its tools."
SAVE_A_MODEL = "Or add a model endpoint (Model endpoints…) to chat through its tools."


@dataclass(frozen=True, slots=True)
class InputState:
    """Whether the chat input accepts a message, and if not, why (shown to the user as is).

    Attributes:
        enabled: The user may type and send.
        reason: Why not (empty when enabled).
        waiting: A paused task waits for the next message as its answer.
    """

    enabled: bool
    reason: str = ""
    waiting: bool = False


@dataclass(slots=True)
class _Session:
    """Chat state of one connection (kept while the user looks at other connections)."""

    conversation: Conversation
    task: asyncio.Task[None] | None = None
    dirty: set[int] = field(default_factory=set)
    notified: bool = False
    generation: int = 0
    draft: tuple[object, dict[str, Any]] | None = None
    """What the user typed in a question's form before closing it: the request, and the values."""


class ChatViewModel(QObject):
    """State and commands of the chat pane (one ``Conversation`` per connection id).

    Signals:
        current_changed(object): The connection the pane shows changed (``str | None``).
        conversation_reset(object): The conversation of a connection id was replaced (redraw all).
        items_changed(object): The conversation of a connection id has changes not yet taken
            (emitted once until ``take_changes`` is called).
        streaming_changed(object, bool): A connection's stream started or ended.
        turn_finished(object, str): A connection's turn ended, with its final state
            (``completed``, ``input_required``, ``failed``, ``canceled`` ...).
        input_state_changed(object): The ``InputState`` of the current connection changed.
    """

    current_changed = Signal(object)
    conversation_reset = Signal(object)
    items_changed = Signal(object)
    streaming_changed = Signal(object, bool)
    turn_finished = Signal(object, str)
    input_state_changed = Signal(object)

    def __init__(self, ctx: PanelContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ctx = ctx
        self._sessions: dict[str, _Session] = {}
        self._current: str | None = None
        self._input_state = InputState(False, NO_SELECTION)
        self.models = ModelChats(ctx.services)
        """The model chatting for each MCP server without an entry point (picked in the pane)."""
        ctx.selection.changed.connect(self.on_selection_changed)
        ctx.bridge.connection_state_changed.connect(self.on_bridge_connection_state_changed)
        self.select(ctx.selection.current)

    # ------------------------------------------------------------------ reading

    @property
    def current(self) -> str | None:
        """The connection id the pane shows."""
        return self._current

    def conversation(self, connection_id: str | None = None) -> Conversation | None:
        """The conversation of ``connection_id`` (default: the current one), created on first use."""
        cid = connection_id if connection_id is not None else self._current
        if cid is None:
            return None
        return self._session(cid).conversation

    def is_streaming(self, connection_id: str | None = None) -> bool:
        """Whether a stream runs for ``connection_id`` (default: the current one)."""
        cid = connection_id if connection_id is not None else self._current
        session = self._sessions.get(cid) if cid is not None else None
        return session is not None and session.task is not None and not session.task.done()

    def input_state(self) -> InputState:
        """Whether the current connection accepts a message, and why not."""
        return self._input_state

    def take_changes(self, connection_id: str) -> set[int]:
        """Indexes of items updated in place since the last call; re-arms ``items_changed``.

        Appended items are not listed: they are the items past the count the caller has drawn.
        """
        session = self._session(connection_id)
        dirty = session.dirty
        session.dirty = set()
        session.notified = False
        return dirty

    # ------------------------------------------------------------------ commands

    def select(self, connection_id: str | None) -> None:
        """Show ``connection_id``'s conversation (its transcript is kept when switching away)."""
        if connection_id == self._current and connection_id is not None:
            return
        self._current = connection_id
        if connection_id is not None:
            self._session(connection_id)
        self.current_changed.emit(connection_id)
        self._refresh_input_state()

    def send(self, text: str) -> bool:
        """Send ``text`` to the current connection's agent; returns False when it cannot be sent now.

        If the last turn left a task waiting for input (A2A ``input_required``), ``text`` answers
        it: a JSON object becomes the answer's data when the agent asked with a schema.
        """
        cid = self._current
        if cid is None or not text.strip() or self.is_streaming(cid) or not self._input_state.enabled:
            return False
        conn = self._ctx.services.connections.get(cid)
        agent = conn.agent if conn is not None else None
        if conn is None or agent is None:
            return False
        session = self._session(cid)
        conv = session.conversation
        task_id = conv.waiting_task_id
        stream: AsyncGenerator[AgentEvent, None]
        if ModelChats.applies(agent):  # a model chats through the server's tools
            self._record(cid, session, conv.add_user_message(text))
            stream = self.models.turn(cid, agent, text)
        elif agent.features.tasks and task_id is not None:
            request = conv.waiting_request
            data = _json_object(text) if request is not None and request.schema is not None else None
            self._record(cid, session, conv.add_answer(text, data=data))
            answer = InputResponse(data=data) if data is not None else InputResponse(text=text)
            stream = agent.stream_async(answer, task_id=task_id, cancel_on_exit=True)
        else:
            self._record(cid, session, conv.add_user_message(text))
            stream = agent.stream_async(text, cancel_on_exit=True)
        self._start(cid, session, stream, doing=f"chatting with {conn.profile.name}")
        return True

    def model_picker(self) -> ModelPicker | None:
        """The models to pick from for the current connection, when it is an MCP server without an entry point."""
        cid = self._current
        conn = self._ctx.services.connections.get(cid) if cid is not None else None
        if cid is None or conn is None or not ModelChats.applies(conn.agent):
            return None
        return self.models.picker(cid)

    def choose_model(self, name: str | None) -> None:
        """Let the saved model ``name`` chat for the current connection (``None``: none); its conversation restarts."""
        cid = self._current
        if cid is None or self.is_streaming(cid):
            return
        self.models.choose(cid, name)
        self._refresh_input_state()

    def waiting_form(self, typed: str = "") -> tuple[InputRequest, dict[str, Any] | None] | None:
        """The question the current connection's waiting task asked, when a form (or data object) answers it.

        Args:
            typed: What is in the chat's input: a JSON object there fills the form's fields too.

        Returns:
            The question, and the values to open its form with (what was typed in the form before
            it was closed, overlaid with a JSON object typed in the chat); None when no such
            question waits (or a reply is streaming).
        """
        cid = self._current
        if cid is None or self.is_streaming(cid) or not self._input_state.waiting:
            return None
        session = self._session(cid)
        question = session.conversation.waiting_request
        request = question.request if question is not None else None
        if not isinstance(request, InputRequest) or request.kind != "input":
            return None
        if not isinstance(request.schema, dict) and not isinstance(request.data, dict):
            return None
        values: dict[str, Any] = {}
        if session.draft is not None and session.draft[0] is request:
            values.update(session.draft[1])
        values.update(_json_object(typed) or {})
        return request, values or None

    def answer(self, request: InputRequest, response: InputResponse) -> bool:
        """Answer the current connection's waiting task with ``response`` (from its form); False when it cannot.

        The transcript shows the answer as the form's values read (``answer_text``), then the message
        sent along, if any.
        """
        cid = self._current
        waiting = self.waiting_form()
        if cid is None or waiting is None or waiting[0] is not request or response.cancel:
            return False
        if response.data is None and not response.text:
            return False
        conn = self._ctx.services.connections.get(cid)
        agent = conn.agent if conn is not None else None
        session = self._session(cid)
        task_id = session.conversation.waiting_task_id
        if conn is None or agent is None or task_id is None:
            return False
        shown = answer_text(response.data, request.schema) if response.data is not None else ""
        if response.text:
            shown = f"{shown}\n{response.text}" if shown else response.text
        session.draft = None
        self._record(cid, session, session.conversation.add_answer(shown, data=response.data))
        stream = agent.stream_async(response, task_id=task_id, cancel_on_exit=True)
        self._start(cid, session, stream, doing=f"chatting with {conn.profile.name}")
        return True

    def play(self, connection_id: str, prompt: str, events: AsyncGenerator[AgentEvent, None]) -> asyncio.Task[None]:
        """Feed an event stream into ``connection_id``'s conversation as the answer to ``prompt``.

        ``send`` uses the same path with the agent's stream; this entry point replays recorded or
        generated events (benchmarks, demos) without a live agent.

        Raises:
            UsageError: A stream already runs for ``connection_id``.
        """
        if self.is_streaming(connection_id):
            raise UsageError("A reply is still streaming on this connection.", hint="cancel it first")
        session = self._session(connection_id)
        self._record(connection_id, session, session.conversation.add_user_message(prompt))
        return self._start(connection_id, session, events, doing="playing a conversation")

    def cancel(self, connection_id: str | None = None) -> bool:
        """Stop the running stream of ``connection_id`` (default: current); the agent cancels the task.

        Returns:
            Whether a stream was running.
        """
        cid = connection_id if connection_id is not None else self._current
        session = self._sessions.get(cid) if cid is not None else None
        if session is None or session.task is None or session.task.done():
            return False
        session.task.cancel()
        return True

    def new_conversation(self, connection_id: str | None = None) -> None:
        """Start over: a fresh transcript, and for A2A a new context on the agent."""
        cid = connection_id if connection_id is not None else self._current
        if cid is None:
            return
        self.cancel(cid)
        old = self._sessions.get(cid)
        conn = self._ctx.services.connections.get(cid)
        agent = conn.agent if conn is not None else None
        if agent is not None:
            agent.new_conversation()
        self.models.forget(cid)
        title = connection_name(self._ctx.services, cid)
        self._sessions[cid] = _Session(Conversation(title), generation=(old.generation + 1) if old else 0)
        self.conversation_reset.emit(cid)
        if cid == self._current:
            self._refresh_input_state()

    async def save_artifact(self, connection_id: str, index: int, path: str | Path) -> Path:
        """Write the artifact at item ``index`` of ``connection_id``'s conversation to ``path``.

        Raises:
            UsageError: The item is not an artifact.
            OSError: The file could not be written.
        """
        item = self._session(connection_id).conversation[index]
        if not isinstance(item, Artifact):
            raise UsageError(f"Item {index} is not an artifact.")
        payload, _ = item.export()
        target = Path(path)
        await anyio.to_thread.run_sync(target.write_bytes, payload)
        return target

    # ------------------------------------------------------------------ slots

    def on_selection_changed(self, connection_id: str | None) -> None:
        """Follow the window's connection selection."""
        self.select(connection_id)

    def on_prompts_request_answered(self, request: object, text: str, data: object) -> None:
        """The user answered a peer's question in a dialog: show the answer where the question is."""
        for cid, session in list(self._sessions.items()):
            changes = session.conversation.record_answer(request, text, data=data)
            if changes:
                self._record(cid, session, changes)
                return

    def on_prompts_request_deferred(self, request: object, draft: object) -> None:
        """The user closed a question's form to answer later: keep what they typed for "Answer in a form…"."""
        self.keep_draft(request, draft)

    def keep_draft(self, request: object, draft: object) -> None:
        """Keep ``draft`` (a JSON object typed in ``request``'s form) to open the form with it again."""
        if not isinstance(draft, dict):
            return
        for session in self._sessions.values():
            items = session.conversation.items
            if any(isinstance(item, Question) and item.request is request for item in reversed(items)):
                session.draft = (request, dict(draft))
                return

    def on_bridge_connection_state_changed(self, event: ConnectionStateChanged) -> None:
        """A connection changed state: the input may become (un)available."""
        if event.connection_id == self._current:
            self._refresh_input_state()

    # ------------------------------------------------------------------ internals

    def _session(self, cid: str) -> _Session:
        session = self._sessions.get(cid)
        if session is None:
            session = _Session(Conversation(connection_name(self._ctx.services, cid)))
            self._sessions[cid] = session
        return session

    def _record(self, cid: str, session: _Session, changes: list[ItemChange]) -> None:
        for change in changes:
            if change.action == "updated":
                session.dirty.add(change.index)
        if changes and not session.notified and self._sessions.get(cid) is session:
            session.notified = True
            self.items_changed.emit(cid)

    def _start(
        self, cid: str, session: _Session, stream: AsyncGenerator[AgentEvent, None], *, doing: str
    ) -> asyncio.Task[None]:
        task = spawn(self._consume(cid, session, stream, doing), doing=doing, name=f"chat-{cid}")
        session.task = task
        self.streaming_changed.emit(cid, True)
        if cid == self._current:
            self._refresh_input_state()
        return task

    async def _consume(self, cid: str, session: _Session, stream: AsyncGenerator[AgentEvent, None], doing: str) -> None:
        conv = session.conversation
        record = self._record
        try:
            async with aclosing(stream) as events:  # closing runs the agent's cancel
                async for event in events:
                    record(cid, session, conv.apply(event))
                    if isinstance(event, Failed) and isinstance(event.error, WorkbenchError):
                        self._ctx.errors.report(event.error, doing, connection_id=cid, inline=True)
        except asyncio.CancelledError:
            record(cid, session, conv.end_turn("canceled"))
            raise
        except WorkbenchError as exc:
            record(cid, session, conv.fail(exc))
            self._ctx.errors.report(exc, doing, connection_id=cid, inline=True)  # the transcript shows it
        except Exception as exc:  # a bug: show it in the transcript, then let spawn report it
            record(cid, session, conv.fail(exc, code="internal"))
            raise
        finally:
            if conv.running:  # the stream ended without a final event
                record(cid, session, conv.end_turn("incomplete"))
            state = conv.turns[-1].state if conv.turns else "incomplete"
            self._finished(cid, session, state)

    def _finished(self, cid: str, session: _Session, state: str) -> None:
        session.task = None
        if self._sessions.get(cid) is not session:
            return  # replaced by new_conversation(): nobody shows it any more
        self.streaming_changed.emit(cid, False)
        if cid == self._current:
            self._refresh_input_state()
        self.turn_finished.emit(cid, state)

    def _refresh_input_state(self) -> None:
        state = self._compute_input_state()
        if state != self._input_state:
            self._input_state = state
            self.input_state_changed.emit(state)

    def _compute_input_state(self) -> InputState:
        cid = self._current
        if cid is None:
            return InputState(False, NO_SELECTION)
        conn = self._ctx.services.connections.get(cid)
        if conn is None:
            return InputState(False, "This connection is not connected. Connect it to chat.")
        name = conn.profile.name
        if conn.state is not ConnectionState.CONNECTED or conn.agent is None:
            if conn.state is ConnectionState.CONNECTING:
                return InputState(False, f"Connecting to {name}…")
            why = conn.error.message if conn.state is ConnectionState.FAILED and conn.error else ""
            again = "Reconnect" if conn.state is ConnectionState.FAILED else "Connect"
            return InputState(False, f"{connection_state_text(name, conn.state.value, why)} {again} it to chat.")
        if not conn.agent.features.chat and not (ModelChats.applies(conn.agent) and self.models.chosen(cid)):
            reason = NO_ENTRY_POINT.format(tools=", ".join(_tool_names(conn.agent)) or "none")
            if ModelChats.applies(conn.agent) and self.models.names():
                reason = f"{reason} {PICK_A_MODEL}"
            elif ModelChats.applies(conn.agent) and self._ctx.services.sampling is not None:
                reason = f"{reason} {SAVE_A_MODEL}"
            return InputState(False, reason)
        waiting = self._session(cid).conversation.waiting_task_id is not None
        return InputState(True, "", waiting=waiting and not self.is_streaming(cid))


def _tool_names(agent: RemoteAgent) -> list[str]:
    try:
        return list(agent.tools)
    except WorkbenchError:
        return []


def _json_object(text: str) -> dict[str, Any] | None:
    """``text`` parsed as a JSON object, or ``None`` when it is not one."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None
