"""The Roots sub-tab: the folders an MCP connection offers its server, added (typed or picked) and removed."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLineEdit,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.ui.dialog_rules import present
from workbench.ui.errors import ErrorView
from workbench.ui.panels.inspector.mcp.inline_error import InlineErrorWidget
from workbench.ui.panels.inspector.mcp.roots_vm import RootsViewModel
from workbench.ui.untrusted import plain_label, shown

URI_ROLE = Qt.ItemDataRole.UserRole
"""Where a row keeps its root's URI."""


class RootsWidget(QWidget):
    """The roots in a list (name, URI); a folder or ``file://`` URI and a name to add one; Remove for the selected."""

    def __init__(self, vm: RootsViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.note = plain_label("", self, wrap=True)
        self.error = InlineErrorWidget(self)
        self.list = QTreeWidget(self)
        self.list.setHeaderLabels(["Name", "URI"])
        self.list.setRootIsDecorated(False)
        self.list.setColumnWidth(0, 160)
        self.uri_edit = QLineEdit(self)
        self.uri_edit.setPlaceholderText("a folder, or file:///path")
        self.name_edit = QLineEdit(self)
        self.name_edit.setPlaceholderText("name (default: the folder's)")
        self.browse_button = QPushButton("Browse…", self)
        self.add_button = QPushButton("Add", self)
        self.remove_button = QPushButton("Remove", self)
        add_row = QHBoxLayout()
        add_row.addWidget(self.uri_edit, 3)
        add_row.addWidget(self.name_edit, 2)
        add_row.addWidget(self.browse_button)
        add_row.addWidget(self.add_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.error)
        layout.addWidget(self.list, 1)
        layout.addLayout(add_row)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.remove_button)
        layout.addLayout(buttons)
        self.add_button.clicked.connect(self.on_add_button_clicked)
        self.uri_edit.returnPressed.connect(self.on_add_button_clicked)
        self.uri_edit.textChanged.connect(self._follow_input)
        self.remove_button.clicked.connect(self.on_remove_button_clicked)
        self.browse_button.clicked.connect(self.on_browse_button_clicked)
        self.list.itemSelectionChanged.connect(self._follow_input)
        vm.changed.connect(self.on_vm_changed)
        vm.failed.connect(self.on_vm_failed)
        self.on_vm_changed()

    def on_vm_changed(self) -> None:
        """Redraw the list and the note from the view-model."""
        self.list.clear()
        for root in self.vm.roots():
            item = QTreeWidgetItem(self.list, [shown(root.name or ""), shown(root.uri)])
            item.setData(0, URI_ROLE, root.uri)
        self.note.setText(self.vm.note())
        self._follow_input()

    def on_vm_failed(self, view: ErrorView) -> None:
        """Show a failed change above the list."""
        self.error.show_error(view)

    def on_add_button_clicked(self) -> None:
        """Add the typed folder or URI with its name."""
        text = self.uri_edit.text().strip()
        if not text:
            return
        self.error.clear()
        self.vm.add_root(text, self.name_edit.text().strip())
        self.uri_edit.clear()
        self.name_edit.clear()

    def on_remove_button_clicked(self) -> None:
        """Take the selected root away."""
        item = self.list.currentItem()
        if item is not None:
            self.error.clear()
            self.vm.remove_root(str(item.data(0, URI_ROLE)))

    def on_browse_button_clicked(self) -> None:
        """Pick a folder with a non-blocking directory chooser; it fills the URI box."""
        chooser = QFileDialog(self, "Offer a folder as a root", self.uri_edit.text())
        chooser.setFileMode(QFileDialog.FileMode.Directory)
        chooser.setOption(QFileDialog.Option.ShowDirsOnly, True)
        chooser.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        chooser.fileSelected.connect(self.uri_edit.setText)
        present(chooser)

    def _follow_input(self) -> None:
        self.add_button.setEnabled(bool(self.uri_edit.text().strip()))
        self.remove_button.setEnabled(self.list.currentItem() is not None)
