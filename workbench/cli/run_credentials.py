"""The credential store of one command-line run: the OS keyring, or this run's memory when there is none.

A saved A2A profile asks for the credential its agent's card requires when the agent answers 401/403
(``--answer TOKEN`` or the terminal), and stores the answer for next time. Without a usable keyring
that store would fail and the run with it, although the same command without ``--profile`` works;
``RunCredentialStore`` keeps such an answer in memory for this run instead and remembers that it
did, so the command can say the credential was not stored.
"""

from __future__ import annotations

from pydantic import SecretStr

from workbench.core.credentials import BackendInfo, CredentialStore, MemoryCredentialStore, SecretReference
from workbench.core.errors import SecureStorageUnavailableError


class RunCredentialStore:
    """A ``CredentialStore`` over ``inner`` that falls back to memory when ``inner`` has no secure storage.

    Args:
        inner: The keyring store.
    """

    def __init__(self, inner: CredentialStore) -> None:
        self._inner = inner
        self._memory = MemoryCredentialStore()
        self.unstored: list[str] = []
        """Keys whose value was kept for this run only (the keyring could not store it)."""

    async def get(self, key: str) -> SecretStr | None:
        """The value for ``key`` kept in this run, else the keyring's (``None`` when there is no keyring)."""
        if (value := await self._memory.get(key)) is not None:
            return value
        try:
            return await self._inner.get(key)
        except SecureStorageUnavailableError:
            return None

    async def set(self, key: str, value: SecretStr | str) -> None:
        """Store ``value`` in the keyring, or for this run only when there is none."""
        try:
            await self._inner.set(key, value)
        except SecureStorageUnavailableError:
            await self._memory.set(key, value)
            if key not in self.unstored:
                self.unstored.append(key)

    async def delete(self, key: str) -> bool:
        """Forget ``key`` here and in the keyring (when there is one)."""
        here = await self._memory.delete(key)
        try:
            there = await self._inner.delete(key)
        except SecureStorageUnavailableError:
            there = False
        return here or there

    async def resolve(self, ref: SecretReference) -> str | None:
        """The plain value for ``ref`` (see ``get``)."""
        value = await self.get(ref.key)
        return value.get_secret_value() if value is not None else None

    def backend(self) -> BackendInfo:
        """The keyring's backend (raises ``SecureStorageUnavailableError`` when there is none)."""
        return self._inner.backend()
