"""``workbench call`` on a tool annotated destructive: refused without a terminal unless ``--yes``; the
profile's ``tool_approval`` policy (``--tool-approval``) says which tools ask (demo server over HTTP, the CLI in
process)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_profiles import cli_env, workbench
from tests.support.cli_runner import json_lines
from workbench.core.profiles.store import ProfileStore
from workbench.demo.mcp_server import serve_http

pytestmark = pytest.mark.asyncio


def error_code(out: str, err: str) -> str | None:
    for line in (out + "\n" + err).splitlines():
        if line.strip().startswith("{"):
            data = json.loads(line)
            if "error" in data:
                return str(data["error"].get("code"))
            if "code" in data:
                return str(data["code"])
    return None


async def test_a_destructive_tool_is_refused_without_a_terminal_and_called_with_yes(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    wire = tmp_path / "wire.jsonl"
    async with serve_http(transport="streamable-http") as url:
        code, out, err = await workbench(env, "call", "--mcp", url, "reset_counter", "--json", "--wire", str(wire))
        assert code == 1 and error_code(out, err) == "tool-call-denied"
        sent = [json.loads(line) for line in wire.read_text(encoding="utf-8").splitlines()]
        assert not any(r.get("method") == "tools/call" for r in sent)  # nothing went out
        code, out, err = await workbench(env, "call", "--mcp", url, "reset_counter", "--json", "--yes")
        assert code == 0, err
        assert json_lines(out)[-1]["result"]["text"] == "counter = 0"
        # a profile whose policy is "always" asks for a tool that is not destructive too; "never" asks for none
        code, _, err = await workbench(env, "profile", "add", "demo", "--mcp", url, "--tool-approval", "always")
        assert code == 0, err
        store = ProfileStore(Path(env["WORKBENCH_CONFIG_DIR"]))
        assert store.find("demo").tool_approval == "always"  # type: ignore[union-attr]
        code, out, err = await workbench(env, "call", "--profile", "demo", "bump_counter", "--json")
        assert code == 1 and error_code(out, err) == "tool-call-denied"
        code, _, err = await workbench(env, "profile", "edit", "demo", "--tool-approval", "never")
        assert code == 0, err
        code, out, err = await workbench(env, "call", "--profile", "demo", "reset_counter", "--json")
        assert code == 0, err
