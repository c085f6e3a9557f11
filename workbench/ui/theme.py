"""The window's look: follow the system light/dark scheme with a small stylesheet, and the app icon."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QFontDatabase, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import QApplication, QWidget

from workbench.ui.resources_path import resources_dir
from workbench.ui.semantic_colours import SWATCHES, TONES

LIGHT, DARK = "light", "dark"
ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
FIXED_FONT_PLACEHOLDER = "@fixed-font@"
ICONS_PLACEHOLDER = "@icons@"
"""Replaced in the qss by the icons directory (a ``url()`` needs a real path)."""
TONE_PROPERTY = "tone"
"""Dynamic property saying what a label's words are ("error", "warning", "muted"); the qss colours it."""
THEME_PROPERTY = "workbenchTheme"
"""QApplication dynamic property holding the theme applied last ("light" or "dark")."""
_FOLLOWING_PROPERTY = "workbenchThemeFollowsScheme"

STATE_COLORS: dict[str, dict[str, str]] = {
    LIGHT: {
        "connected": "#177a33",
        "connecting": "#875e00",
        "failed": "#cf222e",
        "disconnected": "#5e6670",
        "closed": "#5e6670",
    },
    DARK: {
        "connected": "#3fb950",
        "connecting": "#d29922",
        "failed": "#f85149",
        "disconnected": "#8b949e",
        "closed": "#8b949e",
    },
}
"""Connection-state text colours per theme; the same values as the ``connectionState`` rules in the qss files.

Each is text (>= 4.5:1, WCAG AA) on its theme's window and base colours (light: white and Fusion's
#efefef; dark: tools/screenshots.py's #202124 and #17181a); tests/ui/test_look.py measures them.
"""


def theme_for(scheme: Qt.ColorScheme, palette: QPalette | None = None) -> str:
    """Map a Qt colour scheme to "light" or "dark".

    Args:
        scheme: What the platform reports (``QStyleHints.colorScheme()``).
        palette: Consulted when the scheme is ``Unknown`` (platforms without a scheme hint): a dark
            window background means dark.

    Returns:
        ``"dark"`` or ``"light"``.
    """
    if scheme == Qt.ColorScheme.Dark:
        return DARK
    if scheme == Qt.ColorScheme.Light:
        return LIGHT
    if palette is not None and palette.color(QPalette.ColorRole.Window).lightness() < 128:
        return DARK
    return LIGHT


def stylesheet_path(theme: str) -> Path:
    """Return the qss file of ``theme`` ("light" or "dark") in the resources directory.

    Raises:
        ValueError: ``theme`` is neither "light" nor "dark".
        ResourcesNotFoundError: The resources directory is missing.
    """
    if theme not in (LIGHT, DARK):
        raise ValueError(f"unknown theme {theme!r}; expected 'light' or 'dark'")
    return resources_dir() / "styles" / f"{theme}.qss"


def load_stylesheet(theme: str) -> str:
    """Return the stylesheet of ``theme``, with the system's fixed-width font family and the icons' place filled in.

    Each ``@name@`` of a semantic colour (``semantic_colours.SWATCHES``) becomes its value for ``theme``.
    """
    path = stylesheet_path(theme)
    text = path.read_text(encoding="utf-8")
    fixed = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont).family()
    icons = (path.parent.parent / "icons").as_posix().replace('"', "")
    for name, swatch in SWATCHES.items():
        text = text.replace(f"@{name}@", swatch.dark if theme == DARK else swatch.light)
    return text.replace(FIXED_FONT_PLACEHOLDER, fixed.replace('"', "")).replace(ICONS_PLACEHOLDER, icons)


def apply_theme(app: QApplication) -> str:
    """Style ``app`` for the system's current scheme and keep following it.

    Loads ``light.qss`` or ``dark.qss``; the palette itself stays the system's. The first call connects
    ``QStyleHints.colorSchemeChanged`` so a later switch of the system scheme re-applies the matching
    stylesheet; calling again only re-applies.

    Returns:
        The theme applied: ``"light"`` or ``"dark"``.
    """
    hints = app.styleHints()
    theme = _apply(app, hints.colorScheme())
    if not app.property(_FOLLOWING_PROPERTY):
        hints.colorSchemeChanged.connect(lambda scheme: _apply(app, scheme))
        app.setProperty(_FOLLOWING_PROPERTY, True)
    return theme


def _apply(app: QApplication, scheme: Qt.ColorScheme) -> str:
    theme = theme_for(scheme, app.palette())
    app.setStyleSheet(load_stylesheet(theme))
    app.setProperty(THEME_PROPERTY, theme)
    return theme


def current_theme() -> str:
    """The theme `apply_theme` applied last ("light" before any), for code that paints or colours items."""
    app = QGuiApplication.instance()
    theme = app.property(THEME_PROPERTY) if app is not None else None
    return theme if theme in (LIGHT, DARK) else LIGHT


def state_color(state: str, theme: str | None = None) -> QColor:
    """Text colour for a connection state in item views (``Qt.ForegroundRole``), where qss cannot reach.

    Args:
        state: A ``ConnectionState`` value ("connected", "failed", ...).
        theme: "light" or "dark"; default: `current_theme`.

    Returns:
        The colour; an invalid ``QColor`` for an unknown state (the view then uses the palette's).
    """
    colors = STATE_COLORS[theme or current_theme()]
    return QColor(colors[state]) if state in colors else QColor()


def semantic_color(name: str, palette: QPalette | None = None) -> QColor:
    """A semantic colour (``semantic_colours.SWATCHES``: "error-text", "control-border" ...) for painting.

    Widgets that the stylesheet reaches take these colours from it (`set_tone`, the ``banner``
    property); this is for item models, painted items and rich text.

    Args:
        name: The swatch's name.
        palette: What the colour is drawn on: its theme is read from it (a dark window is dark);
            default: the theme applied last (`current_theme`).

    Raises:
        KeyError: No swatch has that name (a programming error).
    """
    swatch = SWATCHES[name]
    theme = theme_for(Qt.ColorScheme.Unknown, palette) if palette is not None else current_theme()
    return QColor(swatch.dark if theme == DARK else swatch.light)


def set_tone(widget: QWidget, tone: str | None) -> None:
    """Say what ``widget``'s words are, for the stylesheet to colour them: "error", "warning", "muted"; None: plain.

    Raises:
        ValueError: ``tone`` is none of ``semantic_colours.TONES``.
    """
    if tone is not None and tone not in TONES:
        raise ValueError(f"unknown tone {tone!r}; expected one of {TONES}")
    set_style_property(widget, TONE_PROPERTY, tone)


def set_style_property(widget: QWidget, name: str, value: Any) -> None:
    """Set a dynamic property the stylesheet matches on (e.g. ``connectionState``) and restyle at once.

    Qt evaluates property selectors when a widget is polished, so a changed value needs a re-polish.
    """
    if widget.property(name) == value:
        return
    widget.setProperty(name, value)
    style = widget.style()
    style.unpolish(widget)
    style.polish(widget)
    widget.update()


def app_icon() -> QIcon:
    """The application icon with every PNG size (16 to 512 px) of ``resources/icons``.

    Raises:
        ResourcesNotFoundError: The resources directory is missing.
        FileNotFoundError: One of the PNG sizes is missing (run ``resources/make_icons.py``).
    """
    icons = resources_dir() / "icons"
    icon = QIcon()
    for size in ICON_SIZES:
        png = icons / f"workbench-{size}.png"
        if not png.is_file():
            raise FileNotFoundError(f"app icon {png} is missing; run resources/make_icons.py")
        icon.addFile(str(png), QSize(size, size))
    return icon
