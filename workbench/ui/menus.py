"""The main window's menu bar: which registered actions each menu lists, in order."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenuBar

from workbench.ui.actions import ActionRegistry

SEPARATOR = None
DOCK_TOGGLES = "docks"
"""Where a menu lists the docks' show/hide toggles (the wire log's is ``view.wire``, with its Ctrl+3)."""

MENUS: tuple[tuple[str, tuple[str | None, ...]], ...] = (
    ("&File", ("connection.add", "wire.export_jsonl", "wire.export_har", SEPARATOR, "app.quit")),
    (
        "&Connection",
        (
            "connection.connect",
            "connection.disconnect",
            "connection.reconnect",
            SEPARATOR,
            "connection.login",
            "connection.logout",
            "connection.sampling",
            SEPARATOR,
            "connection.edit",
            "connection.duplicate",
            "connection.remove",
        ),
    ),
    ("C&hat", ("chat.focus", "chat.send", "chat.cancel", "chat.new")),
    (
        "&View",
        (
            "view.inspector",
            "view.chat",
            "view.handoffs",
            "demo.handoff_scenario",
            "wire.focus_filter",
            "wire.pause",
            SEPARATOR,
            DOCK_TOGGLES,
        ),
    ),
    (
        "&Help",
        ("help.getting_started", "help.shortcuts", "help.readme", "help.log_folder", SEPARATOR, "app.about"),
    ),
)
"""Each menu's title and entries: action ids of ``workbench.ui.actions``, separators and the dock toggles."""


def build_menus(bar: QMenuBar, actions: ActionRegistry, toggles: Sequence[QAction]) -> None:
    """Fill ``bar`` with ``MENUS``.

    Args:
        bar: The window's menu bar.
        actions: The window's registered actions.
        toggles: The docks' show/hide toggles the View menu lists, in order. Each shows its state
            with a check mark (its icon, which the status bar's button shows, stays out of the menu).
    """
    for title, entries in MENUS:
        menu = bar.addMenu(title)
        for entry in entries:
            if entry is None:  # SEPARATOR
                menu.addSeparator()
            elif entry == DOCK_TOGGLES:
                for toggle in toggles:
                    toggle.setIconVisibleInMenu(False)  # a style draws an icon in the check mark's place
                    menu.addAction(toggle)
            else:
                menu.addAction(actions.get(entry))
