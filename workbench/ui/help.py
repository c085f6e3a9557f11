"""The Help menu's pages: getting started, the keyboard shortcuts sheet, the README, and the log folder.

All text here is the workbench's own (trusted); the README is still rendered through
``SafeTextBrowser`` so its links go through the window's link consent like any other.
"""

from __future__ import annotations

import contextlib
import importlib.metadata
import logging
import logging.handlers
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.safe_text import neutralise
from workbench.ui.dialog_rules import show_window
from workbench.ui.untrusted import LinkGate, SafeTextBrowser

LOG_FILE = "workbench.log"
LOG_BYTES = 1_000_000
LOG_BACKUPS = 3

GETTING_STARTED = """\
# Getting started

1. **Add a connection** (File ▸ New connection…, Ctrl+N): an MCP server started as a command
   (stdio), an MCP server at a URL (Streamable HTTP or SSE), or an A2A agent at its URL. Or run
   `workbench demo` to get a set of demo servers and agents already connected.
2. **Select it** in the Connections list on the left and press **Connect** (Ctrl+Shift+C).
3. The **workspace** in the middle fits what you selected:
   - an MCP server shows its **Tools**, **Resources** and **Prompts** (and a **Chat** tab when one of
     its tools is an agent entry point). Pick a tool, fill in its form and press **Call**
     (Ctrl+Enter); the result appears beside or below the form.
   - an A2A agent opens on its **Chat**: type a message and press **Send** (Ctrl+Enter). Its
     **Agent card**, **Skills** and **Tasks** are in the other tabs.
4. Every message on the wire is in the **Wire log** (Ctrl+3, or the button at the bottom right).
   Click a row to see the payload; "Jump to response" pairs requests and responses.
5. When a server or agent asks you something (a form, a sampling request, a handoff to approve), a
   dialog opens: nothing is sent back until you answer.

Press Ctrl+/ for every keyboard shortcut.
"""

WIDGET_SHORTCUTS: tuple[tuple[str, str], ...] = (
    ("Ctrl+Enter", "Call the selected tool (in its form) / send the chat message / send a dialog's form or reply"),
    ("Tab / Shift+Tab", "Move between form fields"),
    ("Escape", "Close a dialog without answering"),
)
"""Keys that belong to one widget rather than to a menu action."""


def log_folder(config_dir: Path) -> Path:
    """Where the window writes its log (beside the profiles and window settings)."""
    return config_dir / "logs"


class _InertFormatter(logging.Formatter):
    """Formats records with peer text made inert: control characters and escapes shown, never kept raw."""

    def format(self, record: logging.LogRecord) -> str:
        return neutralise(super().format(record))


@contextlib.contextmanager
def file_log(folder: Path) -> Iterator[logging.Handler]:
    """Write the workbench's log (INFO and above) to ``folder/workbench.log``, rotated at 1 MB, three kept.

    On exit the handler is removed and closed, and the ``workbench`` logger's level is what it was.

    Yields:
        The handler.
    """
    folder.mkdir(parents=True, exist_ok=True)
    handler = logging.handlers.RotatingFileHandler(
        folder / LOG_FILE, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8"
    )
    handler.setLevel(logging.INFO)
    handler.setFormatter(_InertFormatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    logger = logging.getLogger("workbench")
    level = logger.level
    logger.addHandler(handler)
    if level == logging.NOTSET or level > logging.INFO:
        logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
        handler.close()


def readme_text() -> str:
    """The README: from the source tree when run from a checkout, else from the installed package's metadata."""
    checkout = Path(__file__).resolve().parents[2] / "README.md"
    if checkout.is_file():
        return checkout.read_text(encoding="utf-8", errors="replace")
    try:
        payload = importlib.metadata.metadata("agent-workbench").get_payload()  # type: ignore[attr-defined]
    except importlib.metadata.PackageNotFoundError:
        return ""
    return payload if isinstance(payload, str) else ""


def shortcut_rows(actions: Iterable[QAction]) -> list[tuple[str, str]]:
    """``(keys, what)`` for every action that has a shortcut, then the widgets' own keys."""
    rows: list[tuple[str, str]] = []
    for action in actions:
        keys = action.shortcut().toString(QKeySequence.SequenceFormat.NativeText)
        if keys:
            rows.append((keys, action.text().replace("&&", "\0").replace("&", "").replace("\0", "&").rstrip("…")))
    rows.extend(WIDGET_SHORTCUTS)
    return rows


class _Page(QDialog):
    """A help page: content, then a Close button."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.column = QVBoxLayout(self)


class HelpPages:
    """Opens the Help menu's pages (non-modal, one of each at a time) for a window.

    Args:
        window: The parent of the pages.
        links: Where clicked README links go (the window asks before opening them).
        folder: The log folder ``open_log_folder`` shows.
        url_opener: Opens a local folder in the file manager.
    """

    def __init__(self, window: QWidget, links: LinkGate, folder: Path, url_opener: Callable[[QUrl], object]) -> None:
        self._window = window
        self._links = links
        self.folder = folder
        self._open = url_opener
        self.pages: dict[str, QDialog] = {}

    def show_getting_started(self) -> QDialog:
        """A short walk through the first minutes."""
        return self._page("gettingStarted", "Getting started", GETTING_STARTED)

    def show_readme(self) -> QDialog:
        """The README, rendered (links ask before they open)."""
        text = readme_text() or "The README is not installed with this copy of the workbench."
        return self._page("readme", "README", text)

    def show_shortcuts(self, actions: Iterable[QAction]) -> QDialog:
        """Every keyboard shortcut in one table."""
        existing = self.pages.get("shortcuts")
        if existing is not None:
            existing.raise_()
            return existing
        dialog = self._dialog("shortcuts", "Keyboard shortcuts")
        rows = shortcut_rows(actions)
        table = QTableWidget(len(rows), 2, dialog)
        table.setObjectName("shortcutTable")
        table.setHorizontalHeaderLabels(["Keys", "Does"])
        table.verticalHeader().setVisible(False)
        table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (keys, what) in enumerate(rows):
            table.setItem(row, 0, QTableWidgetItem(keys))
            table.setItem(row, 1, QTableWidgetItem(what))
        header = table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        dialog.column.insertWidget(0, table)
        dialog.resize(560, 520)
        show_window(dialog)
        return dialog

    def open_log_folder(self) -> Path:
        """Open the log folder in the file manager (created if it does not exist yet)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self._open(QUrl.fromLocalFile(str(self.folder)))
        return self.folder

    def _page(self, name: str, title: str, markdown: str) -> QDialog:
        existing = self.pages.get(name)
        if existing is not None:
            existing.raise_()
            return existing
        dialog = self._dialog(name, title)
        browser = SafeTextBrowser(dialog)
        browser.setObjectName("helpText")
        browser.set_untrusted_markdown(markdown)
        browser.link_clicked.connect(self._links.offer)
        dialog.column.insertWidget(0, browser)
        dialog.resize(640, 560)
        show_window(dialog)
        return dialog

    def _dialog(self, name: str, title: str) -> _Page:
        dialog = _Page(self._window)
        dialog.setObjectName(f"help_{name}")
        dialog.setWindowTitle(title)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
        buttons.rejected.connect(dialog.close)
        dialog.column.addWidget(buttons)
        self.pages[name] = dialog
        dialog.destroyed.connect(lambda *_: self.pages.pop(name, None))
        return dialog
