"""A2AInspectorWidget: an A2A agent's workspace: chat (placed by the container), card, skills, card JSON, tasks."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QTabWidget, QVBoxLayout, QWidget

from workbench.core.protocols.snapshot import CardInfo, TaskSummary
from workbench.ui.context import PanelContext
from workbench.ui.panels.inspector.a2a.card_widget import AgentCardWidget, RawCardWidget
from workbench.ui.panels.inspector.a2a.skills_widget import SkillsWidget
from workbench.ui.panels.inspector.tasks.viewmodel import TasksViewModel
from workbench.ui.panels.inspector.tasks.widget import TasksWidget
from workbench.ui.untrusted import plain_label


class A2AInspectorWidget(QWidget):
    """Inspects one A2A connection; the inspector container calls ``show_connection``.

    Args:
        ctx: The panel context.
        parent: The parent widget.
    """

    def __init__(self, ctx: PanelContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.vm = TasksViewModel(ctx, self)
        self.note_label = plain_label("", self, wrap=True)
        # What the user should check about this connection (a URL whose path had no card): above the
        # tabs, whichever is open, not only as a row of the card.
        self.card_warning = QFrame(self)
        self.card_warning.setProperty("banner", "warning")
        self.card_warning_label = plain_label("", self.card_warning, wrap=True)
        warning_layout = QVBoxLayout(self.card_warning)
        warning_layout.setContentsMargins(8, 4, 8, 4)
        warning_layout.addWidget(self.card_warning_label)
        self.card_warning.setVisible(False)
        self.card_widget = AgentCardWidget(self)
        self.skills_widget = SkillsWidget(self)
        self.raw_widget = RawCardWidget(self)
        self.tasks_widget = TasksWidget(self.vm, self)
        self.chat: QWidget | None = None
        self._shown_id: str | None = None
        self.tabs = QTabWidget(self)
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(self.card_widget, "Agent card")
        self.tabs.addTab(self.skills_widget, "Skills")
        self.tabs.addTab(self.raw_widget, "Card JSON")
        self.tabs.addTab(self.tasks_widget, "Tasks")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.note_label)
        layout.addWidget(self.card_warning)
        layout.addWidget(self.tabs, 1)
        self.vm.note_changed.connect(self.on_vm_note_changed)
        self.vm.card_changed.connect(self.on_vm_card_changed)
        self.vm.tasks_changed.connect(self.on_vm_tasks_changed)
        self.on_vm_note_changed("Select an A2A connection.")

    def show_connection(self, connection_id: str | None) -> None:
        """Inspect the A2A connection ``connection_id`` (``None`` or not connected: a note, nothing else)."""
        self.vm.show_connection(connection_id)

    def place_chat(self, chat: QWidget | None) -> None:
        """Put ``chat`` first (talking to the agent is what its workspace is for); ``None`` removes it."""
        if self.chat is not None and self.chat is not chat:
            index = self.tabs.indexOf(self.chat)
            if index >= 0:
                self.tabs.removeTab(index)
        fresh = chat is not None and self.tabs.indexOf(chat) < 0
        self.chat = chat
        if chat is not None and fresh:
            self.tabs.insertTab(0, chat, "Chat")
        if chat is not None and (fresh or self.vm.connection_id != self._shown_id):
            self.tabs.setCurrentWidget(chat)
        self._shown_id = self.vm.connection_id

    def refresh(self) -> None:
        """Re-read the tasks (call after a chat turn with this agent completed)."""
        self.vm.refresh()

    def on_vm_note_changed(self, note: str) -> None:
        """Show why nothing is inspected, or hide the note."""
        self.note_label.setText(note)
        self.note_label.setVisible(bool(note))
        self.tabs.setEnabled(not note)

    def on_vm_card_changed(self, card: CardInfo | None) -> None:
        """Fill the card tabs; the card's warnings go above them."""
        warnings = card.warnings if card else ()
        self.card_warning_label.setText("\n".join(f"⚠ {w}" for w in warnings))
        self.card_warning.setVisible(bool(warnings))
        self.card_widget.set_card(card)
        self.skills_widget.set_skills(card.skills if card else ())
        self.raw_widget.set_card(card)
        self.tabs.setTabText(
            self.tabs.indexOf(self.skills_widget), f"Skills ({len(card.skills)})" if card else "Skills"
        )

    def on_vm_tasks_changed(self, rows: list[TaskSummary]) -> None:
        """Count the tasks in the tab title."""
        self.tabs.setTabText(self.tabs.indexOf(self.tasks_widget), f"Tasks ({len(rows)})" if rows else "Tasks")
