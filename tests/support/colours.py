"""Colour measures for tests of what the window draws, and the two palettes they are measured on."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from PySide6.QtGui import QColor, QImage, QPalette
from PySide6.QtWidgets import QApplication

from workbench.ui import theme

DARK = {
    "Window": "#202124",
    "WindowText": "#e8eaed",
    "Base": "#17181a",
    "AlternateBase": "#26282b",
    "Text": "#e8eaed",
    "Button": "#2b2d31",
    "ButtonText": "#e8eaed",
    "Highlight": "#2f6fd6",
    "HighlightedText": "#ffffff",
    "Mid": "#5f6368",
}
"""A desktop's dark palette: tools/screenshots.py's DARK_COLORS (what the dark screenshots show)."""


def contrast(a: QColor, b: QColor) -> float:
    """WCAG contrast ratio of two colours (1 to 21; 4.5 is the floor for body text)."""

    def luminance(c: QColor) -> float:
        def channel(v: int) -> float:
            x = v / 255
            return x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(c.red()) + 0.7152 * channel(c.green()) + 0.0722 * channel(c.blue())

    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def strongest(image: QImage, ground: QColor) -> tuple[QColor, float]:
    """The pixel of ``image`` that stands out most from ``ground``, and its contrast (1.0 for a blank image)."""
    best, ratio = ground, 1.0
    for x in range(image.width()):
        for y in range(image.height()):
            colour = image.pixelColor(x, y)
            if (r := contrast(colour, ground)) > ratio:
                best, ratio = colour, r
    return best, ratio


def dark_palette() -> QPalette:
    """`DARK` as a palette, with the disabled texts greyed as a desktop does."""
    palette = QPalette()
    for role, colour in DARK.items():
        palette.setColor(getattr(QPalette.ColorRole, role), QColor(colour))
    for role in ("Text", "WindowText", "ButtonText"):
        palette.setColor(QPalette.ColorGroup.Disabled, getattr(QPalette.ColorRole, role), QColor("#6b6f75"))
    return palette


@contextlib.contextmanager
def palette_of(name: str, qapp: QApplication) -> Iterator[QPalette]:
    """The application in the light (the style's own) or the dark palette, for the test's duration."""
    before = qapp.palette()
    palette = dark_palette() if name == "dark" else qapp.style().standardPalette()
    qapp.setPalette(palette)
    try:
        yield palette
    finally:
        qapp.setPalette(before)


@contextlib.contextmanager
def themed(name: str, qapp: QApplication) -> Iterator[QPalette]:
    """`palette_of` plus what ``theme.apply_theme`` gives the application: the theme's stylesheet and name."""
    with palette_of(name, qapp) as palette:
        qapp.setStyleSheet(theme.load_stylesheet(name))
        qapp.setProperty(theme.THEME_PROPERTY, name)
        try:
            yield palette
        finally:
            qapp.setStyleSheet("")
            qapp.setProperty(theme.THEME_PROPERTY, None)
