"""``workbench profile add/edit --a2a … --oauth-client-*``, ``secret set``, ``login`` and ``logout`` for A2A agents.

Against real loopback servers: the agent of ``tests/support/a2a_machine_agent.py`` behind the
authorization server of ``tests/servers/oauth_machine.py`` (client credentials with ``client_secret_basic``
or a ``private_key_jwt`` assertion, DPoP) and the OpenID Connect agent of
``tests/support/a2a_security_agents.py`` (authorization code with PKCE). The CLI runs in this process
with a throwaway file keyring; ``WORKBENCH_OAUTH_TEST_FOLLOW=1`` stands in for the person in the browser.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.servers.oauth_machine import CLIENT_ID, CLIENT_SECRET
from tests.support.a2a_machine_agent import serve_machine_agent
from tests.support.a2a_security_agents import CLIENT_ID as OIDC_CLIENT_ID
from tests.support.a2a_security_agents import OAuthServer, api_key_agent, oauth_agent
from tests.support.cli_profiles import (
    cli_env,
    json_error_code,
    keyring_entries,
    oauth_cli_env,
    saved_profile,
    saved_text,
    workbench,
)
from tests.support.cli_runner import json_lines
from workbench.demo.a2a_agents import serve_agent

pytestmark = pytest.mark.asyncio


def _token_keys(tmp_path: Path) -> list[str]:
    return [k for k in keyring_entries(tmp_path) if k.endswith(":token")]


async def test_a_pre_registered_client_logs_in_with_client_credentials_explained_and_send_reuses_the_token(
    tmp_path: Path,
) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_machine_agent() as servers:
        code, _, err = await workbench(
            env, "profile", "add", "m", "--a2a", servers.url, "--oauth-client-id", CLIENT_ID,
            "--oauth-client-secret-from-stdin", stdin=CLIENT_SECRET.encode(),
        )  # fmt: skip
        assert code == 0, err
        saved = await saved_profile(env, "m")
        assert (saved["oauth_client"], saved["oauth_token_auth"]) == ("pre-registered", "client_secret_basic")
        code, out, _ = await workbench(env, "profile", "list")
        assert "[oauth: pre-registered]" in out

        code, out, err = await workbench(env, "login", "m", "--explain")
        assert code == 0, err
        assert "1. Token  POST " in out and "/token → 200  ✓" in out and "logged in to m" in err
        code, out, err = await workbench(env, "send", "--profile", "m", "hello", "--json")
        assert code == 0, err
    assert servers.authorization_server.seen.grants == ["client_credentials"]  # send reused the login's token
    assert set(servers.seen.schemes) == {"Bearer"}
    assert len(_token_keys(tmp_path)) == 1
    assert CLIENT_SECRET not in out + err and CLIENT_SECRET not in saved_text(tmp_path)


async def test_a_private_key_client_with_dpop_logs_in_as_json_then_logout_forgets_the_token(tmp_path: Path) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_machine_agent() as servers:
        key_file = tmp_path / "client.pem"
        key_file.write_text(servers.client_key_pem)
        code, _, err = await workbench(
            env, "profile", "add", "k", "--a2a", servers.url, "--oauth-client-id", CLIENT_ID,
            "--oauth-client-key-file", str(key_file), "--oauth-dpop",
        )  # fmt: skip
        assert code == 0, err
        saved = await saved_profile(env, "k")
        assert (saved["oauth_client"], saved["oauth_client_key_algorithm"], saved["oauth_dpop"]) == (
            "private-key-jwt",
            "ES256",
            True,
        )
        code, out, err = await workbench(env, "login", "k", "--json")
        assert code == 0, err
        lines = json_lines(out)
        assert [(s["step"], s["status"]) for s in lines[:-1]] == [("discovery", "ok"), ("token", "ok")]
        assert lines[-1]["logged_in"] == "k"
        assert len(_token_keys(tmp_path)) == 1

        code, _, err = await workbench(env, "logout", "k")
        assert code == 0, err
        assert "forgot 1 stored item(s)" in err
        assert _token_keys(tmp_path) == []
    assert servers.authorization_server.seen.token_proofs == 1
    key_body = servers.client_key_pem.splitlines()[1]
    assert key_body not in out + err and key_body not in json.dumps(keyring_entries(tmp_path))


async def test_secret_set_stores_an_a2a_clients_key_and_refuses_an_mcp_grants_secret(tmp_path: Path) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_machine_agent() as servers:
        key_file = tmp_path / "client.pem"
        key_file.write_text(servers.client_key_pem)
        code, _, err = await workbench(env, "profile", "add", "s", "--a2a", servers.url)
        assert code == 0, err
        code, _, err = await workbench(
            env, "profile", "edit", "s", "--oauth-client-id", CLIENT_ID, "--oauth-token-auth", "none"
        )
        assert code == 0, err
        code, _, err = await workbench(env, "secret", "set", "s", "oauth-client-key", "--file", str(key_file))
        assert code == 0, err
        saved = await saved_profile(env, "s")
        assert (saved["oauth_client"], saved["oauth_client_key_file"], saved["oauth_client_key_algorithm"]) == (
            "private-key-jwt",
            None,
            "ES256",
        )
        code, _, err = await workbench(env, "login", "s")
        assert code == 0, err
        code, _, err = await workbench(env, "secret", "set", "s", "oauth-assertion", stdin=b"a.b.c")
        assert code == 2, err
    assert servers.authorization_server.seen.grants == ["client_credentials"]


async def test_an_openid_connect_agent_logs_in_in_the_browser_with_a_public_pre_registered_client(
    tmp_path: Path,
) -> None:
    env = oauth_cli_env(tmp_path)
    server = OAuthServer()
    async with serve_agent(oauth_agent("oidc", server)) as url:
        code, _, err = await workbench(
            env, "profile", "add", "o", "--a2a", url, "--oauth-client-id", OIDC_CLIENT_ID, "--oauth-token-auth", "none"
        )
        assert code == 0, err
        code, out, err = await workbench(env, "login", "o", "--explain")
        assert code == 0, err
        code, _, err = await workbench(env, "send", "--profile", "o", "hello")
        assert code == 0, err
    headlines = [line for line in out.splitlines() if line[:1].isdigit()]
    assert [h.split("  ")[0] for h in headlines] == [
        "1. Authorization-server metadata",
        "2. Authorization request",
        "3. Callback",
        "4. Token",
    ]
    assert server.grants == ["authorization_code"] and server.authorizations == 1


async def test_a_refused_client_fails_at_the_token_step_prints_no_secret_stores_no_token_until_secret_set_fixes_it(
    tmp_path: Path,
) -> None:
    env = oauth_cli_env(tmp_path)
    wrong = "not-the-secret-5521"
    async with serve_machine_agent() as servers:
        code, _, err = await workbench(
            env, "profile", "add", "w", "--a2a", servers.url, "--oauth-client-id", CLIENT_ID,
            "--oauth-client-secret-from-stdin", stdin=wrong.encode(),
        )  # fmt: skip
        assert code == 0, err
        code, out, err = await workbench(env, "login", "w", "--explain")
        assert code == 1
        code, jout, jerr = await workbench(env, "login", "w", "--json")
        assert code == 1
        assert _token_keys(tmp_path) == []
        code, _, err = await workbench(env, "secret", "set", "w", "oauth-client-secret", stdin=CLIENT_SECRET.encode())
        assert code == 0, err
        code, _, err = await workbench(env, "login", "w")
        assert code == 0, err
    assert servers.authorization_server.seen.grants == ["client_credentials"] * 3  # refused twice, then granted
    assert "✗ step 1 token" in out
    assert json_error_code(jout) == "auth-required"
    assert wrong not in out + err + jout + jerr and CLIENT_SECRET not in err


async def test_login_says_when_the_card_declares_no_oauth_scheme(tmp_path: Path) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_agent(api_key_agent()) as url:
        code, _, err = await workbench(env, "profile", "add", "plain", "--a2a", url)
        assert code == 0, err
        code, out, err = await workbench(env, "login", "plain", "--json")
    assert code == 2
    error = json_lines(out)[-1]["error"]
    assert error["details"]["oauth"] == "no-oauth-scheme"
    assert _token_keys(tmp_path) == []


@pytest.mark.parametrize(
    "args",
    [
        ["--oauth-client-id", "id", "--oauth-client-key-file", "MISSING"],
        ["--oauth-client-key-file", "KEY"],  # no client id
        ["--oauth-client-id", "id", "--oauth-grant", "client_credentials"],  # the card names the grant
        ["--oauth"],
        ["--oauth-client-id", "id"],  # a secret method without the secret
    ],
)
async def test_profile_add_a2a_refuses_a_client_that_cannot_work_and_saves_nothing(
    tmp_path: Path, args: list[str]
) -> None:
    env = cli_env(tmp_path)
    async with serve_machine_agent() as servers:
        (tmp_path / "key.pem").write_text(servers.client_key_pem)
    paths = {"KEY": "key.pem", "MISSING": "missing.pem"}
    argv = [str(tmp_path / paths[a]) if a in paths else a for a in args]
    code, _, err = await workbench(env, "profile", "add", "a", "--a2a", "https://agent.example", *argv)
    assert code == 2, err
    assert "PRIVATE KEY" not in err
    code, out, _ = await workbench(env, "profile", "list", "--json")
    assert out.strip() == ""
    assert keyring_entries(tmp_path) == {}
