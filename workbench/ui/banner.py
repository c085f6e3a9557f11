"""ErrorBanner: background failures shown inline at the top of the window, details one click away."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QMessageBox,
    QPushButton,
    QScrollArea,
    QStyle,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.ui.dialog_rules import present
from workbench.ui.errors import ErrorView
from workbench.ui.icons import DISMISS_GLYPH, ERROR_GLYPH, follow, icon_theme
from workbench.ui.untrusted import plain_label, shown

TEXT_LINES = 4
"""Lines of text the banner shows at most (headline, message, hint); a longer error scrolls inside it.

The banner sits over the workspace: it takes its room from the workspace, never from the wire log
(``window_layout``'s space budget), so its height is bounded.
"""


class _BannerText(QScrollArea):
    """The banner's words: as tall as they are at the banner's width, up to ``TEXT_LINES`` lines, then scrolling."""

    def __init__(self, body: QWidget, parent: QWidget) -> None:
        super().__init__(parent)
        self._body = body
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidgetResizable(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # no tab stop: "Details…" has the whole message too
        self.setWidget(body)
        self.viewport().setAutoFillBackground(False)  # the banner's ground shows through
        body.setAutoFillBackground(False)

    def sizeHint(self) -> QSize:  # noqa: N802
        """The words' height at the width they have (wrapped), at most ``TEXT_LINES`` lines."""
        body = self._body
        width = max(self.viewport().width(), body.minimumSizeHint().width())
        height = body.heightForWidth(width) if body.hasHeightForWidth() else body.sizeHint().height()
        layout = body.layout()
        spacing = layout.spacing() if layout is not None else 0
        cap = TEXT_LINES * self.fontMetrics().lineSpacing() + spacing  # the headline, then the message's lines
        return QSize(body.sizeHint().width(), min(max(height, 0), cap))

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        """As tall as ``sizeHint``: the workspace gives way to the banner; words beyond the cap scroll."""
        return QSize(self.fontMetrics().averageCharWidth() * 20, self.sizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        """Another width wraps the words to another height: the banner's layout asks again."""
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.updateGeometry()


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
        self._mark_side = self.style().pixelMetric(QStyle.PixelMetric.PM_SmallIconSize)
        self.mark = QLabel(self)
        self.mark.setFixedSize(QSize(self._mark_side + 6, self._mark_side + 6))
        self.mark.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.title = plain_label("", self)
        self.title.setStyleSheet("font-weight: bold")
        self.message = plain_label("", self, wrap=True)
        self.hint = plain_label("", self, wrap=True)
        self.details_button = QPushButton("Details…", self)
        self.details_button.clicked.connect(self.show_details)
        self.close_button = QToolButton(self)
        self.close_button.setAutoRaise(True)
        self.close_button.setToolTip("Dismiss")
        self.close_button.setAccessibleName("Dismiss")
        self.close_button.clicked.connect(self.dismiss)
        # The style's own icons are drawn in fixed colours (a black ✕ is lost on the dark theme's red, a
        # greyed warning sign on the light theme's pink); the glyphs take the text colour that the
        # stylesheet gives the banner's labels and buttons.
        follow(self.mark, self._draw_mark)
        follow(self.close_button, self._draw_close_icon)
        body = QWidget(self)
        text = QVBoxLayout(body)
        text.setContentsMargins(0, 0, 0, 0)
        text.setSpacing(2)
        text.addWidget(self.title)
        text.addWidget(self.message)
        text.addWidget(self.hint)
        self.text_area = _BannerText(body, self)
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 4, 4)
        row.addWidget(self.mark, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.text_area, 1)
        row.addWidget(self.details_button, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def _draw_mark(self) -> None:
        icon = icon_theme().icon(ERROR_GLYPH, self.mark.palette())
        self.mark.setPixmap(icon.pixmap(QSize(self._mark_side, self._mark_side), self.mark.devicePixelRatioF()))

    def _draw_close_icon(self) -> None:
        self.close_button.setIcon(icon_theme().icon(DISMISS_GLYPH, self.close_button.palette()))

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
