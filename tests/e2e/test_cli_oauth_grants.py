"""``workbench profile add … --oauth-grant jwt_bearer|enterprise_managed``, ``secret set … oauth-*``, then ``login``.

Against the loopback authorization server for the grants without a browser (``tests/servers/oauth_machine.py``).
The workload-identity login runs ``python -m workbench`` as a process of its own (the token file read by
a new process), with the file test keyring (``tests/support/keyrings.py``); the other commands run in this
process (``tests/support/cli_profiles.py``), which chooses the keyring backend again from the environment.
Secrets never reach the output, the profile file, or (as the key file's body) the keyring file in clear.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.servers.oauth_machine import (
    CLIENT_ID,
    CLIENT_SECRET,
    ID_TOKEN,
    JWT_BEARER,
    TOKEN_EXCHANGE,
    serve_machine_oauth,
)
from tests.support.cli_profiles import cli_env, saved_profile, saved_text, workbench
from tests.support.cli_runner import workbench_process

pytestmark = pytest.mark.asyncio


async def test_a_jwt_bearer_profile_logs_in_from_its_workload_token_file_as_a_process(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    async with serve_machine_oauth() as servers:
        token_file = tmp_path / "token"
        token = servers.workload_jwt()
        token_file.write_text(token)
        code, _, err = await workbench(
            env, "profile", "add", "wl", "--mcp", servers.url, "--oauth", "--oauth-client-id", "workload",
            "--oauth-token-auth", "none", "--oauth-assertion-file", str(token_file),
        )  # fmt: skip
        assert code == 0, err
        saved = await saved_profile(env, "wl")
        assert (saved["oauth_grant"], saved["oauth_assertion_file"]) == ("jwt_bearer", str(token_file))
        code, out, err = await workbench_process("login", "wl", "--no-browser", env=env, timeout=90)
        assert code == 0, err
        code, out2, err2 = await workbench_process("inspect", "--profile", "wl", "--json", env=env, timeout=90)
        assert code == 0, err2
    assert "add" in {tool["name"] for tool in json.loads(out2)["tools"]}
    assert servers.authorization_server.seen.grants == [JWT_BEARER]
    assert token not in out + err + out2 + err2 and token not in saved_text(tmp_path)


async def test_an_enterprise_profile_with_its_secrets_in_the_keyring_logs_in(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    async with serve_machine_oauth() as servers:
        code, _, err = await workbench(
            env, "profile", "add", "ent", "--mcp", servers.url, "--oauth", "--oauth-client-id", CLIENT_ID,
            "--oauth-client-secret-from-stdin", "--oauth-idp-token-endpoint", servers.idp_token_endpoint,
            "--oauth-idp-client-id", "idp-client", stdin=CLIENT_SECRET.encode(),
        )  # fmt: skip
        assert code == 0, err
        assert (await saved_profile(env, "ent"))["oauth_grant"] == "enterprise_managed"
        code, _, err = await workbench(env, "secret", "set", "ent", "oauth-id-token", stdin=ID_TOKEN.encode())
        assert code == 0, err
        code, _, err = await workbench(env, "secret", "set", "ent", "oauth-idp-client-secret", stdin=b"idp-s3cr3t")
        assert code == 0, err
        code, out, err = await workbench(env, "login", "ent", "--no-browser", "--json")
        assert code == 0, err
    assert servers.authorization_server.seen.grants == [TOKEN_EXCHANGE, JWT_BEARER]
    shown = out + err
    assert ID_TOKEN not in shown and "idp-s3cr3t" not in shown and CLIENT_SECRET not in shown
    assert ID_TOKEN not in saved_text(tmp_path) and "idp-s3cr3t" not in saved_text(tmp_path)


async def test_secret_set_stores_a_client_key_from_a_file_and_login_signs_with_it(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    async with serve_machine_oauth() as servers:
        key_file = tmp_path / "client.pem"
        key_file.write_text(servers.client_key_pem)
        code, _, err = await workbench(
            env, "profile", "add", "k", "--mcp", servers.url, "--oauth", "--oauth-client-id", CLIENT_ID,
            "--oauth-client-key-file", str(key_file),
        )  # fmt: skip
        assert code == 0, err
        code, out, err = await workbench(env, "secret", "set", "k", "oauth-client-key", "--file", str(key_file))
        assert code == 0, err
        saved = await saved_profile(env, "k")
        assert (saved["oauth_client"], saved["oauth_client_key_file"], saved["oauth_client_key_algorithm"]) == (
            "private-key-jwt",
            None,
            "ES256",
        )
        key_file.unlink()  # the key now comes from the keyring
        code, out2, err2 = await workbench(env, "login", "k", "--no-browser")
        assert code == 0, err2
    assert servers.authorization_server.seen.grants == ["client_credentials"]
    key_body = servers.client_key_pem.splitlines()[1]
    assert key_body not in out + err + out2 + err2 and key_body not in saved_text(tmp_path)


@pytest.mark.parametrize(
    ("argv", "content"),
    [
        (["--oauth-client-id", "w", "--oauth-token-auth", "none", "--oauth-assertion-file", "TOKEN"], ""),
        (["--oauth-client-id", "w", "--oauth-token-auth", "none", "--oauth-assertion-file", "MISSING"], ""),
        (["--oauth-client-id", "w", "--oauth-token-auth", "none", "--oauth-assertion-file", "TOKEN"], "no jwt"),
        (["--oauth-assertion-file", "TOKEN"], "a.b.c"),  # a dynamic client cannot use jwt_bearer
        (["--oauth-client-id", "c", "--oauth-token-auth", "none", "--oauth-grant", "enterprise_managed"], ""),
        (
            [
                "--oauth-client-id",
                "c",
                "--oauth-client-secret-from-stdin",
                "--oauth-idp-client-id",
                "i",
                "--oauth-idp-token-endpoint",
                "http://idp.example/token",
            ],
            "",
        ),
        (["--oauth-client-id", "w", "--oauth-token-auth", "none", "--oauth-id-token-file", "MISSING"], ""),
    ],
)
async def test_profile_add_refuses_a_grant_that_cannot_work_and_saves_nothing(
    tmp_path: Path, argv: list[str], content: str
) -> None:
    env = cli_env(tmp_path)
    (tmp_path / "token").write_text(content)
    paths = {"TOKEN": str(tmp_path / "token"), "MISSING": str(tmp_path / "missing")}
    args = [paths.get(a, a) for a in argv]
    code, _, err = await workbench(
        env, "profile", "add", "m", "--mcp", "https://mcp.example/mcp", "--oauth", *args, stdin=b"s3cr3t"
    )
    assert code == 2, err
    assert "s3cr3t" not in err
    code, out, _ = await workbench(env, "profile", "list", "--json")
    assert out.strip() == ""


async def test_secret_set_refuses_a_key_that_does_not_parse_or_a_missing_file_and_stores_nothing(
    tmp_path: Path,
) -> None:
    env = cli_env(tmp_path)
    code, _, err = await workbench(
        env, "profile", "add", "k", "--mcp", "https://mcp.example/mcp", "--oauth", "--oauth-client-id", "id",
        "--oauth-token-auth", "none",
    )  # fmt: skip
    assert code == 0, err
    bad = tmp_path / "bad.pem"
    bad.write_text("-----BEGIN PRIVATE KEY-----\nc2VjcmV0LWJvZHk=\n-----END PRIVATE KEY-----\n")
    for file in (bad, tmp_path / "missing.pem"):
        code, out, err = await workbench(env, "secret", "set", "k", "oauth-client-key", "--file", str(file), "--json")
        assert code == 2, err
        assert "c2VjcmV0LWJvZHk" not in out + err
    code, _, err = await workbench(env, "secret", "set", "k", "oauth-assertion", stdin=b"a.b.c")
    assert code == 2, err  # the profile does not use the jwt_bearer grant
    keyring = tmp_path / "keyring.json"
    assert not keyring.exists() or "oauth:" not in keyring.read_text()
    assert (await saved_profile(env, "k"))["oauth_client"] == "pre-registered"
