"""The Handoff view's hop detail pane: the selected hop's facts, summary and JSON detail, all plain text."""

from __future__ import annotations

import json
from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from workbench.core.safe_text import escape_json_text
from workbench.core.timefmt import duration_text, time_of_day
from workbench.ui.panels.handoffs.diagram import Hop
from workbench.ui.panels.handoffs.items import lane_title
from workbench.ui.text_sizes import text_pane_height
from workbench.ui.untrusted import plain_label, shown

DETAIL_MIN_LINES = 6
"""The hop's JSON detail keeps this many lines; when the pane is shorter than facts + detail, it scrolls."""


def hop_facts(hop: Hop, name_of: Callable[[str], str] = str) -> list[tuple[str, str]]:
    """The detail pane's rows for a hop (plain text); ``name_of`` names its wire records' connection."""
    duration = hop.duration
    timing = f"started {time_of_day(hop.started_at)}"
    updated = f", last update {time_of_day(hop.updated_at)}"
    timing += f", took {duration_text(duration)}" if duration is not None else updated
    wire = "none"
    if hop.connection_id and hop.wire_seqs:
        wire = f"{name_of(hop.connection_id)} #{hop.wire_seqs[0]}–#{hop.wire_seqs[1]}"
    return [
        ("Kind", hop.kind.value),
        ("State", hop.state.value),
        ("Route", f"{lane_title(hop.source)} → {lane_title(hop.target)}"),
        ("Protocol", hop.protocol or "—"),
        ("Timing", timing),
        ("Wire", wire),
        ("Hop", hop.handoff_id + (f" (from {hop.parent_id})" if hop.parent_id else "")),
    ]


class HopDetailWidget(QScrollArea):
    """The selected hop: its title, facts (``hop_facts``), "Show wire records", summary and JSON detail.

    Everything sits in one scroll area: a short pane (the wire log docked under it) scrolls instead
    of squeezing the wrapped facts into one cut line each (a splitter gives no height for width).

    Args:
        parent: Qt parent.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        page = QWidget()
        self.title = plain_label("", page, wrap=True)
        self.fact_labels: dict[str, QLabel] = {}
        form = QFormLayout()
        form.setContentsMargins(0, 0, 0, 0)
        for name in ("Kind", "State", "Route", "Protocol", "Timing", "Wire", "Hop"):
            label = plain_label("", page, wrap=True)
            self.fact_labels[name] = label
            form.addRow(plain_label(name, page, selectable=False), label)
        self.wire_button = QPushButton("Show wire records", page)
        self.summary_view = QPlainTextEdit(page)
        self.summary_view.setReadOnly(True)
        self.summary_view.setMaximumHeight(80)
        self.json_view = QPlainTextEdit(page)
        self.json_view.setReadOnly(True)
        self.json_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.json_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.json_view.setMinimumHeight(text_pane_height(self.json_view, DETAIL_MIN_LINES))
        layout = QVBoxLayout(page)
        layout.setContentsMargins(4, 2, 4, 2)
        layout.addWidget(self.title)
        layout.addLayout(form)
        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(self.wire_button)
        layout.addLayout(row)
        layout.addWidget(plain_label("Summary", page, selectable=False))
        layout.addWidget(self.summary_view)
        layout.addWidget(plain_label("Detail", page, selectable=False))
        layout.addWidget(self.json_view, 1)
        self.page = page
        self.setObjectName("hopDetail")
        self.setWidgetResizable(True)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # the facts wrap
        self.setWidget(page)

    def show_hop(self, hop: Hop | None, name_of: Callable[[str], str]) -> None:
        """Show the hop's facts (``None``: a note to click an arrow); ``name_of`` names a connection."""
        self.wire_button.setEnabled(bool(hop and hop.connection_id and hop.wire_seqs))
        if hop is None:
            self.title.setText("Click an arrow to see its hop here.")
            for label in self.fact_labels.values():
                label.setText("")
            self.summary_view.setPlainText("")
            self.json_view.setPlainText("")
            return
        self.title.setText(f"{hop.kind.value}: {lane_title(hop.source)} → {lane_title(hop.target)}")
        for name, value in hop_facts(hop, name_of):
            self.fact_labels[name].setText(value)
        self.summary_view.setPlainText(shown(hop.summary))
        self.json_view.setPlainText(escape_json_text(json.dumps(hop.detail, indent=2, ensure_ascii=False, default=str)))
