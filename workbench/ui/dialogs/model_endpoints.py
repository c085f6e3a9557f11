"""The saved model endpoints (``models.json``): list them, add or edit one with its key, remove one with its key.

What is saved, stored and forgotten is the core's ``ModelEndpointStore`` (the CLI's ``workbench model`` uses
it too); this dialog lays the endpoints out and forwards intent. Keys are stored in the keyring only and
never shown: the list says whether one is stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.errors import WorkbenchError
from workbench.core.sampling.endpoints import ModelEndpoint, ModelEndpointStore
from workbench.ui.asyncutil import open_dialog, spawn
from workbench.ui.dialogs.model_endpoint_form import ModelEndpointDialog
from workbench.ui.errors import describe_error
from workbench.ui.untrusted import plain_label, shown

EMPTY = "No model endpoint is saved yet: Add… one (an OpenAI-compatible server such as Ollama, or Anthropic)."


class ModelEndpointsDialog(QDialog):
    """Every saved model endpoint, with Add, Edit and Remove.

    Signals:
        changed(): An endpoint was saved or removed (pickers of endpoints refill themselves).
        form_opened(object): The add/edit form or the removal confirmation is about to open (tests fill it).

    Args:
        store: The saved endpoints and their keys.
        parent: The dialog or panel it was opened from.
    """

    changed = Signal()
    form_opened = Signal(object)

    def __init__(self, store: ModelEndpointStore, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.store = store
        self.setWindowTitle("Model endpoints")
        self.list_widget = QListWidget(self)
        self.list_widget.setAccessibleName("saved model endpoints")
        self.add_button = QPushButton("Add…", self)
        self.edit_button = QPushButton("Edit…", self)
        self.remove_button = QPushButton("Remove", self)
        self.remove_button.setToolTip("Remove the endpoint and forget its API key")
        for button in (self.add_button, self.edit_button, self.remove_button):
            button.setAutoDefault(False)
        self.status_label = plain_label("", wrap=True)
        self.status_label.hide()
        self.busy: asyncio.Task[None] | None = None
        """The add, edit or removal under way (one at a time)."""
        side = QVBoxLayout()
        side.addWidget(self.add_button)
        side.addWidget(self.edit_button)
        side.addWidget(self.remove_button)
        side.addStretch(1)
        row = QHBoxLayout()
        row.addWidget(self.list_widget, 1)
        row.addLayout(side)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(
            plain_label("Models that answer sampling requests or chat through a server's tools.", wrap=True)
        )
        layout.addLayout(row, 1)
        layout.addWidget(self.status_label)
        layout.addWidget(buttons)
        self.add_button.clicked.connect(self.on_add_button_clicked)
        self.edit_button.clicked.connect(self.on_edit_button_clicked)
        self.remove_button.clicked.connect(self.on_remove_button_clicked)
        self.list_widget.itemDoubleClicked.connect(lambda _item: self.on_edit_button_clicked())
        self.list_widget.currentRowChanged.connect(lambda _row: self._update_buttons())
        self.finished.connect(self.on_finished)
        self.resize(560, 320)
        self.refreshed = spawn(self.refresh(), doing="listing the model endpoints")

    # ------------------------------------------------------------------ public

    def names(self) -> list[str]:
        """The endpoints listed, in order."""
        items = (self.list_widget.item(i) for i in range(self.list_widget.count()))
        return [str(item.data(Qt.ItemDataRole.UserRole)) for item in items if item.data(Qt.ItemDataRole.UserRole)]

    def select(self, name: str) -> None:
        """Select the endpoint called ``name`` in the list."""
        if name in self.names():
            self.list_widget.setCurrentRow(self.names().index(name))

    def selected(self) -> str | None:
        """The selected endpoint's name."""
        item = self.list_widget.currentItem()
        data = item.data(Qt.ItemDataRole.UserRole) if item is not None else None
        return str(data) if data else None

    async def refresh(self) -> None:
        """Reread the endpoints and whether each has a key stored (a keyring that cannot tell says so)."""
        try:
            endpoints = self.store.load()
        except WorkbenchError as exc:
            self._say(exc, "reading the model endpoints")
            endpoints = []
        lines: list[tuple[str, str]] = []
        for endpoint in endpoints:
            try:
                key = "key stored" if await self.store.key(endpoint) is not None else "no key"
            except WorkbenchError:
                key = "key unknown: no keyring"
            lines.append(
                (endpoint.name, f"{endpoint.name} — {endpoint.api}: {endpoint.model} at {endpoint.base_url} ({key})")
            )
        chosen = self.selected()
        self.list_widget.clear()
        for name, line in lines:
            item = QListWidgetItem(shown(line))
            item.setData(Qt.ItemDataRole.UserRole, name)
            self.list_widget.addItem(item)
        if not lines:
            self.list_widget.addItem(QListWidgetItem(EMPTY))
        self.select(chosen or (lines[0][0] if lines else ""))
        self._update_buttons()

    def add(self) -> asyncio.Task[None]:
        """Open the form for a new endpoint; it is saved (with its key) when the user saves it."""
        return self._start(self._edit(None), "adding a model endpoint")

    def edit(self, name: str) -> asyncio.Task[None]:
        """Open the form on the endpoint called ``name``."""
        return self._start(self._edit(name), f"editing the model endpoint {name!r}")

    def remove(self, name: str, *, confirm: bool = True) -> asyncio.Task[None]:
        """Remove the endpoint called ``name`` and forget its key (after the user agrees, when ``confirm``)."""
        return self._start(self._remove(name, confirm), f"removing the model endpoint {name!r}")

    def on_finished(self, _code: int) -> None:
        """Closed: stop the listing or the form under way (an open form is rejected, nothing is saved)."""
        for task in (self.refreshed, self.busy):
            if task is not None:
                task.cancel()

    def on_add_button_clicked(self) -> None:
        """Add an endpoint."""
        self.add()

    def on_edit_button_clicked(self) -> None:
        """Edit the selected endpoint."""
        name = self.selected()
        if name is not None:
            self.edit(name)

    def on_remove_button_clicked(self) -> None:
        """Remove the selected endpoint, after asking."""
        name = self.selected()
        if name is not None:
            self.remove(name)

    # ------------------------------------------------------------------ internals

    def _start(self, coro: Coroutine[Any, Any, None], doing: str) -> asyncio.Task[None]:
        async def run() -> None:
            try:
                await coro
            finally:
                self.busy = None
                self._update_buttons()

        if self.busy is not None:  # one form at a time
            coro.close()
            return self.busy
        self.busy = spawn(run(), doing=doing)
        self._update_buttons()
        return self.busy

    async def _edit(self, name: str | None) -> None:
        original: ModelEndpoint | None = None
        keyring: WorkbenchError | None = None
        has_key = False
        try:
            if name is not None:
                original = self.store.find(name)
            await asyncio.to_thread(self.store.credentials.backend)
            if original is not None:
                has_key = await self.store.key(original) is not None
        except WorkbenchError as exc:
            if name is not None and original is None:
                self._say(exc, f"editing the model endpoint {name!r}")
                return
            keyring = exc
        form = ModelEndpointDialog(original, has_key=has_key, parent=self)
        form.set_keyring(keyring)
        try:
            while True:  # a refused save reopens the form with everything typed
                self.form_opened.emit(form)
                if await open_dialog(form) != QDialog.DialogCode.Accepted:
                    return
                endpoint = form.endpoint()
                try:
                    await self.store.save(endpoint, form.key(), new=original is None, forget_key=form.forgets_key())
                except WorkbenchError as exc:
                    form.show_save_error(exc)
                    continue
                break
        finally:
            form.deleteLater()
        self.status_label.hide()
        await self.refresh()
        self.select(endpoint.name)
        self.changed.emit()

    async def _remove(self, name: str, confirm: bool) -> None:
        if confirm:
            box = QMessageBox(
                QMessageBox.Icon.Question,
                "Remove model endpoint",
                f"Remove the model endpoint {name!r}? Its API key is removed from the keyring.",
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                self,
            )
            box.setTextFormat(Qt.TextFormat.PlainText)
            box.setDefaultButton(QMessageBox.StandardButton.Cancel)
            self.form_opened.emit(box)
            try:
                if await open_dialog(box) != QMessageBox.StandardButton.Yes:
                    return
            finally:
                box.deleteLater()
        try:
            await self.store.remove(name)
        except WorkbenchError as exc:
            self._say(exc, f"removing the model endpoint {name!r}")
            return
        self.status_label.hide()
        await self.refresh()
        self.changed.emit()

    def _say(self, error: WorkbenchError, doing: str) -> None:
        view = describe_error(error, doing)
        self.status_label.setText(view.message + (f" ({view.hint})" if view.hint else ""))
        self.status_label.show()

    def _update_buttons(self) -> None:
        free = self.busy is None
        self.add_button.setEnabled(free)
        chosen = self.selected() is not None
        self.edit_button.setEnabled(free and chosen)
        self.remove_button.setEnabled(free and chosen)
