"""TasksViewModel: a connection's tasks (A2A agent or MCP server), the selected one, its live events, and commands."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from workbench.core.errors import UnsupportedCapabilityError, WorkbenchError
from workbench.core.events import ConnectionState
from workbench.core.protocols.base import Failed
from workbench.core.protocols.contract import RemoteAgent, TaskOperations
from workbench.core.protocols.snapshot import CardInfo, TaskSnapshot, TaskSummary
from workbench.ui.asyncutil import spawn
from workbench.ui.context import PanelContext
from workbench.ui.errors import describe_error
from workbench.ui.panels.inspector.tasks.eventline import event_line

FLUSH_MS = 50
"""Live events are shown in batches at most this often (a long stream must not repaint per event)."""
POLL_MS = 4000
"""While the Tasks tab is on screen the tasks are re-read this often (a modest poll, quietly).

Kept clear of 5 s, the idle timeout after which uvicorn, Node and Apache close a keep-alive
connection: a poll every 5 s would reuse the connection just as the server closes it, and meet a
reset (the A2A adapter sends such a read once more, but the wire log would show the failed try).
A Qt timer may fire up to 5 % late, so 4 s stays below 5 s; it is also well above gunicorn's 2 s.
"""

LISTING_NOTE = "Tasks the agent listed, and the ones this workbench has seen."
LOCAL_NOTE_0_3 = "This agent speaks A2A 0.3, which cannot list tasks: showing the tasks this workbench has seen."
LOCAL_NOTE_REFUSED = "The agent does not list tasks: showing the tasks this workbench has seen."


class TasksViewModel(QObject):
    """State and async commands of a Tasks tab for one connection at a time (any agent's ``tasks``).

    An A2A agent's card is read here too (``card_changed``): the A2A workspace shows it beside the
    tasks and greys both out together; an MCP server has none.

    Commands (``refresh``, ``fetch_task``, ``cancel_task``, ``resubscribe``) start background work and
    return its task (or ``None`` when there is nothing to do). A typed failure is shown inline
    (``error_shown``) and reported to the ErrorPresenter; a failed listing's error goes when a later
    listing (a poll, Refresh) works. Results for a connection that is no longer shown are dropped.

    Signals:
        card_changed(CardInfo | None): The card to show (``None``: nothing connected).
        note_changed(str): Why nothing is shown ("" when an agent is shown).
        tasks_changed(list[TaskSummary]): The task table, newest first.
        listing_changed(str): How the task list was obtained (agent listing or only local).
        task_changed(TaskSnapshot | None): The selected task as currently known.
        events_appended(list[str]): New lines for the live event view.
        events_cleared(): A new subscription started.
        subscription_changed(bool): Whether a resubscription is streaming.
        busy_changed(str): What runs now ("" when idle).
        error_shown(ErrorView | None): The last failure, for the banner (``None`` clears it).
        refreshed(): A refresh (local tasks, then the agent's listing) finished.
    """

    card_changed = Signal(object)
    note_changed = Signal(str)
    tasks_changed = Signal(list)
    listing_changed = Signal(str)
    task_changed = Signal(object)
    events_appended = Signal(list)
    events_cleared = Signal()
    subscription_changed = Signal(bool)
    busy_changed = Signal(str)
    error_shown = Signal(object)
    refreshed = Signal()

    def __init__(self, ctx: PanelContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ctx = ctx
        self._connection_id: str | None = None
        self._agent: RemoteAgent | None = None
        self._tasks: TaskOperations | None = None
        self._card: CardInfo | None = None
        self._selected: str | None = None
        self._rows: list[TaskSummary] = []
        self._refresh_task: asyncio.Task[None] | None = None
        self._refresh_again = False
        self._subscription: asyncio.Task[None] | None = None
        self._subscribed_id: str | None = None
        self._pending_lines: list[str] = []
        self._busy: list[str] = []
        self._listing_failed = False  # the error shown is the listing's: the next listing that works clears it
        self._flush_timer = QTimer(self)
        self._flush_timer.setSingleShot(True)
        self._flush_timer.setInterval(FLUSH_MS)
        self._flush_timer.timeout.connect(self._flush)
        self._shown_task: TaskSnapshot | None = None
        self._poll_timer = QTimer(self)
        self._poll_timer.setInterval(POLL_MS)
        self._poll_timer.timeout.connect(self.on_poll_timer_timeout)

    # ------------------------------------------------------------------ state

    @property
    def connection_id(self) -> str | None:
        """The connection shown."""
        return self._connection_id

    @property
    def agent(self) -> RemoteAgent | None:
        """The agent shown (``None`` when nothing connected is shown)."""
        return self._agent

    @property
    def card(self) -> CardInfo | None:
        """The card shown."""
        return self._card

    @property
    def rows(self) -> list[TaskSummary]:
        """The task table."""
        return list(self._rows)

    @property
    def selected_task_id(self) -> str | None:
        """The selected task."""
        return self._selected

    @property
    def subscribed(self) -> bool:
        """Whether a resubscription is streaming."""
        return self._subscription is not None and not self._subscription.done()

    @property
    def listing_supported(self) -> bool:
        """Whether the agent can list its tasks (A2A 1.0)."""
        return self._tasks is not None and self._tasks.listing_supported

    # ------------------------------------------------------------------ showing a connection

    def show_connection(self, connection_id: str | None) -> None:
        """Show the tasks of ``connection_id`` if it is connected and has tasks, else a note saying why."""
        self.stop_subscription()
        if self._refresh_task is not None:
            self._refresh_task.cancel()
            self._refresh_task = None
        self._connection_id = connection_id
        self._agent, self._tasks, self._card, self._selected, self._rows = None, None, None, None, []
        self._clear_error()
        self.events_cleared.emit()
        conn = self._ctx.services.connections.get(connection_id) if connection_id else None
        agent = conn.agent if conn is not None and conn.state is ConnectionState.CONNECTED else None
        if connection_id is None:
            note = "Select an A2A connection."
        elif agent is None or agent.tasks is None or not agent.features.tasks:
            note = "Not connected to an A2A agent."
        else:
            note = ""
            try:
                self._card = agent.describe().card
            except WorkbenchError as exc:  # the card went away with the connection
                note = describe_error(exc).message
            else:
                self._agent, self._tasks = agent, agent.tasks
        self.note_changed.emit(note)
        self.card_changed.emit(self._card)
        self._shown_task = None
        self.task_changed.emit(None)
        self._emit_rows()
        if self._agent is not None:
            self.listing_changed.emit(LISTING_NOTE if self.listing_supported else LOCAL_NOTE_0_3)
            self.refresh()
        else:
            self.listing_changed.emit("")

    # ------------------------------------------------------------------ tasks

    @property
    def polling(self) -> bool:
        """Whether the tasks are re-read every ``POLL_MS`` (while the Tasks tab is on screen)."""
        return self._poll_timer.isActive()

    def set_polling(self, on: bool) -> None:
        """Re-read the tasks now and then every ``POLL_MS`` (True), or stop (False).

        The Tasks tab turns it on while it is on screen, so a task that changed state (a chat turn,
        another client, the agent finishing it) shows without pressing Refresh.
        """
        if on and not self._poll_timer.isActive():
            self._poll_timer.start()
            self.refresh()
        elif not on:
            self._poll_timer.stop()

    def set_poll_interval(self, ms: int) -> None:
        """How often polling re-reads the tasks."""
        self._poll_timer.setInterval(max(1, ms))

    def on_poll_timer_timeout(self) -> None:
        """Poll: the local view at once, the agent's listing quietly (no busy note) unless one runs."""
        if self._agent is None:
            return
        self._emit_rows()
        self._emit_selected()
        if self._refresh_task is None or self._refresh_task.done():
            self._refresh_task = spawn(self._refresh(self._agent, self._tasks), doing="listing the agent's tasks")

    def refresh(self) -> asyncio.Task[None] | None:
        """Re-read the tasks seen locally, then (A2A 1.0) ask the agent for its list.

        Call it when a chat turn completes. A refresh already running runs once more afterwards.
        """
        if self._agent is None:
            return None
        self._emit_rows()
        self._emit_selected()
        if self._refresh_task is not None and not self._refresh_task.done():
            self._refresh_again = True
            return self._refresh_task
        self._refresh_task = self._start(self._refresh(self._agent, self._tasks), "listing the agent's tasks")
        return self._refresh_task

    async def _refresh(self, agent: RemoteAgent, tasks: TaskOperations | None) -> None:
        try:
            while True:
                self._refresh_again = False
                if tasks is not None and tasks.listing_supported:
                    try:
                        await tasks.list_tasks()
                    except UnsupportedCapabilityError:
                        if agent is self._agent:
                            self.listing_changed.emit(LOCAL_NOTE_REFUSED)
                    except WorkbenchError as exc:
                        if agent is self._agent:
                            self._show_error(exc, "listing the agent's tasks")
                            self._listing_failed = True
                        return
                    else:
                        if agent is self._agent and self._listing_failed:
                            self._clear_error()  # the listing works again: its failure is old news
                if agent is not self._agent:
                    return
                self._emit_rows()
                self._emit_selected()
                if not self._refresh_again:
                    return
        finally:
            if agent is self._agent:
                self.refreshed.emit()

    def select_task(self, task_id: str | None) -> asyncio.Task[None] | None:
        """Select a task: show what is known at once, then fetch it from the agent."""
        if task_id == self._selected:
            return None
        if task_id != self._subscribed_id:
            self.stop_subscription()
            self._subscribed_id = None
            self.events_cleared.emit()  # the live view belongs to the task followed last
        self._selected = task_id
        self._emit_selected()
        return self.fetch_task() if task_id else None

    def fetch_task(self) -> asyncio.Task[None] | None:
        """Get the selected task from the agent (its full history) and show it."""
        agent, tasks, task_id = self._agent, self._tasks, self._selected
        if agent is None or tasks is None or task_id is None:
            return None
        return self._start(self._fetch(agent, tasks, task_id), f"getting task {task_id}")

    async def _fetch(self, agent: RemoteAgent, tasks: TaskOperations, task_id: str) -> None:
        try:
            await tasks.get_task(task_id)
        except WorkbenchError as exc:
            if agent is self._agent:
                self._show_error(exc, f"getting task {task_id}")
            return
        if agent is self._agent:
            self._clear_error()
            self._emit_rows()
            self._emit_selected()

    def cancel_task(self) -> asyncio.Task[None] | None:
        """Ask the agent to cancel the selected task."""
        agent, tasks, task_id = self._agent, self._tasks, self._selected
        if agent is None or tasks is None or task_id is None:
            return None
        return self._start(self._cancel(agent, tasks, task_id), f"cancelling task {task_id}")

    async def _cancel(self, agent: RemoteAgent, tasks: TaskOperations, task_id: str) -> None:
        try:
            await tasks.cancel_task(task_id)
        except WorkbenchError as exc:
            if agent is self._agent:
                self._show_error(exc, f"cancelling task {task_id}")
            return
        if agent is self._agent:
            self._clear_error()
            self._emit_rows()
            self._emit_selected()

    # ------------------------------------------------------------------ resubscribing

    def resubscribe(self) -> asyncio.Task[None] | None:
        """Follow the selected task live (``agent.subscribe``); its events go to ``events_appended``."""
        agent, tasks, task_id = self._agent, self._tasks, self._selected
        if agent is None or tasks is None or task_id is None:
            return None
        self.stop_subscription()
        self._pending_lines.clear()
        self.events_cleared.emit()
        self._subscribed_id = task_id
        task = spawn(self._follow(agent, tasks, task_id), doing=f"subscribing to task {task_id}")
        self._subscription = task
        self.subscription_changed.emit(True)
        return task

    def stop_subscription(self) -> None:
        """Stop following the task (the remote task keeps running)."""
        task, self._subscription = self._subscription, None
        if task is not None and not task.done():
            task.cancel()
            self._flush()
            self.subscription_changed.emit(False)

    async def _follow(self, agent: RemoteAgent, tasks: TaskOperations, task_id: str) -> None:
        try:
            async with contextlib.aclosing(tasks.follow(task_id)) as events:
                async for event in events:
                    if agent is not self._agent:
                        return
                    self._pending_lines.append(event_line(event))
                    if isinstance(event, Failed) and isinstance(event.error, WorkbenchError):
                        self._show_error(event.error, f"subscribing to task {task_id}")
                    if not self._flush_timer.isActive():
                        self._flush_timer.start()
        finally:
            if self._subscription is asyncio.current_task():
                self._subscription = None
                self._flush()
                self.subscription_changed.emit(False)

    def _flush(self) -> None:
        self._flush_timer.stop()
        if self._pending_lines:
            lines, self._pending_lines = self._pending_lines, []
            self.events_appended.emit(lines)
        if self._agent is not None:
            self._emit_rows()
            self._emit_selected()

    # ------------------------------------------------------------------ helpers

    def _start(self, coro: Coroutine[Any, Any, None], doing: str) -> asyncio.Task[None]:
        self._busy.append(doing)
        self.busy_changed.emit(doing)
        task = spawn(coro, doing=doing)

        def done(_: asyncio.Task[None]) -> None:
            with contextlib.suppress(ValueError):
                self._busy.remove(doing)
            self.busy_changed.emit(self._busy[-1] if self._busy else "")

        task.add_done_callback(done)
        return task

    def _show_error(self, error: WorkbenchError, doing: str) -> None:
        self._listing_failed = False
        self.error_shown.emit(self._ctx.errors.report(error, doing, inline=True))

    def _clear_error(self) -> None:
        self._listing_failed = False
        self.error_shown.emit(None)

    def _emit_rows(self) -> None:
        rows = self._tasks.known_tasks() if self._tasks is not None else []
        if rows != self._rows or not rows:
            self._rows = rows
            self.tasks_changed.emit(rows)

    def _emit_selected(self, *, force: bool = False) -> None:
        task: TaskSnapshot | None = None
        if self._tasks is not None and self._selected is not None:
            task = self._tasks.known_task(self._selected)
        if force or task != self._shown_task:  # a poll that changed nothing redraws nothing
            self._shown_task = task
            self.task_changed.emit(task)
