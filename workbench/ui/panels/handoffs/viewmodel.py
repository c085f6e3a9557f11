"""HandoffViewModel: live chains from the bus, the chain shown, the selected hop, and replay."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QGuiApplication

from workbench.core.errors import WorkbenchError
from workbench.core.handoff.events import HandoffEvent
from workbench.core.handoff.recording import ChainReplay, load_jsonl, save_jsonl
from workbench.ui.context import PanelContext
from workbench.ui.panels.handoffs.diagram import Arrow, ChainDiagram, Hop

MAX_CHAINS = 50
"""Live chains kept for the picker (the oldest go first; the one shown is kept)."""

PLAY_INTERVAL_MS = 400
"""Replay's Play steps this often."""

REPLAY_PREFIX = "replay:"


@dataclass(slots=True)
class ReplaySession:
    """A recorded chain being stepped through.

    Attributes:
        name: Where it came from (a file name).
        player: The recorded events and how far the replay got.
        keys: Replay chain key for each recorded chain id.
    """

    name: str
    player: ChainReplay
    keys: dict[str, str] = field(default_factory=dict)

    @property
    def position(self) -> int:
        """How many events have been shown."""
        return self.player.position

    @property
    def total(self) -> int:
        """How many events the recording has."""
        return len(self.player)

    @property
    def finished(self) -> bool:
        """Whether every event has been shown."""
        return self.player.done


