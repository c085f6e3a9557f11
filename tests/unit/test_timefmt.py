"""The one time-of-day formatter."""

from __future__ import annotations

import re

from workbench.core.timefmt import time_of_day


def test_time_of_day_shows_milliseconds_or_only_hours_and_minutes():
    assert re.fullmatch(r"\d\d:\d\d:\d\d\.500", time_of_day(1_700_000_000.5))
    assert re.fullmatch(r"\d\d:\d\d:\d\d\.007", time_of_day(1_700_000_000.007))
    assert re.fullmatch(r"\d\d:\d\d", time_of_day(1_700_000_000.5, seconds=False))
    assert time_of_day(1_700_000_000.5).startswith(time_of_day(1_700_000_000.5, seconds=False))


def test_durations_use_one_unit_per_range_and_never_round_into_the_next_unit():
    from workbench.core.timefmt import duration_text

    assert [duration_text(s) for s in (0.0003, 0.057, 0.9994, 0.9996, 1.26, 59.94, 59.96, 125, 3725)] == [
        "0.3 ms",
        "57 ms",
        "999 ms",
        "1.0 s",
        "1.3 s",
        "59.9 s",
        "1 min 00 s",
        "2 min 05 s",
        "1 h 02 min",
    ]
    assert duration_text(-1) == "0.0 ms"
