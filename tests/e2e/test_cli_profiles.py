"""Saved profiles and keyring secrets from the command line, against a real bearer-protected MCP server."""

from __future__ import annotations

import json
import sys

import pytest

from tests.support.cli_profiles import TOKEN, cli_env, json_error_code, workbench
from workbench.demo.mcp_server import serve_http

pytestmark = pytest.mark.asyncio


async def test_a_bearer_secret_set_from_stdin_is_used_on_the_wire_and_stored_only_in_the_keyring(tmp_path):
    env = cli_env(tmp_path)
    async with serve_http(transport="streamable-http", require_bearer=TOKEN) as url:
        code, _, err = await workbench(env, "profile", "add", "protected", "--mcp", url)
        assert code == 0, err
        code, out, _ = await workbench(
            env, "call", "--profile", "protected", "add", "--args", '{"a":2,"b":3}', "--json"
        )
        assert code == 1
        assert json_error_code(out) == "auth-required"
        code, _, err = await workbench(env, "secret", "set", "protected", "bearer", stdin=TOKEN.encode())
        assert code == 0, err
        wire = tmp_path / "wire.jsonl"
        code, out, err = await workbench(
            env, "call", "--profile", "protected", "add", "--args", '{"a":2,"b":3}', "--json", "--wire", str(wire)
        )
        assert code == 0, err
        assert json.loads(out.splitlines()[-1])["result"]["structured"] == {"result": 5}
        har = tmp_path / "wire.har"
        code, _, _ = await workbench(env, "inspect", "--profile", "protected", "--wire", str(har))
        assert code == 0
    authorization = [
        r["http"]["headers"].get("authorization")
        for r in map(json.loads, wire.read_text().splitlines())
        if r["kind"] == "http-request"
    ]
    assert authorization and all(a in ("***", "Bearer ***") for a in authorization)
    assert "***" in har.read_text()
    # the value exists in the keyring and nowhere else the workbench wrote
    assert TOKEN in (tmp_path / "keyring.json").read_text()
    for path in [*(tmp_path / "config").rglob("*"), wire, har]:
        if path.is_file():
            assert TOKEN not in path.read_text(errors="replace"), path


async def test_secret_set_without_a_secure_keyring_is_refused_and_nothing_is_saved(tmp_path):
    env = cli_env(tmp_path, keyring_backend=False)
    code, _, _ = await workbench(env, "profile", "add", "p", "--mcp", "http://127.0.0.1:9/mcp")
    assert code == 0
    code, _, err = await workbench(env, "secret", "set", "p", "bearer", stdin=TOKEN.encode())
    assert code == 1
    assert "No secure credential store" in err
    code, out, _ = await workbench(env, "profile", "list", "--json")
    assert json.loads(out)["secrets"] == []
    assert TOKEN not in "".join(p.read_text() for p in (tmp_path / "config").rglob("*") if p.is_file())


async def test_a_header_that_looks_secret_is_refused_in_a_profile_with_a_hint(tmp_path):
    env = cli_env(tmp_path)
    code, _, err = await workbench(
        env, "profile", "add", "p", "--mcp", "http://127.0.0.1:9/mcp", "--header", f"Authorization=Bearer {TOKEN}"
    )
    assert code == 2
    assert "workbench secret set" in err
    assert TOKEN not in err


async def test_env_secret_reaches_only_the_stdio_child_and_removal_forgets_it(tmp_path):
    env = cli_env(tmp_path)
    demo = [sys.executable, "-m", "workbench.demo.mcp_server", "--stdio"]
    code, _, err = await workbench(env, "profile", "add", "demo", "--stdio", "--", *demo)
    assert code == 0, err
    code, _, err = await workbench(env, "secret", "set", "demo", "env:DEMO_SECRET", stdin=b"env-value-91")
    assert code == 0, err
    code, out, err = await workbench(env, "inspect", "--profile", "demo", "--json")
    assert code == 0, err
    assert "env-value-91" not in out
    code, _, _ = await workbench(env, "profile", "remove", "demo")
    assert code == 0
    assert "env-value-91" not in (tmp_path / "keyring.json").read_text()
