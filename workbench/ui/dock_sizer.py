"""The main window's dock sizes: the wire log's space budget applied live, and dock sizes kept between runs."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, Qt, QTimer
from PySide6.QtWidgets import QDockWidget, QMainWindow, QStyle, QTabBar, QTabWidget, QWidget

from workbench.ui.panels.handoffs.widget import HandoffWidget
from workbench.ui.panels.wirelog.widget import WireLogWidget
from workbench.ui.window_layout import (
    CENTRE_MIN,
    GEOMETRY_KEY,
    ROOMY_HEIGHT,
    SIDEBAR,
    bottom_height,
    bottom_height_is_sane,
    place_window,
)


class DockSizer(QObject):
    """Size the window's docks by ``window_layout``'s rules and remember them in the settings.

    The wire log's dock takes its budget's height whenever it (or a dock sharing its place) shows or
    hides, when the window changes size or the error banner over the centre shows or hides (the
    centre's room changes), and when the wire log needs another height for its lines (its bars went
    to one row or two); until then a height the user dragged within the budget stays.

    Args:
        window: The main window holding the docks.
        settings: Where geometry, dock state and dock sizes are remembered.
        sidebar_dock: The connections dock (its width is remembered).
        wire_dock: The wire log's dock (its height follows the budget).
        bottom_docks: The docks sharing the wire log's place, the wire log's first.
        wire_log: The wire log (how tall it must be to show its payload lines).
        centre_tabs: The centre's pages (the handoff view on show keeps its diagram's budget).
        handoffs: The handoff view.
        banner: The error banner over the centre (it takes its room from the workspace, not the wire log).
    """

    def __init__(
        self,
        window: QMainWindow,
        settings: QSettings,
        *,
        sidebar_dock: QDockWidget,
        wire_dock: QDockWidget,
        bottom_docks: Sequence[QDockWidget],
        wire_log: WireLogWidget,
        centre_tabs: QTabWidget,
        handoffs: HandoffWidget,
        banner: QWidget,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._settings = settings
        self._sidebar_dock = sidebar_dock
        self._wire_dock = wire_dock
        self._bottom_docks = tuple(bottom_docks)
        self._wire_log = wire_log
        self._centre_tabs = centre_tabs
        self._handoffs = handoffs
        self._banner = banner
        # the space budget (window_layout) is applied whenever the wire log shows and the window resizes,
        # once the docks are laid out (a dock just shown still has its old height)
        self._fit_timer = QTimer(self)
        self._fit_timer.setSingleShot(True)
        self._fit_timer.setInterval(0)
        self._fit_timer.timeout.connect(self.fit_bottom_dock)
        self._refit = False  # the window changed size: the wire log takes the new size's budget when it shows
        for dock in self._bottom_docks:  # they share the wire log's place
            dock.visibilityChanged.connect(self.on_bottom_dock_visibility_changed)
        self._wire_need = 0  # the wire log's height for its lines when last looked at
        banner.installEventFilter(self)  # shown or hidden: the centre's minimum changed
        wire_log.installEventFilter(self)  # its layout changed: it may need another height for its lines

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """The banner showed or hid, or the wire log needs another height: apply the budget once laid out.

        A wire log whose layout changed without changing its need (a toolbar note's text) keeps the
        height it has, a dragged one included.
        """
        kind = event.type()
        if watched is self._banner and kind in (QEvent.Type.Show, QEvent.Type.Hide):
            self.on_window_resized()  # the centre's room changed as if the window had: the budget's height again
        elif watched is self._wire_log and kind == QEvent.Type.LayoutRequest:
            need = self._wire_log.height_for_lines(width=self._window.width())
            if need != self._wire_need:
                self._wire_need = need
                self._fit_timer.start()
        return False

    def restore(self) -> None:
        """Geometry and docks as the user left them, unless that no longer fits; first launch fits the screen."""
        window = self._window
        screen = window.screen().availableGeometry()
        place_window(window, self._settings.value(GEOMETRY_KEY))
        state = self._settings.value("window/state")
        if not (isinstance(state, QByteArray) and window.restoreState(state)):
            self._wire_dock.setVisible(screen.height() >= ROOMY_HEIGHT)
        self._size_docks()

    def save(self) -> None:
        """Remember geometry, docks and dock sizes (the caller syncs the settings)."""
        window = self._window
        self._settings.setValue(GEOMETRY_KEY, window.saveGeometry())
        self._settings.setValue("window/state", window.saveState())
        if self._sidebar_dock.isVisible() and not self._sidebar_dock.isFloating():
            self._settings.setValue("window/sidebar_width", self._sidebar_dock.width())
        bottom = [d for d in self._bottom_docks if d.isVisible() and not d.isFloating()]
        if bottom:
            self._settings.setValue("window/bottom_height", bottom[0].height())
        self._settings.remove("window/splitter")  # no centre splitter: its saved sizes would crush the docks

    def fit_soon(self) -> None:
        """Give the wire log its budget's height once the docks are laid out (see ``fit_bottom_dock``)."""
        self._fit_timer.start()

    def on_window_resized(self) -> None:
        """A new window size (another screen, maximised): the wire log takes that size's budget, now or when shown."""
        self._refit = True
        self._fit_timer.start()

    def _size_docks(self) -> None:
        """Dock sizes from the settings when they are sane for this window, else the defaults (the space budget)."""
        window = self._window
        sidebar = SIDEBAR.sane(_int(self._settings.value("window/sidebar_width")), window.width())
        window.resizeDocks([self._sidebar_dock], [sidebar], Qt.Orientation.Horizontal)
        remembered = _int(self._settings.value("window/bottom_height"))
        room, need, centre = self._bottom_budget()
        if remembered is None or not bottom_height_is_sane(remembered, room, need, centre):
            remembered = bottom_height(room, need, centre)
        self._resize_bottom_dock(remembered)

    def _bottom_budget(self) -> tuple[int, int, int]:
        """``(room, need, centre)`` for ``window_layout.bottom_height``, measured on the window now.

        room: the height the centre and the bottom dock area share (less the tab bar of docks sharing
        the wire log's place, so every figure is the wire log dock's own height); need: the wire log's
        dock showing ``DETAIL_MIN_LINES`` payload lines; centre: what the page on show keeps (the
        handoff diagram's budget, else ``CENTRE_MIN``) and its tab bar. The error banner is not
        counted: it takes its room from the page (its height is bounded, ``banner.TEXT_LINES``),
        and only the centre's own minimum, banner included, can take room from the wire log.
        """
        window, wire_log = self._window, self._wire_log
        separator = window.style().pixelMetric(QStyle.PixelMetric.PM_DockWidgetSeparatorExtent, None, window)
        status = window.statusBar().sizeHint().height() if not window.statusBar().isHidden() else 0
        room = window.height() - window.menuBar().sizeHint().height() - status - separator
        room -= self._dock_tab_bar_height(self._wire_dock)
        dock = self._wire_dock
        if dock.isVisible() and wire_log.height() > 0:
            chrome = dock.height() - wire_log.height()
        else:
            chrome = dock.minimumSizeHint().height() - max(wire_log.minimumHeight(), 0)
        need = wire_log.height_for_lines(width=window.width()) + chrome
        handoffs = self._handoffs
        page = handoffs.budget_height() if self._centre_tabs.currentWidget() is handoffs else CENTRE_MIN
        centre = page + self._centre_tabs.tabBar().sizeHint().height()
        # a page that cannot be squeezed that far keeps its minimum anyway: the budget says what will be
        central = window.centralWidget()
        if central is not None:
            centre = max(centre, central.minimumSizeHint().height())
        return room, need, centre

    def _dock_tab_bar_height(self, dock: QDockWidget) -> int:
        """The height of the tab bar under ``dock`` when other open docks share its place (stderr), else 0."""
        window = self._window
        if all(other.isHidden() for other in window.tabifiedDockWidgets(dock)):
            return 0
        title = dock.windowTitle()
        for bar in window.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly):
            if bar.count() > 1 and any(bar.tabText(i) == title for i in range(bar.count())):
                return bar.sizeHint().height()
        return self._centre_tabs.tabBar().sizeHint().height()  # not laid out yet: a tab bar's height

    def fit_bottom_dock(self) -> None:
        """Give the wire log its budget's height (see ``window_layout``).

        After the window changed size, the new size's budget; else only when the height it has breaks
        the budget (a height the user dragged within it stays).
        """
        dock = self._wire_dock
        if dock.isHidden() or dock.isFloating():
            return
        room, need, centre = self._bottom_budget()
        if self._refit or not bottom_height_is_sane(dock.height(), room, need, centre):
            self._resize_bottom_dock(bottom_height(room, need, centre))
        self._refit = False

    def _resize_bottom_dock(self, height: int) -> None:
        """Make the wire log dock ``height`` high (Qt sizes the place it shares, tab bar included)."""
        tab_bar = self._dock_tab_bar_height(self._wire_dock)
        self._window.resizeDocks([self._wire_dock], [height + tab_bar], Qt.Orientation.Vertical)

    def on_bottom_dock_visibility_changed(self, _visible: bool) -> None:
        """The wire log was shown (or its tab raised), or a dock came to share its place or left it: size it again."""
        self._fit_timer.start()


def _int(value: object) -> int | None:
    """A settings value as an int (``QSettings`` in INI format gives strings back), else ``None``."""
    try:
        return int(str(value)) if value is not None else None
    except ValueError:
        return None
