"""FormArea: a dialog's fields in a scroll area as tall as they are, scrolling only on a shorter screen."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QScrollArea, QWidget


class FormArea(QScrollArea):
    """The dialog's fields: as tall as they are, scrolling only on a screen shorter than that.

    A plain ``QScrollArea`` asks for little room and hides its content's height; this one asks for
    the content's height at its width (wrapped notes included), so the dialog opens with every field
    shown when the screen has room, and shrinks to the screen (its buttons in view) when it has not.

    Each wrapped label keeps the height its text needs at its width (``heightForWidth``): after the
    fields are laid out again, a label given less has the layouts above it recomputed. A
    ``QFormLayout`` whose field holds wrapped text can arrange its rows with heights cached for
    another width (seen: another row's error line appeared, the OAuth note lost its last line).

    Signals:
        content_changed: The fields' layout changed (rows shown or hidden, a note's text): the dialog
            may need to grow.
    """

    content_changed = Signal()

    MAX_REPAIRS = 2
    """Layout passes in a row that may recompute the layouts for a squeezed label before the area gives up."""

    def __init__(self, content: QWidget, parent: QWidget | None = None) -> None:
        self._content = content  # first: Qt calls the overrides below while the area is being set up
        super().__init__(parent)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self._check_pending = False
        self._repairs_in_a_row = 0
        self.setWidget(content)  # QScrollArea filters the content's events: eventFilter sees them

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Pass a change of the content's layout on, so the dialog's layout asks this area again."""
        if watched is self._content and event.type() == QEvent.Type.LayoutRequest:
            self.updateGeometry()
            self.content_changed.emit()
        if watched is self._content and event.type() in (QEvent.Type.LayoutRequest, QEvent.Type.Resize):
            self._check_wrapped_text_later()
        return super().eventFilter(watched, event)

    def _check_wrapped_text_later(self) -> None:
        """Check the wrapped labels once the layouts have handled the pending changes (coalesced)."""
        if not self._check_pending:
            self._check_pending = True
            QTimer.singleShot(0, self, self.keep_wrapped_text_whole)

    def squeezed_labels(self) -> list[QLabel]:
        """The shown word-wrapped labels among the fields that are shorter than their text at their width."""
        return [
            label
            for label in self._content.findChildren(QLabel)
            if label.wordWrap()
            and label.isVisibleTo(self._content)
            and label.height() < min(label.heightForWidth(label.width()), label.maximumHeight())
        ]

    def keep_wrapped_text_whole(self) -> bool:
        """Give every squeezed wrapped label its full height: recompute the layouts from it up to the fields.

        Returns:
            Whether a label was squeezed (its layouts were recomputed).
        """
        self._check_pending = False
        squeezed = self.squeezed_labels()
        if not squeezed:
            self._repairs_in_a_row = 0
            return False
        self._repairs_in_a_row += 1
        if self._repairs_in_a_row > self.MAX_REPAIRS:
            return False  # the layouts cannot give it more: stop rather than relayout on every event
        for label in squeezed:
            parent = label.parentWidget()
            while parent is not None:
                layout = parent.layout()
                if layout is not None:
                    layout.invalidate()  # drops the heights cached for another width
                if parent is self._content:
                    break
                parent = parent.parentWidget()
        self.settle()
        return True

    def settle(self) -> None:
        """Bring the fields' nested layouts up to date now, innermost first.

        A section's new note or rows reach the fields' layout one posted ``LayoutRequest`` per level, and
        only while the dialog is visible; activating each layout from the inside out (each activation
        tells the level above) lets the dialog be measured and placed with them before it is shown.
        """
        for widget in reversed(self._content.findChildren(QWidget)):  # descendants come after their parent
            layout = widget.layout()
            if layout is not None:
                layout.activate()
        content_layout = self._content.layout()
        if content_layout is not None:
            content_layout.activate()
        self.updateGeometry()

    def _gutter(self) -> int:
        return self.verticalScrollBar().sizeHint().width()

    def minimumSizeHint(self) -> QSize:  # noqa: N802
        """The content's least width beside a scroll bar (it never scrolls sideways), and little height."""
        return QSize(self._content.minimumSizeHint().width() + self._gutter(), super().minimumSizeHint().height())

    def sizeHint(self) -> QSize:  # noqa: N802
        """The content's size hint, with room for a scroll bar beside it."""
        content = self._content
        hint = content.sizeHint()
        width = hint.width() + self._gutter()
        return QSize(width, self.heightForWidth(width))

    def hasHeightForWidth(self) -> bool:  # noqa: N802
        """Yes: the fields hold wrapped notes."""
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802
        """The content's height at ``width`` (less the scroll bar's room)."""
        content = self._content
        inner = max(0, width - self._gutter())
        height = content.heightForWidth(inner) if content.hasHeightForWidth() else -1
        return height if height >= 0 else content.sizeHint().height()
