"""The conversation state machine of an A2A agent: send a message, read the turn, answer what it asks.

One ``stream_async`` call is a loop of turns::

    connect (401/403 → ask for a credential, retry) ─▶ send ─▶ read the stream
        ├─ HTTP 401/403 before any event ─▶ ask for a credential ─▶ send again (once)
        ├─ a message reply ─────────────────────────────▶ Completed
        ├─ task still working (non-streaming agent) ─▶ poll until it ends or waits
        ├─ input-required / auth-required ─▶ ask the input handler
        │      ├─ no handler, or an empty answer ─▶ Completed(state=input_required): continue later
        │      ├─ cancel ─▶ cancel the task ─▶ Completed(state=canceled)
        │      └─ an answer ─▶ send it with the task's ids ─▶ next turn
        └─ terminal ─▶ Completed

Continuing: the agent remembers the last ``context_id`` and sends it with the next message unless
``new_conversation=True``. A waiting task is continued by a message with **both** its ``task_id``
and ``context_id``.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncGenerator
from typing import Any

import anyio
from a2a.client import ClientCallContext
from a2a.types import Message, SendMessageConfiguration, SendMessageRequest, StreamResponse

from workbench.core.errors import AuthRequiredError, ConnectionLostError, WorkbenchError
from workbench.core.protocols.a2a._funnel import RequestFunnel
from workbench.core.protocols.a2a._reading import Outcome, Run, StreamReader
from workbench.core.protocols.a2a._session import Session
from workbench.core.protocols.a2a._turn_events import TurnEvents
from workbench.core.protocols.a2a.convert import INTERRUPTED_STATES, build_message
from workbench.core.protocols.a2a.reducer import TaskReducer
from workbench.core.protocols.a2a.security_auth import SKILL_HEADER
from workbench.core.protocols.a2a.task_operations import A2ATaskOperations
from workbench.core.protocols.base import AgentEvent, Completed, ContentPart, Failed, StatusChanged
from workbench.core.protocols.contract import Prompt

log = logging.getLogger(__name__)

SKILL_METADATA_KEY = "skill_id"
"""Message metadata key carrying the skill a message is meant for (the workbench's convention)."""
MAX_AUTH_PROMPTS = 2
"""How often a credential is asked for in one call without declared schemes (each answer retried once)."""
CANCEL_TIMEOUT = 10.0
"""Seconds allowed for cancelling a task after the caller stopped reading (when no request timeout is set)."""
_FINAL = (Completed, Failed)


def _skill_of(message: Message) -> str | None:
    """The skill id a message is meant for (``skill_id`` in its metadata), if any."""
    if not message.HasField("metadata"):
        return None
    value = message.metadata.fields.get(SKILL_METADATA_KEY)
    return value.string_value or None if value is not None else None


async def _single(event: AgentEvent) -> AsyncGenerator[AgentEvent, None]:
    yield event


class Conversation:
    """Sends messages and runs their turns; remembers the conversation (context) to continue.

    Args:
        session: The agent's session (its name and options: input handler, timeouts).
        funnel: The agent's request funnel.
        reducer: The agent's task views.
        reader: Reads the event streams.
        events: Builds the events that end or pause a turn; asks for credentials.
        tasks: Cancels tasks (on a cancel answer, or when the caller stops reading).
    """

    def __init__(
        self,
        session: Session,
        funnel: RequestFunnel,
        reducer: TaskReducer,
        reader: StreamReader,
        events: TurnEvents,
        tasks: A2ATaskOperations,
    ) -> None:
        self._config = session.config
        self._session = session
        self._funnel = funnel
        self._reducer = reducer
        self._reader = reader
        self._events = events
        self._tasks = tasks
        self.context_id: str | None = None
        """The context the next message continues (``None``: the agent starts a new one)."""

    def stream(
        self,
        prompt: Prompt,
        *,
        task_id: str | None,
        context_id: str | None,
        data: Any,
        parts: list[ContentPart] | None,
        new_conversation: bool,
        skill: str | None,
        cancel_on_exit: bool,
    ) -> AsyncGenerator[AgentEvent, None]:
        """The events of one message (see ``A2AAgent.stream_async``); nothing is sent before the first one."""
        if new_conversation:
            self.context_id = None
        if task_id and not context_id and (view := self._reducer.get(task_id)) is not None:
            context_id = view.context_id
        if not task_id and not context_id:
            context_id = self.context_id
        try:
            message = build_message(
                prompt,
                data=data,
                parts=parts,
                task_id=task_id,
                context_id=context_id,
                metadata={SKILL_METADATA_KEY: skill} if skill else None,
            )
        except WorkbenchError as exc:
            return _single(self._events.failed(exc, task_id, context_id))
        return self._run(message, cancel_on_exit=cancel_on_exit)

    async def _run(self, message: Message, *, cancel_on_exit: bool) -> AsyncGenerator[AgentEvent, None]:
        run = Run(task_id=message.task_id or None)
        try:
            async for event in self._turns(message, run):
                if isinstance(event, _FINAL):  # a caller may stop right after the final event
                    run.finished = True
                yield event
        finally:
            if not run.finished and cancel_on_exit and run.task_id:
                await self._cancel_quietly(run.task_id)

    async def _cancel_events(self, task_id: str) -> AsyncGenerator[AgentEvent, None]:
        """Cancel a task and say how it stands: ``StatusChanged`` (if it changed), then ``Completed``."""
        view = self._reducer.get(task_id)
        old = view.state if view is not None else None
        try:
            view = await self._tasks.cancel_view(task_id)
        except WorkbenchError as exc:
            yield self._events.failed(exc, task_id, view.context_id if view else None)
            return
        if view.state != old:
            yield StatusChanged(state=view.state, **self._events.common(view.task_id, view.context_id))
        yield self._events.completed(view)

    async def _cancel_quietly(self, task_id: str) -> None:
        view = self._reducer.get(task_id)
        if view is not None and (view.terminal or not self._session.connected):
            return
        with anyio.CancelScope(shield=True), anyio.move_on_after(self._config.request_timeout or CANCEL_TIMEOUT):
            try:
                await self._tasks.cancel_view(task_id)
            except WorkbenchError as exc:
                log.info("cancelling %s after the caller stopped reading failed: %s", task_id, exc)

    async def _connect_with_auth(self) -> AsyncGenerator[AgentEvent, None]:
        """Connect, asking the input handler for a credential on 401/403 (yields ``AuthRequired``)."""
        for attempt in range(MAX_AUTH_PROMPTS + 1):
            try:
                await self._session.connect()
                return
            except AuthRequiredError as exc:
                if self._config.input_handler is None or attempt == MAX_AUTH_PROMPTS:
                    raise
                sink: list[AgentEvent] = []
                given = await self._events.ask_credential(exc, None, None, sink)
                for ev in sink:
                    yield ev
                if not given:
                    raise

    def _send(self, message: Message, skill: str | None) -> AsyncGenerator[StreamResponse, None]:
        request = SendMessageRequest(message=message, configuration=SendMessageConfiguration())
        context = None
        if skill and self._session.asks_by_scheme:
            # Tells the security auth which skill's requirements apply (the header is not sent).
            context = ClientCallContext(service_parameters={SKILL_HEADER: skill})
        return self._funnel.stream("sending the message", lambda c: c.send_message(request, context=context))

    async def _turns(self, message: Message, run: Run) -> AsyncGenerator[AgentEvent, None]:
        events = self._events
        try:
            async for ev in self._connect_with_auth():
                yield ev
        except WorkbenchError as exc:
            yield events.failed(exc, message.task_id or None, message.context_id or None)
            return
        auth_prompts = in_band_prompts = 0
        # With declared schemes a credential is asked for once and the request retried once
        # (once after an HTTP 401/403, once after an auth-required task state).
        max_prompts = 1 if self._session.asks_by_scheme else MAX_AUTH_PROMPTS
        skill = _skill_of(message)
        while True:
            outcome = Outcome()
            resuming = message.task_id or None
            self._reducer.record_outgoing(message)
            retry_auth: AuthRequiredError | None = None
            handler = self._config.input_handler
            source = self._send(message, skill)
            async for ev in self._reader.read(source, outcome, resuming=resuming, sent_id=message.message_id, run=run):
                if (
                    isinstance(ev, Failed)
                    and isinstance(ev.error, AuthRequiredError)
                    and handler is not None
                    and auth_prompts < max_prompts
                    and outcome.view is None
                ):
                    retry_auth = ev.error
                    continue
                yield ev
            if retry_auth is not None:
                auth_prompts += 1
                sink: list[AgentEvent] = []
                ids = message.task_id or None, message.context_id or None
                given = await events.ask_credential(retry_auth, *ids, sink, skill)
                for ev in sink:
                    yield ev
                if not given:
                    yield events.failed(retry_auth, *ids)
                    return
                continue
            if outcome.failed:
                return
            if outcome.reply is not None:
                reply = outcome.reply
                if reply.context_id:
                    self.context_id = reply.context_id
                yield events.replied(reply)
                return
            view = outcome.view
            if view is None:
                yield events.failed(ConnectionLostError("The agent ended the stream without sending anything."))
                return
            if view.context_id:
                self.context_id = view.context_id
            if not (view.terminal or view.interrupted):
                # Non-streaming agents may answer before the task is done: poll it.
                polled = Outcome(view=view)
                async for ev in self._reader.poll(view, polled):
                    yield ev
                if polled.failed:
                    return
            if view.state not in INTERRUPTED_STATES:  # (re-read: polling changed it)
                yield events.completed(view)
                return
            paused = events.paused(view, skill)
            request = paused.request
            yield paused
            if handler is None:
                yield events.completed(view)
                return
            if request.kind == "auth" and self._session.asks_by_scheme:
                if in_band_prompts >= max_prompts:
                    error = AuthRequiredError(
                        f"{self._session.name} still asks for a credential after one was given.",
                        hint="check the stored credential (it may be wrong or lack a scope)",
                        details={"task_id": view.task_id, "reason": "auth-required"},
                    )
                    yield events.failed(error, view.task_id, view.context_id)
                    return
                in_band_prompts += 1
            try:
                answer = await handler(request)
            except WorkbenchError as exc:
                yield events.failed(exc, view.task_id, view.context_id)
                return
            if answer.cancel:
                async for ev in self._cancel_events(view.task_id):
                    yield ev
                return
            if answer.text is None and answer.data is None:
                # An empty answer defers: the task stays waiting and the caller continues it later.
                yield events.completed(view)
                return
            message = await events.answer_message(request, answer, skill)
