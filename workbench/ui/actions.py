"""One registry of the window's actions: ids, texts, shortcuts, icons (the menus and tests look them up here)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QWidget

from workbench.ui.icons import follow, icon_theme


@dataclass(frozen=True, slots=True)
class ActionSpec:
    """What an action is called, which keys trigger it and its icon (a glyph of ``workbench.ui.icons``)."""

    id: str
    text: str
    shortcut: str | QKeySequence.StandardKey | None = None
    tip: str = ""
    icon: str = ""


ACTIONS: tuple[ActionSpec, ...] = (
    ActionSpec(
        "connection.add", "&New connection…", QKeySequence.StandardKey.New, "Add a connection profile", "mdi6.plus"
    ),
    ActionSpec("connection.edit", "&Edit connection…", "Ctrl+E", icon="mdi6.pencil-outline"),
    ActionSpec("connection.duplicate", "D&uplicate connection", "Ctrl+D", icon="mdi6.content-copy"),
    ActionSpec("connection.remove", "&Remove connection", "Ctrl+Del", icon="mdi6.trash-can-outline"),
    ActionSpec("connection.connect", "&Connect", "Ctrl+Shift+C", "Connect the selected profile", "mdi6.power-plug"),
    ActionSpec("connection.disconnect", "&Disconnect", "Ctrl+Shift+D", icon="mdi6.power-plug-off-outline"),
    ActionSpec("connection.reconnect", "Re&connect", "Ctrl+R", icon="mdi6.refresh"),
    ActionSpec("connection.login", "Log &in (OAuth)…", None, "Log in to an OAuth-protected MCP server", "mdi6.login"),
    ActionSpec("connection.logout", "Log &out (OAuth)", None, "Revoke and forget the OAuth tokens", "mdi6.logout"),
    ActionSpec(
        "connection.sampling",
        "Sa&mpling responder…",
        None,
        "Who answers this connection's sampling requests: you, a script or a model",
        "mdi6.robot-outline",
    ),
    ActionSpec("chat.focus", "Focus &chat input", "Ctrl+L", icon="mdi6.message-text-outline"),
    ActionSpec("chat.send", "&Send message", "Ctrl+Return", icon="mdi6.send"),
    ActionSpec("chat.cancel", "Ca&ncel running request", "Ctrl+.", icon="mdi6.stop-circle-outline"),
    ActionSpec("chat.new", "New con&versation", "Ctrl+Shift+N", icon="mdi6.message-plus-outline"),
    ActionSpec("wire.focus_filter", "&Filter wire log", "Ctrl+F", icon="mdi6.filter-outline"),
    ActionSpec("wire.export_jsonl", "Export wire log as &JSONL…", "Ctrl+Shift+E", icon="mdi6.code-json"),
    ActionSpec("wire.export_har", "Export wire log as &HAR…", icon="mdi6.file-export-outline"),
    ActionSpec("wire.pause", "&Pause wire log", "Ctrl+P", icon="mdi6.pause"),
    ActionSpec("view.inspector", "&Inspector", "Ctrl+1", icon="mdi6.toolbox-outline"),
    ActionSpec("view.chat", "C&hat", "Ctrl+2", icon="mdi6.chat-outline"),
    ActionSpec("view.wire", "&Wire log", "Ctrl+3", icon="mdi6.swap-horizontal"),
    ActionSpec("view.handoffs", "&Handoffs", "Ctrl+4", icon="mdi6.sitemap-outline"),
    ActionSpec(
        "demo.handoff_scenario",
        "Run the handoff &demo scenario",
        tip="Demo agents plan a trip, handing work to each other; you approve each handoff",
        icon="mdi6.play-circle-outline",
    ),
    ActionSpec("app.quit", "&Quit", QKeySequence.StandardKey.Quit, icon="mdi6.exit-to-app"),
    ActionSpec(
        "help.getting_started", "&Getting started", QKeySequence.StandardKey.HelpContents, icon="mdi6.school-outline"
    ),
    ActionSpec("help.shortcuts", "&Keyboard shortcuts", "Ctrl+/", icon="mdi6.keyboard-outline"),
    ActionSpec("help.readme", "Read the &README", icon="mdi6.file-document-outline"),
    ActionSpec("help.log_folder", "Open the &log folder", icon="mdi6.folder-open-outline"),
    ActionSpec("app.about", "&About Agent Workbench", icon="mdi6.information-outline"),
)


def glyph(action_id: str) -> str:
    """The icon glyph of the registry's action ``action_id`` (KeyError for an unknown id)."""
    return _BY_ID[action_id].icon


_BY_ID = {spec.id: spec for spec in ACTIONS}


class ActionRegistry:
    """Creates every ``QAction`` once, owned by the window; ``get(id)`` finds one, ``bind`` connects it."""

    def __init__(self, owner: QWidget) -> None:
        self._actions: dict[str, QAction] = {}
        self._owner = owner
        for spec in ACTIONS:
            action = QAction(spec.text, owner)
            action.setObjectName(spec.id)
            if spec.shortcut is not None:
                action.setShortcut(QKeySequence(spec.shortcut))
            if spec.tip:
                action.setStatusTip(spec.tip)
            owner.addAction(action)
            self._actions[spec.id] = action
        follow(owner, self._set_icons)

    def _set_icons(self) -> None:
        """Each action's icon in the owner's palette (menus and tool buttons show it)."""
        theme, palette = icon_theme(), self._owner.palette()
        for spec in ACTIONS:
            if spec.icon:
                self._actions[spec.id].setIcon(theme.icon(spec.icon, palette))

    def get(self, action_id: str) -> QAction:
        """The action with ``action_id`` (KeyError for an unknown id: a programming error)."""
        return self._actions[action_id]

    def bind(self, action_id: str, slot: Callable[[], object]) -> None:
        """Run ``slot`` when the action triggers."""
        self._actions[action_id].triggered.connect(lambda _checked=False: slot())

    def all(self) -> list[QAction]:
        """Every action, in registry order."""
        return list(self._actions.values())
