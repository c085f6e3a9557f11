"""Graphics items of the Handoff view: lane headers, lifelines, arrows and approval markers.

Every text here may come from a peer: it is drawn with ``QGraphicsSimpleTextItem`` or
``QPainter.drawText`` (never rich text) through ``shown`` (invisible characters as escapes), and
tooltips go through ``plain_tooltip``.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsRectItem,
    QGraphicsSimpleTextItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from workbench.core.handoff.events import USER, HopState
from workbench.core.handoff.mermaid import USER_TITLE, StepStyle
from workbench.ui.panels.handoffs.diagram import Arrow, Hop, Lane, LaneState
from workbench.ui.untrusted import plain_tooltip, shown

LANE_WIDTH = 200.0
MARGIN = 20.0
HEADER_HEIGHT = 52.0
FIRST_ROW = HEADER_HEIGHT + 2 * MARGIN + 10.0
ROW_HEIGHT = 46.0
LABEL_MIN_WIDTH = 2 * LANE_WIDTH - 40
BOTTOM = 30.0

LANE_COLOURS: dict[LaneState, tuple[str, str]] = {  # (fill, border)
    LaneState.IDLE: ("#eceff1", "#90a4ae"),
    LaneState.WORKING: ("#d6e6ff", "#1a73e8"),
    LaneState.WAITING_FOR_USER: ("#ffecb3", "#e69500"),
    LaneState.DONE: ("#d7f0d8", "#2e7d32"),
    LaneState.FAILED: ("#f9d4d4", "#c62828"),
}
STYLE_COLOURS: dict[StepStyle, str] = {
    StepStyle.REQUEST: "#263238",
    StepStyle.ASK_USER: "#b26a00",
    StepStyle.USER_ANSWER: "#b26a00",
    StepStyle.REPLY: "#2e7d32",
    StepStyle.FAILED: "#c62828",
    StepStyle.DENIED: "#8e4a00",
    StepStyle.APPROVAL: "#e69500",
}
PROTOCOL_COLOURS = {"mcp": "#6a1b9a", "a2a": "#00695c", "local": "#546e7a"}
SELECTED_FILL = QColor("#fff59d")
LABEL_BACKDROP = QColor(255, 255, 255, 230)


def lane_centre(index: int) -> float:
    """The x of a lane's lifeline."""
    return MARGIN + index * LANE_WIDTH + LANE_WIDTH / 2


def row_y(index: int) -> float:
    """The y of an arrow's row."""
    return FIRST_ROW + index * ROW_HEIGHT


def lane_title(name: str) -> str:
    """What a lane header says."""
    return USER_TITLE if name == USER else name


class LaneHeaderItem(QGraphicsRectItem):
    """A lane's box at the top: name, protocol badge, colour for the lane's state."""

    def __init__(self, lane: Lane) -> None:
        width = LANE_WIDTH - 16
        super().__init__(0, 0, width, HEADER_HEIGHT)
        self.lane_name = lane.name
        self.state = lane.state
        self.protocol = ""
        self.setPos(lane_centre(lane.index) - width / 2, MARGIN)  # y: the scene pins headers to the view's top
        self.name_item = QGraphicsSimpleTextItem(self)
        font = QFont(self.name_item.font())
        font.setBold(True)
        self.name_item.setFont(font)
        full = shown(lane_title(lane.name))
        metrics = QFontMetricsF(font)
        self.name_item.setText(metrics.elidedText(full, Qt.TextElideMode.ElideRight, width - 12))
        self.name_item.setPos(6, 6)
        self.badge = QGraphicsRectItem(self)
        self.badge_text = QGraphicsSimpleTextItem(self.badge)
        self.state_text = QGraphicsSimpleTextItem(self)
        self.state_text.setPos(6, HEADER_HEIGHT - 20)
        self.setToolTip(plain_tooltip(full))
        self.set_protocol(lane.protocol)
        self.set_state(lane.state)

    def set_protocol(self, protocol: str) -> None:
        """Show the protocol badge (hidden while unknown)."""
        self.protocol = protocol
        self.badge.setVisible(bool(protocol))
        if not protocol:
            return
        self.badge_text.setText(protocol.upper())
        text_rect = self.badge_text.boundingRect()
        width = text_rect.width() + 8
        self.badge.setRect(0, 0, width, text_rect.height() + 2)
        self.badge.setPos(self.rect().width() - width - 4, HEADER_HEIGHT - text_rect.height() - 6)
        colour = QColor(PROTOCOL_COLOURS.get(protocol.lower(), "#455a64"))
        self.badge.setBrush(QBrush(colour))
        self.badge.setPen(QPen(Qt.PenStyle.NoPen))
        self.badge_text.setBrush(QBrush(QColor("white")))
        self.badge_text.setPos(4, 1)

    def set_state(self, state: LaneState) -> None:
        """Colour the header for the lane's state."""
        self.state = state
        fill, border = LANE_COLOURS[state]
        self.setBrush(QBrush(QColor(fill)))
        self.setPen(QPen(QColor(border), 2))
        self.state_text.setText(state.value.replace("-", " "))
        self.state_text.setBrush(QBrush(QColor(border).darker(130)))


