"""The demo travel agent reads the destination out of the request the way a person would."""

from __future__ import annotations

import pytest

from workbench.demo.a2a_agents.travel import destination_of


@pytest.mark.parametrize(
    ("request_text", "place"),
    [
        ("Plan a trip to Lisbon", "Lisbon"),
        ("Plan a weekend in Lisbon for two", "Lisbon"),
        ("Plan a trip to New York City.", "New York City"),
        ("Plan a trip to São Paulo", "São Paulo"),
        ("trip to rome", "rome"),
        ("surprise me", "surprise me"),
    ],
)
def test_the_destination_is_the_place_named_not_the_whole_request(request_text: str, place: str) -> None:
    assert destination_of(request_text) == place
