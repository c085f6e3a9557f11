"""Where the window goes and how big its parts are: first-launch size from the screen, sane restored sizes.

Pure geometry (QRect/QSize in, QRect/int out) so the rules are tested without a window manager. The
window applies them: on first launch it fits the screen's available geometry; a remembered geometry
that no longer fits (another screen, a smaller resolution) is pulled back onto the screen; remembered
dock sizes that were crushed (a 20-pixel sidebar, a wire log taller than the window) are replaced by
the defaults instead of being restored. ``place_window`` applies the first two rules to a window (the
start-up frame and the main window alike, so both open in the same place).

Space budget (heights, measured with the demo's MCP server on show and the wire log open; the client
area is the window less its title bar, 19 px under Openbox, 28-30 px elsewhere, so ~10 px less there):

==========  ============================  ==========================  ======================================
screen      window's client area          wire log dock               centre (workspace or handoff view)
==========  ============================  ==========================  ======================================
1280×720    1280×701, maximised           241 px: 8 payload lines     407 px (the workspace 381): a tool's
            (``opens_maximised``)         (its lines; the centre      result 8 lines, a tall form ~4, the
                                          keeps ``CENTRE_MIN``)       diagram 4 hops
1366×768    1366×749, maximised           241 px: 8 payload lines     455 px (the workspace 429): a tool's
                                                                      result 8 lines, a tall form ~6 (a
                                                                      2-field one whole), the chat's history
                                                                      ~6 times its 3-line message box
1920×1080   1728×1000, a margin round     ``BOTTOM_SHARE``: 284 px,  663 px: form and result side by side
            it (``first_geometry``)       11 payload lines            (~29 lines each)
==========  ============================  ==========================  ======================================

- The wire log gets ``BOTTOM_SHARE`` of the room the centre and the bottom docks share, and never
  less than what shows ``wirelog.widget.DETAIL_MIN_LINES`` lines of the selected record (a stderr
  or auth tab sharing its place included) — as long as the centre keeps its own budget:
  ``CENTRE_MIN`` for the workspace, the diagram's rows for the handoff view
  (``handoffs.widget.DIAGRAM_MIN_ROWS``: opening the wire log from an arrow never shrinks the diagram
  below them), and never less than the centre's own minimum. The centre's own minimum stays below
  ``CENTRE_MIN`` (~310 px: a page taller than that, the MCP Server tab, scrolls), so the budget, not
  the tallest page, decides. ``bottom_height`` decides; the window (``dock_sizer.DockSizer``) applies
  it when a bottom dock shows or hides, when the window changes size, when the error banner shows or
  hides, and when the wire log needs another height for its lines, and keeps a height the user
  dragged within the budget until then.
- The error banner over the centre takes its room from the workspace, never from the wire log: it
  is not counted in the centre's budget, and it is at most ``banner.TEXT_LINES`` lines high (a
  longer error scrolls inside it).
- What gives way first as the window gets shorter: the wire log's share beyond its 8 lines; then
  the workspace's extras, each panel by its own rule, written where its layout is decided: a
  tool's form beyond its content, then beyond ``FORM_MIN_LINES``, before the result's
  ``RESULT_MIN_LINES`` (``mcp/call_layout.py``, ``arrange``); the chat's history (the message box
  stays 3–10 lines, ``chat/widget.py``); a resource's contents, top-aligned, scroll
  (``mcp/resources.py``); last the wire log below its 8 lines (a window shorter than 1280×720's).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QByteArray, QRect, QSize, Qt
from PySide6.QtWidgets import QWidget

MINIMUM = QSize(800, 560)
"""The window's minimum size (fits a 1024×640 budget; the layout inside must not ask for more)."""
PREFERRED = QSize(1600, 1000)
"""First-launch size at least (when the screen has room); a big screen gets ``SHARE`` of it."""
SHARE = 0.9
MARGIN = 24
"""Pixels left free around a first-launch window on a screen smaller than ``PREFERRED``."""
GEOMETRY_KEY = "window/geometry"
"""Where the window settings keep the window's geometry."""
ROOMY_HEIGHT = 900
"""Below this available height the wire log starts hidden (View ▸ Wire log, Ctrl+3 shows it)."""


