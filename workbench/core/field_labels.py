"""Field labels from property names: title case, acronyms in capitals, a trailing unit in brackets.

The window's forms label their fields with ``property_label``; the chat shows an answer's fields with
the same labels (``conversation.answer_text``), so a person reads the names they filled in.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_CAPITALS = (
    "a2a api cpu csv dns gpu html http https id ip iso json llm mcp pdf sku sql ssl tls ttl ui uri url utc uuid vat xml"
)
ACRONYMS = {word: word.upper() for word in _CAPITALS.split()} | {"ids": "IDs", "urls": "URLs"}
"""Words shown in capitals (``user_id`` → "User ID", ``file_urls`` → "File URLs")."""

UNITS = {
    "ms": "ms",
    "kb": "KB",
    "mb": "MB",
    "gb": "GB",
    "px": "px",
    "pct": "%",
    "eur": "EUR",
    "usd": "USD",
    "gbp": "GBP",
    "chf": "CHF",
    "jpy": "JPY",
}
"""A last word naming a unit or currency, shown in brackets (``budget_eur`` → "Budget (EUR)")."""

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def humanise(name: str) -> str:
    """A label for a property or argument name: ``budget_eur`` → "Budget (EUR)", ``userId`` → "User ID".

    Words are split at ``_``, ``-``, spaces and camelCase humps and title-cased (as tool schemas' own
    titles are); names that are not identifiers come back unchanged.
    """
    words = [w for w in re.split(r"[_\-\s]+", _CAMEL.sub(" ", name)) if w]
    if not words:
        return name
    shown = [ACRONYMS.get(w.lower(), w[:1].upper() + w[1:]) for w in words]
    unit = UNITS.get(words[-1].lower())
    if unit is not None and len(words) > 1:
        return " ".join(shown[:-1]) + f" ({unit})"
    return " ".join(shown)


def generated_title(name: str) -> str:
    """The title pydantic (FastMCP's schemas) makes up for a field: ``budget_eur`` → "Budget Eur"."""
    return name.title().replace("_", " ").strip()


def property_label(schema: Any, name: str) -> str:
    """The label of property ``name`` whose schema, as written in its parent's ``properties``, is ``schema``.

    The property's own ``title`` when the author wrote one; else the humanised name. A title found only
    behind a ``$ref`` names the definition's type ("TripDates"), not this use of it, so it is not used;
    nor is the title a generator derived from the name (it says the same with worse acronyms).
    """
    title = schema.get("title") if isinstance(schema, Mapping) else None
    if isinstance(title, str) and title.strip() and title != generated_title(name):
        return title
    return humanise(name)
