"""One registry of the window's actions: ids, texts, shortcuts (the menus and tests look them up here)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """What an action is called and which keys trigger it."""

    id: str
    text: str
    shortcut: str | QKeySequence.StandardKey | None = None
    tip: str = ""


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec("connection.add", "&New connection…", QKeySequence.StandardKey.New, "Add a connection profile"),
    ActionSpec("connection.edit", "&Edit connection…", "Ctrl+E"),
    ActionSpec("connection.duplicate", "D&uplicate connection", "Ctrl+D"),
    ActionSpec("connection.remove", "&Remove connection", "Ctrl+Del"),
    ActionSpec("connection.connect", "&Connect", "Ctrl+Shift+C", "Connect the selected profile"),
    ActionSpec("connection.disconnect", "&Disconnect", "Ctrl+Shift+D"),
    ActionSpec("connection.reconnect", "Re&connect", "Ctrl+R"),
    ActionSpec("connection.login", "Log &in (OAuth)…", None, "Log in to an OAuth-protected MCP server"),
    ActionSpec("connection.logout", "Log &out (OAuth)", None, "Revoke and forget the OAuth tokens"),
    ActionSpec("chat.focus", "Focus &chat input", "Ctrl+L"),
    ActionSpec("chat.send", "&Send message", "Ctrl+Return"),
    ActionSpec("chat.cancel", "Ca&ncel running request", "Ctrl+."),
    ActionSpec("chat.new", "New con&versation", "Ctrl+Shift+N"),
    ActionSpec("wire.focus_filter", "&Filter wire log", "Ctrl+F"),
    ActionSpec("wire.export_jsonl", "Export wire log as &JSONL…", "Ctrl+Shift+E"),
    ActionSpec("wire.export_har", "Export wire log as &HAR…"),
    ActionSpec("wire.pause", "&Pause wire log", "Ctrl+P"),
    ActionSpec("view.inspector", "&Inspector", "Ctrl+1"),
    ActionSpec("view.chat", "C&hat", "Ctrl+2"),
    ActionSpec("view.wire", "&Wire log", "Ctrl+3"),
    ActionSpec("view.handoffs", "&Handoffs", "Ctrl+4"),
    ActionSpec("app.quit", "&Quit", QKeySequence.StandardKey.Quit),
    ActionSpec("help.getting_started", "&Getting started", QKeySequence.StandardKey.HelpContents),
    ActionSpec("help.shortcuts", "&Keyboard shortcuts", "Ctrl+/"),
    ActionSpec("help.readme", "Read the &README"),
    ActionSpec("help.log_folder", "Open the &log folder"),
    ActionSpec("app.about", "&About Agent Workbench"),
)


class ActionRegistry:
    """Creates every ``QAction`` once, owned by the window; ``get(id)`` finds one, ``bind`` connects it."""

    def __init__(self, owner: QWidget) -> None:
        self._actions: dict[str, QAction] = {}
        for spec in ACTIONS:
            action = QAction(spec.text, owner)
            action.setObjectName(spec.id)
            if spec.shortcut is not None:
                action.setShortcut(QKeySequence(spec.shortcut))
            if spec.tip:
                action.setStatusTip(spec.tip)
            owner.addAction(action)
            self._actions[spec.id] = action

    def get(self, action_id: str) -> QAction:
        """The action with ``action_id`` (KeyError for an unknown id: a programming error)."""
        return self._actions[action_id]

    def bind(self, action_id: str, slot: Callable[[], object]) -> None:
        """Run ``slot`` when the action triggers."""
        self._actions[action_id].triggered.connect(lambda _checked=False: slot())

    def all(self) -> list[QAction]:
        """Every action, in registry order."""
        return list(self._actions.values())
