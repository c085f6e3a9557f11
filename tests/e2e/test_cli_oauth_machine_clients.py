"""``workbench profile add/edit … --oauth-grant/--oauth-client-key-file/--oauth-dpop``, then ``login`` and ``inspect``.

Against the loopback authorization server for the grants without a browser (``tests/servers/oauth_machine.py``):
a ``private_key_jwt`` client with the ``client_credentials`` grant and DPoP-bound tokens. The CLI runs
in this process with a throwaway file keyring.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.servers.oauth_machine import CLIENT_ID, serve_machine_oauth
from tests.support.cli_profiles import cli_env, saved_profile, saved_text, workbench

pytestmark = pytest.mark.asyncio


async def test_a_private_key_client_credentials_dpop_profile_logs_in_and_inspects_without_a_browser(
    tmp_path: Path,
) -> None:
    env = cli_env(tmp_path)
    async with serve_machine_oauth() as servers:
        key_file = tmp_path / "client.pem"
        key_file.write_text(servers.client_key_pem)
        code, _, err = await workbench(
            env, "profile", "add", "machine", "--mcp", servers.url, "--oauth", "--oauth-client-id", CLIENT_ID,
            "--oauth-client-key-file", str(key_file), "--oauth-dpop",
        )  # fmt: skip
        assert code == 0, err
        saved = await saved_profile(env, "machine")
        assert (saved["oauth_client"], saved["oauth_grant"], saved["oauth_dpop"]) == (
            "private-key-jwt",
            "client_credentials",
            True,
        )
        assert (saved["oauth_client_key_file"], saved["oauth_client_key_algorithm"]) == (str(key_file), "ES256")
        code, out, _ = await workbench(env, "profile", "list")
        assert "[oauth: private-key-jwt, client_credentials, DPoP]" in out

        code, out, err = await workbench(env, "login", "machine", "--no-browser")
        assert code == 0, err
        code, out, err = await workbench(env, "inspect", "--profile", "machine", "--json")
        assert code == 0, err
        assert "add" in {tool["name"] for tool in json.loads(out)["tools"]}

    assert servers.authorization_server.seen.grants == ["client_credentials"]  # inspect reused the login
    assert set(servers.resource.seen.schemes) == {"DPoP"} and servers.resource.seen.replayed == 0
    key_body = servers.client_key_pem.split("-----")[2].strip().splitlines()[1]
    keyring = (tmp_path / "keyring.json").read_text()
    assert key_body not in keyring and key_body not in saved_text(tmp_path)
    assert key_body not in out and key_body not in err


async def test_profile_edit_sets_the_grant_the_key_and_dpop_and_turns_dpop_off_again(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    async with serve_machine_oauth() as servers:
        key_file = tmp_path / "client.pem"
        key_file.write_text(servers.client_key_pem)
    code, _, err = await workbench(env, "profile", "add", "m", "--mcp", "https://mcp.example/mcp", "--oauth")
    assert code == 0, err
    code, _, err = await workbench(
        env, "profile", "edit", "m", "--oauth-client-id", CLIENT_ID, "--oauth-client-key-file", str(key_file),
        "--oauth-client-key-algorithm", "ES256", "--oauth-grant", "client_credentials", "--oauth-dpop",
    )  # fmt: skip
    assert code == 0, err
    saved = await saved_profile(env, "m")
    assert (saved["oauth_client"], saved["oauth_grant"], saved["oauth_dpop"]) == (
        "private-key-jwt",
        "client_credentials",
        True,
    )
    code, _, err = await workbench(env, "profile", "edit", "m", "--oauth-client-id", "other-id", "--no-oauth-dpop")
    assert code == 0, err
    saved = await saved_profile(env, "m")
    assert (saved["oauth_client"], saved["oauth_client_id"], saved["oauth_dpop"]) == (
        "private-key-jwt",
        "other-id",
        False,
    )
    assert saved["oauth_client_key_file"] == str(key_file)
    code, _, err = await workbench(env, "profile", "edit", "m", "--oauth-dynamic-client")
    assert code == 0, err
    saved = await saved_profile(env, "m")
    assert (saved["oauth_client"], saved["oauth_grant"]) == ("dynamic", "authorization_code")


@pytest.mark.parametrize(
    "args",
    [  # KEY is a P-256 key: it cannot sign RS256
        ["--oauth-client-id", "id", "--oauth-client-key-file", "KEY", "--oauth-client-key-algorithm", "RS256"],
        ["--oauth-client-id", "id", "--oauth-client-key-file", "NOTAKEY"],
        ["--oauth-client-id", "id", "--oauth-client-key-file", "MISSING"],
        ["--oauth-client-key-file", "KEY"],  # no client id
        ["--oauth-grant", "client_credentials"],  # a dynamic client has nothing to authenticate with
        ["--oauth-client-id", "id", "--oauth-client-key-file", "KEY", "--oauth-grant", "authorization_code"],
    ],
)
async def test_profile_add_refuses_a_machine_client_that_cannot_work_and_saves_nothing(
    tmp_path: Path, args: list[str]
) -> None:
    env = cli_env(tmp_path)
    async with serve_machine_oauth() as servers:
        (tmp_path / "key.pem").write_text(servers.client_key_pem)
    (tmp_path / "notakey.pem").write_text("-----BEGIN PRIVATE KEY-----\nnot a key\n-----END PRIVATE KEY-----\n")
    paths = {"KEY": "key.pem", "NOTAKEY": "notakey.pem", "MISSING": "missing.pem"}
    argv = [str(tmp_path / paths[a]) if a in paths else a for a in args]
    code, _, err = await workbench(env, "profile", "add", "m", "--mcp", "https://mcp.example/mcp", "--oauth", *argv)
    assert code == 2, err
    assert "PRIVATE KEY" not in err
    code, out, _ = await workbench(env, "profile", "list", "--json")
    assert out.strip() == ""
