"""``workbench login`` / ``workbench logout`` against a real authorization server and protected MCP server.

The CLI runs as a subprocess with a throwaway file keyring. ``WORKBENCH_OAUTH_TEST_FOLLOW=1`` is the
CLI's test hook: instead of a browser, the login follows the authorization URL with an HTTP client
(the test authorization server approves at once and redirects to the loopback receiver).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.servers.oauth_as import TokenAuth, serve_oauth_protected_mcp
from tests.support.cli_profiles import keyring_entries, oauth_cli_env, workbench
from workbench.core.http.origins import origin_of

pytestmark = pytest.mark.asyncio


async def test_login_reports_each_step_stores_tokens_only_in_the_keyring_and_logout_revokes_them(
    tmp_path: Path,
) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_oauth_protected_mcp() as servers:
        code, _, err = await workbench(env, "profile", "add", "secure", "--mcp", servers.url, "--oauth")
        assert code == 0, err
        code, _, err = await workbench(env, "login", "secure", "--no-browser")
        assert code == 0, err
        stages = re.findall(r"^\[(\w+)\] (\w+):", err, flags=re.MULTILINE)
        assert stages == [
            ("discovery", "ok"),
            ("discovery", "ok"),
            ("registration", "ok"),
            ("authorize", "ok"),
            ("callback", "ok"),
            ("token", "ok"),
        ], err
        assert "Open this URL to log in" in err and "logged in to secure" in err
        live = servers.provider.live_tokens()
        assert live and all(token in json.dumps(keyring_entries(tmp_path)) for token in live)
        for path in (tmp_path / "config").rglob("*"):
            if path.is_file():
                assert not any(token in path.read_text(errors="replace") for token in live), path
        assert not any(token in err for token in live)

        code, _, err = await workbench(env, "logout", "secure")
        assert code == 0, err
        assert re.search(r"^\[revoke\] ok:", err, flags=re.MULTILINE), err
        assert servers.provider.live_tokens() == []
        assert not any("oauth:" in key for key in keyring_entries(tmp_path))


async def test_login_json_prints_one_object_per_step_and_a_second_login_reuses_the_registration(
    tmp_path: Path,
) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_oauth_protected_mcp() as servers:
        code, _, err = await workbench(env, "profile", "add", "secure", "--mcp", servers.url, "--oauth")
        assert code == 0, err
        for _ in range(2):
            code, out, err = await workbench(env, "login", "secure", "--json")
            assert code == 0, err
        lines = [json.loads(line) for line in out.splitlines()]
        steps = ["refresh", "discovery", "discovery", "authorize", "callback", "token"]
        assert [line.get("step") for line in lines[:-1]] == steps  # the stored tokens set aside, then a login
        assert lines[0]["status"] == "skipped" and all(line["wire_seqs"] for line in lines[1:3])
        assert lines[-1]["logged_in"] == "secure" and lines[-1]["scope"] == "mcp:tools"
        assert servers.provider.counters.registrations == 1
        assert len(set(servers.provider.counters.redirect_uris)) == 1


async def test_login_to_a_profile_without_oauth_is_a_usage_error(tmp_path: Path) -> None:
    env = oauth_cli_env(tmp_path)
    code, _, err = await workbench(env, "profile", "add", "plain", "--mcp", "http://127.0.0.1:9/mcp")
    assert code == 0, err
    code, _, err = await workbench(env, "login", "plain")
    assert code == 2
    assert "--oauth" in err


def _expire_stored_tokens(tmp_path: Path) -> None:
    """Move the stored access token's expiry into the past, as if the login were hours old."""
    path = tmp_path / "keyring.json"
    entries = json.loads(path.read_text())
    for key, value in entries.items():
        if key.endswith("oauth:tokens"):
            stored = json.loads(value)
            stored["expires_at"] = 1.0
            entries[key] = json.dumps(stored)
    path.write_text(json.dumps(entries))


@pytest.mark.parametrize("token_auth", ["client_secret_basic", "client_secret_post", "none"])
async def test_login_and_refresh_work_with_the_authorization_server_elsewhere_whatever_its_client_authentication(
    tmp_path: Path, token_auth: TokenAuth
) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_oauth_protected_mcp(token_auth=token_auth) as servers:
        assert origin_of(servers.issuer) != origin_of(servers.url)
        code, _, err = await workbench(env, "profile", "add", "secure", "--mcp", servers.url, "--oauth")
        assert code == 0, err
        code, _, err = await workbench(env, "login", "secure", "--no-browser")
        assert code == 0, err
        _expire_stored_tokens(tmp_path)
        code, _, err = await workbench(env, "call", "--profile", "secure", "add", "--args", '{"a":2,"b":3}', "--json")
        assert code == 0, err
        assert servers.provider.counters.refresh_grants == 1
        assert servers.provider.counters.authorizations == 1
        client = next(iter(servers.provider.clients.values()))
        assert client.token_endpoint_auth_method == token_auth


@pytest.mark.parametrize("endpoint", ["token_endpoint", "registration_endpoint", "authorization_endpoint"])
async def test_a_login_refuses_an_authorization_server_endpoint_over_plain_http_off_this_machine_before_sending(
    tmp_path: Path, endpoint: str
) -> None:
    env = oauth_cli_env(tmp_path)
    elsewhere = "http://auth.example/" + endpoint.removesuffix("_endpoint")
    async with serve_oauth_protected_mcp(metadata_overrides={endpoint: elsewhere}) as servers:
        code, _, err = await workbench(env, "profile", "add", "secure", "--mcp", servers.url, "--oauth")
        assert code == 0, err
        code, out, err = await workbench(env, "login", "secure", "--json")
        assert code == 1, err
        failed = json.loads(out.splitlines()[-1])
        assert failed["kind"] == "failed" and failed["error"]["code"] == "insecure-endpoint", out
        assert failed["error"]["details"]["url"] == elsewhere
        steps = [json.loads(line) for line in out.splitlines()[:-1]]
        assert steps[-1]["step"] == "discovery" and steps[-1]["status"] == "failed"
        counters = servers.provider.counters
        assert (counters.registrations, counters.authorizations, counters.code_grants) == (0, 0, 0)
        assert not any("oauth:tokens" in key for key in keyring_entries(tmp_path))


async def test_a_login_refuses_a_protected_resource_naming_an_authorization_server_over_plain_http_elsewhere(
    tmp_path: Path,
) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_oauth_protected_mcp(named_authorization_server="http://auth.example/") as servers:
        code, _, err = await workbench(env, "profile", "add", "secure", "--mcp", servers.url, "--oauth")
        assert code == 0, err
        code, out, err = await workbench(env, "login", "secure", "--json")
        assert code == 1, err
        failed = json.loads(out.splitlines()[-1])
        assert failed["error"]["code"] == "insecure-endpoint", out
        assert failed["error"]["details"]["url"].startswith("http://auth.example/")
        assert servers.provider.counters.registrations == 0
