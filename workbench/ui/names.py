"""The one name a user sees for a connection: its profile's name, never its id."""

from __future__ import annotations

from workbench.core.errors import WorkbenchError
from workbench.ui.services import Services

UNKNOWN = "an unlisted connection"
"""Shown for a connection id that no live connection or saved profile names (never the raw id)."""


def connection_name(services: Services, connection_id: str | None) -> str:
    """The name of ``connection_id``: its live connection's profile, else its saved profile.

    Ids are not names (a saved profile's id is 32 hex digits), so an id that nothing names shows as
    ``UNKNOWN`` — unless it is readable on its own (``demo-travel``, ``handoff-booking``): an id
    without a hex run longer than 12 digits is shown as it is.
    """
    if not connection_id:
        return ""
    conn = services.connections.get(connection_id)
    if conn is not None:
        return conn.profile.name
    try:
        return services.profiles.get(connection_id).name
    except WorkbenchError:
        pass
    return UNKNOWN if _looks_generated(connection_id) else connection_id


def _looks_generated(connection_id: str) -> bool:
    run = 0
    for ch in connection_id.lower():
        run = run + 1 if ch in "0123456789abcdef" else 0
        if run > 12:
            return True
    return False