class ArrowItem(QGraphicsItem):
    """One arrow (or approval marker) with its elided label; the full label is its tooltip.

    Attributes:
        arrow: The diagram arrow it draws.
        hop_state: The state of the arrow's hop (failed and denied hops are drawn marked).
    """

    def __init__(self, arrow: Arrow, hop: Hop) -> None:
        super().__init__()
        self.arrow = arrow
        self.hop_state = hop.state
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable, True)
        self.setAcceptHoverEvents(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self._font = QFont()
        self._metrics = QFontMetricsF(self._font)
        self.x1 = lane_centre(arrow.sender)
        self.x2 = lane_centre(arrow.receiver)
        self.line_y = row_y(arrow.index)
        left, right = min(self.x1, self.x2), max(self.x1, self.x2)
        height = self._metrics.height() + 2
        if self.is_marker or left == right:
            self._label_rect = QRectF(left + 14, self.line_y - height / 2, LABEL_MIN_WIDTH - 14, height)
        else:  # one arrow per row: the label may run past the arrow's ends, across lifelines
            width = max(right - left - 12, LABEL_MIN_WIDTH)
            label_left = max(4.0, (left + right) / 2 - width / 2)
            self._label_rect = QRectF(label_left, self.line_y - height - 3, width, height)
        self.elided_label = self._metrics.elidedText(
            shown(arrow.label), Qt.TextElideMode.ElideRight, max(24.0, self._label_rect.width())
        )
        self.setToolTip(plain_tooltip(self.tooltip_text(hop)))

    @property
    def is_marker(self) -> bool:
        """Whether this is an approval marker rather than an arrow."""
        return self.arrow.style is StepStyle.APPROVAL

    @property
    def is_dashed(self) -> bool:
        """Replies (done, failed, denied, the user's answer) are dashed."""
        return self.arrow.style in (StepStyle.REPLY, StepStyle.FAILED, StepStyle.DENIED, StepStyle.USER_ANSWER)

    @property
    def marked(self) -> str:
        """``failed``/``denied`` when the arrow or its hop ended that way, else ""."""
        if self.arrow.style is StepStyle.FAILED or self.hop_state is HopState.FAILED:
            return "failed"
        if self.arrow.style is StepStyle.DENIED or self.hop_state is HopState.DENIED:
            return "denied"
        return ""

    def tooltip_text(self, hop: Hop) -> str:
        """The full label plus the hop's route (plain text)."""
        step = self.arrow.step
        return (
            f"{self.arrow.label}\n\n{hop.kind.value}: {lane_title(hop.source)} → {lane_title(hop.target)}"
            f" ({hop.protocol}) · {step.event.state.value}"
        )

    def set_hop(self, hop: Hop) -> None:
        """The hop moved on: re-mark the arrow and refresh its tooltip."""
        if hop.state is not self.hop_state:
            self.hop_state = hop.state
            self.update()
        self.setToolTip(plain_tooltip(self.tooltip_text(hop)))

    def boundingRect(self) -> QRectF:  # noqa: N802
        """The line, its head and its label."""
        left, right = min(self.x1, self.x2), max(self.x1, self.x2)
        line = QRectF(left - 10, self.line_y - 10, right - left + 20, 20)
        if left == right:
            line = QRectF(left - 10, self.line_y - 12, 40, 30)
        return line.united(self._label_rect).adjusted(-2, -2, 2, 2)

    def shape(self) -> QPainterPath:
        """Clickable anywhere in the bounding rect (thin lines are hard to hit)."""
        path = QPainterPath()
        path.addRect(self.boundingRect())
        return path

    def colour(self) -> QColor:
        """The arrow's colour (red for failed, brown for denied)."""
        marked = self.marked
        if marked == "failed":
            return QColor(STYLE_COLOURS[StepStyle.FAILED])
        if marked == "denied" and self.arrow.style is not StepStyle.APPROVAL:
            return QColor(STYLE_COLOURS[StepStyle.DENIED])
        return QColor(STYLE_COLOURS[self.arrow.style])

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        """Draw the line (solid or dashed), the head, a cross for failed/denied, and the label."""
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        if self.isSelected():
            painter.fillRect(self.boundingRect(), SELECTED_FILL)
        colour = self.colour()
        pen = QPen(colour, 2.5 if self.isSelected() else 1.6)
        if self.is_dashed:
            pen.setStyle(Qt.PenStyle.DashLine)
        painter.setPen(pen)
        if self.is_marker:
            self._paint_marker(painter, colour)
        elif self.x1 == self.x2:
            self._paint_loop(painter, colour)
        else:
            self._paint_line(painter, colour)
        painter.setFont(self._font)
        painter.setPen(QPen(colour.darker(120) if self.marked else QColor("#212121")))
        text_width = self._metrics.horizontalAdvance(self.elided_label) + 6
        rect = self._label_rect
        if self.is_marker or self.x1 == self.x2:
            across, backdrop = (
                Qt.AlignmentFlag.AlignLeft,
                QRectF(rect.left() - 3, rect.top(), text_width, rect.height()),
            )
        else:
            backdrop = QRectF(rect.center().x() - text_width / 2, rect.top(), text_width, rect.height())
            across = Qt.AlignmentFlag.AlignHCenter
        painter.fillRect(backdrop, SELECTED_FILL if self.isSelected() else LABEL_BACKDROP)  # legible over lifelines
        painter.drawText(rect, int(across | Qt.AlignmentFlag.AlignVCenter), self.elided_label)

    def _paint_line(self, painter: QPainter, colour: QColor) -> None:
        x1, x2, y = self.x1, self.x2, self.line_y
        painter.drawLine(QPointF(x1, y), QPointF(x2, y))
        direction = 1.0 if x2 > x1 else -1.0
        tip = QPointF(x2, y)
        back = QPointF(x2 - direction * 10, y)
        solid = QPen(colour, 1.6)
        painter.setPen(solid)
        if self.is_dashed:
            painter.drawLine(tip, back + QPointF(0, -5))
            painter.drawLine(tip, back + QPointF(0, 5))
        else:
            painter.setBrush(QBrush(colour))
            painter.drawPolygon(QPolygonF([tip, back + QPointF(0, -5), back + QPointF(0, 5)]))
            painter.setBrush(Qt.BrushStyle.NoBrush)
        if self.marked:
            centre = QPointF(x2 - direction * 18, y)
            painter.setPen(QPen(colour, 2.2))
            painter.drawLine(centre + QPointF(-5, -5), centre + QPointF(5, 5))
            painter.drawLine(centre + QPointF(-5, 5), centre + QPointF(5, -5))

    def _paint_loop(self, painter: QPainter, colour: QColor) -> None:
        x, y = self.x1, self.line_y
        path = QPainterPath(QPointF(x, y - 8))
        path.lineTo(x + 24, y - 8)
        path.lineTo(x + 24, y + 8)
        path.lineTo(x + 4, y + 8)
        painter.drawPath(path)

    def _paint_marker(self, painter: QPainter, colour: QColor) -> None:
        x, y = self.x1, self.line_y
        fill = {HopState.DENIED: "#c62828", HopState.PENDING: "#ffca28"}.get(self.hop_state, "#66bb6a")
        painter.setPen(QPen(colour.darker(130), 1.4))
        painter.setBrush(QBrush(QColor(fill)))
        painter.drawPolygon(QPolygonF([QPointF(x, y - 9), QPointF(x + 9, y), QPointF(x, y + 9), QPointF(x - 9, y)]))
        painter.setBrush(Qt.BrushStyle.NoBrush)
