"""The Handoff view's diagram view: zoom with Ctrl+wheel, a click on an arrow, lane headers pinned as it scrolls."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QMouseEvent, QPainter, QResizeEvent, QWheelEvent
from PySide6.QtWidgets import QGraphicsView, QWidget

from workbench.ui.panels.handoffs.items import ArrowItem
from workbench.ui.panels.handoffs.scene import HEADER_Z, HandoffScene

ZOOM_STEP = 1.25
ZOOM_MIN, ZOOM_MAX = 0.1, 8.0


class HandoffGraphicsView(QGraphicsView):
    """The diagram's view: Ctrl+wheel zooms, a click on an arrow emits ``arrow_clicked(row)``."""

    arrow_clicked = Signal(int)
    scrolled = Signal()
    resized = Signal()

    def __init__(self, scene: HandoffScene, parent: QWidget | None = None) -> None:
        super().__init__(scene, parent)
        self.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        self.setRenderHint(QPainter.RenderHint.TextAntialiasing, True)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self._pressed_arrow = False

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        """Resize, then say so (the selected arrow is kept in view)."""
        super().resizeEvent(event)
        self.resized.emit()

    def scrollContentsBy(self, dx: int, dy: int) -> None:  # noqa: N802
        """Scroll, then say so (the lane headers follow)."""
        super().scrollContentsBy(dx, dy)
        self.scrolled.emit()

    def zoom_level(self) -> float:
        """The current scale (1.0: actual size)."""
        return self.transform().m11()

    def zoom_by(self, factor: float) -> None:
        """Scale by ``factor``, kept within ``ZOOM_MIN``…``ZOOM_MAX``."""
        level = self.zoom_level()
        target = min(ZOOM_MAX, max(ZOOM_MIN, level * factor))
        if target != level:
            self.scale(target / level, target / level)
            self.scrolled.emit()

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        """Ctrl+wheel zooms; the plain wheel scrolls."""
        if event.modifiers() & Qt.KeyboardModifier.ControlModifier:
            steps = event.angleDelta().y() / 120
            if steps:
                self.zoom_by(ZOOM_STEP**steps)
            event.accept()
            return
        super().wheelEvent(event)

    def arrow_at(self, pos: QPoint) -> ArrowItem | None:
        """The arrow item under a viewport position."""
        for item in self.items(pos):  # topmost first: the pinned headers hide the arrows under them
            if isinstance(item, ArrowItem):
                return item
            if item.topLevelItem().zValue() >= HEADER_Z:
                return None
        return None

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        """A left click on an arrow selects it (a drag elsewhere pans)."""
        item = self.arrow_at(event.position().toPoint()) if event.button() == Qt.MouseButton.LeftButton else None
        self._pressed_arrow = item is not None
        if item is not None:
            self.arrow_clicked.emit(item.arrow.index)
            event.accept()
            return
        super().mousePressEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:  # noqa: N802
        """End a click on an arrow here (hand-drag mode would clear the selection on release)."""
        if self._pressed_arrow:
            self._pressed_arrow = False
            event.accept()
            return
        super().mouseReleaseEvent(event)
