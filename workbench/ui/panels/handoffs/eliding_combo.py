"""A combo box that elides a long choice with "…" and tooltips it whole (the Handoff view's chain picker)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QComboBox, QStyle, QStyleOptionComboBox, QStylePainter, QWidget

from workbench.ui.untrusted import plain_tooltip


class ElidingComboBox(QComboBox):
    """A combo box that ends a text too long for it with "…" (instead of cutting it) and tooltips it whole."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.currentTextChanged.connect(self.sync_tooltip)

    def sync_tooltip(self) -> None:
        """Make the full text of the choice shown the tooltip (call after changes made with signals blocked)."""
        text = self.currentText()
        self.setToolTip(plain_tooltip(text) if text else "")

    def displayed_text(self) -> str:
        """The current text as drawn: elided to the edit field's width."""
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        field = self.style().subControlRect(
            QStyle.ComplexControl.CC_ComboBox, opt, QStyle.SubControl.SC_ComboBoxEditField, self
        )
        return self.fontMetrics().elidedText(self.currentText(), Qt.TextElideMode.ElideRight, field.width())

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        """Draw the frame and arrow as usual, then the elided text."""
        painter = QStylePainter(self)
        opt = QStyleOptionComboBox()
        self.initStyleOption(opt)
        opt.currentText = self.displayed_text()
        painter.drawComplexControl(QStyle.ComplexControl.CC_ComboBox, opt)
        painter.drawControl(QStyle.ControlElement.CE_ComboBoxLabel, opt)
