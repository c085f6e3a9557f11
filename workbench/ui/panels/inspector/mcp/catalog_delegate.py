"""CatalogDelegate: a catalog row as its name over its description's first line (secondary colour, elided).

As the MCP Inspector lists tools: what a tool does is readable without hovering each name. Both
lines are drawn with ``drawText`` (plain text, never rich text); the description line is elided to
the row's width, the name only when the list is too narrow for it.

``TagLabel`` is a catalog entry's annotation ("read-only", "destructive"): a flat tag in the same
quiet colours, never something that looks like a button.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFontMetrics, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QSizePolicy,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from workbench.ui.panels.inspector.mcp.itemmodel import SUMMARY_ROLE

PAD = 4
"""Pixels around and between the two lines."""
SECONDARY_WEIGHT = 0.62
"""How much of the text colour the description's colour takes (the rest is the background's)."""
TAG_FILL_WEIGHT = 0.12
"""How much of the text colour a tag's fill takes: a tint of the window, no border, no shadow."""
TAG_FONT_SCALE = 0.9
"""A tag's text is a little smaller than the text around it."""
FOCUS_RING = 2
"""Pixels of the ring round the current row while the list has the keyboard focus."""

_Index = QModelIndex | QPersistentModelIndex


def secondary_colour(text: QColor, background: QColor, weight: float = SECONDARY_WEIGHT) -> QColor:
    """A colour between ``text`` and ``background``: readable, yet quieter than the text (any palette)."""
    w = weight
    return QColor(
        round(text.red() * w + background.red() * (1 - w)),
        round(text.green() * w + background.green() * (1 - w)),
        round(text.blue() * w + background.blue() * (1 - w)),
    )


class TagLabel(QLabel):
    """A flat tag: plain text on a tint of the window's colour, rounded, no border, never focusable.

    Annotations are facts about an entry, not actions: unlike a button (raised, outlined, the same
    height as the Schemas button beside it) a tag is lower than the text line's button, has no
    frame and takes no focus or clicks. Its colours follow the palette (light and dark).
    """

    def __init__(self, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents, True)
        self.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        font = self.font()
        font.setPointSizeF(font.pointSizeF() * TAG_FONT_SCALE)
        self.setFont(font)
        self.setContentsMargins(6, 1, 6, 1)
        self.setText(text)
        self._recolour()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt's name
        """Follow a palette change (light/dark)."""
        if event.type() == QEvent.Type.PaletteChange:
            self._recolour()
        super().changeEvent(event)

    def _recolour(self) -> None:
        palette = self.palette()
        text = palette.color(QPalette.ColorRole.WindowText)
        background = palette.color(QPalette.ColorRole.Window)
        self.fill = secondary_colour(text, background, TAG_FILL_WEIGHT)
        self.text_colour = secondary_colour(text, background, 0.85)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802 - Qt's name
        """A rounded fill, then the text in the tag's colour."""
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(self.fill)
        radius = self.height() / 2
        painter.drawRoundedRect(self.rect(), radius, radius)
        painter.setPen(self.text_colour)
        painter.setFont(self.font())
        painter.drawText(self.contentsRect(), Qt.AlignmentFlag.AlignCenter, self.text())
        painter.end()


class CatalogDelegate(QStyledItemDelegate):
    """Two lines per row (name, then the description's first line) while ``two_lines``; else the name only.

    Every row has the same height (the list keeps uniform item sizes): the owner sets ``two_lines``
    when any row has a description. While the list has the keyboard focus its current row has a ring
    (``FOCUS_RING`` pixels, inside the row: the selection's text colour on a selected row, the
    selection's colour on another), so a focused list never looks like an unfocused one.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.two_lines = True

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:  # noqa: N802
        """Room for the name and (with ``two_lines``) one line of description."""
        metrics = QFontMetrics(option.font)
        name = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        lines = 2 if self.two_lines else 1
        return QSize(metrics.horizontalAdvance(name) + 2 * PAD, lines * (metrics.height() + PAD // 2) + PAD // 2 + 1)

    def shown_lines(self, option: QStyleOptionViewItem, index: _Index) -> tuple[str, str]:
        """The name and description as drawn in ``option.rect``'s width (elided where they do not fit)."""
        metrics = QFontMetrics(option.font)
        width = max(option.rect.width() - 2 * PAD, 0)
        name = str(index.data(Qt.ItemDataRole.DisplayRole) or "")
        summary = str(index.data(SUMMARY_ROLE) or "")
        return (
            metrics.elidedText(name, Qt.TextElideMode.ElideRight, width),
            metrics.elidedText(summary, Qt.TextElideMode.ElideRight, width),
        )

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: _Index) -> None:
        """The row's background (selection, hover), then the name and the description line."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        opt.text = ""
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)

        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        palette: QPalette = opt.palette
        text = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        background = palette.color(QPalette.ColorRole.Base)
        name, summary = self.shown_lines(opt, index)
        line = QFontMetrics(opt.font).height()
        rect: QRect = opt.rect
        flags = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextSingleLine
        painter.save()
        painter.setFont(opt.font)
        painter.setPen(text)
        painter.drawText(QRect(rect.left() + PAD, rect.top() + PAD // 2, rect.width() - 2 * PAD, line), flags, name)
        if summary and self.two_lines:
            # on the selection's colour a quieter shade would be hard to read: the selected row keeps one colour
            painter.setPen(text if selected else secondary_colour(text, background))
            below = QRect(rect.left() + PAD, rect.top() + PAD + line, rect.width() - 2 * PAD, line)
            painter.drawText(below, flags, summary)
        if opt.state & QStyle.StateFlag.State_HasFocus:  # the current row of the focused list
            ring = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Highlight)
            painter.setPen(QPen(ring, FOCUS_RING))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            half = FOCUS_RING // 2
            painter.drawRect(rect.adjusted(half, half, -half - 1, -half - 1))
        painter.restore()
