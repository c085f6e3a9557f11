"""The transcript's colours: written for a light background, each with its counterpart for the dark palette.

The transcript paints its own accents (who speaks, states, logs, the user's and the agent's boxes);
text without an accent takes the palette's. On a dark palette the light accents were unreadable
(the user's message in light text on a pale box), so every accent has a dark twin, picked by the
theme in force when an item is drawn (``theme.current_theme``).
"""

from __future__ import annotations

from PySide6.QtGui import QColor

from workbench.ui.theme import DARK, current_theme

DARK_TWINS = {
    "#1e3a8a": "#9db8ff",  # "You"
    "#eef2ff": "#1f2a44",  # the user's box
    "#fff7ed": "#35280f",  # a question's box
    "#b45309": "#f2a54a",  # a question, a warning log line
    "#d97706": "#f2a54a",  # input / auth required
    "#6b7280": "#a0a7b1",  # quiet notes, submitted / canceled
    "#374151": "#c9ced6",  # info log lines
    "#2563eb": "#8ab4f8",  # working, progress, links
    "#15803d": "#5fd38d",  # completed
    "#b91c1c": "#ff8a80",  # failed, errors
    "#7c3aed": "#c4a5ff",  # tool calls
    "#9ca3af": "#5f6368",  # an artifact's border
}
"""Light accent → the accent used on a dark palette (contrast at least 4.5:1 on the dark base)."""


def colour(light: str) -> QColor:
    """The accent ``light`` (as written for a light background) for the palette in force."""
    if current_theme() == DARK:
        return QColor(DARK_TWINS.get(light, light))
    return QColor(light)
