"""The window's icons: Material Design Icons glyphs (QtAwesome's bundled font) drawn in the palette's colours.

The only module that imports QtAwesome (an import-linter contract). QtAwesome is maintained (the Spyder
project), bundles its icon fonts in its wheel (Material Design Icons 6, Font Awesome ...) and never
downloads anything; it draws each glyph when Qt asks for a size, so icons are crisp at any scale.

Rules (the code below follows them; callers never pick a colour or a glyph font themselves):

- An icon stands for an action, a kind of profile, a connection state or a banner's sign and ✕; actions
  name their glyph in ``workbench.ui.actions`` (``ActionSpec.icon``), kinds and states in ``KIND_GLYPHS`` /
  ``STATE_GLYPHS``, banners use ``ERROR_GLYPH`` and ``DISMISS_GLYPH`` (in the text colour the stylesheet
  gives the banner's words, read from the widget's palette).
- Colours come from the palette the icon is shown on: its ``ButtonText`` (its disabled group's when
  disabled); a state mark is drawn in ``theme.STATE_COLORS`` of the palette's theme (light or dark,
  read from the palette itself), and in ``HighlightedText`` on a selected row. The state colours are
  checked against both palettes for WCAG AA (tests/ui/test_look.py). Every state also has its own
  shape (a tick, a clock, a warning, an empty circle): colour is never the only sign.
- A palette change (the system switching to dark, the screenshot tool's dark palette) redraws every
  icon: widgets showing icons register with ``follow``.
- Loading is lazy: importing QtAwesome (mostly qtpy's ``from PySide6.QtWidgets import *``) and
  reading its Material Design font costs ~200 ms of CPU on the 2-core test machine (a third of the
  main window's start) and ~17 MiB. The window is shown first; ``load_after_first_paint`` loads the
  glyphs once it has painted. Until then ``IconTheme.icon`` gives a blank icon, so buttons keep their
  size when the glyphs arrive.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QGuiApplication, QIcon, QPalette, QPixmap
from PySide6.QtWidgets import QWidget

from workbench.ui.theme import STATE_COLORS, theme_for

KIND_GLYPHS: dict[str, str] = {
    "mcp-stdio": "mdi6.toolbox-outline",
    "mcp-http": "mdi6.toolbox-outline",
    "mcp-sse": "mdi6.toolbox-outline",
    "a2a": "mdi6.robot-outline",
}
"""A profile kind's mark: an MCP server offers tools (whatever its transport: the badge's words say
which), an A2A peer is an agent."""
STATE_GLYPHS: dict[str, str] = {
    "connected": "mdi6.check-circle",
    "connecting": "mdi6.progress-clock",
    "failed": "mdi6.alert-circle",
    "disconnected": "mdi6.circle-outline",
    "closed": "mdi6.minus-circle-outline",
}
"""A connection state's mark (each its own shape; ``theme.STATE_COLORS`` colours it)."""
PROMPTS_GLYPH = "mdi6.bell-ring-outline"
"""Beside "N waiting for you" in the status bar."""
DISMISS_GLYPH = "mdi6.close"
"""The ✕ that dismisses a banner."""
ERROR_GLYPH = "mdi6.alert-circle"
"""Beside an error banner's headline."""


class IconTheme(QObject):
    """Makes icons from glyph names in a palette's colours; ``changed`` fires when they must be made again.

    One per application (``icon_theme()``). Before ``load`` every icon is blank (see the module's rules).
    """

    changed = Signal()  # the glyphs loaded, or the palette changed: make the icons again

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._qta: Any = None
        self._blank: QIcon | None = None

    @property
    def loaded(self) -> bool:
        """Whether the glyphs are loaded (before: blank icons)."""
        return self._qta is not None

    def load(self) -> None:
        """Import QtAwesome and read its glyph font now (once); then every follower redraws its icons."""
        if self._qta is not None:
            return
        import qtawesome  # the one place; PySide6 is imported already, so qtpy picks it

        self._qta = _material_design_font(qtawesome)
        self.changed.emit()

    def icon(self, glyph: str, palette: QPalette | None = None, *, colour: QColor | None = None) -> QIcon:
        """The icon of ``glyph`` (``"mdi6.plus"``) in ``palette``'s colours (the application's by default).

        Args:
            glyph: A QtAwesome glyph name.
            palette: Whose ``ButtonText`` (active and disabled) colours the icon.
            colour: Instead of the palette's text colour (a state's colour); disabled stays the palette's.

        Returns:
            The icon; a blank one of the same size while the glyphs are not loaded.

        Raises:
            Exception: QtAwesome has no such glyph (a programming error: tests/ui/test_icons.py draws every name).
        """
        if self._qta is None:
            return self._blank_icon()
        palette = palette or QGuiApplication.palette()
        normal = (
            colour if colour is not None else palette.color(QPalette.ColorGroup.Active, QPalette.ColorRole.ButtonText)
        )
        disabled = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText)
        return self._qta.icon(glyph, color=normal, color_disabled=disabled)  # type: ignore[no-any-return]

    def state_icon(self, state: str, palette: QPalette, *, selected: bool = False) -> QIcon:
        """A connection state's mark in its colour for ``palette``'s theme (``HighlightedText`` when selected)."""
        return self.icon(state_glyph(state), palette, colour=state_colour(state, palette, selected=selected))

    def _blank_icon(self) -> QIcon:
        if self._blank is None:
            pixmap = QPixmap(16, 16)
            pixmap.fill(Qt.GlobalColor.transparent)
            self._blank = QIcon(pixmap)
        return self._blank


