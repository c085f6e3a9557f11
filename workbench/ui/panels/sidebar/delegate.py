"""SidebarDelegate: paints a sidebar row (state mark, name, error sign, key, kind badge, state line) as plain text."""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QIcon, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QStyle, QStyledItemDelegate, QStyleOptionViewItem, QWidget

from workbench.core.events import ConnectionState
from workbench.ui.icons import icon_theme, kind_glyph, state_colour, state_glyph
from workbench.ui.panels.sidebar.itemmodel import SidebarRole

PAD = 6
MARK = 16
"""The state mark's side (its glyph: a tick, a clock, a warning, an empty circle; a dot until the glyphs load)."""
DOT = 10
KEY_COLOUR = "#b8860b"
BADGE_ALPHA = 170
"""The kind badge's text, frame and mark: the text colour at this opacity (AA contrast on both palettes)."""
STATE_TEXT_ALPHA = 170
"""The state line's text colour opacity (AA contrast on both palettes)."""


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
    """Two fixed-height lines per row; every string is drawn with ``drawText`` (never as rich text).

    The state mark and the kind badge's mark are ``workbench.ui.icons`` glyphs in the view's palette
    (the state's colour for its theme, ``HighlightedText`` on the selected row).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._icons: dict[tuple[str, int], QIcon] = {}
        icon_theme().changed.connect(self.on_icon_theme_changed)

    def on_icon_theme_changed(self) -> None:
        """The glyphs loaded or the palette changed: make the marks again."""
        self._icons.clear()

    def _icon(self, glyph: str, colour: QColor, palette: QPalette) -> QIcon:
        key = (glyph, colour.rgba())
        icon = self._icons.get(key)
        if icon is None:
            icon = self._icons[key] = icon_theme().icon(glyph, palette, colour=colour)
        return icon

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
        state = str(index.data(SidebarRole.STATE) or ConnectionState.DISCONNECTED.value)
        mark_colour = state_colour(state, palette, selected=selected)
        side = min(MARK, line)
        mark = QRect(rect.left() + PAD, top + (line - side) // 2, side, side)
        if icon_theme().loaded:
            self._icon(state_glyph(state), mark_colour, palette).paint(painter, mark)
        else:  # the glyphs load after the window's first paint: a dot in the mark's place until then
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(mark_colour)
            painter.drawEllipse(mark.center(), DOT // 2, DOT // 2)

        left = rect.left() + 2 * PAD + MARK
        right = rect.right() - PAD

        # Kind badge at the right of the first line: [mark kind-in-words], the mark as tall as the line.
        kind = str(index.data(SidebarRole.KIND) or "")
        small = QFont(font)
        small.setPointSizeF(max(font.pointSizeF() * 0.8, 6.0))
        small_metrics = QFontMetrics(small)
        height = min(line, small_metrics.height() + 4)
        glyph_side = height - 2
        inner = PAD // 2
        badge_width = inner + glyph_side + 2 + small_metrics.horizontalAdvance(kind) + inner + 2
        badge = QRect(right - badge_width, top + (line - height) // 2, badge_width, height)
        muted = QColor(text_colour.red(), text_colour.green(), text_colour.blue(), BADGE_ALPHA)
        painter.setPen(muted)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        painter.drawRoundedRect(badge, 3, 3)
        kind_mark = QRect(badge.left() + inner, badge.top() + 1, glyph_side, glyph_side)
        if icon_theme().loaded:
            glyph = kind_glyph(str(index.data(SidebarRole.PROFILE_KIND) or ""))
            self._icon(glyph, muted, palette).paint(painter, kind_mark)
        painter.setFont(small)
        text_box = QRect(kind_mark.right() + 3, badge.top(), badge.right() - kind_mark.right() - 3, height)
        painter.drawText(text_box, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, kind)

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
        state_rect = QRect(left, top + line + PAD // 2, max(right - left, 0), line)
        state_text = metrics.elidedText(
            str(index.data(SidebarRole.STATE_TEXT) or ""), Qt.TextElideMode.ElideRight, state_rect.width()
        )
        painter.setFont(font)
        if state == ConnectionState.FAILED.value and not selected:
            painter.setPen(mark_colour)  # the failed state's colour for this palette (>= 4.5:1 on the row)
        else:
            painter.setPen(QColor(text_colour.red(), text_colour.green(), text_colour.blue(), STATE_TEXT_ALPHA))
        painter.drawText(
            state_rect,
            Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter | Qt.TextFlag.TextSingleLine,
            state_text,
        )
        painter.restore()
