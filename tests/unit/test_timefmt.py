"""The one time-of-day formatter."""

from __future__ import annotations

import re

from workbench.core.timefmt import time_of_day


def test_time_of_day_shows_milliseconds_or_only_hours_and_minutes():
    assert re.fullmatch(r"\d\d:\d\d:\d\d\.500", time_of_day(1_700_000_000.5))
    assert re.fullmatch(r"\d\d:\d\d:\d\d\.007", time_of_day(1_700_000_000.007))
    assert re.fullmatch(r"\d\d:\d\d", time_of_day(1_700_000_000.5, seconds=False))
    assert time_of_day(1_700_000_000.5).startswith(time_of_day(1_700_000_000.5, seconds=False))
