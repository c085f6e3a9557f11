"""The wire log bounds its memory: past ``max_chars`` of payload the oldest records go, the newest stays."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction


def _sse(wire: WireRecorder, size: int) -> int:
    return wire.sse_event("c", "x" * size).seq


def test_a_stream_of_big_events_keeps_only_what_fits_and_counts_the_rest() -> None:
    wire = WireRecorder(max_chars=10_000)
    seqs = [_sse(wire, 3_000) for _ in range(100)]
    held = wire.records()
    assert [r.seq for r in held] == seqs[-3:]
    assert wire.held_chars == 9_000 and wire.dropped == 97
    assert wire.get(seqs[0]) is None and wire.get(seqs[-1]) is held[-1]


def test_one_record_bigger_than_the_budget_is_still_kept_as_the_newest() -> None:
    wire = WireRecorder(max_chars=1_000)
    _sse(wire, 10)
    big = _sse(wire, 5_000)
    assert [r.seq for r in wire.records()] == [big]


def test_a_request_whose_record_was_evicted_for_size_is_no_longer_paired() -> None:
    wire = WireRecorder(max_chars=500)
    wire.jsonrpc("c", Direction.OUT, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"x": "y" * 400}})
    _sse(wire, 400)
    response = wire.jsonrpc("c", Direction.IN, {"jsonrpc": "2.0", "id": 1, "result": {}})
    assert response.latency_ms is None and wire.find_response(response) is None


@settings(max_examples=200, deadline=None)
@given(
    capacity=st.integers(1, 8),
    max_chars=st.integers(1, 60),
    sizes=st.lists(st.integers(0, 25), min_size=1, max_size=40),
)
def test_records_stay_in_order_within_both_bounds_whatever_the_sizes(
    capacity: int, max_chars: int, sizes: list[int]
) -> None:
    wire = WireRecorder(capacity=capacity, max_chars=max_chars)
    seqs = [_sse(wire, size) for size in sizes]
    held = wire.records()
    assert [r.seq for r in held] == seqs[len(seqs) - len(held) :]  # the newest, in order
    assert 1 <= len(held) <= capacity and len(wire) == len(held)
    assert wire.held_chars == sum(len(r.payload) for r in held)
    assert len(held) == 1 or wire.held_chars <= max_chars
    assert wire.dropped == len(seqs) - len(held)
    assert all(wire.get(r.seq) is r for r in held)
