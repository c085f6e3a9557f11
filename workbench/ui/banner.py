"""ErrorBanner: background failures shown inline at the top of the window, details one click away."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QMessageBox, QPushButton, QStyle, QToolButton, QVBoxLayout, QWidget

from workbench.ui.dialog_rules import present
from workbench.ui.errors import ErrorView
from workbench.ui.untrusted import plain_label, shown


class ErrorBanner(QFrame):
    """Shows the latest ``ErrorView``: what failed, why, what to do; "Details…" opens the technical part.

    Errors belong to a connection (``ErrorView.connection_id``) or to the window (None). The banner
    shows the selected connection's latest error (``set_connection``), else the window's; another
    connection's error is kept for when that connection is selected, and each is counted on its own.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("errorBanner")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._view: ErrorView | None = None
        self._count = 0
        self._selected: str | None = None
        self._kept: dict[str | None, tuple[ErrorView, int]] = {}  # latest error and count, per connection
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

    @property
    def count(self) -> int:
        """How many errors of the shown error's connection arrived since it was last dismissed."""
        return self._count if self.isVisible() else 0

    def show_error(self, view: ErrorView) -> None:
        """Keep ``view`` as its connection's latest error; show it when that connection is the one selected."""
        key = view.connection_id
        _, count = self._kept.get(key, (view, 0))
        self._kept[key] = (view, count + 1)
        if key is None or key == self._selected:
            self._display(key)

    def set_connection(self, connection_id: str | None) -> None:
        """The user looks at ``connection_id``: show its error, else the window's, else nothing."""
        self._selected = connection_id
        if connection_id is not None and connection_id in self._kept:
            self._display(connection_id)
        elif None in self._kept:
            self._display(None)
        else:
            self.hide()

    def dismiss(self) -> None:
        """Hide the banner and forget the error shown (and its count)."""
        if self._view is not None:
            self._kept.pop(self._view.connection_id, None)
        self._count = 0
        self.hide()
        if None in self._kept and (self._view is None or self._view.connection_id is not None):
            self._display(None)  # a window-wide error was waiting behind the connection's

    def _display(self, key: str | None) -> None:
        view, count = self._kept[key]
        self._view, self._count = view, count
        suffix = f"  ({count} errors; showing the latest)" if count > 1 else ""
        self.title.setText(view.headline + suffix)
        self.message.setText(view.message)
        self.hint.setText(view.hint)
        self.hint.setVisible(bool(view.hint))
        self.details_button.setVisible(bool(view.details))
        self.show()

    def show_details(self) -> None:
        """Open a non-modal box with the technical details (plain text)."""
        if self._view is None:
            return
        box = QMessageBox(QMessageBox.Icon.Warning, shown(self._view.title), shown(self._view.message), parent=self)
        box.setTextFormat(Qt.TextFormat.PlainText)
        box.setInformativeText(f"code: {self._view.code}")
        box.setDetailedText(shown(self._view.details))
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        present(box)
