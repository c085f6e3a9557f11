"""ChatWidget: the chat pane's layout — transcript, input box and buttons; it forwards intent only.

Changes from the view-model are coalesced: ``items_changed`` arms a single-shot timer, and each
flush (at most ~30 a second, ``FLUSH_INTERVAL_MS``) takes the changes and redraws only those items
(qt-async §5.2).
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QSizeF, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QKeyEvent, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.protocols.base import InputRequest
from workbench.ui.asyncutil import spawn
from workbench.ui.context import PanelContext
from workbench.ui.dialog_rules import present
from workbench.ui.dialogs.input_required import InputRequiredDialog
from workbench.ui.dialogs.model_endpoints import ModelEndpointsDialog
from workbench.ui.names import connection_name
from workbench.ui.panels.chat.render import TranscriptRenderer
from workbench.ui.panels.chat.viewmodel import ChatViewModel, InputState
from workbench.ui.text_sizes import laid_out_lines, text_pane_chrome
from workbench.ui.untrusted import SafeTextBrowser, plain_label

FLUSH_INTERVAL_MS = 33
"""Shortest time between two transcript redraws (about 30 per second)."""
FLUSH_BUDGET_S = 0.005
"""Time one redraw may spend drawing new items; a backlog is drawn in further slices, 1 ms apart."""
INPUT_LINES = (3, 10)
"""The message box's height in lines: 3 for a short message, growing with what is typed up to 10 (then it scrolls)."""
INPUT_MAX_SHARE = 0.25
"""The message box never takes more than this share of the pane: the history stays several times taller."""


class _InputBox(QPlainTextEdit):
    """Multi-line input; Ctrl+Enter (or Ctrl+Return) asks to send."""

    send_requested = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        """Ctrl+Enter sends; plain Enter makes a new line."""
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ControlModifier
        ):
            self.send_requested.emit()
            return
        super().keyPressEvent(event)


