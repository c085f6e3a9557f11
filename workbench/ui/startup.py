"""The window frame painted the moment the app starts, while the workbench's own modules load.

Showing the main window needs the core (profiles, pydantic, the wire recorder) and every panel:
most of a second of imports on a slow machine. ``StartupWindow`` needs only Qt and the layout rules,
so the user sees the window (where it was last time, at its size, titled, in the system palette)
almost as soon as a bare Qt program would show one; ``app.run_gui`` shows it first, builds the main
window at the same place, shows that and closes this one. It imports nothing of ``workbench.core``.
"""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QEventLoop, QSettings, Qt
from PySide6.QtWidgets import QLabel, QMainWindow, QVBoxLayout, QWidget

from workbench.ui.window_layout import GEOMETRY_KEY, MINIMUM, place_window

TITLE = "Agent Workbench"
STARTING = "Starting Agent Workbench…"
EXPOSE_WAIT_S = 0.5
"""How long ``show_painted`` waits for the window system to map the frame before painting it anyway."""


class StartupWindow(QMainWindow):
    """An empty workbench frame saying that the workbench is starting.

    Args:
        window_settings: The main window's settings file (``window.ini``): the frame opens where the
            main window was left, or at its first-launch size on this screen.
    """

    def __init__(self, window_settings: Path) -> None:
        super().__init__()
        self.setObjectName("startupWindow")
        self.setWindowTitle(TITLE)
        self.setMinimumSize(MINIMUM)
        message = QLabel(STARTING)
        message.setObjectName("startupMessage")
        message.setTextFormat(Qt.TextFormat.PlainText)
        message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        message.setEnabled(False)  # the palette's quiet (disabled) text colour
        centre = QWidget()
        QVBoxLayout(centre).addWidget(message)
        self.setCentralWidget(centre)
        self.statusBar().showMessage("Loading…")
        settings = QSettings(str(window_settings), QSettings.Format.IniFormat)
        place_window(self, settings.value(GEOMETRY_KEY))

    def show_painted(self) -> None:
        """Show the frame and paint it now, before the caller goes on importing (no event loop runs then).

        Waits, at most ``EXPOSE_WAIT_S``, for the window system to map the window (a window painted
        before that shows nothing: a black frame until the main window replaces it).
        """
        self.show()
        handle = self.windowHandle()
        deadline = time.monotonic() + EXPOSE_WAIT_S
        while not handle.isExposed() and time.monotonic() < deadline:
            QCoreApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 10)
            time.sleep(0.001)
        self.repaint()
        QCoreApplication.processEvents()  # the paint reaches the screen
