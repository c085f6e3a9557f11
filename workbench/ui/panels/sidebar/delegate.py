"""SidebarDelegate: paints a sidebar row (state dot, name, error sign, key, kind badge, state line) as plain text."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from workbench.core.events import ConnectionState
from workbench.ui.panels.sidebar.itemmodel import SidebarRole

PAD = 6
DOT = 10
KEY_COLOUR = "#b8860b"


def draw_key(painter: QPainter, rect: QRect, colour: QColor) -> None:
    """A small key (ring, shaft, two teeth) filling ``rect``'s height: the profile has stored secrets."""
    size = rect.height()
    ring = max(size * 2 // 5, 4)
    pen = QPen(colour, max(size / 8, 1.5))
    painter.save()
    painter.setPen(pen)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    top = rect.top() + (size - ring) // 2
    painter.drawEllipse(rect.left(), top, ring, ring)
    mid = top + ring // 2
    end = rect.left() + rect.width() - 1
    painter.drawLine(QPoint(rect.left() + ring, mid), QPoint(end, mid))
    tooth = max(size // 5, 2)
    painter.drawLine(QPoint(end, mid), QPoint(end, mid + tooth))
    painter.drawLine(QPoint(end - tooth - 1, mid), QPoint(end - tooth - 1, mid + tooth))
    painter.restore()


class SidebarDelegate(QStyledItemDelegate):
    """Two fixed-height lines per row; every string is drawn with ``drawText`` (never as rich text)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:  # noqa: N802
        """Same height for every row: two lines of text and padding."""
        metrics = QFontMetrics(option.font)
        return QSize(200, 2 * metrics.height() + 3 * PAD // 2 + 2)

    def paint(
        self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
    ) -> None:
        """Draw the dot, the name, the kind badge and the state line."""
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        widget = opt.widget
        style = widget.style() if widget is not None else QApplication.style()
        opt.text = ""
        opt.icon = type(opt.icon)()
        style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)

        rect: QRect = opt.rect
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        palette: QPalette = opt.palette
        text_role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        text_colour = palette.color(text_role)
        font: QFont = opt.font
        metrics = QFontMetrics(font)
        line = metrics.height()

        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        top = rect.top() + PAD // 2
        colour = index.data(SidebarRole.STATE_COLOUR)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(colour if isinstance(colour, QColor) else QColor("#9e9e9e"))
        painter.drawEllipse(rect.left() + PAD, top + (line - DOT) // 2, DOT, DOT)

        left = rect.left() + 2 * PAD + DOT
        right = rect.right() - PAD

        # Kind badge at the right of the first line.
        kind = str(index.data(SidebarRole.KIND) or "")
        small = QFont(font)
        small.setPointSizeF(max(font.pointSizeF() * 0.8, 6.0))
        small_metrics = QFontMetrics(small)
        badge_width = small_metrics.horizontalAdvance(kind) + PAD
        badge = QRect(
            right - badge_width, top + (line - small_metrics.height()) // 2, badge_width, small_metrics.height()
        )
        painter.setPen(QColor(text_colour.red(), text_colour.green(), text_colour.blue(), 150))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(badge, 3, 3)
        painter.setFont(small)
        painter.drawText(badge, Qt.AlignmentFlag.AlignCenter, kind)

        # A key left of the badge when the profile has secrets in the credential store.
        name_right = badge.left() - PAD
        if index.data(SidebarRole.HAS_SECRETS):
            key_height = max(small_metrics.height() - 2, 8)
            key_rect = QRect(name_right - 2 * key_height, top + (line - key_height) // 2, 2 * key_height, key_height)
            draw_key(painter, key_rect, text_colour if selected else QColor(KEY_COLOUR))
            name_right = key_rect.left() - PAD // 2

        # A warning sign when the connection failed while another row was selected (tooltip: the error).
        if index.data(SidebarRole.UNSEEN_ERROR):
            side = max(line - 2, 10)
            sign = QRect(name_right - side, top + (line - side) // 2, side, side)
            style.standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning, None, widget).paint(painter, sign)
            name_right = sign.left() - PAD // 2

        # Name, elided to the space left of the badge (and key).
        name_font = QFont(font)
        name_font.setBold(True)
        name_metrics = QFontMetrics(name_font)
        name_rect = QRect(left, top, max(name_right - left, 0), line)
        name = name_metrics.elidedText(
            str(index.data(SidebarRole.NAME) or ""), Qt.TextElideMode.ElideRight, name_rect.width()
        )
        painter.setFont(name_font)
        painter.setPen(text_colour)
        painter.drawText(
            name_rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextSingleLine, name
        )

        # State line.
        state = index.data(SidebarRole.STATE)
        state_rect = QRect(left, top + line + PAD // 2, max(right - left, 0), line)
        state_text = metrics.elidedText(
            str(index.data(SidebarRole.STATE_TEXT) or ""), Qt.TextElideMode.ElideRight, state_rect.width()
        )
        painter.setFont(font)
        if state == ConnectionState.FAILED.value and not selected:
            painter.setPen(QColor("#d0312d"))
        else:
            painter.setPen(QColor(text_colour.red(), text_colour.green(), text_colour.blue(), 170))
        painter.drawText(
            state_rect,
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextSingleLine,
            state_text,
        )
        painter.restore()
