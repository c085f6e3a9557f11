"""``workbench call`` against mcp-server-fetch, fetching from a loopback HTTP server the test runs."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.support.peers import peer_command, run_cli

pytestmark = pytest.mark.asyncio
# A page whose text tries to clear the screen and plant a terminal hyperlink: untrusted peer text.
PAGE = (
    "<html><head><title>Peer page</title></head><body><h1>Hello from loopback</h1>"
    "<p>Some <b>bold</b> text.\x1b[2J\x1b]8;;http://example.invalid/\x07click\x1b]8;;\x07</p></body></html>"
)


class _Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = PAGE.encode() if self.path == "/page.html" else b"not here"
        self.send_response(200 if self.path == "/page.html" else 404)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def page_url() -> Iterator[str]:
    """``http://127.0.0.1:<ephemeral>/page.html``, served until the test ends (``/robots.txt`` is a 404)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/page.html"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


def server() -> list[str]:
    # the server refuses loopback addresses unless told otherwise
    return [*peer_command("fetch"), "--allow-private-ips"]


async def test_a_fetched_page_is_printed_as_markdown_with_its_escapes_neutralised(
    page_url: str, tmp_path: Path
) -> None:
    wire = tmp_path / "session.jsonl"
    args = json.dumps({"url": page_url})
    run = await run_cli("fetch", "call", "--wire", str(wire), "fetch", "--args", args, server=server())
    assert run.code == 0, run.err
    assert run.err == ""
    assert f"Contents of {page_url}:\n## Hello from loopback" in run.out and "**bold**" in run.out
    assert "\x1b" not in run.out and "\x07" not in run.out  # neither the screen clear nor the hyperlink
    records = [json.loads(line) for line in wire.read_text(encoding="utf-8").splitlines()]
    methods = [r["method"] for r in records if r["direction"] == "out" and r["kind"] == "jsonrpc"]
    assert methods[-1] == "tools/call"
    call_id = records[[r["method"] for r in records].index("tools/call")]["rpc_id"]
    [reply] = [r for r in records if r["direction"] == "in" and r["rpc_id"] == call_id]
    assert "Hello from loopback" in json.loads(reply["payload"])["result"]["content"][0]["text"]
    assert records[-1]["kind"] == "process" and "exited with code 0" in records[-1]["summary"]


async def test_inspect_json_shows_the_fetch_tool_and_prompt() -> None:
    run = await run_cli("fetch", "inspect", "--json", server=server())
    assert run.code == 0, run.err
    [info] = run.json_lines()
    assert [t["name"] for t in info["tools"]] == ["fetch"]
    assert info["prompts"] == [
        {
            "name": "fetch",
            "arguments": [{"name": "url", "required": True, "description": "URL to fetch"}],
            "description": "Fetch a URL and extract its contents as markdown",
        }
    ]
