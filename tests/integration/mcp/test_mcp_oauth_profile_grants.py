"""Saved profiles logging in through the grants without a browser: JWT bearer, enterprise-managed, a stored client key.

Against the loopback authorization server of ``tests/servers/oauth_machine.py`` (it verifies workload
JWTs, client assertions and serves an IdP token exchange). The profile goes through
``workbench.core.oauth_login.login``, the path of ``workbench login`` and the window's "Log in".
Tokens and secrets come from files (read at each login) or from the credential store; bad input is
refused with a typed error and nothing stored.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from pydantic import SecretStr

from tests.servers.oauth_machine import CLIENT_ID, CLIENT_SECRET, ID_TOKEN, JWT_BEARER, TOKEN_EXCHANGE, MachineServers
from tests.servers.oauth_machine import serve_machine_oauth as serve
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import ConfigError, OAuthRefusedError, WorkbenchError
from workbench.core.oauth_login import login
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.profiles.credential_keys import (
    oauth_assertion_key,
    oauth_client_key_key,
    oauth_client_secret_key,
    oauth_id_token_key,
    oauth_idp_client_secret_key,
)
from workbench.core.profiles.oauth_secrets import set_oauth_secret
from workbench.core.profiles.service import ProfileService
from workbench.core.profiles.store import ProfileStore
from workbench.core.protocols.mcp.oauth_storage import tokens_key
from workbench.core.wire.recorder import WireRecorder

pytestmark = pytest.mark.asyncio


async def no_browser(url: str) -> None:
    raise AssertionError(f"a grant without a browser opened {url}")


@pytest_asyncio.fixture
async def servers() -> AsyncIterator[MachineServers]:
    async with serve() as running:
        yield running


def profile(servers: MachineServers, **fields: Any) -> MCPHTTPProfile:
    return MCPHTTPProfile(name="p", url=servers.url, auth="oauth", connect_timeout=10, **fields)


def enterprise(servers: MachineServers, **fields: Any) -> MCPHTTPProfile:
    return profile(
        servers,
        oauth_client="pre-registered",
        oauth_client_id=CLIENT_ID,
        oauth_grant="enterprise_managed",
        oauth_idp_token_endpoint=servers.idp_token_endpoint,
        oauth_idp_client_id="idp-client",
        **fields,
    )


async def log_in(p: MCPHTTPProfile, store: MemoryCredentialStore, tmp_path: Path) -> str:
    """Log in; return the wire log's text."""
    wire = WireRecorder()
    await login(p, store, opener=no_browser, wire=wire, timeout=20)
    assert await store.get(tokens_key(p.id)) is not None
    target = tmp_path / "wire.jsonl"
    wire.export_jsonl(target)
    return target.read_text()


async def test_a_jwt_bearer_profile_reads_the_workload_jwt_file_again_at_each_login(
    servers: MachineServers, tmp_path: Path
) -> None:
    token_file = tmp_path / "token"
    first = servers.workload_jwt()
    token_file.write_text(first + "\n")
    p = profile(servers, oauth_client="pre-registered", oauth_client_id="workload", oauth_token_auth="none")
    p = p.with_changes(oauth_grant="jwt_bearer", oauth_assertion_file=str(token_file))
    store = MemoryCredentialStore()
    assert first not in await log_in(p, store, tmp_path)
    second = servers.workload_jwt()  # the platform rotated the token
    token_file.write_text(second)
    assert second not in await log_in(p, store, tmp_path)
    assert servers.authorization_server.seen.grants == [JWT_BEARER, JWT_BEARER]


async def test_a_jwt_bearer_profile_takes_the_workload_jwt_from_the_keyring(
    servers: MachineServers, tmp_path: Path
) -> None:
    p = profile(
        servers,
        oauth_client="pre-registered",
        oauth_client_id="workload",
        oauth_token_auth="none",
        oauth_grant="jwt_bearer",
    )
    store = MemoryCredentialStore()
    service = ProfileService(ProfileStore(tmp_path / "config"), store)
    service.add(p)
    token = servers.workload_jwt()
    p = await set_oauth_secret(service, p, "oauth-assertion", SecretStr(token))  # type: ignore[assignment]
    assert (await store.get(oauth_assertion_key(p.id))).get_secret_value() == token  # type: ignore[union-attr]
    assert token not in await log_in(p, store, tmp_path)
    assert token not in (tmp_path / "config" / "profiles.json").read_text()


async def test_an_enterprise_profile_exchanges_the_id_token_from_its_file_with_the_idp_secret_from_the_keyring(
    servers: MachineServers, tmp_path: Path
) -> None:
    id_token_file = tmp_path / "id-token"
    id_token_file.write_text(ID_TOKEN)
    p = enterprise(servers, oauth_id_token_file=str(id_token_file))
    store = MemoryCredentialStore()
    await store.set(oauth_client_secret_key(p.id), SecretStr(CLIENT_SECRET))
    await store.set(oauth_idp_client_secret_key(p.id), SecretStr("idp-secret-41c"))
    wire = await log_in(p, store, tmp_path)
    assert servers.authorization_server.seen.grants == [TOKEN_EXCHANGE, JWT_BEARER]
    assert ID_TOKEN not in wire and "idp-secret-41c" not in wire and CLIENT_SECRET not in wire


