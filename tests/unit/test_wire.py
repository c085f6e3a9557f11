"""WireRecorder: records, redaction before storage, correlation, ring buffer, subscribers, export."""

from __future__ import annotations

import io
import json
import logging
from pathlib import Path
from typing import Any

import pytest

from workbench.core.errors import UsageError
from workbench.core.timefmt import duration_text
from workbench.core.wire.parse import LARGE_TEXT
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind, WireRecord
from workbench.core.wire.redaction import Redactor
from workbench.core.wire.store import make_record

OUT, IN = Direction.OUT, Direction.IN
SECRET = "sk-live-7f3a9c2e1d"


def request(rid: int | str, method: str = "tools/call", **params: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "method": method, "params": params}


def result(rid: int | str, value: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": rid, "result": value if value is not None else {}}


# ---- JSON-RPC records ----------------------------------------------------------------------------


def test_a_dict_message_is_stored_as_compact_json_with_method_id_and_utf8_size() -> None:
    wire = WireRecorder()
    rec = wire.jsonrpc("c1", OUT, request(3, name="echo", arguments={"text": "héllo"}))
    assert (
        rec.payload
        == '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"echo","arguments":{"text":"héllo"}}}'
    )
    assert (rec.seq, rec.kind, rec.direction, rec.method, rec.rpc_id) == (1, WireKind.JSONRPC, OUT, "tools/call", "3")
    assert rec.size == len(rec.payload.encode("utf-8")) == len(rec.payload) + 1
    assert rec.protocol == "mcp"
    assert rec.summary == "→ tools/call #3 echo"
    assert rec.latency_ms is None
    assert rec.wall_time > 1e9
    assert rec.mono_time > 0


def test_text_messages_keep_their_exact_text() -> None:
    text = '{ "jsonrpc": "2.0", "method": "notifications/progress", "params": {"progress": 1} }'
    rec = WireRecorder().jsonrpc("c1", IN, text, protocol="a2a")
    assert rec.payload == text
    assert (rec.method, rec.rpc_id, rec.protocol) == ("notifications/progress", None, "a2a")
    assert rec.summary == "← notifications/progress"


def test_a_response_gets_the_latency_since_its_request_and_the_two_are_linked() -> None:
    wire = WireRecorder()
    req = wire.jsonrpc("c1", OUT, request(7, "tools/list"))
    resp = wire.jsonrpc("c1", IN, '{"jsonrpc":"2.0","id":7,"result":{"tools":[]}}')
    assert resp.rpc_id == "7"
    assert resp.latency_ms == pytest.approx((resp.mono_time - req.mono_time) * 1000.0)
    assert resp.summary == f"← result #7 ({duration_text(resp.latency_ms / 1000)})"
    assert wire.find_response(req) is resp
    assert wire.find_response(resp) is req


def test_an_answers_summary_writes_its_latency_as_every_panel_writes_a_duration(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    now = [100.0]
    monkeypatch.setattr("workbench.core.wire.recorder._mono", lambda: now[0])  # the recorder's clock, stepped
    wire = WireRecorder()
    wire.jsonrpc("c1", OUT, request(1, "tools/list"))
    now[0] += 2.8548
    assert wire.jsonrpc("c1", IN, result(1)).summary == "← result #1 (2.9 s)"
    post = wire.http_request("c1", "POST", "http://127.0.0.1:8000/mcp", {})
    now[0] += 0.1245
    assert wire.http_response("c1", post, 200, {}).summary == "POST /mcp 200 (124 ms)"


def test_server_to_client_requests_are_correlated_with_the_answer_the_workbench_sends() -> None:
    wire = WireRecorder()
    client_req = wire.jsonrpc("c1", OUT, request(1, "tools/call", name="book"))
    server_req = wire.jsonrpc("c1", IN, request(1, "elicitation/create", message="Which date?"))
    answer = wire.jsonrpc("c1", OUT, result(1, {"action": "accept"}))
    final = wire.jsonrpc("c1", IN, result(1, {"content": []}))
    assert wire.find_response(server_req) is answer
    assert wire.find_response(client_req) is final
    assert answer.latency_ms is not None
    assert final.latency_ms is not None


def test_error_responses_count_as_responses_and_show_their_code() -> None:
    wire = WireRecorder()
    req = wire.jsonrpc("c1", OUT, request("a-1", "nope"))
    err = wire.jsonrpc("c1", IN, {"jsonrpc": "2.0", "id": "a-1", "error": {"code": -32601, "message": "no"}})
    assert wire.find_response(req) is err
    assert err.latency_ms is not None
    assert err.summary.startswith("← error -32601 #a-1 (")


def test_the_same_id_on_another_connection_is_not_a_response() -> None:
    wire = WireRecorder()
    wire.jsonrpc("c1", OUT, request(1))
    other = wire.jsonrpc("c2", IN, result(1))
    assert other.latency_ms is None
    assert wire.find_response(other) is None


def test_a_response_is_matched_only_once_and_notifications_are_never_matched() -> None:
    wire = WireRecorder()
    note = wire.jsonrpc("c1", OUT, {"jsonrpc": "2.0", "method": "notifications/initialized"})
    wire.jsonrpc("c1", OUT, request(5))
    first = wire.jsonrpc("c1", IN, result(5))
    again = wire.jsonrpc("c1", IN, result(5))
    assert first.latency_ms is not None
    assert again.latency_ms is None
    assert note.rpc_id is None
    assert wire.find_response(note) is None


def test_text_that_is_not_json_is_recorded_without_raising() -> None:
    wire = WireRecorder()
    rec = wire.jsonrpc("c1", IN, '{"jsonrpc": "2.0", "id": 1, "result": ')
    assert rec.kind is WireKind.JSONRPC
    assert (rec.method, rec.rpc_id) == (None, None)
    assert rec.payload == '{"jsonrpc": "2.0", "id": 1, "result": '
    assert rec.summary == "← invalid JSON (38 B)"
    assert wire.jsonrpc("c1", IN, "[" * 100_000).summary.startswith("← invalid JSON")
    assert wire.jsonrpc("c1", IN, "42").summary == "← JSON, not JSON-RPC (2 B)"


def test_bytes_and_odd_inputs_are_recorded_without_raising() -> None:
    wire = WireRecorder()
    as_bytes = wire.jsonrpc("c1", IN, b'{"jsonrpc":"2.0","id":2,"result":{}}')
    assert (as_bytes.rpc_id, as_bytes.payload) == ("2", '{"jsonrpc":"2.0","id":2,"result":{}}')
    odd = wire.jsonrpc("c1", IN, 12345)  # type: ignore[arg-type]
    assert (odd.payload, odd.method) == ("12345", None)
    parse_error = wire.jsonrpc("c1", IN, {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "x"}})
    assert parse_error.summary == "← error -32700"


def test_values_json_cannot_encode_are_stringified_instead_of_raising() -> None:
    rec = WireRecorder().jsonrpc("c1", OUT, request(1, blob=b"\x00\x01"))
    assert json.loads(rec.payload)["params"]["blob"] == "b'\\x00\\x01'"


def test_a_message_that_cannot_be_serialized_at_all_is_still_recorded() -> None:
    cyclic: dict[str, Any] = {"jsonrpc": "2.0", "method": "x"}
    cyclic["params"] = cyclic
    rec = WireRecorder().jsonrpc("c1", OUT, cyclic)
    assert rec.method == "x"
    assert rec.payload.startswith("{'jsonrpc': '2.0'")


def test_the_fast_record_constructor_builds_records_equal_to_the_dataclass() -> None:
    args = (5, "c1", IN, WireKind.JSONRPC, 1.5, 2.5, "m", "7", 3.25, 10, "{}", {"a": 1}, "mcp", "s")
    fast = make_record(*args)
    assert fast == WireRecord(*args)
    assert repr(fast) == repr(WireRecord(*args))
    with pytest.raises(AttributeError):
        fast.seq = 6  # type: ignore[misc]


def test_a_batch_is_one_record_and_its_responses_are_correlated() -> None:
    wire = WireRecorder()
    batch = wire.jsonrpc("c1", OUT, [request(1, "ping"), request(2, "ping"), {"jsonrpc": "2.0", "method": "n"}])
    answers = wire.jsonrpc("c1", IN, json.dumps([result(2), result(1)]))
    assert len(wire) == 2
    assert (batch.method, batch.rpc_id, batch.summary) == (None, None, "→ batch of 3")
    assert answers.latency_ms is not None
    assert wire.find_response(answers) is batch


@pytest.mark.parametrize(
    ("template", "method", "rpc_id"),
    [
        ('{"jsonrpc":"2.0","id":12,"result":{"text":"%s"}}', None, "12"),
        ('{"result":{"text":"%s"},"jsonrpc":"2.0","id":"r-9"}', None, "r-9"),
        ('{"jsonrpc":"2.0","method":"tools/call","id":4,"params":{"text":"%s"}}', "tools/call", "4"),
        ('{"params":{"text":"%s"},"method":"notifications/message","jsonrpc":"2.0"}', "notifications/message", None),
        ('{"id":5,"result":{"a":"%s"}, "other": 1}', None, "5"),
        ('{"id":01,"result":{"a":"%s"}}', None, None),  # not JSON: looked at whole, recorded as invalid
    ],
)
def test_large_messages_are_stored_whole_and_their_method_and_id_still_found(
    template: str, method: str | None, rpc_id: str | None
) -> None:
    text = template % ("x" * (LARGE_TEXT * 4))
    rec = WireRecorder().jsonrpc("c1", IN, text)
    assert rec.payload == text
    assert rec.size == len(text)
    assert (rec.method, rec.rpc_id) == (method, rpc_id)


def test_a_large_response_is_correlated_with_its_request() -> None:
    wire = WireRecorder()
    req = wire.jsonrpc("c1", OUT, request(99, "resources/read", uri="file:///big"))
    resp = wire.jsonrpc("c1", IN, json.dumps(result(99, {"contents": [{"text": "é" * 1_000_000}]})))
    assert wire.find_response(req) is resp
    assert resp.size == len(resp.payload.encode("utf-8"))


# ---- HTTP, SSE, stdio and local records --------------------------------------------------------


def test_http_request_and_response_records_hold_the_http_layer() -> None:
    wire = WireRecorder()
    req = wire.http_request(
        "c1",
        "post",
        "http://127.0.0.1:8000/mcp",
        [("Content-Type", "application/json"), ("Mcp-Session-Id", "sess-1")],
        b'{"jsonrpc":"2.0","id":1,"method":"ping"}',
        protocol="mcp",
    )
    resp = wire.http_response("c1", req, 202, {"Mcp-Session-Id": "sess-1", "Content-Length": "0"})
    assert (req.kind, req.direction, req.method, req.summary) == (WireKind.HTTP_REQUEST, OUT, "POST", "POST /mcp")
    assert req.payload == '{"jsonrpc":"2.0","id":1,"method":"ping"}'
    assert req.size == len(req.payload)
    assert req.http is not None
    assert req.http["session_id"] == "sess-1"
    assert resp.http == {
        "url": "http://127.0.0.1:8000/mcp",
        "method": "POST",
        "status": 202,
        "headers": {"Mcp-Session-Id": "sess-1", "Content-Length": "0"},
        "session_id": "sess-1",
        "request_seq": req.seq,
    }
    assert resp.latency_ms == pytest.approx((resp.mono_time - req.mono_time) * 1000.0)
    assert resp.summary == f"POST /mcp 202 ({duration_text(resp.latency_ms / 1000)})"
    assert resp.protocol == "mcp"
    assert wire.find_response(req) is resp
    assert wire.find_response(resp) is req


def test_sse_events_and_comments_are_recorded_against_their_request() -> None:
    wire = WireRecorder()
    req = wire.http_request("c1", "GET", "http://127.0.0.1:8000/mcp", {}, protocol="mcp")
    event = wire.sse_event("c1", '{"jsonrpc":"2.0","method":"x"}', event_id="e-1", request=req)
    ping = wire.sse_event("c1", "ping - 2026-01-01", comment=True, request=req)
    bare = wire.sse_event("c1", "hello", event="status")
    assert (event.kind, event.direction, event.method, event.protocol) == (WireKind.SSE_EVENT, IN, "message", "mcp")
    assert event.http == {"request_seq": req.seq, "event_id": "e-1", "comment": False}
    assert event.latency_ms is not None
    assert event.summary == '← sse message id=e-1: {"jsonrpc":"2.0","method":"x"}'
    assert (ping.method, ping.summary) == (None, "← sse comment: ping - 2026-01-01")
    assert (bare.method, bare.http, bare.latency_ms) == ("status", None, None)


def test_stderr_raw_and_local_records() -> None:
    wire = WireRecorder()
    err = wire.stderr_line("c1", "INFO starting server\n")
    raw = wire.raw("c1", IN, "Hello from print()", note="not JSON-RPC")
    proc = wire.local("c1", WireKind.PROCESS, "process 4242 exited with 1", "traceback ...")
    assert (err.kind, err.direction, err.payload, err.summary) == (
        WireKind.STDERR,
        Direction.LOCAL,
        "INFO starting server",
        "stderr: INFO starting server",
    )
    assert (raw.kind, raw.direction, raw.summary) == (WireKind.RAW, IN, "← raw (not JSON-RPC): Hello from print()")
    assert (proc.kind, proc.summary, proc.payload) == (WireKind.PROCESS, "process 4242 exited with 1", "traceback ...")


def test_long_lines_are_cut_in_the_summary_but_kept_whole_in_the_payload() -> None:
    line = "E" * 5000
    rec = WireRecorder().stderr_line("c1", line)
    assert rec.payload == line
    assert len(rec.summary) < 300
    assert rec.summary.endswith("…")


# ---- redaction before a record exists -----------------------------------------------------------


def _record_everything(wire: WireRecorder) -> list[WireRecord]:
    """Feed the secret through every entry point, in every place a secret can travel."""
    token = "oauth-at-55aa66bb77"  # never registered: masked by the header rule, then learned from it
    req = wire.http_request(
        "c1",
        "POST",
        f"https://api.example/mcp/{SECRET}?api_key=ak-1234567890&access_token={token}&token=t-0987654321&q=1",
        {
            "Authorization": f"Bearer {token}",
            "Proxy-Authorization": "Basic cHJveHk6cGFzcw==",
            "Cookie": "sid=cookie-value-123",
            "X-API-Key": "xak-1234567890",
            "X-Trace": f"trace-{SECRET}",
        },
        json.dumps(request(2, "ping", echo=SECRET)).encode(),
    )
    wire.http_response(
        "c1",
        req,
        200,
        [("Set-Cookie", "sid=cookie-value-456; HttpOnly"), ("Content-Type", "text/event-stream")],
        f"body with {token}",
    )
    wire.jsonrpc("c1", OUT, request(1, "tools/call", name="login", arguments={"key": SECRET}))
    wire.jsonrpc("c1", IN, json.dumps(result(1, {"content": [{"type": "text", "text": f"{SECRET} / {token}"}]})))
    wire.jsonrpc("c1", IN, f'{{"jsonrpc":"2.0","id":"{SECRET}","method":"{SECRET}"}}')
    wire.sse_event("c1", f"data with {SECRET}", event="message", event_id=SECRET, request=req)
    wire.stderr_line("c1", f"DEBUG using key {SECRET}")
    wire.raw("c1", IN, f"garbage {SECRET}", note="junk")
    wire.local("c1", WireKind.ERROR, f"failed with {SECRET}", f"details {SECRET}")
    return wire.records()


FORBIDDEN = [SECRET, "oauth-at-55aa66bb77", "ak-1234567890", "t-0987654321", "cHJveHk6cGFzcw==", "cookie-value-123"]
FORBIDDEN += ["xak-1234567890", "cookie-value-456"]


def test_secrets_never_appear_in_repr_to_dict_jsonl_or_har() -> None:
    wire = WireRecorder(redactor=Redactor(secret_values=[SECRET]))
    records = _record_everything(wire)
    assert len(records) == 9
    jsonl, har = io.StringIO(), io.StringIO()
    wire.export_jsonl(jsonl)
    wire.export_har(har)
    outputs = {
        "repr": repr(records),
        "to_dict": json.dumps([r.to_dict() for r in records], ensure_ascii=False),
        "jsonl": jsonl.getvalue(),
        "har": har.getvalue(),
    }
    for where, text in outputs.items():
        for secret in FORBIDDEN:
            assert secret not in text, (where, secret)
        assert "***" in text
    req = next(r for r in records if r.kind is WireKind.HTTP_REQUEST)
    assert req.http is not None
    assert req.http["headers"]["Authorization"] == "Bearer ***"
    assert req.http["headers"]["Proxy-Authorization"] == "Basic ***"
    assert req.http["headers"]["X-Trace"] == "trace-***"
    assert req.http["url"] == "https://api.example/mcp/***?api_key=***&access_token=***&token=***&q=1"


def test_a_secret_registered_on_the_recorders_redactor_applies_to_later_records() -> None:
    wire = WireRecorder()
    before = wire.jsonrpc("c1", OUT, request(1, value=SECRET))
    wire.redactor.add_secret(SECRET)
    after = wire.jsonrpc("c1", OUT, request(2, value=SECRET))
    assert SECRET in before.payload
    assert SECRET not in after.payload


# ---- ring buffer, lookups, subscribers -----------------------------------------------------------


def test_the_ring_buffer_evicts_the_oldest_records_and_counts_them() -> None:
    wire = WireRecorder(capacity=3)
    recs = [wire.stderr_line("c1" if i % 2 else "c2", f"line {i}") for i in range(1, 8)]
    assert len(wire) == 3
    assert wire.capacity == 3
    assert wire.dropped == 4
    assert [r.seq for r in wire] == [5, 6, 7]
    assert wire.records() == recs[4:]
    assert wire.records("c1") == [recs[4], recs[6]]
    assert (wire.first_seq, wire.last_seq) == (5, 7)
    assert wire.get(4) is None
    assert wire.get(1) is None
    assert wire.get(8) is None
    assert wire.get(6) is recs[5]


def test_an_evicted_request_no_longer_links_to_its_response() -> None:
    wire = WireRecorder(capacity=2)
    req = wire.jsonrpc("c1", OUT, request(1))
    resp = wire.jsonrpc("c1", IN, result(1))
    assert wire.find_response(resp) is req
    wire.stderr_line("c1", "pushes the request out")
    assert wire.find_response(resp) is None
    assert wire.find_response(req) is None


def test_an_open_request_evicted_before_its_answer_leaves_no_stale_state() -> None:
    wire = WireRecorder(capacity=2)
    wire.jsonrpc("c1", OUT, request(1))
    wire.stderr_line("c1", "a")
    wire.stderr_line("c1", "b")
    late = wire.jsonrpc("c1", IN, result(1))
    assert late.latency_ms is None
    assert wire.find_response(late) is None


def test_clear_empties_the_buffer_and_sequence_numbers_continue() -> None:
    wire = WireRecorder(capacity=2)
    for i in range(3):
        wire.stderr_line("c1", str(i))
    wire.clear()
    assert (len(wire), wire.dropped, list(wire)) == (0, 0, [])
    assert wire.get(3) is None
    nxt = wire.stderr_line("c1", "after")
    assert nxt.seq == 4
    assert wire.get(4) is nxt
    assert wire.records() == [nxt]


def test_a_capacity_below_one_is_a_usage_error() -> None:
    with pytest.raises(UsageError) as info:
        WireRecorder(capacity=0)
    assert info.value.code == "usage"


def test_subscribers_get_every_new_record_until_they_unsubscribe() -> None:
    wire = WireRecorder()
    seen: list[WireRecord] = []
    unsubscribe = wire.subscribe(seen.append)
    first = wire.stderr_line("c1", "one")
    unsubscribe()
    unsubscribe()  # a second call is harmless
    wire.stderr_line("c1", "two")
    assert seen == [first]


@pytest.mark.expected_error_logs  # the recorder logs the subscriber that failed, by design
def test_a_failing_subscriber_is_logged_and_does_not_stop_recording(caplog: pytest.LogCaptureFixture) -> None:
    wire = WireRecorder()
    seen: list[int] = []

    def broken(record: WireRecord) -> None:
        raise RuntimeError("subscriber bug")

    wire.subscribe(broken)
    wire.subscribe(lambda r: seen.append(r.seq))
    with caplog.at_level(logging.ERROR, logger="workbench.core.wire.store"):
        rec = wire.stderr_line("c1", "still recorded")
    assert wire.get(rec.seq) is rec
    assert seen == [rec.seq]
    assert [r.levelno for r in caplog.records] == [logging.ERROR]
    caplog.clear()


def test_a_subscriber_may_unsubscribe_while_being_called() -> None:
    wire = WireRecorder()
    calls: list[int] = []
    unsubscribe = wire.subscribe(lambda r: (calls.append(r.seq), unsubscribe()))
    wire.stderr_line("c1", "a")
    wire.stderr_line("c1", "b")
    assert calls == [1]


# ---- export -------------------------------------------------------------------------------------


def test_jsonl_export_writes_one_to_dict_per_line_optionally_for_one_connection(tmp_path: Path) -> None:
    wire = WireRecorder()
    wire.jsonrpc("c1", OUT, request(1))
    wire.jsonrpc("c2", OUT, request(1))
    wire.jsonrpc("c1", IN, result(1))
    path = tmp_path / "wire.jsonl"
    assert wire.export_jsonl(path) == 3
    lines = path.read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [r.to_dict() for r in wire]
    stream = io.StringIO()
    assert wire.export_jsonl(stream, connection_id="c1") == 2
    assert [json.loads(line)["connection_id"] for line in stream.getvalue().splitlines()] == ["c1", "c1"]


def test_har_export_pairs_requests_with_responses_and_folds_sse_events(tmp_path: Path) -> None:
    wire = WireRecorder()
    post = wire.http_request(
        "c1", "POST", "http://127.0.0.1:9/mcp?x=1", {"Content-Type": "application/json"}, b'{"id":1}'
    )
    wire.http_response("c1", post, 200, {"Content-Type": "text/event-stream", "Mcp-Session-Id": "s-1"})
    wire.sse_event("c1", '{"id":1,"result":{}}', event_id="1", request=post)
    wire.sse_event("c1", "keep-alive", comment=True, request=post)
    wire.jsonrpc("c1", IN, '{"id":1,"result":{}}')  # JSON-RPC records are not HTTP entries
    pending = wire.http_request("c2", "DELETE", "http://127.0.0.1:9/mcp", {})
    path = tmp_path / "wire.har"
    assert wire.export_har(path) == 2
    har = json.loads(path.read_text(encoding="utf-8"))
    log = har["log"]
    assert log["version"] == "1.2"
    assert log["creator"]["name"] == "Agent Workbench"
    first, second = log["entries"]
    for entry in (first, second):
        assert {"startedDateTime", "time", "request", "response", "cache", "timings"} <= entry.keys()
        assert {"method", "url", "httpVersion", "cookies", "headers", "queryString", "headersSize", "bodySize"} <= (
            entry["request"].keys()
        )
        assert {"status", "statusText", "httpVersion", "cookies", "headers", "content", "redirectURL"} <= (
            entry["response"].keys()
        )
        assert entry["startedDateTime"].endswith("Z")
        assert entry["time"] >= 0
    assert first["request"]["method"] == "POST"
    assert first["request"]["queryString"] == [{"name": "x", "value": "1"}]
    assert first["request"]["postData"] == {"mimeType": "application/json", "text": '{"id":1}'}
    assert (first["response"]["status"], first["response"]["statusText"]) == (200, "OK")
    assert first["response"]["content"]["mimeType"] == "text/event-stream"
    assert first["response"]["content"]["text"] == 'id: 1\ndata: {"id":1,"result":{}}\n\n: keep-alive\n\n'
    assert first["_sessionId"] == "s-1"
    assert first["_requestSeq"] == post.seq
    assert (second["request"]["method"], second["response"]["status"]) == ("DELETE", 0)
    assert second["_connectionId"] == pending.connection_id
    only_c2 = io.StringIO()
    assert wire.export_har(only_c2, connection_id="c2") == 1


def test_har_export_keeps_a_response_whose_request_was_evicted() -> None:
    wire = WireRecorder(capacity=2)
    req = wire.http_request("c1", "GET", "http://127.0.0.1:9/.well-known/agent-card.json", {})
    wire.http_response("c1", req, 404, {}, b"not found")
    wire.stderr_line("c1", "evicts the request")
    out = io.StringIO()
    assert wire.export_har(out) == 1
    (entry,) = json.loads(out.getvalue())["log"]["entries"]
    assert entry["request"]["url"].endswith("/agent-card.json")
    assert (entry["response"]["status"], entry["response"]["content"]["text"]) == (404, "not found")


def test_bookkeeping_stays_bounded_by_the_capacity_under_long_traffic() -> None:
    wire = WireRecorder(capacity=10)
    for i in range(1000):
        wire.jsonrpc("c1", OUT, request(i))
        if i % 2:
            wire.jsonrpc("c1", IN, result(i))  # every other request is never answered
    # Private state on purpose: eviction must also drop the pairing index and open requests.
    assert len(wire._pairs) <= 2 * wire.capacity
    assert len(wire._pending) <= wire.capacity
    assert wire.dropped == 1500 - 10
