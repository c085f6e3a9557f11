"""``workbench profile add/edit … --oauth --oauth-client-*``: pre-registered and CIMD clients, then ``workbench login``.

The CLI runs in this process with a throwaway file keyring; ``WORKBENCH_OAUTH_TEST_FOLLOW=1`` makes
the login follow the authorization URL with an HTTP client (the test authorization server approves
at once).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp.shared.auth import OAuthClientInformationFull

from tests.servers.oauth_as import SCOPE, serve_oauth_protected_mcp
from tests.support.cli_profiles import keyring_entries, oauth_cli_env, saved_text, workbench
from workbench.core.http.loopback import free_port, redirect_uri

pytestmark = pytest.mark.asyncio

SECRET = "cli-pre-registered-secret-93d1"


@pytest.mark.parametrize("method", ["client_secret_basic", "client_secret_post"])
async def test_a_pre_registered_client_with_its_secret_from_stdin_logs_in_without_registering(
    tmp_path: Path, method: str
) -> None:
    env = oauth_cli_env(tmp_path)
    async with serve_oauth_protected_mcp() as servers:
        port = free_port()
        code, _, err = await workbench(
            env, "profile", "add", "pre", "--mcp", servers.url, "--oauth", "--oauth-client-id", "pre-id",
            "--oauth-token-auth", method, "--oauth-client-secret-from-stdin", "--oauth-redirect-port", str(port),
            stdin=SECRET.encode(),
        )  # fmt: skip
        assert code == 0, err
        servers.provider.clients["pre-id"] = OAuthClientInformationFull(
            client_id="pre-id",
            client_secret=SECRET,
            redirect_uris=[redirect_uri(port)],  # type: ignore[list-item]
            token_endpoint_auth_method=method,  # type: ignore[arg-type]
            scope=SCOPE,
        )
        assert SECRET in json.dumps(keyring_entries(tmp_path))
        assert SECRET not in saved_text(tmp_path)
        code, _, err = await workbench(env, "login", "pre", "--no-browser")
        assert code == 0, err
        assert servers.provider.counters.registrations == 0
        assert servers.provider.counters.code_grants == 1
        assert SECRET not in err


async def test_profile_edit_switches_to_a_client_metadata_document_and_back_forgetting_the_secret(
    tmp_path: Path,
) -> None:
    env = oauth_cli_env(tmp_path)
    code, _, err = await workbench(
        env, "profile", "add", "p", "--mcp", "https://mcp.example/mcp", "--oauth", "--oauth-client-id", "id",
        "--oauth-client-secret-from-stdin", stdin=SECRET.encode(),
    )  # fmt: skip
    assert code == 0, err
    assert SECRET in json.dumps(keyring_entries(tmp_path))
    code, _, err = await workbench(
        env, "profile", "edit", "p", "--oauth-client-metadata-url", "https://app.example/client.json"
    )
    assert code == 0, err
    profile = json.loads((await workbench(env, "profile", "list", "--json"))[1])
    assert profile["oauth_client"] == "metadata-document"
    assert profile["oauth_client_metadata_url"] == "https://app.example/client.json"
    assert SECRET not in json.dumps(keyring_entries(tmp_path))
    code, _, err = await workbench(env, "profile", "edit", "p", "--oauth-dynamic-client")
    assert code == 0, err
    assert json.loads((await workbench(env, "profile", "list", "--json"))[1])["oauth_client"] == "dynamic"


@pytest.mark.parametrize(
    "args",
    [
        ["--oauth-client-id", "id"],  # a secret method without a secret
        ["--oauth-client-id", "id", "--oauth-client-metadata-url", "https://app.example/c.json"],
        ["--oauth-client-metadata-url", "http://app.example/c.json"],  # plain http off this machine
        ["--oauth-client-metadata-url", "https://app.example/"],  # no path
    ],
)
async def test_profile_add_refuses_an_oauth_client_that_cannot_work_and_saves_nothing(
    tmp_path: Path, args: list[str]
) -> None:
    env = oauth_cli_env(tmp_path)
    code, _, err = await workbench(env, "profile", "add", "p", "--mcp", "https://mcp.example/mcp", "--oauth", *args)
    assert code == 2, err
    assert json.loads((await workbench(env, "profile", "list", "--json"))[1] or "null") is None
    assert keyring_entries(tmp_path) == {}