class ChatWidget(QWidget):
    """The chat pane for the selected connection (follows ``ctx.selection``).

    Signals:
        flushed(): The transcript was redrawn (tests and benchmarks wait on it).
        artifact_saved(str): An artifact was written to the path.

    The main window binds its shortcuts to ``focus_input()``, ``send()``, ``cancel()`` and
    ``new_conversation()``.
    """

    flushed = Signal()
    artifact_saved = Signal(str)

    def __init__(self, ctx: PanelContext, parent: QWidget | None = None, *, viewmodel: ChatViewModel | None = None):
        super().__init__(parent)
        self._ctx = ctx
        self.viewmodel = viewmodel or ChatViewModel(ctx, self)
        self._shown: str | None = None
        self._last_flush = 0.0

        self.title = plain_label("", self)
        self.banner = plain_label("", self, wrap=True)
        self.banner.setProperty("banner", "warning")  # the theme's warning colours (resources/styles)
        self.banner.setMargin(6)
        # an MCP server without an entry point: a saved model may chat through its tools
        self.model_combo = QComboBox(self)
        self.model_combo.setObjectName("chatModel")
        self.model_combo.setToolTip("A saved model endpoint that calls this server's tools")
        self.model_row = QWidget(self)
        model_layout = QHBoxLayout(self.model_row)
        model_layout.setContentsMargins(0, 0, 0, 0)
        model_layout.addWidget(plain_label("Chat through a model:", self.model_row, selectable=False))
        model_layout.addWidget(self.model_combo, 1)
        self.model_row.hide()
        self.endpoints_button = QPushButton("Model endpoints…", self)
        self.endpoints_button.setToolTip("Add, edit or remove model endpoints (their API keys go to the keyring)")
        self.endpoints_button.hide()
        self.endpoints_dialog: ModelEndpointsDialog | None = None
        """The model endpoints dialog opened from the chat, while it is open."""
        self.transcript = SafeTextBrowser(self)
        self.transcript.setUndoRedoEnabled(False)
        self.renderer = TranscriptRenderer(self.transcript.document())
        self.input = _InputBox(self)
        self.input.setPlaceholderText("Message… (Ctrl+Enter sends)")
        self.input.document().documentLayout().documentSizeChanged.connect(self.on_input_size_changed)
        self.send_button = QPushButton("Send", self)
        self.cancel_button = QPushButton("Cancel", self)
        self.new_button = QPushButton("New conversation", self)
        self.form_button = QPushButton("Answer in a form…", self)
        self.form_button.setToolTip("Open the agent's question as a form again, with what was typed")
        self.form_button.setVisible(False)
        self.form_dialog: InputRequiredDialog | None = None
        """The question's form opened from the chat, while it is open."""

        buttons = QHBoxLayout()
        buttons.addWidget(self.new_button)
        buttons.addStretch(1)
        buttons.addWidget(self.form_button)
        buttons.addWidget(self.cancel_button)
        buttons.addWidget(self.send_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.banner)
        model_bar = QHBoxLayout()
        model_bar.addWidget(self.model_row, 1)
        model_bar.addWidget(self.endpoints_button, 0, Qt.AlignmentFlag.AlignRight)
        layout.addLayout(model_bar)
        layout.addWidget(self.transcript, 1)
        layout.addWidget(self.input)
        layout.addLayout(buttons)

        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.flush)

        self.send_button.clicked.connect(self.send)
        self.cancel_button.clicked.connect(self.cancel)
        self.new_button.clicked.connect(self.new_conversation)
        self.form_button.clicked.connect(self.answer_in_form)
        self.input.send_requested.connect(self.send)
        self.model_combo.activated.connect(self.on_model_combo_activated)
        self.endpoints_button.clicked.connect(self.open_endpoints)
        self.transcript.link_clicked.connect(self.on_transcript_link_clicked)

        vm = self.viewmodel
        vm.current_changed.connect(self.on_viewmodel_current_changed)
        vm.conversation_reset.connect(self.on_viewmodel_conversation_reset)
        vm.items_changed.connect(self.on_viewmodel_items_changed)
        vm.streaming_changed.connect(self.on_viewmodel_streaming_changed)
        vm.input_state_changed.connect(self.on_viewmodel_input_state_changed)
        self._show(vm.current, force=True)
        self.fit_input()

    # ------------------------------------------------------------------ space

    def fit_input(self) -> None:
        """Size the message box to what is typed: ``INPUT_LINES`` lines, at most ``INPUT_MAX_SHARE`` of the pane.

        The history (the transcript) takes every other pixel, so it is several times the box's height.
        """
        box = self.input
        lines = laid_out_lines(box)  # wrapped lines too
        low, high = INPUT_LINES
        spacing = box.fontMetrics().lineSpacing()
        chrome = text_pane_chrome(box)  # with the pixel it wants before it hides its scroll bar
        cap = max(low * spacing, int(self.height() * INPUT_MAX_SHARE) - chrome)
        text = min(max(lines, low), high) * spacing
        height = min(text, max(cap // spacing, low) * spacing) + chrome
        if box.height() != height or box.minimumHeight() != height:
            box.setFixedHeight(height)

    def on_input_size_changed(self, _size: QSizeF) -> None:
        """What is typed took another line (or one less): the box follows."""
        self.fit_input()

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        """A new pane height moves the box's cap."""
        super().resizeEvent(event)
        self.fit_input()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802
        """Coming into view re-reads the saved models (one may have been added meanwhile)."""
        super().showEvent(event)
        self._show_models()

    # ------------------------------------------------------------------ intents (shortcut targets)

    def focus_input(self) -> None:
        """Put the keyboard focus in the input box."""
        self.input.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def send(self) -> bool:
        """Send the input box's text; it is cleared when the message went out."""
        if self.viewmodel.send(self.input.toPlainText()):
            self.input.clear()
            return True
        return False

    def cancel(self) -> bool:
        """Cancel the reply that is streaming."""
        return self.viewmodel.cancel()

    def new_conversation(self) -> None:
        """Start a new conversation with the current connection."""
        self.viewmodel.new_conversation()

    def answer_in_form(self) -> InputRequiredDialog | None:
        """Open the waiting question's form again, with what was typed in it before and a JSON object in the input.

        Sending it answers the waiting task as the chat's Send does; closing it keeps what was typed
        for next time.

        Returns:
            The dialog opened (window-modal, deleted when closed), or None when no question waits for a form.
        """
        waiting = self.viewmodel.waiting_form(self.input.toPlainText())
        if waiting is None or self.form_dialog is not None:
            return self.form_dialog
        request, draft = waiting
        dialog = InputRequiredDialog(request, self, draft=draft, can_cancel_task=False)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.finished.connect(lambda _code: self._on_form_finished(request, dialog))
        self.form_dialog = dialog
        present(dialog)
        return dialog

    def _on_form_finished(self, request: InputRequest, dialog: InputRequiredDialog) -> None:
        self.form_dialog = None
        response = dialog.response()
        if response is None:
            self.viewmodel.keep_draft(request, dialog.draft())
        elif self.viewmodel.answer(request, response):
            self.input.clear()  # a JSON object typed there went into the form, and out with it

    def save_artifact(self, index: int) -> None:
        """Ask for a file name (non-blocking dialog) and save the artifact at item ``index`` there."""
        conv = self.viewmodel.conversation()
        cid = self._shown
        if conv is None or cid is None:
            return
        item = conv[index]
        suggested = item.export()[1] if hasattr(item, "export") else "artifact.txt"
        dialog = QFileDialog(self, "Save artifact", suggested)
        dialog.setAcceptMode(QFileDialog.AcceptMode.AcceptSave)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(lambda path: self.save_artifact_to(index, path))
        present(dialog)

    def save_artifact_to(self, index: int, path: str | Path) -> None:
        """Write the artifact at item ``index`` to ``path`` (``artifact_saved`` when done)."""
        cid = self._shown
        if cid is None:
            return
        spawn(self._save(cid, index, path), doing="saving the artifact")

    # ------------------------------------------------------------------ drawing

    def flush(self) -> None:
        """Draw what changed since the last flush."""
        self._timer.stop()
        cid = self._shown
        if cid is None:
            return
        conv = self.viewmodel.conversation(cid)
        updated = self.viewmodel.take_changes(cid)
        if conv is None:
            return
        bar = self.transcript.verticalScrollBar()
        at_bottom = bar.value() >= bar.maximum() - 4
        caught_up = self.renderer.render(conv, updated, budget=FLUSH_BUDGET_S)
        if at_bottom:
            bar.setValue(bar.maximum())
        self._last_flush = time.monotonic()
        if not caught_up:
            self._timer.start(1)  # let the loop breathe, then draw the rest of the backlog
        self.flushed.emit()

    @property
    def flush_pending(self) -> bool:
        """Whether a redraw is due (changes or a backlog not drawn yet)."""
        return self._timer.isActive()

    # ------------------------------------------------------------------ slots

    def on_viewmodel_current_changed(self, connection_id: str | None) -> None:
        """Another connection was selected: show its conversation."""
        self._show(connection_id)

    def on_viewmodel_conversation_reset(self, connection_id: str) -> None:
        """The conversation was replaced (new conversation): redraw from scratch."""
        if connection_id == self._shown:
            self._show(connection_id, force=True)

    def on_viewmodel_items_changed(self, connection_id: str) -> None:
        """New events arrived: draw them at the next flush (at most ~30 flushes a second)."""
        if connection_id != self._shown or self._timer.isActive():
            return
        since = (time.monotonic() - self._last_flush) * 1000
        self._timer.start(int(max(0.0, FLUSH_INTERVAL_MS - since)))

    def on_viewmodel_streaming_changed(self, connection_id: str, streaming: bool) -> None:
        """Enable Send / Cancel for the shown connection."""
        if connection_id == self._shown:
            self._update_buttons()

    def on_viewmodel_input_state_changed(self, state: InputState) -> None:
        """Enable or disable the input, with the reason in the banner."""
        self._apply_input_state(state)

    def on_transcript_link_clicked(self, url: QUrl) -> None:
        """Artifact actions are handled here; every other link goes to the window's link gate."""
        action = self.renderer.parse_action(url)
        if action is None:
            self._ctx.links.offer(url)
            return
        name, index = action
        conv = self.viewmodel.conversation()
        if conv is None or index >= len(conv):
            return
        if name == "toggle":
            self.renderer.toggle(conv, index)
        elif name == "save":
            self.save_artifact(index)
        elif name == "form":
            self.answer_in_form()

    # ------------------------------------------------------------------ internals

    def _show(self, connection_id: str | None, *, force: bool = False) -> None:
        if connection_id == self._shown and not force:
            return
        self._shown = connection_id
        self._timer.stop()
        self.renderer.reset()
        self.title.setText(connection_name(self._ctx.services, connection_id))
        if connection_id is not None:
            self.flush()
        self._apply_input_state(self.viewmodel.input_state())

    def on_model_combo_activated(self, index: int) -> None:
        """The user picked a model (or none) to chat for this server."""
        name = self.model_combo.itemData(index)
        self.viewmodel.choose_model(name if isinstance(name, str) else None)

    def choose_model(self, name: str | None) -> bool:
        """Pick ``name`` in the model list as the user would; ``False`` when it is not listed."""
        index = self.model_combo.findData(name) if name is not None else 0
        if index < 0 or not self.model_row.isVisible():
            return False
        self.model_combo.setCurrentIndex(index)
        self.on_model_combo_activated(index)
        return True

    def open_endpoints(self) -> ModelEndpointsDialog | None:
        """Open the model endpoints dialog (or raise the open one); the model list follows its changes."""
        sampling = self._ctx.services.sampling
        if sampling is None:
            return None
        if self.endpoints_dialog is None:
            dialog = ModelEndpointsDialog(sampling.endpoints, self)
            dialog.changed.connect(lambda: self._apply_input_state(self.viewmodel.input_state()))
            dialog.finished.connect(lambda _code: self._forget_endpoints_dialog(dialog))
            self.endpoints_dialog = dialog
            present(dialog)
        self.endpoints_dialog.raise_()
        return self.endpoints_dialog

    def _forget_endpoints_dialog(self, dialog: ModelEndpointsDialog) -> None:
        if self.endpoints_dialog is dialog:
            self.endpoints_dialog = None
        dialog.deleteLater()

    def _show_models(self) -> None:
        picker = self.viewmodel.model_picker()
        self.model_row.setVisible(picker is not None and bool(picker.names))
        self.endpoints_button.setVisible(picker is not None and self._ctx.services.sampling is not None)
        if picker is None:
            return
        self.model_combo.blockSignals(True)
        self.model_combo.clear()
        self.model_combo.addItem("(no model)", None)
        for name in picker.names:
            self.model_combo.addItem(name, name)
        self.model_combo.setCurrentIndex(max(0, self.model_combo.findData(picker.chosen)) if picker.chosen else 0)
        self.model_combo.blockSignals(False)

    def _apply_input_state(self, state: InputState) -> None:
        self._show_models()
        self.banner.setText(state.reason)
        self.banner.setVisible(bool(state.reason))
        self.input.setEnabled(state.enabled)
        self.input.setPlaceholderText(
            "Your answer… (JSON object for form fields; Ctrl+Enter sends)"
            if state.waiting
            else "Message… (Ctrl+Enter sends)"
        )
        self._update_buttons()

    def _update_buttons(self) -> None:
        streaming = self.viewmodel.is_streaming()
        enabled = self.viewmodel.input_state().enabled
        self.form_button.setVisible(self.viewmodel.waiting_form() is not None)
        self.send_button.setEnabled(enabled and not streaming)
        self.cancel_button.setEnabled(streaming)
        self.model_combo.setEnabled(not streaming)
        self.new_button.setEnabled(self._shown is not None)

    async def _save(self, cid: str, index: int, path: str | Path) -> None:
        target = await self.viewmodel.save_artifact(cid, index, path)
        self.artifact_saved.emit(str(target))