@dataclass(frozen=True, slots=True)
class DockBounds:
    """The sizes a dock may be restored to: anything outside is a crushed or stretched layout.

    Attributes:
        default: Size on first launch (and instead of an insane remembered one).
        minimum: Smallest size worth restoring.
        share: Largest fraction of the window's extent worth restoring.
    """

    default: int
    minimum: int
    share: float

    def sane(self, remembered: int | None, window_extent: int) -> int:
        """``remembered`` when it is within bounds for a window ``window_extent`` pixels wide/high, else the default."""
        limit = int(window_extent * self.share)
        default = min(self.default, max(self.minimum, limit))
        if remembered is None or remembered < self.minimum or remembered > limit:
            return default
        return remembered


SIDEBAR = DockBounds(default=250, minimum=170, share=0.4)
BOTTOM_MIN = 120
"""The bottom dock's height at least, whatever the budget (a toolbar and a few rows)."""
BOTTOM_SHARE = 0.3
"""The wire log's share of the room it shares with the centre, when that is more than its lines need."""
CENTRE_MIN = 360
"""The workspace's height at least when the window sizes the wire log (a tool's form and 8 lines of result)."""


def bottom_height(room: int, need: int, centre: int = CENTRE_MIN) -> int:
    """The bottom dock's height by the space budget (see the module's docstring).

    Args:
        room: Height the centre and the bottom dock share (the window less menu, status bar and separator).
        need: The dock's height that shows its minimum lines (the wire log's ``DETAIL_MIN_LINES``).
        centre: Height the centre keeps at least (``CENTRE_MIN``, or the handoff diagram's budget).

    Returns:
        ``BOTTOM_SHARE`` of ``room`` or ``need``, whichever is more, as far as ``centre`` stays free;
        never below ``BOTTOM_MIN``.
    """
    wanted = max(need, int(room * BOTTOM_SHARE))
    return max(min(wanted, room - centre), BOTTOM_MIN)


def bottom_height_is_sane(height: int, room: int, need: int, centre: int = CENTRE_MIN) -> bool:
    """Whether a bottom dock ``height`` keeps the budget: its lines shown where there is room, the centre's kept."""
    floor = min(need, bottom_height(room, need, centre))
    return floor <= height <= max(room - centre, floor)


def first_geometry(available: QRect, preferred: QSize = PREFERRED, minimum: QSize = MINIMUM) -> QRect:
    """The window's first-launch frame: 90 % of a big screen, ``preferred`` on a middling one, else all but a margin.

    Never larger than ``available`` (the screen less panels and docks); centred in it.
    """
    room = available.size()
    width = min(max(preferred.width(), int(room.width() * SHARE)), room.width() - 2 * MARGIN)
    height = min(max(preferred.height(), int(room.height() * SHARE)), room.height() - 2 * MARGIN)
    width = min(max(width, minimum.width()), room.width())
    height = min(max(height, minimum.height()), room.height())
    rect = QRect(0, 0, width, height)
    rect.moveCenter(available.center())
    return rect


def opens_maximised(available: QRect, preferred: QSize = PREFERRED) -> bool:
    """Whether a first-launch window fills the screen: one that cannot hold ``preferred`` and its margins.

    On such a screen (1280×720, 1366×768) a margin round the window only takes lines from the space
    budget: the window opens maximised (its normal size stays ``first_geometry``'s).
    """
    return available.width() < preferred.width() + 2 * MARGIN or available.height() < preferred.height() + 2 * MARGIN


def onto_screen(frame: QRect, available: QRect) -> QRect:
    """``frame`` shrunk to fit ``available`` and moved so that all of it is on the screen."""
    width = min(frame.width(), available.width())
    height = min(frame.height(), available.height())
    x = min(max(frame.x(), available.left()), available.left() + available.width() - width)
    y = min(max(frame.y(), available.top()), available.top() + available.height() - height)
    return QRect(x, y, width, height)


def place_window(window: QWidget, saved_geometry: object) -> None:
    """Put ``window`` where it was (``saved_geometry``, from ``saveGeometry``), on screen; else first-launch size.

    A first launch on a small screen (``opens_maximised``) opens maximised: the window manager then
    gives it the whole available area less its title bar.
    """
    available = window.screen().availableGeometry()
    if isinstance(saved_geometry, QByteArray) and window.restoreGeometry(saved_geometry):
        fitted = onto_screen(window.geometry(), available)
        if fitted != window.geometry():
            window.setGeometry(fitted)
        return
    frame = first_geometry(available)
    window.resize(frame.size())
    window.move(frame.topLeft())
    if opens_maximised(available):
        window.setWindowState(window.windowState() | Qt.WindowState.WindowMaximized)