class HandoffViewModel(QObject):
    """State and commands of the Handoff view; the widget only draws and forwards.

    Live ``HandoffEvent``s arrive through ``ctx.bridge.handoff_event`` and grow one ``ChainDiagram``
    per chain. A replay adds its own diagrams (keys starting with ``replay:``) fed one event per step.

    Args:
        ctx: The panel context (its bridge and error presenter).
        parent: Qt parent.

    Signals:
        chains_changed(): The chain list changed (``chain_choices``).
        current_chain_changed(object): The chain shown changed (its key, or None): redraw it.
        diagram_changed(str, object): Chain ``key`` took in an event (a ``DiagramChange``).
        hop_selected(object): The selected ``Hop`` (or None).
        wire_records_requested(str, int, int): Show these wire records (connection id, first, last seq).
        follow_changed(bool): Whether new live chains are shown as they start.
        replay_changed(int, int): Replay position and length (0, 0 when no replay is loaded).
        playing_changed(bool): Replay's Play started or stopped.
        status(str): A short note for the user.
    """

    chains_changed = Signal()
    current_chain_changed = Signal(object)
    diagram_changed = Signal(str, object)
    hop_selected = Signal(object)
    wire_records_requested = Signal(str, int, int)
    follow_changed = Signal(bool)
    replay_changed = Signal(int, int)
    playing_changed = Signal(bool)
    status = Signal(str)

    def __init__(self, ctx: PanelContext, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ctx = ctx
        self._chains: dict[str, ChainDiagram] = {}
        self._current: str | None = None
        self._selected: tuple[str, str] | None = None  # (chain key, hop id)
        self._follow = True
        self._replay: ReplaySession | None = None
        self._closed = False
        self._timer = QTimer(self)
        self._timer.setInterval(PLAY_INTERVAL_MS)
        self._timer.timeout.connect(self.on_timer_timeout)
        ctx.bridge.handoff_event.connect(self.on_bridge_handoff_event)

    # ---- chains ------------------------------------------------------------------------------

    def chain(self, key: str | None) -> ChainDiagram | None:
        """The diagram kept under ``key``."""
        return self._chains.get(key) if key is not None else None

    @property
    def current_key(self) -> str | None:
        """The key of the chain shown (a chain id, or ``replay:…``)."""
        return self._current

    @property
    def current(self) -> ChainDiagram | None:
        """The diagram shown."""
        return self.chain(self._current)

    def chain_choices(self) -> list[tuple[str, str]]:
        """``(key, title)`` for the chain picker, oldest first."""
        out = []
        for key, diagram in self._chains.items():
            title = diagram.title
            if key.startswith(REPLAY_PREFIX):
                title = f"Replay: {title}"
            out.append((key, title))
        return out

    def set_current(self, key: str | None) -> None:
        """Show the chain kept under ``key``."""
        if key is not None and key not in self._chains:
            return
        if key == self._current:
            return
        self._current = key
        self._selected = None
        self.current_chain_changed.emit(key)
        self.hop_selected.emit(None)

    @property
    def follow(self) -> bool:
        """Whether a new live chain is shown as soon as it starts."""
        return self._follow

    def set_follow(self, on: bool) -> None:
        """Follow new live chains (True) or keep the chosen one (False)."""
        if on != self._follow:
            self._follow = on
            self.follow_changed.emit(on)

    def on_bridge_handoff_event(self, event: HandoffEvent) -> None:
        """A live event: grow its chain (a new chain is shown when following and not replaying)."""
        if self._closed:
            return
        self._feed(event.chain_id, event, show=self._follow and self._replay is None)

    def _feed(self, key: str, event: HandoffEvent, *, show: bool, title: str = "") -> None:
        diagram = self._chains.get(key)
        if diagram is None:
            diagram = self._chains[key] = ChainDiagram(event.chain_id, title)
            self._trim()
            self.chains_changed.emit()
            if show:
                self.set_current(key)
        first = not diagram.events
        change = diagram.add(event)
        if first:
            self.chains_changed.emit()  # the title comes from the first event
        self.diagram_changed.emit(key, change)
        if self._selected == (key, event.handoff_id):
            self.hop_selected.emit(change.hop)

    def _trim(self) -> None:
        live = [k for k in self._chains if not k.startswith(REPLAY_PREFIX)]
        for key in live[: max(0, len(live) - MAX_CHAINS)]:
            if key != self._current:
                del self._chains[key]

    # ---- selection ---------------------------------------------------------------------------

    @property
    def selected_hop(self) -> Hop | None:
        """The selected hop of the chain shown."""
        if self._selected is None:
            return None
        diagram = self._chains.get(self._selected[0])
        return diagram.hop(self._selected[1]) if diagram is not None else None

    def select_arrow(self, index: int | None) -> Hop | None:
        """Select the hop of the shown chain's arrow ``index``; ask for its wire records when it has some.

        A new selection clears the status line first: what it said (a hop without wire records, an
        export) was about what came before; only the new hop's own word, if any, is shown.
        """
        self.status.emit("")
        diagram = self.current
        arrow: Arrow | None = None
        if diagram is not None and index is not None and 0 <= index < len(diagram.arrows):
            arrow = diagram.arrows[index]
        if arrow is None or diagram is None or self._current is None:
            self._selected = None
            self.hop_selected.emit(None)
            return None
        self._selected = (self._current, arrow.hop_id)
        hop = diagram.hops[arrow.hop_id]
        self.hop_selected.emit(hop)
        self.request_wire_records(hop)
        return hop

    def request_wire_records(self, hop: Hop | None = None) -> bool:
        """Ask the window to show the wire records of ``hop`` (default: the selected one)."""
        hop = hop if hop is not None else self.selected_hop
        if hop is None or hop.connection_id is None or hop.wire_seqs is None:
            if hop is not None:
                self.status.emit("This hop has no wire records.")
            return False
        first, last = hop.wire_seqs
        self.wire_records_requested.emit(hop.connection_id, first, last)
        return True

    # ---- Mermaid and recording ---------------------------------------------------------------

    def mermaid(self) -> str:
        """The shown chain as Mermaid text ("" when none is shown)."""
        diagram = self.current
        return diagram.to_mermaid() if diagram is not None else ""

    def copy_mermaid(self) -> str:
        """Put the shown chain's Mermaid text on the clipboard and return it."""
        text = self.mermaid()
        if not text:
            self.status.emit("There is no chain to copy.")
            return ""
        QGuiApplication.clipboard().setText(text)
        self.status.emit("Copied the chain as Mermaid.")
        return text

    async def save_mermaid(self, path: str | os.PathLike[str]) -> None:
        """Write the shown chain as a ``.mmd`` file (in a worker thread).

        Raises:
            WorkbenchError: Nothing is shown, or the file could not be written.
        """
        text = self.mermaid()
        if not text:
            raise WorkbenchError("There is no chain to export.")
        name = os.fspath(path)
        try:
            await asyncio.to_thread(Path(name).write_text, text, encoding="utf-8")
        except OSError as exc:
            raise WorkbenchError("Could not write the Mermaid file.", details={"path": name}) from exc
        self.status.emit(f"Saved the chain as Mermaid to {name}.")

    async def save_chain(self, path: str | os.PathLike[str]) -> int:
        """Record the shown chain's events as JSON Lines (for replay); returns how many were written.

        Raises:
            WorkbenchError: Nothing is shown, or the file could not be written.
        """
        diagram = self.current
        if diagram is None or not diagram.events:
            raise WorkbenchError("There is no chain to save.")
        count = await asyncio.to_thread(save_jsonl, path, list(diagram.events))
        self.status.emit(f"Saved {count} events to {os.fspath(path)}.")
        return count

    # ---- replay ------------------------------------------------------------------------------

    @property
    def replay(self) -> ReplaySession | None:
        """The loaded replay, if any."""
        return self._replay

    @property
    def playing(self) -> bool:
        """Whether Play is stepping."""
        return self._timer.isActive()

    async def open_replay(self, path: str | os.PathLike[str]) -> int:
        """Load a recorded chain (JSON Lines of ``HandoffEvent.to_dict()``) for replay; returns its length.

        Raises:
            ConfigError: The file cannot be read or is not a recorded chain (``workbench.core.handoff.recording``).
        """
        recording = await asyncio.to_thread(load_jsonl, path)
        self.load_replay(recording.events, Path(path).name)
        return len(recording.events)

    def load_replay(self, events: Sequence[HandoffEvent], name: str = "recording") -> None:
        """Replace any replay with ``events``; nothing is drawn until the first step."""
        self._drop_replay()
        self.set_follow(False)
        self._replay = ReplaySession(name, ChainReplay(list(events)))
        self.status.emit(f"Loaded {len(events)} events from {name}: press Step or Play.")
        self.replay_changed.emit(0, len(events))

    def can_replay_current(self) -> bool:
        """Whether a chain with events is shown (``replay_current`` has something to replay)."""
        diagram = self.current
        return diagram is not None and bool(diagram.events)

    def replay_current(self, *, play: bool = True) -> int:
        """Replay the chain shown — the one just watched — from its recorded events, step by step.

        Nothing is sent to any agent: the events the chain published are drawn again, one per step
        (``play``: stepping every ``PLAY_INTERVAL_MS``). Returns how many events will be replayed.
        """
        diagram = self.current
        if diagram is None or not diagram.events:
            self.status.emit("There is no chain to replay.")
            return 0
        events = list(diagram.events)
        self.load_replay(events, diagram.title or "chain")
        if play:
            self.play()
            self.status.emit(f"Replaying {len(events)} recorded events (no agent is called): Play pauses.")
        return len(events)

    def step(self) -> bool:
        """Show the replay's next event; False when there is none."""
        replay = self._replay
        event = replay.player.next() if replay is not None else None
        if replay is None or event is None:
            self.pause()
            return False
        key = replay.keys.get(event.chain_id)
        if key is None:
            key = replay.keys[event.chain_id] = f"{REPLAY_PREFIX}{replay.name}:{event.chain_id}"
        self._feed(key, event, show=False)
        self.set_current(key)
        self.replay_changed.emit(replay.position, replay.total)
        if replay.finished:
            self.pause()
        return True

    def play(self) -> None:
        """Step every ``PLAY_INTERVAL_MS`` until the end (restarts from the top when at the end).

        From the start, the first event is shown at once.
        """
        replay = self._replay
        if replay is None or self.playing:
            return
        if replay.finished:
            self.reset()
        self._timer.start()
        self.playing_changed.emit(True)
        if replay.position == 0:
            self.step()  # the first event at once: the picker names the replay from the start, not blank

    def pause(self) -> None:
        """Stop Play."""
        if self._timer.isActive():
            self._timer.stop()
            self.playing_changed.emit(False)

    def set_play_interval(self, ms: int) -> None:
        """How often Play steps."""
        self._timer.setInterval(max(1, ms))

    def reset(self) -> None:
        """Back to the replay's start: its diagrams are emptied."""
        replay = self._replay
        if replay is None:
            return
        self.pause()
        keys = set(replay.keys.values())
        showing = self._current in keys
        for key in keys:
            self._chains.pop(key, None)
        replay.keys.clear()
        replay.player.reset()
        if showing:
            self._current = None
            self._selected = None
            self.current_chain_changed.emit(None)
            self.hop_selected.emit(None)
        self.chains_changed.emit()
        self.replay_changed.emit(0, replay.total)

    def _drop_replay(self) -> None:
        if self._replay is None:
            return
        self.reset()
        self._replay = None

    def on_timer_timeout(self) -> None:
        """Play's tick."""
        if not self.step():
            self.pause()

    # ---- lifetime ----------------------------------------------------------------------------

    def close(self) -> None:
        """Stop listening to the bus and stop Play (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self.pause()
        self._ctx.bridge.handoff_event.disconnect(self.on_bridge_handoff_event)