async def test_an_enterprise_profile_takes_the_id_token_from_the_keyring(
    servers: MachineServers, tmp_path: Path
) -> None:
    p = enterprise(servers)
    store = MemoryCredentialStore()
    await store.set(oauth_client_secret_key(p.id), SecretStr(CLIENT_SECRET))
    await store.set(oauth_id_token_key(p.id), SecretStr(ID_TOKEN))
    await log_in(p, store, tmp_path)
    assert servers.authorization_server.seen.grants == [TOKEN_EXCHANGE, JWT_BEARER]


async def test_a_private_key_client_takes_its_key_from_the_keyring_once_stored_there(
    servers: MachineServers, tmp_path: Path
) -> None:
    p = profile(servers, oauth_client="pre-registered", oauth_client_id=CLIENT_ID)
    store = MemoryCredentialStore()
    service = ProfileService(ProfileStore(tmp_path / "config"), store)
    service.add(p)
    saved = await set_oauth_secret(service, p, "oauth-client-key", SecretStr(servers.client_key_pem))
    assert isinstance(saved, MCPHTTPProfile)
    assert (saved.oauth_client, saved.oauth_grant, saved.oauth_client_key_algorithm) == (
        "private-key-jwt",
        "client_credentials",
        "ES256",
    )
    assert saved.oauth_client_key_file is None and await store.get(oauth_client_key_key(p.id)) is not None
    key_body = servers.client_key_pem.splitlines()[1]
    assert key_body not in await log_in(saved, store, tmp_path)
    assert servers.authorization_server.seen.grants == ["client_credentials"]


async def test_storing_a_key_that_does_not_parse_or_fit_stores_nothing(servers: MachineServers, tmp_path: Path) -> None:
    p = profile(servers, oauth_client="pre-registered", oauth_client_id=CLIENT_ID)
    store = MemoryCredentialStore()
    service = ProfileService(ProfileStore(tmp_path / "config"), store)
    service.add(p)
    bad = "-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n"
    with pytest.raises(ConfigError) as unreadable:
        await set_oauth_secret(service, p, "oauth-client-key", SecretStr(bad))
    assert unreadable.value.details["oauth"] == "client-key-unreadable"
    with pytest.raises(ConfigError) as unfit:  # a P-256 key cannot sign RS256
        await set_oauth_secret(service, p, "oauth-client-key", SecretStr(servers.client_key_pem), algorithm="RS256")
    assert unfit.value.details["oauth"] == "client-key-algorithm"
    assert await store.get(oauth_client_key_key(p.id)) is None
    assert service.find("p") == p


@pytest.mark.parametrize(("content", "code"), [("", "token-file-empty"), ("not a jwt", "token-file-not-jwt")])
async def test_a_workload_jwt_file_that_is_empty_or_no_jwt_stops_the_login_before_anything_is_sent(
    servers: MachineServers, tmp_path: Path, content: str, code: str
) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(content)
    p = profile(servers, oauth_client="pre-registered", oauth_client_id="workload", oauth_token_auth="none")
    p = p.with_changes(oauth_grant="jwt_bearer", oauth_assertion_file=str(token_file))
    store = MemoryCredentialStore()
    with pytest.raises(WorkbenchError) as failed:
        await login(p, store, opener=no_browser, timeout=20)
    assert isinstance(failed.value, ConfigError), failed.value
    assert failed.value.details["oauth"] == code
    assert servers.authorization_server.seen.grants == []
    assert await store.get(tokens_key(p.id)) is None


async def test_a_missing_id_token_file_or_keyring_token_is_a_typed_error_and_nothing_is_stored(
    servers: MachineServers, tmp_path: Path
) -> None:
    store = MemoryCredentialStore()
    missing_file = enterprise(servers, oauth_id_token_file=str(tmp_path / "missing"))
    await store.set(oauth_client_secret_key(missing_file.id), SecretStr(CLIENT_SECRET))
    with pytest.raises(ConfigError) as unreadable:
        await login(missing_file, store, opener=no_browser, timeout=20)
    assert unreadable.value.details["oauth"] == "token-file-unreadable"
    in_keyring = enterprise(servers)
    await store.set(oauth_client_secret_key(in_keyring.id), SecretStr(CLIENT_SECRET))
    with pytest.raises(ConfigError) as missing:
        await login(in_keyring, store, opener=no_browser, timeout=20)
    assert missing.value.details["oauth"] == "id-token-missing"
    assert servers.authorization_server.seen.grants == []
    assert await store.get(tokens_key(missing_file.id)) is None and await store.get(tokens_key(in_keyring.id)) is None


async def test_the_idp_refusing_the_id_token_stops_the_login_at_the_token_step_and_nothing_is_stored(
    servers: MachineServers, tmp_path: Path
) -> None:
    id_token_file = tmp_path / "id-token"
    id_token_file.write_text("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ1c2VyLTIifQ.someone-else")
    p = enterprise(servers, oauth_id_token_file=str(id_token_file))
    store = MemoryCredentialStore()
    await store.set(oauth_client_secret_key(p.id), SecretStr(CLIENT_SECRET))
    with pytest.raises(WorkbenchError) as refused:
        await login(p, store, opener=no_browser, timeout=20)
    assert isinstance(refused.value, OAuthRefusedError), refused.value
    assert (refused.value.details["oauth"], refused.value.details["step"]) == ("token-exchange-refused", "token")
    assert servers.authorization_server.seen.grants == [TOKEN_EXCHANGE]
    assert await store.get(tokens_key(p.id)) is None
