"""ProfileService: saving with secrets (and rolling both back), removing, renaming, allowed origins.

The credential store is the real ``KeyringCredentialStore`` over the test keyring backend
``tests.support.keyrings.RefusingKeyring``, which refuses chosen accounts the way a locked keyring
does (a ``KeyringError``), so the store raises what it raises in the field.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import keyring
import pytest
from pydantic import SecretStr

from tests.support.keyrings import RefusingKeyring
from workbench.core.credentials import SERVICE, KeyringCredentialStore
from workbench.core.errors import ConfigError, NotFoundError, SecureStorageUnavailableError
from workbench.core.profiles import A2AProfile, MCPHTTPProfile, MCPStdioProfile, SecretKind, SecretRef
from workbench.core.profiles.credential_keys import oauth_keys, secret_key
from workbench.core.profiles.service import ProfileService, SecretChanges
from workbench.core.profiles.store import ProfileStore

BEARER = secret_key("http", SecretKind.BEARER)
API_KEY = secret_key("http", SecretKind.API_KEY)


@pytest.fixture
def backend() -> Iterator[RefusingKeyring]:
    previous = keyring.get_keyring()
    ring = RefusingKeyring()
    keyring.set_keyring(ring)
    try:
        yield ring
    finally:
        keyring.set_keyring(previous)


@pytest.fixture
def store(tmp_path: Path) -> ProfileStore:
    return ProfileStore(tmp_path / "config")


@pytest.fixture
def service(store: ProfileStore, backend: RefusingKeyring) -> ProfileService:
    return ProfileService(store, KeyringCredentialStore())


def http_profile(*refs: SecretRef, name: str = "remote", profile_id: str = "http") -> MCPHTTPProfile:
    return MCPHTTPProfile(id=profile_id, name=name, url="https://mcp.example.com/mcp", secrets=list(refs))


def bearer_ref(key: str = BEARER) -> SecretRef:
    return SecretRef(kind=SecretKind.BEARER, key=key)


def api_key_ref(key: str = API_KEY) -> SecretRef:
    return SecretRef(kind=SecretKind.API_KEY, key=key)


# ------------------------------------------------------------------ save


@pytest.mark.asyncio
async def test_save_stores_the_values_and_the_profile_with_references_only(
    service: ProfileService, store: ProfileStore, backend: RefusingKeyring
) -> None:
    profile = http_profile(bearer_ref(), api_key_ref())
    changes = SecretChanges(store={BEARER: SecretStr("tok-1"), API_KEY: SecretStr("key-1")})
    assert await service.save(profile, changes) == []
    assert store.load() == [profile]
    assert (backend.value(BEARER), backend.value(API_KEY)) == ("tok-1", "key-1")
    assert "tok-1" not in store.path.read_text()


@pytest.mark.asyncio
async def test_a_refused_value_rolls_back_the_values_written_and_saves_nothing(
    service: ProfileService, store: ProfileStore, backend: RefusingKeyring
) -> None:
    await service.save(http_profile(bearer_ref()), SecretChanges(store={BEARER: SecretStr("old-token")}))
    saved_before = store.path.read_bytes()
    backend.refuse_set.add(API_KEY)

    edited = http_profile(bearer_ref(), api_key_ref(), name="edited")
    changes = SecretChanges(store={BEARER: SecretStr("new-token"), API_KEY: SecretStr("key-1")})
    with pytest.raises(SecureStorageUnavailableError):
        await service.save(edited, changes)

    assert backend.value(BEARER) == "old-token"  # the replaced value is put back
    assert backend.value(API_KEY) is None
    assert store.path.read_bytes() == saved_before


@pytest.mark.asyncio
async def test_a_profile_that_cannot_be_written_rolls_back_its_new_values(
    service: ProfileService, store: ProfileStore, backend: RefusingKeyring
) -> None:
    store.path.parent.mkdir(parents=True)
    store.path.mkdir()  # the profile file's name is taken by a directory: reading and writing it fail
    changes = SecretChanges(store={BEARER: SecretStr("tok-1")})
    with pytest.raises(ConfigError):
        await service.save(http_profile(bearer_ref()), changes)
    assert backend.value(BEARER) is None
    assert store.path.is_dir()


@pytest.mark.asyncio
async def test_save_forgets_dropped_secrets_but_keeps_those_another_profile_refers_to(
    service: ProfileService, store: ProfileStore, backend: RefusingKeyring
) -> None:
    profile = http_profile(bearer_ref(), api_key_ref())
    await service.save(profile, SecretChanges(store={BEARER: SecretStr("tok"), API_KEY: SecretStr("key")}))
    copy = service.duplicate(profile)
    assert copy.secrets == profile.secrets  # the copy shares the original's keys

    failures = await service.save(http_profile(bearer_ref()), SecretChanges(forget=(API_KEY,)))
    assert failures == []
    assert (backend.value(BEARER), backend.value(API_KEY)) == ("tok", "key")  # the copy still uses the key

    await service.save(copy.with_changes(secrets=[bearer_ref().model_dump()]), SecretChanges(forget=(API_KEY,)))
    assert (backend.value(BEARER), backend.value(API_KEY)) == ("tok", None)  # nothing refers to it now


@pytest.mark.asyncio
async def test_a_dropped_secret_the_keyring_refuses_to_forget_is_reported_and_the_profile_saved(
    service: ProfileService, store: ProfileStore, backend: RefusingKeyring
) -> None:
    await service.save(http_profile(bearer_ref()), SecretChanges(store={BEARER: SecretStr("tok")}))
    backend.refuse_delete.add(BEARER)
    failures = await service.save(http_profile(name="no secrets"), SecretChanges(forget=(BEARER,)))
    assert [type(error) for _, error in failures] == [SecureStorageUnavailableError]
    assert [p.name for p in store.load()] == ["no secrets"]


@pytest.mark.asyncio
async def test_set_secret_replaces_the_one_filling_the_same_target_and_rolls_back_when_refused(
    service: ProfileService, store: ProfileStore, backend: RefusingKeyring
) -> None:
    profile = service.add(http_profile())
    profile = await service.set_secret(profile, SecretKind.BEARER, "", SecretStr("tok-1"))
    assert store.load()[0].secrets == [bearer_ref()]
    before = store.path.read_bytes()
    backend.refuse_set.add(API_KEY)
    with pytest.raises(SecureStorageUnavailableError):
        await service.set_secret(profile, SecretKind.API_KEY, "", SecretStr("key-1"))
    assert store.path.read_bytes() == before
    with pytest.raises(ConfigError):
        await service.set_secret(profile, SecretKind.ENV, "TOKEN", SecretStr("x"))  # env is for stdio servers


@pytest.mark.asyncio
async def test_clear_secrets_keeps_the_reference_to_a_value_the_keyring_refused_to_forget(
    service: ProfileService, store: ProfileStore, backend: RefusingKeyring
) -> None:
    profile = http_profile(bearer_ref(), api_key_ref())
    await service.save(profile, SecretChanges(store={BEARER: SecretStr("tok"), API_KEY: SecretStr("key")}))
    backend.refuse_delete.add(API_KEY)
    with pytest.raises(SecureStorageUnavailableError):
        await service.clear_secrets(profile)
    [kept] = store.load()
    assert kept.secrets == [api_key_ref()]  # still refers to the value the keyring kept, so it can be found
    assert (backend.value(BEARER), backend.value(API_KEY)) == (None, "key")
    backend.refuse_delete.clear()
    updated, count = await service.clear_secrets(kept, SecretKind.API_KEY)
    assert (count, updated.secrets, store.load()) == (1, [], [updated])
    assert backend.value(API_KEY) is None


def test_add_refuses_a_name_a_saved_profile_has(service: ProfileService) -> None:
    service.add(http_profile())
    with pytest.raises(ConfigError):
        service.add(A2AProfile(id="other", name="remote", url="https://agent.example.com/"))


# ------------------------------------------------------------------ remove


@pytest.mark.asyncio
async def test_remove_forgets_the_secrets_and_the_oauth_login_then_the_profile(
    service: ProfileService, store: ProfileStore, backend: RefusingKeyring
) -> None:
    profile = MCPHTTPProfile(
        id="http", name="remote", url="https://mcp.example.com/mcp", auth="oauth", secrets=[api_key_ref()]
    )
    await service.save(profile, SecretChanges(store={API_KEY: SecretStr("key")}))
    tokens, client = oauth_keys(profile.id)
    backend.set_password(SERVICE, tokens, "{}")
    backend.set_password(SERVICE, client, "{}")
    await service.remove(profile)
    assert store.load() == []
    assert [backend.value(k) for k in (API_KEY, tokens, client)] == [None, None, None]


@pytest.mark.asyncio
async def test_remove_keeps_the_profile_while_the_keyring_refuses_to_forget_its_secrets(
    service: ProfileService, store: ProfileStore, backend: RefusingKeyring
) -> None:
    profile = http_profile(bearer_ref(), api_key_ref())
    await service.save(profile, SecretChanges(store={BEARER: SecretStr("tok"), API_KEY: SecretStr("key")}))
    backend.refuse_delete.add(BEARER)
    with pytest.raises(SecureStorageUnavailableError):
        await service.remove(profile)
    assert store.load() == [profile]  # the profile still names the key the keyring kept
    assert (backend.value(BEARER), backend.value(API_KEY)) == ("tok", None)  # every part was tried

    backend.refuse_delete.clear()
    await service.remove(profile)  # removing again finishes the job
    assert store.load() == []
    assert backend.value(BEARER) is None


@pytest.mark.asyncio
async def test_remove_keeps_values_a_session_only_profile_refers_to_and_tolerates_a_profile_already_gone(
    service: ProfileService, store: ProfileStore, backend: RefusingKeyring
) -> None:
    profile = http_profile(bearer_ref())
    await service.save(profile, SecretChanges(store={BEARER: SecretStr("tok")}))
    shown = http_profile(bearer_ref(), profile_id="session-only")
    store.delete(profile.id)  # removed elsewhere meanwhile
    await service.remove(profile, shown=[shown])
    assert backend.value(BEARER) == "tok"
    await service.remove(shown, persisted=False)
    assert backend.value(BEARER) is None


# ------------------------------------------------------------------ rename


@pytest.mark.asyncio
async def test_rename_keeps_the_id_so_the_secrets_still_resolve(
    service: ProfileService, store: ProfileStore, backend: RefusingKeyring
) -> None:
    await service.save(http_profile(bearer_ref()), SecretChanges(store={BEARER: SecretStr("tok")}))
    renamed = service.rename("http", "renamed")
    assert [(p.id, p.name) for p in store.load()] == [("http", "renamed")]
    assert await KeyringCredentialStore().resolve(renamed.secrets[0]) == "tok"
    assert service.find("renamed") == renamed


def test_rename_refuses_a_taken_or_invalid_name_and_an_unknown_profile(service: ProfileService) -> None:
    service.add(http_profile())
    service.add(A2AProfile(id="a2a", name="agent", url="https://agent.example.com/"))
    with pytest.raises(ConfigError):
        service.rename("http", "agent")
    with pytest.raises(ConfigError):
        service.rename("http", "")
    with pytest.raises(NotFoundError):
        service.rename("missing", "x")
    assert [p.name for p in service.saved()] == ["remote", "agent"]


# ------------------------------------------------------------------ allowed origins


def test_an_approved_origin_is_saved_once_and_only_for_http_profiles(
    service: ProfileService, store: ProfileStore
) -> None:
    service.add(http_profile())
    service.add(MCPStdioProfile(id="stdio", name="local", command="python"))
    assert service.allow_origin("http", "https://auth.example.com:8443")
    assert service.allow_origin("http", "https://auth.example.com:8443")
    assert store.get("http").allowed_origins == ["https://auth.example.com:8443"]  # type: ignore[union-attr]
    assert not service.allow_origin("stdio", "https://auth.example.com")
    assert not service.allow_origin("missing", "https://auth.example.com")
    with pytest.raises(ConfigError):
        service.allow_origin("http", "ftp://files.example.com")


def test_forgetting_origins_refuses_one_the_profile_does_not_allow(service: ProfileService) -> None:
    profile = http_profile().with_changes(allowed_origins=["https://a.example.com", "https://b.example.com"])
    kept = ProfileService.without_origins(profile, ["https://a.example.com"])
    assert kept.allowed_origins == ["https://b.example.com:443"]
    with pytest.raises(ConfigError) as refused:
        ProfileService.without_origins(profile, ["https://c.example.com"])
    assert refused.value.details["allowed"] == ["https://a.example.com:443", "https://b.example.com:443"]


def test_find_takes_an_id_first_then_a_unique_name(service: ProfileService, store: ProfileStore) -> None:
    store.save([http_profile(), http_profile(profile_id="twin"), http_profile(name="http", profile_id="other")])
    assert service.find("http").id == "http"  # the id wins over the other profile's name
    with pytest.raises(NotFoundError):
        service.find("remote")  # two profiles have it
    with pytest.raises(NotFoundError):
        service.find("nothing")
