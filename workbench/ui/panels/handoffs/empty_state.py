"""The Handoff view's empty state: what a handoff is, how one starts, and the demo scenario's button."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QPushButton, QVBoxLayout, QWidget

from workbench.ui.theme import set_tone
from workbench.ui.untrusted import plain_label

TITLE = "No handoffs yet"
WHAT = (
    "A handoff is one agent passing work to another: a question to an agent, a tool call to an MCP "
    "server, an agent called as a tool (an MCP server's handoff tool, an A2A agent offered to another "
    "as a tool), or a form handed back to you. When agents work through the workbench's handoff router, "
    "each hop is drawn here as it happens, one lane per agent and one arrow per hop, and the workbench "
    "asks you before each handoff goes ahead."
)
WITH_DEMO = (
    "To see one, run the demo scenario: an orchestrator plans a weekend in Lisbon with a booking agent, "
    "the demo MCP server and an MCP proxy; you approve each handoff and fill in the traveller form."
)
WITHOUT_DEMO = "To see one, start the demo scenario from a terminal: workbench demo --scenario handoff"
REPLAY = "A chain saved with Export ▸ Save chain for replay opens with Replay file… in the toolbar above."
LINE_CHARS = 100
"""The words' width at most, in characters: a wide window keeps lines a reader can follow."""


class HandoffEmptyWidget(QWidget):
    """Shown in the diagram's place while there is no chain: what handoffs are and how to start one.

    The "Run the handoff demo scenario" button shows only where the window can run it (``set_offered``).

    Signals:
        scenario_requested(): The user asked for the demo scenario.
    """

    scenario_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("handoffEmptyState")
        self.title = plain_label(TITLE, self, selectable=False)
        self.title.setStyleSheet("font-weight: bold")
        self.what = plain_label(WHAT, self, wrap=True, selectable=False)
        self.how = plain_label(WITHOUT_DEMO, self, wrap=True)  # the command can be copied
        self.run_button = QPushButton("Run the handoff demo scenario", self)
        self.run_button.setObjectName("runScenarioButton")
        self.run_button.clicked.connect(self.scenario_requested)
        self.run_button.hide()
        self.replay = plain_label(REPLAY, self, wrap=True, selectable=False)
        set_tone(self.replay, "muted")  # a side note
        button_row = QHBoxLayout()
        button_row.setContentsMargins(0, 0, 0, 0)
        button_row.addWidget(self.run_button)
        button_row.addStretch(1)
        words = QWidget(self)
        words.setMaximumWidth(LINE_CHARS * self.fontMetrics().averageCharWidth())
        page = QHBoxLayout(self)
        page.setContentsMargins(24, 24, 24, 24)
        page.addWidget(words, 1)
        page.addStretch(0)
        column = QVBoxLayout(words)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(10)
        column.addWidget(self.title)
        column.addWidget(self.what)
        column.addWidget(self.how)
        column.addLayout(button_row)
        column.addWidget(self.replay)
        column.addStretch(1)
        for label in (self.title, self.what, self.how, self.replay):
            label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)

    def set_offered(self, offered: bool, *, enabled: bool = True) -> None:
        """Show the demo scenario's button (``offered``), enabled unless it already runs; else the command."""
        self.how.setText(WITH_DEMO if offered else WITHOUT_DEMO)
        self.run_button.setVisible(offered)
        self.run_button.setEnabled(enabled)
