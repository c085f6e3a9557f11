"""SidebarWidget: the list of connections with their state, a toolbar and a context menu."""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPoint, QSize, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QMenu,
    QMessageBox,
    QPushButton,
    QSizePolicy,
    QToolBar,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.events import ConnectionState
from workbench.core.profiles import ConnectionProfile
from workbench.ui.actions import glyph
from workbench.ui.asyncutil import open_dialog, spawn
from workbench.ui.context import PanelContext
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.icons import follow, icon_theme
from workbench.ui.panels.sidebar.delegate import SidebarDelegate
from workbench.ui.panels.sidebar.itemmodel import SidebarItemModel
from workbench.ui.panels.sidebar.items import SidebarItem
from workbench.ui.panels.sidebar.oauth_commands import BrowserOpener
from workbench.ui.panels.sidebar.viewmodel import SidebarViewModel
from workbench.ui.untrusted import plain_label

type QDialogLike = ConnectionDialog | QMessageBox

ACTION_IDS = ("add", "edit", "duplicate", "remove", "connect", "disconnect", "reconnect", "login", "logout")
"""The ids of the sidebar's actions (``SidebarWidget.actions_by_id``)."""
TOOLBAR_ROWS: tuple[tuple[str, ...], ...] = (
    ("connect", "disconnect", "reconnect"),  # the connection's life
    ("add", "edit", "duplicate", "remove"),  # the saved profile
    ("login", "logout"),  # its OAuth login
)
"""The sidebar's toolbars, top to bottom.

Every action is on screen at the sidebar's default width (``window_layout.SIDEBAR``: 250 px, the same
on a 1366 px laptop and a 1920 px screen): no row needs more than ~225 px, so none ever hides an
action behind the toolbar's "»" (only a sidebar dragged narrower than a row can). A row gets no action
that would not fit beside the others at that width; a new action gets a row of its own.
"""
WORDS_KEPT = frozenset({"connect", "disconnect", "add", "login", "logout"})
"""Actions whose words stay beside their icon: what they do is not plain from a glyph (connect vs
disconnect, an OAuth login), or a new user looks for the word (Add). Edit, Duplicate, Remove and
Reconnect show the icon alone (a pencil, two pages, a bin, a circular arrow); their tooltips and the
menus keep the words."""
TOOLBAR_ICON = QSize(16, 16)
"""The toolbars' icon size (the rows' widths above are measured with it)."""
EMPTY_TEXT = "No connections yet."
EMPTY_HINT = (
    "Add an MCP server (a command to run, or a URL) or an A2A agent (its URL) to explore what it offers. "
    "To try the bundled demo agents first, run: workbench demo"
)


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
        for action_id in ACTION_IDS:
            text, tip, slot = labels[action_id]
            action = QAction(text, self)
            action.setObjectName(f"sidebar.{action_id}")
            action.setStatusTip(tip)
            action.setToolTip(tip)
            action.triggered.connect(lambda _checked=False, run=slot: run())
            self.actions_by_id[action_id] = action
            self.addAction(action)  # so the widget's actions() list has them too
        # One toolbar per row of TOOLBAR_ROWS (see there why nothing hides behind "»").
        self.connection_toolbar, self.toolbar, self.oauth_toolbar = (
            self._toolbar(name, row)
            for name, row in zip(("connectionToolbar", "profileToolbar", "oauthToolbar"), TOOLBAR_ROWS, strict=True)
        )
        self.empty_state = self._empty_state()

        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        for bar in (self.connection_toolbar, self.toolbar, self.oauth_toolbar):
            layout.addWidget(bar)
        layout.addWidget(self.view)
        layout.addWidget(self.empty_state, 1)

        selection_model = self.view.selectionModel()
        selection_model.currentChanged.connect(self.on_view_current_changed)
        self.view.doubleClicked.connect(self.on_view_double_clicked)
        self.view.customContextMenuRequested.connect(self.on_view_context_menu_requested)
        self.model.modelReset.connect(self.on_model_reset)
        self.model.rowsInserted.connect(self.show_empty_state)
        self.model.rowsRemoved.connect(self.show_empty_state)
        self.model.dataChanged.connect(self.update_actions)
        self.viewmodel.busy_changed.connect(self.update_actions)
        ctx.selection.changed.connect(self.on_selection_changed)
        self.on_model_reset()
        follow(self, self._set_icons)

    def _toolbar(self, name: str, action_ids: tuple[str, ...]) -> QToolBar:
        bar = QToolBar(self)
        bar.setObjectName(name)
        bar.setIconSize(TOOLBAR_ICON)
        bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        for action_id in action_ids:
            action = self.actions_by_id[action_id]
            bar.addAction(action)
            button = bar.widgetForAction(action)
            if isinstance(button, QToolButton) and action_id not in WORDS_KEPT:
                button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
        return bar

    def _empty_state(self) -> QWidget:
        """What the sidebar shows while there are no connections: what they are and how to add one."""
        page = QWidget(self)
        page.setObjectName("sidebarEmptyState")
        # it never widens the sidebar: a sidebar dragged narrow clips it (as it clips the list's rows)
        page.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        title = plain_label(EMPTY_TEXT, page)
        font = title.font()
        font.setBold(True)
        title.setFont(font)
        self.empty_add_button = QPushButton("Add a connection…", page)
        self.empty_add_button.setObjectName("sidebarEmptyAdd")
        self.empty_add_button.setToolTip("Add a connection profile (Ctrl+N)")
        self.empty_add_button.clicked.connect(self.add_profile)
        hint = plain_label(EMPTY_HINT, page, wrap=True)
        column = QVBoxLayout(page)
        column.setContentsMargins(12, 16, 12, 12)
        column.setSpacing(8)
        column.addWidget(title)
        column.addWidget(hint)
        column.addWidget(self.empty_add_button, 0, Qt.AlignmentFlag.AlignLeft)
        column.addStretch(1)
        return page

    def _set_icons(self) -> None:
        """The actions' icons (the window's glyphs for the same actions) in this widget's palette."""
        theme, palette = icon_theme(), self.palette()
        for action_id, action in self.actions_by_id.items():
            action.setIcon(theme.icon(glyph(f"connection.{action_id}"), palette))
        self.empty_add_button.setIcon(theme.icon(glyph("connection.add"), palette))
        self.view.viewport().update()  # the rows' marks

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
        self.show_empty_state()

    def show_empty_state(self) -> None:
        """Show the list, or while it is empty, what to do instead (add a connection, or run the demo)."""
        empty = self.model.rowCount() == 0
        self.view.setVisible(not empty)
        self.empty_state.setVisible(empty)

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
            await asyncio.wait([backend], timeout=ConnectionDialog.BACKEND_WAIT)  # opens complete: dialog_rules rule 1
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
        info, error = await self.viewmodel.profile_commands.credential_backend()
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
