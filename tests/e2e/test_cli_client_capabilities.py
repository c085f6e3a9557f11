"""The command line's client-capability switches and roots: for one run and saved in a profile (demo over HTTP)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.cli_profiles import cli_env, workbench
from tests.support.cli_runner import json_lines
from workbench.demo.mcp_server import serve_http

pytestmark = pytest.mark.asyncio


def roots_listed(out: str) -> list[str]:
    result = json_lines(out)[-1]["result"]
    roots: list[str] = result["structured"]["result"]
    return roots


async def test_switches_and_roots_given_for_one_run_are_what_the_client_declares_and_offers(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    folder = tmp_path / "project"
    async with serve_http(transport="streamable-http") as url:
        code, out, err = await workbench(
            env, "inspect", "--mcp", url, "--json", "--no-sampling", "--no-elicitation=url", "--no-tasks"
        )
        assert code == 0, err
        assert json_lines(out)[0]["client_capabilities"] == {"elicitation": {"form": {}}}
        code, out, err = await workbench(env, "inspect", "--mcp", url, "--client-capabilities", "none", "--json")
        assert code == 0, err
        assert json_lines(out)[0]["client_capabilities"] == {}
        code, out, err = await workbench(env, "inspect", "--mcp", url, "--json", "--no-elicitation", "--no-tasks")
        assert code == 0, err
        assert json_lines(out)[0]["client_capabilities"] == {"sampling": {"tools": {}}}
        code, out, err = await workbench(
            env, "call", "--mcp", url, "--mode", "legacy", "show_roots", "--json",
            "--root", str(folder), "--root", "file:///data",
        )  # fmt: skip
        assert code == 0, err
        assert roots_listed(out) == [folder.as_uri(), "file:///data"]
        code, _, _ = await workbench(env, "inspect", "--mcp", url, "--no-elicitation=both")
        assert code == 2  # a usage error


async def test_profile_add_and_edit_save_roots_and_switches_and_a_run_uses_them(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    first, second = tmp_path / "a", tmp_path / "b"
    async with serve_http(transport="streamable-http") as url:
        code, _, err = await workbench(
            env, "profile", "add", "demo", "--mcp", url, "--mode", "legacy", "--root", str(first), "--no-apps"
        )
        assert code == 0, err
        code, _, err = await workbench(
            env, "profile", "edit", "demo", "--root", str(second), "--forget-root", str(first), "--no-roots"
        )
        assert code == 0, err
        code, out, _ = await workbench(env, "profile", "list", "--json")
        [saved] = [p for p in json_lines(out) if p["name"] == "demo"]
        assert saved["roots"] == [{"uri": second.as_uri(), "name": "b"}]
        assert not saved["client_capabilities"]["roots"] and not saved["client_capabilities"]["apps"]
        code, out, _ = await workbench(env, "profile", "list")
        assert f"[roots: {second.as_uri()}] [not advertised: roots, apps]" in out
        code, out, err = await workbench(env, "call", "--profile", "demo", "show_roots", "--json")
        assert code == 1  # roots switched off: the server's roots/list is refused and its tool fails
        code, _, err = await workbench(env, "profile", "edit", "demo", "--client-capabilities", "all")
        assert code == 0, err
        code, out, err = await workbench(env, "call", "--profile", "demo", "show_roots", "--json")
        assert code == 0, err
        assert roots_listed(out) == [second.as_uri()]
        code, _, err = await workbench(env, "profile", "edit", "demo", "--forget-root", "file:///nowhere")
        assert code != 0
