"""Allowed origins of a saved profile on the command line, and ``--config-dir`` on every command.

``profile add --allow-origin`` keeps the origin with the profile, ``profile edit`` adds and forgets
origins, ``profile list`` shows them, ``login --allow-origin`` widens one login; every command reads
and writes the configuration directory ``--config-dir`` names, before or after the subcommand.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.cli_profiles import cli_env, json_error_code, workbench

pytestmark = pytest.mark.asyncio

AGENT = "https://agent.example/a2a"
CDN = "https://cdn.agent.example:8443"


def _listed(out: str) -> dict[str, dict[str, object]]:
    return {entry["name"]: entry for entry in map(json.loads, out.splitlines())}


async def test_profile_add_keeps_its_allowed_origins_and_list_shows_them(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    for kind, target in (("--a2a", AGENT), ("--mcp", "https://tools.example/mcp")):
        name = kind.strip("-")
        code, _, err = await workbench(env, "profile", "add", name, kind, target, "--allow-origin", CDN)
        assert code == 0, err
    code, out, err = await workbench(env, "profile", "list", "--json")
    assert code == 0, err
    listed = _listed(out)
    assert listed["a2a"]["allowed_origins"] == [CDN]
    assert listed["mcp"]["allowed_origins"] == [CDN]
    code, out, _ = await workbench(env, "profile", "list")
    assert all(CDN in line for line in out.splitlines())


async def test_profile_add_refuses_an_allowed_origin_for_a_stdio_server(tmp_path: Path) -> None:
    code, _, err = await workbench(
        cli_env(tmp_path), "profile", "add", "local", "--stdio", "--allow-origin", CDN, "--", "python", "server.py"
    )
    assert code == 2, err


async def test_profile_edit_adds_and_forgets_allowed_origins_and_refuses_an_unknown_one(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    assert (await workbench(env, "profile", "add", "agent", "--a2a", AGENT))[0] == 0
    code, _, err = await workbench(env, "profile", "edit", "agent", "--allow-origin", CDN, "--timeout", "12")
    assert code == 0, err
    listed = _listed((await workbench(env, "profile", "list", "--json"))[1])
    assert listed["agent"]["allowed_origins"] == [CDN] and listed["agent"]["request_timeout"] == 12
    code, _, _ = await workbench(env, "profile", "edit", "agent", "--forget-origin", "https://other.example")
    assert code == 2
    code, _, err = await workbench(env, "profile", "edit", "agent", "--forget-origin", CDN)
    assert code == 0, err
    listed = _listed((await workbench(env, "profile", "list", "--json"))[1])
    assert listed["agent"]["allowed_origins"] == []


async def test_config_dir_applies_to_every_command_before_or_after_the_subcommand(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    code, _, err = await workbench(env, "profile", "add", "agent", "--a2a", AGENT, "--config-dir", str(elsewhere))
    assert code == 0, err
    assert (elsewhere / "profiles.json").exists()
    assert not (tmp_path / "config" / "profiles.json").exists()
    code, out, _ = await workbench(env, "--config-dir", str(elsewhere), "profile", "list", "--json")
    assert code == 0 and "agent" in _listed(out)
    code, out, _ = await workbench(env, "profile", "list", "--json")
    assert code == 0 and out == ""
    code, _, err = await workbench(env, "profile", "edit", "agent", "--timeout", "5", "--config-dir", str(elsewhere))
    assert code == 0, err
    code, _, err = await workbench(
        env, "secret", "set", "agent", "bearer", "--config-dir", str(elsewhere), stdin=b"tok-1234"
    )
    assert code == 0, err
    code, out, _ = await workbench(env, "login", "agent", "--config-dir", str(elsewhere), "--json")
    assert code == 1 and json_error_code(out) == "unreachable"  # found there: an A2A profile, its agent looked for
    code, _, err = await workbench(env, "inspect", "--profile", "agent", "--config-dir", str(elsewhere), "--json")
    assert "No saved profile" not in err
    code, _, err = await workbench(env, "profile", "remove", "agent", "--config-dir", str(elsewhere))
    assert code == 0, err
    assert json.loads((elsewhere / "profiles.json").read_text()) in (
        [],
        {"profiles": []},
        {"version": 1, "profiles": []},
    )
