"""Colours that carry a meaning (error and warning words, help text, banners, check boxes), one value per theme.

Widgets never name a colour. A label says what its words are (``theme.set_tone(label, "error")``, the
``tone`` property), a banner says its kind (the ``banner`` property), and the theme's stylesheet colours
them: ``theme.load_stylesheet`` fills each ``@name@`` of ``resources/styles/*.qss`` from `SWATCHES`.
Code that paints, or writes rich text, asks ``theme.semantic_color(name, palette)``.

Each swatch names the grounds it is drawn on and the contrast it owes them (WCAG 2.1 AA: 4.5:1 for
text, 3:1 for a control's boundary or a graphic). tests/ui/test_semantic_colours.py measures every
pair on both palettes: light is Fusion's standard palette (window #efefef, base white), dark is a
desktop's dark palette as tools/screenshots.py sets it (window #202124, base #17181a).
"""

from __future__ import annotations

from dataclasses import dataclass

TEXT = 4.5
"""WCAG AA contrast for body text (1.4.3)."""
GRAPHIC = 3.0
"""WCAG AA contrast for a control's boundary or a graphic that carries meaning (1.4.11)."""


@dataclass(frozen=True)
class Swatch:
    """A colour with a meaning: its value on the light and on the dark theme, and what it must stand out from.

    Attributes:
        light: The colour on the light theme (``#rrggbb``).
        dark: The colour on the dark theme.
        grounds: What it is drawn on: palette roles (``"Window"``, ``"Base"``) or other swatches' names.
        minimum: The contrast it owes each ground: `TEXT` or `GRAPHIC` (unused without grounds).
    """

    light: str
    dark: str
    grounds: tuple[str, ...] = ()
    minimum: float = TEXT


_PAGE = ("Window", "Base", "AlternateBase")
"""Where words and controls sit: the window, an entry or list, a list's alternate rows."""

SWATCHES: dict[str, Swatch] = {
    # Words (the ``tone`` property; ``theme.set_tone``).
    "error-text": Swatch("#b00020", "#ff7b72", _PAGE, TEXT),
    "warning-text": Swatch("#7d4e00", "#d29922", _PAGE, TEXT),
    "muted-text": Swatch("#59636e", "#9198a1", _PAGE, TEXT),
    # Banners (the ``banner`` property: error, warning, info). The text, and the ✕ that dismisses a
    # banner, take the banner's text colour; the border only decorates (the fill sets the banner apart).
    "error-banner": Swatch("#ffebe9", "#3c1618"),
    "error-banner-border": Swatch("#ff8182", "#f85149"),
    "error-banner-text": Swatch("#82071e", "#ffdcd7", ("error-banner",), TEXT),
    "warning-banner": Swatch("#fff8c5", "#3a2d0a"),
    "warning-banner-border": Swatch("#d4a72c", "#d29922"),
    "warning-banner-text": Swatch("#4d2d00", "#f8e3a1", ("warning-banner",), TEXT),
    "info-banner": Swatch("#ddf4ff", "#0c2d48"),
    "info-banner-border": Swatch("#54aeff", "#388bfd"),
    "info-banner-text": Swatch("#0a3069", "#cae8ff", ("info-banner",), TEXT),
    # Controls: the frame of a check box (and of the status bar's toggles), and a ticked box's fill.
    "control-border": Swatch("#6e7781", "#8b949e", _PAGE, GRAPHIC),
    "control-accent": Swatch("#0969da", "#1f6feb", _PAGE, GRAPHIC),
    "control-disabled": Swatch("#8c959f", "#5f6368"),
    # The mark of a ticked or "not set" box: resources/icons/check-mark.svg and partial-mark.svg draw it
    # in this colour (an image cannot take a colour from the stylesheet).
    "check-mark": Swatch("#ffffff", "#ffffff", ("control-accent",), GRAPHIC),
}
"""Every semantic colour by name; the qss files use them as ``@name@``."""

TONES = ("error", "warning", "muted")
"""Values of the ``tone`` property; each is coloured by the swatch ``<tone>-text``."""