def _material_design_font(qtawesome: Any) -> Any:
    """A QtAwesome ``IconicFont`` with only Material Design Icons 6, the one glyph set the window uses.

    QtAwesome's own ``icon()`` loads its ten bundled fonts first: ~80 ms and 16 MiB, against ~25 ms
    and 6.5 MiB for this one. Should a QtAwesome release name its font files otherwise, its own
    ``icon()`` (all fonts) is used instead.
    """
    fonts = Path(qtawesome.__file__).parent / "fonts"
    ttf = sorted(fonts.glob("materialdesignicons6-webfont-[0-9]*.ttf"))
    charmap = sorted(fonts.glob("materialdesignicons6-webfont-charmap-[0-9]*.json"))
    if len(ttf) != 1 or len(charmap) != 1:
        return qtawesome
    return qtawesome.IconicFont(("mdi6", ttf[0].name, charmap[0].name))


def state_glyph(state: str) -> str:
    """A ``ConnectionState`` value's glyph (an unknown state: disconnected's)."""
    return STATE_GLYPHS.get(state, STATE_GLYPHS["disconnected"])


def kind_glyph(kind: str) -> str:
    """A profile kind's glyph (``mcp-stdio``, ``mcp-http``, ``mcp-sse``, ``a2a``; another: a question mark)."""
    return KIND_GLYPHS.get(kind, "mdi6.help-circle-outline")


def state_colour(state: str, palette: QPalette, *, selected: bool = False) -> QColor:
    """A state mark's colour on ``palette``: ``theme.STATE_COLORS`` of its theme; ``HighlightedText`` if selected.

    The theme is read from the palette (a dark window background is dark), so a mark follows the
    palette it is drawn on even before (or without) the theme's stylesheet.
    """
    if selected:
        return palette.color(QPalette.ColorRole.HighlightedText)
    colours = STATE_COLORS[theme_for(Qt.ColorScheme.Unknown, palette)]
    return QColor(colours.get(state, colours["disconnected"]))


_theme: IconTheme | None = None


def icon_theme() -> IconTheme:
    """The application's icon theme (made on first use, owned by the application)."""
    global _theme
    app = QGuiApplication.instance()
    if _theme is None or _theme.parent() is not app:
        _theme = IconTheme(app)
    return _theme


class _Follower(QObject):
    """Runs ``apply`` when the icon theme changes or ``widget``'s palette does (its child: dies with it)."""

    def __init__(self, widget: QWidget, apply: Callable[[], None]) -> None:
        super().__init__(widget)
        self._apply = apply
        widget.installEventFilter(self)
        icon_theme().changed.connect(self._on_changed)

    def _on_changed(self) -> None:
        self._apply()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Redraw the icons after a palette change."""
        if event.type() == QEvent.Type.PaletteChange:
            self._apply()
        return False


def follow(widget: QWidget, apply: Callable[[], None]) -> None:
    """Run ``apply`` now, when the glyphs load, and after every palette change of ``widget``.

    ``apply`` sets the icons ``widget`` shows (reading ``widget.palette()``). It stops with ``widget``.
    """
    _Follower(widget, apply)
    apply()


class _FirstPaint(QObject):
    def __init__(self, widget: QWidget) -> None:
        super().__init__(widget)
        self._widget = widget
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint:
            self._widget.removeEventFilter(self)
            # after this paint pass has reached the screen: the next turn of the event loop
            QTimer.singleShot(0, icon_theme().load)
            self.deleteLater()
        return False


def load_after_first_paint(window: QWidget) -> None:
    """Load the glyphs once ``window`` has painted for the first time (at once if it is already loaded)."""
    if not icon_theme().loaded:
        _FirstPaint(window)
