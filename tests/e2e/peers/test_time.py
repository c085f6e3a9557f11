"""``workbench call`` against mcp-server-time (a 2026-era server): the time in a zone, and a conversion."""

from __future__ import annotations

import json

import pytest

from tests.support.peers import peer_command, run_cli

pytestmark = pytest.mark.asyncio


def server() -> list[str]:
    return [*peer_command("time"), "--local-timezone", "Europe/Paris"]


async def test_inspect_in_each_era_lists_both_tools() -> None:
    run = await run_cli("time", "inspect", server=server())
    assert run.code == 0, run.err
    assert run.err == ""
    assert "(2026-07-28 era, stdio)" in run.out
    assert "  get_current_time  " in run.out and "  convert_time  " in run.out
    run = await run_cli("time", "inspect", "--json", "--mode", "legacy", server=server())
    assert run.code == 0, run.err
    [info] = run.json_lines()
    assert info["era"] == "legacy"
    assert [tool["name"] for tool in info["tools"]] == ["get_current_time", "convert_time"]


async def test_current_time_in_a_zone_and_a_conversion_between_zones() -> None:
    run = await run_cli(
        "time", "call", "--json", "get_current_time", "--args", '{"timezone": "Asia/Tokyo"}', server=server()
    )
    assert run.code == 0, run.err
    structured = run.json_lines()[-1]["result"]["tool_result"]["structured_content"]
    assert structured["timezone"] == "Asia/Tokyo" and structured["datetime"].endswith("+09:00")

    args = json.dumps({"source_timezone": "Europe/Paris", "time": "14:30", "target_timezone": "Asia/Tokyo"})
    run = await run_cli("time", "call", "convert_time", "--args", args, server=server())
    assert run.code == 0, run.err
    assert run.err == ""
    converted = json.loads(run.out)  # the text is the structured content: printed once, stdout stays JSON
    assert converted["source"]["datetime"][11:16] == "14:30"
    assert converted["target"]["datetime"][11:16] in ("22:30", "21:30")  # 8 h apart, 7 h in Paris summer time


async def test_a_missing_timezone_is_refused_unless_no_validate_sends_it_to_the_server() -> None:
    run = await run_cli("time", "call", "get_current_time", server=server())
    assert run.code == 2, (run.out, run.err)
    assert run.err == (
        "error: --args do not fit get_current_time's input schema: 'timezone' is a required property.\n"
        "hint: get_current_time takes: timezone* (string) (* required); --no-validate sends them as given\n"
    )
    run = await run_cli("time", "call", "--json", "--no-validate", "get_current_time", server=server())
    assert run.code == 1, run.err  # the server's own check: a tool error, not a usage error
    result = run.json_lines()[-1]["result"]
    assert result["is_error"] is True and "timezone" in result["text"]


async def test_an_unknown_tool_is_bad_usage_and_the_tools_there_are_are_named() -> None:
    run = await run_cli("time", "call", "--json", "get_time", server=server())
    assert run.code == 2, (run.out, run.err)
    [failed] = run.json_lines()
    assert failed["error"]["code"] == "not-found"
    assert failed["error"]["details"]["available"] == ["convert_time", "get_current_time"]
