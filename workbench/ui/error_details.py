"""The technical part of an error (its code and details) in a box the user opens with "Details…"."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox, QWidget

from workbench.ui.dialog_rules import present
from workbench.ui.errors import ErrorView
from workbench.ui.untrusted import shown


def open_error_details(view: ErrorView, parent: QWidget) -> QMessageBox:
    """Open a box with ``view``'s message, code and details, all as plain text; it closes itself when done.

    Args:
        view: The error on show where the user asked for its details.
        parent: The widget whose "Details…" was clicked (the box opens over its window).

    Returns:
        The box, open.
    """
    box = QMessageBox(QMessageBox.Icon.Warning, shown(view.title), shown(view.message), parent=parent)
    box.setTextFormat(Qt.TextFormat.PlainText)
    box.setInformativeText(f"code: {view.code}")
    box.setDetailedText(shown(view.details))
    box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    present(box)
    return box
