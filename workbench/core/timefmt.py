"""How the workbench writes times: a time of day and a duration, one formatter each for panels, the CLI and snapshots.

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


def duration_text(seconds: float) -> str:
    """A duration the way every panel writes it: ``2.4 ms``, ``57 ms``, ``1.3 s``, ``2 min 05 s``, ``1 h 02 min``.

    One unit per range, so two durations side by side read alike (never "57 ms" beside "0.06 s"):
    milliseconds below a second (one decimal below 10 ms), seconds with one decimal below a minute,
    then minutes and seconds, then hours and minutes. Rounding never shows "1000 ms" or "60.0 s".

    Args:
        seconds: The duration in seconds (negative counts as 0).

    Returns:
        The formatted duration.
    """
    ms = max(seconds, 0.0) * 1000
    if round(ms, 1) < 10:
        return f"{ms:.1f} ms"
    if round(ms) < 1000:
        return f"{ms:.0f} ms"
    if round(ms / 1000, 1) < 60:
        return f"{ms / 1000:.1f} s"
    total = round(ms / 1000)
    if total < 3600:
        return f"{total // 60} min {total % 60:02d} s"
    minutes = round(ms / 60_000)
    return f"{minutes // 60} h {minutes % 60:02d} min"
