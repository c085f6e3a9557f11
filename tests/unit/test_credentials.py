"""The credential store: keyring-backed with refusal of unsafe backends, and in memory."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator

import keyring
import keyring.backends.fail
import keyring.backends.null
import pytest
from pydantic import SecretStr

from tests.support.keyrings import MemoryKeyring
from workbench.core.credentials import (
    INSECURE_OPT_IN_ENV,
    KeyringCredentialStore,
    MemoryCredentialStore,
    inspect_backend,
)
from workbench.core.errors import SecureStorageUnavailableError
from workbench.core.profiles import SecretKind, SecretRef


@pytest.fixture
def memory_keyring() -> Iterator[MemoryKeyring]:
    previous = keyring.get_keyring()
    backend = MemoryKeyring()
    keyring.set_keyring(backend)
    try:
        yield backend
    finally:
        keyring.set_keyring(previous)


class PlaintextKeyring(MemoryKeyring):
    """Stands in for keyrings.alt's plaintext file backend (judged by module, as the real one would be)."""


PlaintextKeyring.__module__ = "keyrings.alt.file"


@pytest.mark.asyncio
async def test_keyring_store_round_trips_a_secret_as_secretstr(memory_keyring):
    store = KeyringCredentialStore()
    await store.set("demo/bearer", SecretStr("s3cr3t-token"))
    value = await store.get("demo/bearer")
    assert isinstance(value, SecretStr)
    assert value.get_secret_value() == "s3cr3t-token"
    assert "s3cr3t" not in repr(value)
    assert memory_keyring.values[("agent-workbench", "demo/bearer")] == "s3cr3t-token"
    assert await store.resolve(SecretRef(kind=SecretKind.BEARER, key="demo/bearer")) == "s3cr3t-token"
    assert await store.delete("demo/bearer") is True
    assert await store.delete("demo/bearer") is False
    assert await store.get("demo/bearer") is None


@pytest.mark.asyncio
@pytest.mark.parametrize("backend", [keyring.backends.fail.Keyring, keyring.backends.null.Keyring])
async def test_fail_and_null_backends_are_refused_with_a_hint(backend):
    previous = keyring.get_keyring()
    keyring.set_keyring(backend())
    try:
        store = KeyringCredentialStore(allow_insecure=True)  # even opting in cannot make these store anything
        with pytest.raises(SecureStorageUnavailableError) as info:
            await store.set("k", "v")
        assert info.value.code == "no-secure-storage"
        assert info.value.hint
    finally:
        keyring.set_keyring(previous)


@pytest.mark.asyncio
async def test_no_secure_store_is_said_in_words_and_the_backend_class_goes_to_the_hint_and_details():
    previous = keyring.get_keyring()
    keyring.set_keyring(keyring.backends.fail.Keyring())
    try:
        with pytest.raises(SecureStorageUnavailableError) as info:
            await KeyringCredentialStore().set("k", "v")
    finally:
        keyring.set_keyring(previous)
    error = info.value
    assert error.code == "no-secure-storage"
    assert error.details == {"backend": "keyring.backends.fail.Keyring"}
    assert "keyring.backends" not in error.message  # the backend's class path is for the hint, not the message
    assert "keyring.backends.fail.Keyring" in (error.hint or "")


@pytest.mark.asyncio
async def test_plaintext_backend_needs_an_explicit_opt_in_and_then_warns(monkeypatch):
    monkeypatch.delenv(INSECURE_OPT_IN_ENV, raising=False)
    previous = keyring.get_keyring()
    keyring.set_keyring(PlaintextKeyring())
    try:
        with pytest.raises(SecureStorageUnavailableError):
            await KeyringCredentialStore().set("k", "v")
        monkeypatch.setenv(INSECURE_OPT_IN_ENV, "1")
        store = KeyringCredentialStore()
        await store.set("k", "v")
        info = store.backend()
        assert not info.secure
        assert info.warning
    finally:
        keyring.set_keyring(previous)


def test_inspect_backend_accepts_a_secure_backend():
    info = inspect_backend(MemoryKeyring())
    assert info.secure
    assert info.warning is None


@pytest.mark.asyncio
async def test_memory_store_resolves_references_and_hides_values_in_repr():
    store = MemoryCredentialStore()
    await store.set("p/api", "abc123")
    assert await store.resolve(SecretRef(kind=SecretKind.API_KEY, key="p/api")) == "abc123"
    assert "abc123" not in repr(store)


def test_a_fresh_interpreter_without_dbus_is_refused():
    env = {k: v for k, v in os.environ.items() if k not in ("DBUS_SESSION_BUS_ADDRESS", "PYTHON_KEYRING_BACKEND")}
    env["XDG_CONFIG_HOME"] = "/nonexistent-config"  # no keyringrc.cfg
    code = (
        "import asyncio\n"
        "from workbench.core.credentials import KeyringCredentialStore\n"
        "from workbench.core.errors import SecureStorageUnavailableError\n"
        "try:\n"
        "    asyncio.run(KeyringCredentialStore().set('k', 'v'))\n"
        "except SecureStorageUnavailableError as e:\n"
        "    print(e.code)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "no-secure-storage"


def test_keyring_backend_is_chosen_by_keyrings_own_environment_variable(tmp_path):
    env = dict(os.environ)
    env["PYTHON_KEYRING_BACKEND"] = "tests.support.keyrings.FileTestKeyring"
    env["WORKBENCH_TEST_KEYRING"] = str(tmp_path / "kr.json")
    code = (
        "import asyncio\n"
        "from workbench.core.credentials import KeyringCredentialStore\n"
        "s = KeyringCredentialStore()\n"
        "asyncio.run(s.set('k', 'v'))\n"
        "print(s.backend().name, asyncio.run(s.get('k')).get_secret_value())\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.split() == ["tests.support.keyrings.FileTestKeyring", "v"]
