"""SidebarWidget: the list of connections with their state, a toolbar and a context menu."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QAbstractItemView, QListView, QMenu, QMessageBox, QToolBar, QVBoxLayout, QWidget

from workbench.core.events import ConnectionState
from workbench.core.profiles import ConnectionProfile
from workbench.ui.asyncutil import open_dialog, spawn
from workbench.ui.context import PanelContext
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.panels.sidebar.delegate import SidebarDelegate
from workbench.ui.panels.sidebar.itemmodel import SidebarItemModel
from workbench.ui.panels.sidebar.items import SidebarItem
from workbench.ui.panels.sidebar.viewmodel import BrowserOpener, SidebarViewModel

type QDialogLike = ConnectionDialog | QMessageBox

ACTION_IDS = ("add", "edit", "duplicate", "remove", "connect", "disconnect", "reconnect", "login", "logout")
"""The ids of the sidebar's actions, in toolbar order (``SidebarWidget.actions_by_id``)."""


class SidebarWidget(QWidget):
    """Saved connections, each with a state dot and text; commands go to ``SidebarViewModel``.

    The window binds shortcuts to ``actions_by_id`` (by id: ``add``, ``edit``, ``duplicate``, ``remove``,
    ``connect``, ``disconnect``, ``reconnect``, ``login``, ``logout``) or calls the public methods of the
    same names (``login_selected`` / ``logout_selected`` for the OAuth ones, enabled on OAuth profiles).
    Double-clicking a row connects it; selecting a row selects its connection in ``ctx.selection``.
    ``dialog_opened`` fires as the profile dialog (or the removal confirmation) is about to open (again
    when a save failed and the dialog reopens with the input kept); ``dialog`` holds it while it is open.
    ``status_message`` carries passing notes for the window's status bar.

    Args:
        ctx: The panel context.
        parent: Qt parent.
        oauth_opener: Shows an OAuth authorization URL when logging in (default: the desktop's browser).
    """

    dialog_opened = Signal(object)  # the ConnectionDialog or confirmation box just opened
    status_message = Signal(str)  # a passing note for the status bar

    def __init__(
        self, ctx: PanelContext, parent: QWidget | None = None, *, oauth_opener: BrowserOpener | None = None
    ) -> None:
        super().__init__(parent)
        self._ctx = ctx
        self.viewmodel = SidebarViewModel(ctx, self, oauth_opener=oauth_opener)
        self.viewmodel.status_message.connect(self.status_message)
        self.model = SidebarItemModel(self.viewmodel, self)
        self.dialog: QDialogLike | None = None

        self.view = QListView(self)
        self.view.setModel(self.model)
        self.view.setItemDelegate(SidebarDelegate(self.view))
        self.view.setUniformItemSizes(True)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.setAccessibleName("Connections")

        self.actions_by_id: dict[str, QAction] = {}
        labels = {
            "add": ("Add…", "Add a connection profile", self.add_profile),
            "edit": ("Edit…", "Edit the selected connection profile", self.edit_selected),
            "duplicate": ("Duplicate", "Save a copy of the selected profile", self.duplicate_selected),
            "remove": ("Remove", "Disconnect and delete the selected profile", self.remove_selected),
            "connect": ("Connect", "Connect the selected profile", self.connect_selected),
            "disconnect": ("Disconnect", "Disconnect the selected connection", self.disconnect_selected),
            "reconnect": ("Reconnect", "Close and open the selected connection again", self.reconnect_selected),
            "login": ("Log in (OAuth)", "Log in to the selected server with OAuth, then connect", self.login_selected),
            "logout": (
                "Log out",
                "Disconnect, revoke and forget the selected server's OAuth login",
                self.logout_selected,
            ),
        }
        # Two rows, so that Connect / Disconnect / Reconnect never hide behind the toolbar's "»"
        # overflow: the connection's life on top, the profile's editing (and OAuth) below.
        self.connection_toolbar = QToolBar(self)
        self.connection_toolbar.setObjectName("connectionToolbar")
        self.toolbar = QToolBar(self)
        self.toolbar.setObjectName("profileToolbar")
        for bar in (self.connection_toolbar, self.toolbar):
            bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        for action_id in ACTION_IDS:
            text, tip, slot = labels[action_id]
            action = QAction(text, self)
            action.setObjectName(f"sidebar.{action_id}")
            action.setStatusTip(tip)
            action.setToolTip(tip)
            action.triggered.connect(lambda _checked=False, run=slot: run())
            self.actions_by_id[action_id] = action
            self.addAction(action)  # so the widget's actions() list has them too
            lifecycle = action_id in ("connect", "disconnect", "reconnect")
            (self.connection_toolbar if lifecycle else self.toolbar).addAction(action)
            if action_id == "remove":
                self.toolbar.addSeparator()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.connection_toolbar)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.view)

        selection_model = self.view.selectionModel()
        selection_model.currentChanged.connect(self.on_view_current_changed)
        self.view.doubleClicked.connect(self.on_view_double_clicked)
        self.view.customContextMenuRequested.connect(self.on_view_context_menu_requested)
        self.model.modelReset.connect(self.on_model_reset)
        self.model.dataChanged.connect(self.update_actions)
        self.viewmodel.busy_changed.connect(self.update_actions)
        ctx.selection.changed.connect(self.on_selection_changed)
        self.on_model_reset()

    # ------------------------------------------------------------------ queries

    def selected_id(self) -> str | None:
        """The profile id of the selected row."""
        index = self.view.currentIndex()
        item = self.model.item(index.row()) if index.isValid() else None
        return item.id if item is not None else None

    def selected_item(self) -> SidebarItem | None:
        """The selected row's item."""
        profile_id = self.selected_id()
        return self.viewmodel.item(profile_id) if profile_id else None

    def select(self, profile_id: str | None) -> None:
        """Select the row of ``profile_id`` (clear the selection for ``None``)."""
        row = self.model.row_of(profile_id) if profile_id else -1
        if row < 0:
            self.view.selectionModel().clearCurrentIndex()
            self.view.clearSelection()
            return
        self.view.selectionModel().setCurrentIndex(
            self.model.index(row), QItemSelectionModel.SelectionFlag.ClearAndSelect
        )

    # ------------------------------------------------------------------ commands (public)

    def add_profile(self) -> asyncio.Task[ConnectionProfile | None]:
        """Open the connection dialog for a new profile; save and select it when accepted.

        Returns:
            The task that ends with the new profile (``None`` when cancelled).
        """
        return spawn(self._edit(None), doing="adding a connection")

    def edit_selected(self) -> asyncio.Task[ConnectionProfile | None] | None:
        """Open the connection dialog on the selected profile; save it when accepted.

        Returns:
            The task that ends with the edited profile, or ``None`` when nothing is selected.
        """
        item = self.selected_item()
        if item is None:
            return None
        return spawn(self._edit(item.profile), doing=f"editing {item.name!r}")

    def duplicate_selected(self) -> ConnectionProfile | None:
        """Save a copy of the selected profile and select it.

        Returns:
            The copy, or ``None``.
        """
        profile_id = self.selected_id()
        copy = self.viewmodel.duplicate(profile_id) if profile_id else None
        if copy is not None:
            self.select(copy.id)
        return copy

    def remove_selected(self, *, confirm: bool = True) -> asyncio.Task[None] | None:
        """Disconnect and delete the selected profile, after asking unless ``confirm`` is False.

        Returns:
            The task, or ``None`` when nothing is selected.
        """
        item = self.selected_item()
        if item is None:
            return None
        return spawn(self._remove(item, confirm), doing=f"removing {item.name!r}")

    def connect_selected(self) -> asyncio.Task[None] | None:
        """Connect the selected profile (several connections may be live at once).

        Returns:
            The connect task, or ``None`` when nothing was started.
        """
        profile_id = self.selected_id()
        return self.viewmodel.connect_profile(profile_id) if profile_id else None

    def disconnect_selected(self) -> asyncio.Task[None] | None:
        """Disconnect the selected connection.

        Returns:
            The task, or ``None`` when nothing was started.
        """
        profile_id = self.selected_id()
        return self.viewmodel.disconnect_profile(profile_id) if profile_id else None

    def reconnect_selected(self) -> asyncio.Task[None] | None:
        """Close the selected connection (if open) and connect it again with its current profile.

        Returns:
            The task, or ``None`` when nothing is selected.
        """
        profile_id = self.selected_id()
        return self.viewmodel.reconnect_profile(profile_id) if profile_id else None

    def login_selected(self) -> asyncio.Task[None] | None:
        """Log in to the selected OAuth profile's server (in the browser), then connect it.

        Returns:
            The task, or ``None`` when the selected profile does not use OAuth (or is busy).
        """
        profile_id = self.selected_id()
        return self.viewmodel.login_profile(profile_id) if profile_id else None

    def logout_selected(self) -> asyncio.Task[None] | None:
        """Disconnect the selected OAuth profile, revoke its tokens and forget them.

        Returns:
            The task, or ``None`` when the selected profile does not use OAuth (or is busy).
        """
        profile_id = self.selected_id()
        return self.viewmodel.logout_profile(profile_id) if profile_id else None

    def add_transient(self, profile: ConnectionProfile, *, persist: bool = True) -> asyncio.Task[None] | None:
        """Add ``profile`` and connect it (``workbench demo`` adds the bundled demo agents this way).

        Args:
            profile: The profile to add (an existing profile with the same id is replaced).
            persist: Save it in the profile store; ``False`` keeps it for this session only.

        Returns:
            The connect task, or ``None`` when it could not be added or is already live.
        """
        return self.viewmodel.add_and_connect(profile, persist=persist)

    # ------------------------------------------------------------------ slots

    def on_view_current_changed(self, current: QModelIndex, previous: QModelIndex) -> None:
        """Select the row's connection for the other panels."""
        item = self.model.item(current.row()) if current.isValid() else None
        self._ctx.selection.select(item.id if item is not None else None)
        self.update_actions()

    def on_view_double_clicked(self, index: QModelIndex) -> None:
        """Connect the double-clicked row."""
        item = self.model.item(index.row())
        if item is not None:
            self.viewmodel.connect_profile(item.id)

    def on_view_context_menu_requested(self, pos: QPoint) -> None:
        """Offer the actions for the row under the pointer (never a nested event loop: ``popup``)."""
        index = self.view.indexAt(pos)
        if index.isValid():
            self.view.setCurrentIndex(index)
        menu = QMenu(self)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        order: tuple[str | None, ...] = (
            *("connect", "disconnect", "reconnect", None, "login", "logout", None),
            *("edit", "duplicate", "remove", None, "add"),
        )
        for action_id in order:
            if action_id is None:
                menu.addSeparator()
            else:
                menu.addAction(self.actions_by_id[action_id])
        menu.popup(self.view.viewport().mapToGlobal(pos))

    def on_selection_changed(self, connection_id: str | None) -> None:
        """Follow a selection made elsewhere (the window, another panel)."""
        if connection_id != self.selected_id():
            self.select(connection_id)

    def on_model_reset(self) -> None:
        """Keep the selected row selected across a reset (if it still exists)."""
        current = self._ctx.selection.current
        if current is not None and self.model.row_of(current) >= 0:
            self.select(current)
        self.update_actions()

    def update_actions(self) -> None:
        """Enable the actions that make sense for the selected row."""
        item = self.selected_item()
        has = item is not None
        live = item is not None and item.is_live
        failed = item is not None and item.state is ConnectionState.FAILED
        for action_id in ("edit", "duplicate", "remove", "reconnect"):
            self.actions_by_id[action_id].setEnabled(has)
        self.actions_by_id["connect"].setEnabled(has and not live)
        self.actions_by_id["disconnect"].setEnabled(live or failed)
        oauth = item is not None and item.is_oauth
        busy = oauth and item is not None and self.viewmodel.task(item.id) is not None
        status = item.oauth if item is not None else None
        stored = status is None or not status.known or status.logged_in or status.registered
        self.actions_by_id["login"].setEnabled(oauth and not busy)
        self.actions_by_id["logout"].setEnabled(oauth and not busy and stored)

    # ------------------------------------------------------------------ internals

    async def _edit(self, profile: ConnectionProfile | None) -> ConnectionProfile | None:
        dialog = ConnectionDialog(profile, self)
        self.dialog = dialog
        backend = spawn(self._show_backend(dialog), doing="checking the keyring")
        try:
            while True:  # a refused save reopens the dialog with everything the user typed
                self.dialog_opened.emit(dialog)
                if await open_dialog(dialog) != ConnectionDialog.DialogCode.Accepted:
                    return None
                result = dialog.profile()
                error = await self.viewmodel.save_profile(result, dialog.secret_changes())
                if error is None:
                    break
                dialog.show_save_error(error)
        finally:
            self.dialog = None
            backend.cancel()
            dialog.deleteLater()  # not WA_DeleteOnClose: open_dialog still disconnects from it
        self.select(result.id)
        return result

    async def _show_backend(self, dialog: ConnectionDialog) -> None:
        """Tell the dialog where secrets would go (an insecure backend's warning, or why none is usable)."""
        info, error = await self.viewmodel.credential_backend()
        if self.dialog is dialog:
            dialog.set_credentials_backend(info, error)
            if info is not None and info.warning:
                self.status_message.emit(info.warning)

    async def _remove(self, item: SidebarItem, confirm: bool) -> None:
        if confirm:
            box = QMessageBox(
                QMessageBox.Icon.Question,
                "Remove connection",
                f"Remove the connection {item.name!r}? It is disconnected and its saved profile is deleted"
                + (", and its secrets are removed from the keyring." if item.has_secrets else "."),
                QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                self,
            )
            box.setTextFormat(Qt.TextFormat.PlainText)
            box.setDefaultButton(QMessageBox.StandardButton.Cancel)
            self.dialog = box
            self.dialog_opened.emit(box)
            try:
                if await open_dialog(box) != QMessageBox.StandardButton.Yes:
                    return
            finally:
                self.dialog = None
                box.deleteLater()
        task = self.viewmodel.remove(item.id)
        if task is not None:
            await task
