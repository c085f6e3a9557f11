"""The command line's sampling log line writes its duration as every panel does (``duration_text``)."""

from __future__ import annotations

import pytest

from workbench.cli.sampling_cli import describe_entry
from workbench.core.protocols.base import SamplingRequest, SamplingResponse
from workbench.core.sampling.responders import SamplingLogEntry, SamplingPolicy
from workbench.core.timefmt import duration_text


def _answered(seconds: float) -> SamplingLogEntry:
    request = SamplingRequest(messages=[], max_tokens=16)
    response = SamplingResponse(text="Paris", model="workbench-script")
    return SamplingLogEntry("script:rules.json", SamplingPolicy.AUTO, "answered", request, response, seconds=seconds)


@pytest.mark.parametrize("seconds", [13.34, 0.0042, 0.057, 125.0])
def test_the_cli_sampling_log_line_writes_its_duration_with_duration_text(seconds: float) -> None:
    line = describe_entry(_answered(seconds))
    assert line.endswith(f" in {duration_text(seconds)}")
