"""MCP Apps in a real web view (QtWebEngine, offscreen): the demo app's round trip and a hostile app contained.

The web views run in a process of its own, as the window runs them (tests/support/app_view_scenarios.py says
why); the scenarios share that one process, and these tests read what it observed and how it ended.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.support.webengine import require_webengine

require_webengine()

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def observed() -> dict[str, Any]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, "-m", "tests.support.app_view_scenarios"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=90, check=False,
    )  # fmt: skip
    assert done.stdout.strip(), done.stderr[-3000:]
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    result["returncode"], result["stderr"] = done.returncode, done.stderr[-3000:]
    return result


def test_the_window_process_quits_cleanly_after_showing_apps_and_qt_warned_of_nothing_unexpected(observed) -> None:
    assert observed["returncode"] == 0, observed["stderr"]  # QtWebEngine + asyncio.run quitting more than once
    assert observed["qt_warnings"] == []


def methods(records: list[dict[str, Any]], direction: str) -> list[str]:
    return [r["method"] for r in records if r["direction"] == direction and r["method"]]


def test_the_demo_weather_app_initializes_calls_a_tool_and_its_result_reaches_it(observed) -> None:
    demo = observed["demo"]
    records = demo["records"]
    assert methods(records, "in")[:2] == ["ui/initialize", "ui/notifications/initialized"]
    assert methods(records, "out")[:2] == ["ui/notifications/tool-input", "ui/notifications/tool-result"]
    result = next(json.loads(r["payload"]) for r in records if r["method"] == "ui/notifications/tool-result")
    assert result["params"]["structuredContent"]["city"] == "Oslo"
    assert "tools/call" in methods(records, "in")  # the app called weather_forecast through the host
    answers = [json.loads(r["payload"]) for r in records if r["direction"] == "out" and r["latency"] is not None]
    contents = [a["result"].get("structuredContent", {}) for a in answers]
    forecast = next(c for c in contents if "days" in c)
    assert [d["day"] for d in forecast["days"]] == [1, 2, 3]
    assert any("forecast shown: 3 days" in r["payload"] for r in records if r["method"] == "notifications/message")
    assert "ui/notifications/size-changed" in methods(records, "in")
    assert "ui/resource-teardown" in methods(records, "out")
    assert demo["page_gone"]


def test_a_hostile_app_is_refused_popups_navigation_files_and_remote_urls(observed) -> None:
    escapes = observed["hostile"]["escapes"]
    report = next(json.loads(r["payload"]) for r in escapes["records"] if r["method"] == "report")
    assert report["params"] == {"popup": "null", "top": "refused", "fetches": ["rejected"] * 3}
    refused = [r["summary"] for r in escapes["records"] if r["direction"] == "local"]
    for what in ("new window", "top-level window", "file:///etc/passwd", "https://example.com/x", "qrc:///x"):
        assert any(what in line for line in refused), what  # every refusal is in the wire log too
    assert any("https://example.net/" in line for line in refused)  # navigating itself away


def test_an_app_that_floods_the_bridge_is_rate_limited_told_so_and_stopped(observed) -> None:
    flood = observed["hostile"]["flood"]
    notices = "\n".join(flood["notices"])
    assert "rate-limited" in notices and "stopped" in notices
    assert flood["dropped"] > flood["max_dropped"]
    assert len(flood["records"]) < 1500  # 5,000 pings: those past the rate are counted, not recorded
    limited = [r for r in flood["records"] if r["direction"] == "local" and "rate-limited" in r["summary"]]
    assert limited and "dropped" in limited[-1]["summary"]
