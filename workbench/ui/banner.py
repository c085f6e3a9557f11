"""ErrorBanner: background failures shown inline at the top of the window, details one click away."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QMessageBox, QPushButton, QStyle, QToolButton, QVBoxLayout, QWidget

from workbench.ui.errors import ErrorView
from workbench.ui.untrusted import plain_label


class ErrorBanner(QFrame):
    """Shows the latest ``ErrorView``: what failed, why, what to do; "Details…" opens the technical part."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._view: ErrorView | None = None
        self._count = 0
        icon = QToolButton(self)
        icon.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning))
        icon.setAutoRaise(True)
        icon.setEnabled(False)
        self.title = plain_label("", self)
        self.title.setStyleSheet("font-weight: bold")
        self.message = plain_label("", self, wrap=True)
        self.hint = plain_label("", self, wrap=True)
        self.details_button = QPushButton("Details…", self)
        self.details_button.clicked.connect(self.show_details)
        close = QToolButton(self)
        close.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_DialogCloseButton))
        close.setAutoRaise(True)
        close.setToolTip("Dismiss")
        close.clicked.connect(self.dismiss)
        text = QVBoxLayout()
        text.setSpacing(2)
        text.addWidget(self.title)
        text.addWidget(self.message)
        text.addWidget(self.hint)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 4, 4)
        row.addWidget(icon, 0, Qt.AlignmentFlag.AlignTop)
        row.addLayout(text, 1)
        row.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(close, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    @property
    def current(self) -> ErrorView | None:
        """The error shown, if any."""
        return self._view if self.isVisible() else None

    def show_error(self, view: ErrorView) -> None:
        """Show ``view`` (replacing the previous error; a counter says how many arrived)."""
        self._view = view
        self._count = self._count + 1 if self.isVisible() else 1
        suffix = f"  ({self._count} errors; showing the latest)" if self._count > 1 else ""
        self.title.setText(f"{view.title} failed{suffix}" if view.title != "Something failed" else view.title + suffix)
        self.message.setText(view.message)
        self.hint.setText(view.hint)
        self.hint.setVisible(bool(view.hint))
        self.details_button.setVisible(bool(view.details))
        self.show()

    def dismiss(self) -> None:
        """Hide the banner."""
        self._count = 0
        self.hide()

    def show_details(self) -> None:
        """Open a non-modal box with the technical details (plain text)."""
        if self._view is None:
            return
        box = QMessageBox(QMessageBox.Icon.Warning, self._view.title, self._view.message, parent=self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setInformativeText(f"code: {self._view.code}")
        box.setDetailedText(self._view.details)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
