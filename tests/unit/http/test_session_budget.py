"""Refusals tied to their request: the legacy SSE session budget, request ids of refused bodies, ``refusal_for``."""

from __future__ import annotations

import json

from workbench.core.errors import ProtocolError
from workbench.core.http.limits import BodyMeter, HTTPLimits, LimitGuard, request_id_of
from workbench.core.http.session_budget import SessionBudget

URL = "http://peer.test/sse"
KIB = 1024


def test_the_request_that_waited_longest_is_refused_once_the_stream_carried_more_than_the_limit() -> None:
    budget = SessionBudget(10 * KIB)
    assert budget.count(50 * KIB, URL) is None  # nobody waits: the stream may carry as much as it likes
    budget.sent(1, "tools/call")
    assert budget.count(6 * KIB, URL) is None
    budget.sent(2, "tools/list")
    assert budget.count(4 * KIB, URL) is None  # 1 has seen 10 KiB: at the limit, not over it
    refusal = budget.count(1, URL)
    assert refusal is not None and refusal.details["request_id"] == "1"
    assert refusal.details["limit"] == "max_stream_bytes" and refusal.details["received_bytes"] == 10 * KIB + 1
    assert "tools/call" in refusal.message and refusal.hint and "--max-stream-bytes" in refusal.hint
    assert budget.waiting == 1 and budget.count(5 * KIB, URL) is None  # 2 has seen 4 KiB + 1 + 5 KiB
    refused_2 = budget.count(1 * KIB, URL)
    assert refused_2 is not None and refused_2.details["request_id"] == "2"


def test_an_answered_or_cancelled_request_no_longer_counts() -> None:
    budget = SessionBudget(10 * KIB)
    budget.sent(1, "tools/call")
    budget.sent("b", "ping")
    budget.count(8 * KIB, URL)
    budget.answered("1")  # ids compare as the SDK matches them: 1 and "1" are one request
    budget.settled({"b"})
    assert budget.waiting == 0 and budget.count(100 * KIB, URL) is None


def test_without_a_limit_the_budget_only_counts() -> None:
    budget = SessionBudget(None)
    budget.sent(1, "tools/call")
    assert budget.count(10**9, URL) is None and budget.received == 10**9


def test_the_session_streams_meter_refuses_for_the_budget_and_a_requests_own_stream_does_not_use_it() -> None:
    budget = SessionBudget(2 * KIB)
    session = BodyMeter(
        HTTPLimits(), URL, content_type="text/event-stream", content_length=None, listening=True, budget=budget
    )
    budget.sent(7, "tools/call")
    event = b"event: message\ndata: " + b"x" * 1000 + b"\n\n"
    assert session.count(event) is None and session.count(event) is None
    refusal = session.count(event)
    assert refusal is not None and refusal.details["request_id"] == "7"
    own = BodyMeter(HTTPLimits(), URL, content_type="text/event-stream", content_length=None, budget=budget)
    budget.sent(8, "tools/call")
    assert all(own.count(event) is None for _ in range(10))  # not listening: its own max_stream_bytes applies


def test_a_refused_body_names_the_request_it_answered() -> None:
    body = json.dumps({"jsonrpc": "2.0", "id": 42, "method": "tools/call", "params": {"name": "x"}}).encode()
    meter = BodyMeter(
        HTTPLimits(max_message_bytes=10), URL, content_type="application/json", content_length="99", request_body=body
    )
    refusal = meter.refusal_from_headers()
    assert refusal is not None and refusal.details["request_id"] == "42"
    assert request_id_of(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}') is None
    assert request_id_of(b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]') is None  # a batch: not one request
    assert request_id_of(b"not json") is None and request_id_of(None) is None


def refusal(request_id: str | None) -> ProtocolError:
    details = {"limit": "max_message_bytes"} | ({"request_id": request_id} if request_id is not None else {})
    return ProtocolError("refused", details=details)


def test_refusal_for_finds_the_callers_own_refusal_and_never_another_requests() -> None:
    guard = LimitGuard()
    before = guard.refusal_count
    mine, theirs = refusal("3"), refusal("4")
    guard.refused(mine)
    guard.refused(theirs)
    assert guard.refusal_for({"3"}, before) is mine
    assert guard.refusal_for({"5"}, before) is None  # both name other requests
    assert guard.refusal_for({"3"}, guard.refusal_count) is None  # refused before this caller started
    unknown = refusal(None)  # an event refused on a shared stream before its id could be read
    guard.refused(unknown)
    assert guard.refusal_for({"5"}, before) is unknown and guard.refusal_for({"4"}, before) is theirs
