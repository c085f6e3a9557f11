"""InlineErrorWidget: an error line inside a sub-panel — what failed, why, what to do (plain text, dismissable).

The window-wide banner with a counter and a Details dialog is ``workbench.ui.banner.ErrorBanner``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QWidget

from workbench.ui.errors import ErrorView
from workbench.ui.untrusted import set_plain_tooltip


class InlineErrorWidget(QWidget):
    """Hidden until ``show_error``; the ✕ button hides it again."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspectorErrorBanner")
        self.setAttribute(Qt.WidgetAttribute.WA_StyledBackground, True)
        self.setProperty("banner", "error")  # the theme's error colours for the line and its ✕ (resources/styles)
        self.label = QLabel(self)
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button = QPushButton("✕", self)
        self.close_button.setFlat(True)
        self.close_button.setToolTip("Dismiss")
        self.close_button.setAccessibleName("Dismiss")
        self.close_button.clicked.connect(self.clear)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 3, 6, 3)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.close_button)
        self.error: ErrorView | None = None
        self.setVisible(False)

    def show_error(self, view: ErrorView) -> None:
        """Show ``view`` (details go to the tooltip)."""
        self.error = view
        hint = f" — {view.hint}" if view.hint else ""
        self.label.setText(f"{view.title}: {view.message}{hint}")
        set_plain_tooltip(self.label, view.details)
        self.setVisible(True)

    def clear(self) -> None:
        """Hide the banner."""
        self.error = None
        self.label.clear()
        self.setVisible(False)
