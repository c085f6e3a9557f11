"""``--wire FILE.har`` keeps every body whole, against real servers; a HAR for a stdio server is refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.support.cli_runner import workbench
from tests.support.demo_mcp import demo_stdio_command
from workbench.demo.mcp_server import serve_http

pytestmark = pytest.mark.asyncio


def har_entries(path: Path) -> list[dict[str, Any]]:
    har = json.loads(path.read_text(encoding="utf-8"))
    assert har["log"]["version"] == "1.2"
    entries: list[dict[str, Any]] = har["log"]["entries"]
    return entries


def sse_data(text: str) -> list[str]:
    """The data of each event in a ``text/event-stream`` body (multi-line data joined by newlines)."""
    events = []
    for block in text.split("\n\n"):
        lines = [line[len("data: ") :] for line in block.split("\n") if line.startswith("data: ")]
        if lines:
            events.append("\n".join(lines))
    return events


async def test_a_2026_era_har_has_every_json_response_body(tmp_path: Path) -> None:
    har = tmp_path / "session.har"
    async with serve_http(transport="streamable-http") as url:
        code, _out, err = await workbench(
            "call", "--mcp", url, "--mode", "2026-07-28", "echo", "--args", '{"text": "hi"}', "--wire", str(har)
        )
    assert code == 0, err
    entries = har_entries(har)
    posts = [e for e in entries if e["request"]["method"] == "POST"]
    assert len(posts) >= 2  # discovery, listings, the call
    json_bodies = 0
    for entry in posts:
        content = entry["response"]["content"]
        if content["mimeType"].startswith("application/json"):
            json_bodies += 1
            body = json.loads(content["text"])  # whole, parseable: not empty, not cut
            assert body["jsonrpc"] == "2.0"
            assert content["size"] == len(content["text"].encode())
        else:  # a request the server chose to answer with a stream
            assert content["mimeType"].startswith("text/event-stream")
            assert all(json.loads(d)["jsonrpc"] == "2.0" for d in sse_data(content["text"]) if d.strip())
    assert json_bodies >= 2  # discovery and the listings at least
    assert any('"hi"' in e["response"]["content"]["text"] for e in posts)


@pytest.mark.everything
async def test_a_har_keeps_error_bodies_and_long_sse_events_whole(everything_http_url: str, tmp_path: Path) -> None:
    har = tmp_path / "session.har"
    # auto mode first tries the 2026 era; server-everything refuses it with an HTTP 400 and a JSON body
    code, out, err = await workbench("inspect", "--mcp", everything_http_url, "--json", "--wire", str(har))
    assert code == 0, err
    [info] = [json.loads(line) for line in out.splitlines() if line.strip()]
    entries = har_entries(har)
    errors = [e for e in entries if e["response"]["status"] >= 400]
    assert errors, "server-everything refuses the 2026-era probe"
    for entry in errors:
        assert json.loads(entry["response"]["content"]["text"])["error"]["code"] == -32000
    listing = next(e for e in entries if '"tools/list"' in e["request"].get("postData", {}).get("text", ""))
    assert listing["response"]["content"]["mimeType"].startswith("text/event-stream")
    data = sse_data(listing["response"]["content"]["text"])
    [tools] = [json.loads(d) for d in data if d.strip()]  # the one long event, whole and parseable
    assert len(json.dumps(tools)) > 4096
    assert [t["name"] for t in tools["result"]["tools"]] == [t["name"] for t in info["tools"]]


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_a_har_of_a_long_tool_result_keeps_it_whole(tmp_path: Path, mode: str) -> None:
    har = tmp_path / "session.har"
    text = "x" * 50_000
    async with serve_http(transport="streamable-http") as url:
        code, _out, err = await workbench(
            "call", "--mcp", url, "--mode", mode, "echo", "--args", json.dumps({"text": text}), "--wire", str(har)
        )
    assert code == 0, err
    [call] = [e for e in har_entries(har) if '"tools/call"' in e["request"].get("postData", {}).get("text", "")]
    content = call["response"]["content"]
    bodies = sse_data(content["text"]) if content["mimeType"].startswith("text/event-stream") else [content["text"]]
    results = [json.loads(b) for b in bodies if b.strip()]
    assert results[-1]["result"]["content"][0]["text"] == text


async def test_a_har_for_a_stdio_server_is_refused_before_it_starts(tmp_path: Path) -> None:
    har = tmp_path / "session.har"
    code, out, err = await workbench("inspect", "--stdio", "--wire", str(har), "--", "/nonexistent/never-started")
    assert code == 2, (out, err)
    assert "HTTP" in err and "--wire session.jsonl" in err
    assert not har.exists()
    jsonl = tmp_path / "session.jsonl"
    code, _, err = await workbench("inspect", "--stdio", "--wire", str(jsonl), "--", *demo_stdio_command())
    assert code == 0, err
    assert jsonl.read_text(encoding="utf-8").count("\n") > 4
