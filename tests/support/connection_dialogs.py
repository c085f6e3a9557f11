"""The connection dialog for tests: a new one, owned by ``qtbot``, with its kind, name and URL filled in."""

from __future__ import annotations

from typing import Any

from workbench.ui.dialogs.connection import ConnectionDialog


def new_connection_dialog(qtbot: Any, kind: str, name: str, url: str) -> ConnectionDialog:
    """A new connection dialog of ``kind`` ("mcp-http", "a2a" …) named ``name`` with the URL ``url``."""
    dialog = ConnectionDialog()
    qtbot.addWidget(dialog)
    dialog.set_kind(kind)
    dialog.name_edit.setText(name)
    dialog.url_edit.setText(url)
    return dialog
