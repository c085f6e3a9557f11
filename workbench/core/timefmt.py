"""How the workbench writes a time of day: one formatter for panels, the CLI and snapshots.

(``clock`` in the workbench means a time source, ``Callable[[], float]`` such as ``time.time``,
injected for tests; this module only formats.)
"""

from __future__ import annotations

import time


def time_of_day(at: float, *, seconds: bool = True) -> str:
    """Epoch seconds as the local time of day.

    Args:
        at: Seconds since the epoch (``time.time()``).
        seconds: ``HH:MM:SS.mmm`` when true, ``HH:MM`` when false.

    Returns:
        The formatted time.
    """
    if not seconds:
        return time.strftime("%H:%M", time.localtime(at))
    return f"{time.strftime('%H:%M:%S', time.localtime(at))}.{int(at * 1000) % 1000:03d}"
