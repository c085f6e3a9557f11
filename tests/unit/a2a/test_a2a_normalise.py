"""Repairing task-status timestamps before the SDK parses them (``normalise``), without touching anything else."""

from __future__ import annotations

import json

import httpx
import pytest
from a2a.types import StreamResponse
from google.protobuf.json_format import Parse

from workbench.core.protocols.a2a.normalise import (
    MAX_REPAIRED_BYTES,
    VERBATIM,
    NormalisingTransport,
    Unreadable,
    normalise_json,
    normalise_sse,
    repair_timestamp,
)


@pytest.mark.parametrize(
    ("sent", "read"),
    [
        ("2026-11-24T23:47:56.203316", "2026-11-24T23:47:56.203316Z"),  # fasta2a: datetime.now().isoformat()
        ("2026-11-24 23:47:56", "2026-11-24T23:47:56Z"),
        ("2026-11-24t23:47:56z", "2026-11-24T23:47:56Z"),
        ("2026-11-24T23:47:56.1234567891Z", "2026-11-24T23:47:56.123456789Z"),
        ("2026-11-24T23:47:56+01:00", "2026-11-24T23:47:56+01:00"),
        ("2026-11-24T23:47:56Z", "2026-11-24T23:47:56Z"),
        ("yesterday", None),
        ("2026-11-24", None),
    ],
)
def test_a_timestamp_is_put_in_rfc_3339_with_a_zone_or_left_alone(sent: str, read: str | None) -> None:
    assert repair_timestamp(sent) == read
    if read is not None:
        event = {"task": {"id": "t", "status": {"state": "TASK_STATE_WORKING", "timestamp": read}}}
        Parse(json.dumps(event), StreamResponse())  # what the SDK does: it must now succeed


def event(timestamp: str, data_stamp: str = "2026-01-01T00:00:00") -> dict[str, object]:
    message = {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"data": {"timestamp": data_stamp}}]}
    return {
        "result": {
            "task": {"id": "t", "status": {"state": "TASK_STATE_WORKING", "timestamp": timestamp}, "history": [message]}
        }
    }


def test_only_task_status_timestamps_change_and_a_data_part_keeps_its_own() -> None:
    fixed = json.loads(normalise_json(json.dumps(event("2026-11-24T23:47:56.2")).encode()))
    assert fixed["result"]["task"]["status"]["timestamp"] == "2026-11-24T23:47:56.2Z"
    assert fixed["result"]["task"]["history"][0]["parts"][0]["data"]["timestamp"] == "2026-01-01T00:00:00"


def test_a_payload_with_valid_timestamps_is_passed_on_byte_for_byte() -> None:
    body = json.dumps(event("2026-11-24T23:47:56Z"), indent=2).encode()  # odd spacing stays as it is
    assert normalise_json(body) is body
    line = b"data: " + json.dumps(event("2026-11-24T23:47:56Z")).encode() + b"\n\n"
    assert normalise_sse(line) is line


def test_an_unreadable_timestamp_is_remembered_as_sent() -> None:
    unreadable = Unreadable()
    body = json.dumps(event("soon\x1b]0;x\x07")).encode()
    assert normalise_json(body, unreadable) == body
    assert unreadable.last("timestamp") == "soon\x1b]0;x\x07"


async def _through_transport(body: bytes, content_type: str, chunk: int, *, verbatim: bool = False) -> bytes:
    response = await _response_through_transport(body, content_type, chunk, verbatim=verbatim)
    return response.content


async def _response_through_transport(
    body: bytes, content_type: str, chunk: int, *, verbatim: bool = False
) -> httpx.Response:
    class Chunked(httpx.AsyncByteStream):
        async def __aiter__(self):  # type: ignore[no-untyped-def]
            for i in range(0, len(body), chunk):
                yield body[i : i + chunk]

    class Inner(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            headers = {"content-type": content_type, "content-length": str(len(body))}
            return httpx.Response(200, headers=headers, stream=Chunked())

    async with httpx.AsyncClient(transport=NormalisingTransport(Inner())) as client:
        extensions = {VERBATIM: True} if verbatim else {}
        return await client.get("http://agent.test/", extensions=extensions)


@pytest.mark.asyncio
@pytest.mark.parametrize("chunk", [1, 2, 7, 64, 10_000])
async def test_an_sse_stream_split_anywhere_is_repaired_like_the_whole(chunk: int) -> None:
    lines = [b"data: " + json.dumps(event(f"2026-11-24T23:47:5{i}.5")).encode() for i in range(3)]
    body = b"event: message\r\n" + b"\n\n".join(lines) + b"\n\n: ping\n\n"
    got = await _through_transport(body, "text/event-stream; charset=utf-8", chunk)
    assert got == normalise_sse(body)
    assert got.count(b'.5Z"') == 3 and b": ping\n\n" in got


@pytest.mark.asyncio
@pytest.mark.parametrize("chunk", [1, 5, 10_000])
async def test_a_json_body_split_anywhere_is_repaired_whole(chunk: int) -> None:
    body = json.dumps(event("2026-11-24T23:47:56.203316"), indent=2).encode()
    got = await _through_transport(body, "application/json", chunk)
    assert json.loads(got)["result"]["task"]["status"]["timestamp"] == "2026-11-24T23:47:56.203316Z"


@pytest.mark.asyncio
async def test_a_verbatim_request_gets_the_response_as_it_came_with_its_length() -> None:
    body = json.dumps(event("2026-11-24T23:47:56.203316")).encode()
    response = await _response_through_transport(body, "application/json", 7, verbatim=True)
    assert response.content == body
    assert response.headers["content-length"] == str(len(body))


@pytest.mark.asyncio
async def test_a_json_body_over_the_repair_limit_passes_unrepaired_as_it_arrives() -> None:
    padding = b"z" * (3 * MAX_REPAIRED_BYTES)
    stamped = json.dumps(event("2026-11-24T23:47:56.203316")).encode()
    body = stamped[:-2] + b', "padding": "' + padding + b'"}}'
    assert json.loads(body)["result"]["task"]["status"]["timestamp"] == "2026-11-24T23:47:56.203316"
    chunk = 1024 * 1024
    pulled: list[int] = []

    class Inner(httpx.AsyncBaseTransport):
        async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
            async def chunks():  # type: ignore[no-untyped-def]
                for i in range(0, len(body), chunk):
                    pulled.append(i)
                    yield body[i : i + chunk]

            return httpx.Response(200, headers={"content-type": "application/json"}, stream=_Chunks(chunks))

    async with (
        httpx.AsyncClient(transport=NormalisingTransport(Inner())) as client,
        client.stream("GET", "http://agent.test/") as response,
    ):
        raw = response.aiter_raw()
        first = await anext(raw)
        assert len(pulled) <= MAX_REPAIRED_BYTES // chunk + 2  # held no more than the limit before passing on
        rest = b"".join([part async for part in raw])
    assert first + rest == body  # unrepaired, byte for byte


class _Chunks(httpx.AsyncByteStream):
    def __init__(self, make) -> None:  # type: ignore[no-untyped-def]
        self._make = make

    async def __aiter__(self):  # type: ignore[no-untyped-def]
        async for part in self._make():
            yield part
