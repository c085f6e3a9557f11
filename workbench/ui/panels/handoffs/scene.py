"""HandoffScene: a ChainDiagram as a QGraphicsScene, updated per event, exportable as PNG and SVG."""

from __future__ import annotations

import math
import os

from PySide6.QtCore import QLineF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QImage, QPainter, QPen
from PySide6.QtSvg import QSvgGenerator
from PySide6.QtWidgets import QGraphicsLineItem, QGraphicsScene

from workbench.core.errors import WorkbenchError
from workbench.ui.panels.handoffs.diagram import Arrow, ChainDiagram, DiagramChange, Hop, Lane
from workbench.ui.panels.handoffs.items import (
    BOTTOM,
    HEADER_HEIGHT,
    LANE_WIDTH,
    MARGIN,
    ROW_HEIGHT,
    ArrowItem,
    LaneHeaderItem,
    lane_centre,
    row_y,
)

BACKGROUND = QColor("white")
HEADER_Z = 9.0
"""Z of the pinned header strip (the headers sit just above it, the arrows below)."""


class HandoffScene(QGraphicsScene):
    """The swimlane diagram of one chain: lane headers, lifelines, one item per arrow.

    ``show_diagram`` builds the scene for a chain (when the chain shown changes); ``apply`` adds the
    items one event added and recolours what changed, never rebuilding what is already drawn.
    """

    def __init__(self, parent: object | None = None) -> None:
        super().__init__(parent)  # type: ignore[arg-type]
        self.setBackgroundBrush(BACKGROUND)
        self.diagram: ChainDiagram | None = None
        self.headers: list[LaneHeaderItem] = []
        self.lifelines: list[QGraphicsLineItem] = []
        self.arrow_items: list[ArrowItem] = []
        self._by_hop: dict[str, list[ArrowItem]] = {}
        self._header_top = MARGIN
        self._view_top = 0.0
        self._add_band()
        self._update_rect()

    # ---- building ----------------------------------------------------------------------------

    def show_diagram(self, diagram: ChainDiagram | None) -> None:
        """Draw ``diagram`` from scratch (None: an empty scene)."""
        self.clear()
        self.headers, self.lifelines, self.arrow_items, self._by_hop = [], [], [], {}
        self.diagram = diagram
        self._add_band()
        if diagram is not None:
            for lane in diagram.lanes:
                self._add_lane(lane)
            for arrow in diagram.arrows:
                self._add_arrow(arrow, diagram.hops[arrow.hop_id])
        self._update_rect()

    def apply(self, change: DiagramChange) -> list[ArrowItem]:
        """Draw what one event changed; returns the arrow items it added."""
        for lane in change.new_lanes:
            self._add_lane(lane)
        added = [self._add_arrow(arrow, change.hop) for arrow in change.new_arrows]
        for lane in change.changed_lanes:
            self.headers[lane.index].set_state(lane.state)
        if self.diagram is not None:  # a protocol may become known after the lane appeared
            for header, lane in zip(self.headers, self.diagram.lanes, strict=False):
                if header.protocol != lane.protocol:
                    header.set_protocol(lane.protocol)
        for item in self._by_hop.get(change.hop.handoff_id, []):
            item.set_hop(change.hop)
        if change.new_lanes or added:
            self._update_rect()
        return added

    def _add_band(self) -> None:
        """An opaque strip behind the pinned headers, so arrows scroll under them, not between them."""
        self._band = self.addRect(QRectF(0, 0, 1, MARGIN + HEADER_HEIGHT + 4), QPen(Qt.PenStyle.NoPen), BACKGROUND)
        self._band.setZValue(HEADER_Z)
        self._band.setY(self._header_top - MARGIN)

    def _add_lane(self, lane: Lane) -> None:
        header = LaneHeaderItem(lane)
        header.setY(self._header_top)
        header.setZValue(HEADER_Z + 1)  # above the arrows scrolling under it
        self.addItem(header)
        self.headers.append(header)
        x = lane_centre(lane.index)
        pen = QPen(QColor("#b0bec5"), 1.2, Qt.PenStyle.DashLine)
        line = self.addLine(QLineF(x, MARGIN + HEADER_HEIGHT, x, MARGIN + HEADER_HEIGHT + 10), pen)
        line.setZValue(-1)
        self.lifelines.append(line)

    def _add_arrow(self, arrow: Arrow, hop: Hop) -> ArrowItem:
        item = ArrowItem(arrow, hop)
        self.addItem(item)
        self.arrow_items.append(item)
        self._by_hop.setdefault(arrow.hop_id, []).append(item)
        return item

    def _update_rect(self) -> None:
        lanes = max(1, len(self.headers))
        rows = len(self.arrow_items)
        bottom = row_y(rows) + BOTTOM if rows else MARGIN + HEADER_HEIGHT + ROW_HEIGHT
        for line in self.lifelines:
            old = line.line()
            line.setLine(QLineF(old.x1(), old.y1(), old.x2(), bottom - BOTTOM / 2))
        width = 2 * MARGIN + lanes * LANE_WIDTH
        self._band.setRect(QRectF(0, 0, width, MARGIN + HEADER_HEIGHT + 4))
        self.setSceneRect(QRectF(0, 0, width, bottom))

    # ---- queries -----------------------------------------------------------------------------

    def items_of_hop(self, handoff_id: str) -> list[ArrowItem]:
        """The arrow items a hop drew."""
        return list(self._by_hop.get(handoff_id, []))

    def pin_headers(self, top: float) -> None:
        """Keep the lane headers visible at scene y ``top`` (the view's top edge) while arrows scroll."""
        self._view_top = top
        y = self._header_top = max(MARGIN, top + 2)
        self._band.setY(y - MARGIN)
        for header in self.headers:
            if header.y() != y:
                header.setY(y)

    def select_arrow(self, index: int | None) -> None:
        """Highlight the arrow in row ``index`` only (None: none)."""
        for item in self.arrow_items:
            item.setSelected(item.arrow.index == index)

    # ---- export ------------------------------------------------------------------------------

    def export_size(self, scale: float = 1.0) -> QSize:
        """The pixel size of an export at ``scale``."""
        rect = self.sceneRect()
        return QSize(math.ceil(rect.width() * scale), math.ceil(rect.height() * scale))

    def _render_to(self, painter: QPainter, size: QSize) -> None:
        """Render the whole diagram as a document: headers at the top, no selection highlight."""
        view_top = self._view_top
        selected = [item for item in self.arrow_items if item.isSelected()]
        self.pin_headers(0)
        for item in selected:
            item.setSelected(False)
        try:
            painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
            painter.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
            self.render(painter, QRectF(0, 0, size.width(), size.height()), self.sceneRect())
        finally:
            self.pin_headers(view_top)
            for item in selected:
                item.setSelected(True)

    def render_image(self, scale: float = 1.0) -> QImage:
        """The whole diagram as an image (white background)."""
        size = self.export_size(scale)
        image = QImage(size, QImage.Format.Format_ARGB32)
        image.fill(BACKGROUND)
        painter = QPainter(image)
        try:
            self._render_to(painter, size)
        finally:
            painter.end()
        return image

    def export_png(self, path: str | os.PathLike[str], *, scale: float = 1.0) -> QSize:
        """Save the diagram as PNG; returns the image size.

        Raises:
            WorkbenchError: The file could not be written.
        """
        image = self.render_image(scale)
        saved: bool = image.save(os.fspath(path), "PNG")  # type: ignore[call-overload]  # stubs say bytes; Qt wants str
        if not saved:
            raise WorkbenchError(
                "Could not write the PNG file.", hint="choose another location", details={"path": os.fspath(path)}
            )
        return image.size()

    def export_svg(self, path: str | os.PathLike[str]) -> QSize:
        """Save the diagram as SVG (vector; text stays text); returns its size.

        Raises:
            WorkbenchError: The file could not be written.
        """
        name = os.fspath(path)
        size = self.export_size()
        generator = QSvgGenerator()
        generator.setFileName(name)
        generator.setSize(size)
        generator.setViewBox(QRect(0, 0, size.width(), size.height()))
        generator.setTitle("Handoff chain")
        generator.setDescription("Agent Workbench handoff sequence diagram")
        painter = QPainter()
        if not painter.begin(generator):
            raise WorkbenchError(
                "Could not write the SVG file.", hint="choose another location", details={"path": name}
            )
        try:
            painter.fillRect(QRectF(0, 0, size.width(), size.height()), BACKGROUND)
            self._render_to(painter, size)
        finally:
            painter.end()
        if not os.path.exists(name):
            raise WorkbenchError(
                "Could not write the SVG file.", hint="choose another location", details={"path": name}
            )
        return size
