"""The agent-card tabs: identity, protocol, capabilities, security and interfaces; the raw card JSON."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QVBoxLayout, QWidget

from workbench.core.protocols.snapshot import CardInfo
from workbench.ui.panels.inspector.rowtree import RowTree
from workbench.ui.payload import PayloadView
from workbench.ui.untrusted import plain_label


class AgentCardWidget(QWidget):
    """The card's fields as a tree under the agent's name and description (all shown literally)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.name_label = plain_label("", self)
        font = self.name_label.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.2)
        self.name_label.setFont(font)
        self.description_label = plain_label("", self, wrap=True)
        self.tree = RowTree(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.name_label)
        layout.addWidget(self.description_label)
        layout.addWidget(self.tree, 1)

    def set_card(self, card: CardInfo | None) -> None:
        """Show ``card`` (``None`` clears)."""
        self.name_label.setText(card.name if card else "")
        self.description_label.setText(card.description if card else "")
        self.tree.set_sections(card.sections if card else ())


class RawCardWidget(QWidget):
    """The card's JSON: as published, or (when fetched) the extended card in normalised form."""

    PUBLISHED = "Published card (as served)"
    EXTENDED = "Extended card (normalised)"

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._card: CardInfo | None = None
        self.which = QComboBox(self)
        self.which.addItems([self.PUBLISHED, self.EXTENDED])
        self.which.currentIndexChanged.connect(self._show)
        self.payload = PayloadView(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.which)
        layout.addWidget(self.payload, 1)

    def set_card(self, card: CardInfo | None) -> None:
        """Show ``card``'s JSON (``None`` clears)."""
        self._card = card
        self.which.setVisible(bool(card and card.extended_json))
        self.which.setCurrentIndex(0)
        self._show()

    def _show(self) -> None:
        card = self._card
        if card is None:
            self.payload.set_text("")
        elif self.which.currentIndex() == 1 and card.extended_json:
            self.payload.set_text(card.extended_json, suggested_name="agent-card-extended.json")
        else:
            self.payload.set_text(card.raw_json, suggested_name="agent-card.json")
