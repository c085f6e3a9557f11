"""Keyring backends for tests: an in-memory one (and one that refuses chosen accounts), a file-backed one, and a
``with`` block that swaps the backend in use.

``PYTHON_KEYRING_BACKEND=tests.support.keyrings.FileTestKeyring`` (with ``WORKBENCH_TEST_KEYRING``
naming a JSON file) lets a child process (the CLI, the window) use a throwaway keyring.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import keyring
from keyring.backend import KeyringBackend
from keyring.errors import KeyringError, PasswordDeleteError


@contextlib.contextmanager
def using_keyring(backend: KeyringBackend) -> Iterator[None]:
    """``backend`` as keyring's backend inside the ``with`` block; the one before it restored after."""
    previous = keyring.get_keyring()
    keyring.set_keyring(backend)
    try:
        yield
    finally:
        keyring.set_keyring(previous)


class MemoryKeyring(KeyringBackend):
    """Keeps passwords in a dict (priority 1 so keyring accepts it)."""

    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.values: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.values.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.values[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.values.pop((service, username), None) is None:
            raise PasswordDeleteError(username)


class RefusingKeyring(MemoryKeyring):
    """``MemoryKeyring`` that refuses to write or delete chosen accounts, as a locked keyring does.

    Add an account (a credential-store key) to ``refuse_set`` or ``refuse_delete``; the call then
    raises ``KeyringError``, which the workbench's keyring store turns into
    ``SecureStorageUnavailableError``.
    """

    def __init__(self) -> None:
        super().__init__()
        self.refuse_set: set[str] = set()
        self.refuse_delete: set[str] = set()

    def set_password(self, service: str, username: str, password: str) -> None:
        if username in self.refuse_set:
            raise KeyringError("locked")
        super().set_password(service, username, password)

    def delete_password(self, service: str, username: str) -> None:
        if username in self.refuse_delete:
            raise KeyringError("locked")
        super().delete_password(service, username)

    def value(self, key: str, service: str = "agent-workbench") -> str | None:
        """The value stored for ``key`` (under the workbench's keyring service by default)."""
        return self.values.get((service, key))


class FileTestKeyring(KeyringBackend):
    """A JSON file named by ``WORKBENCH_TEST_KEYRING`` (tests only: it is plaintext by design)."""

    priority = 1  # type: ignore[assignment]

    def _path(self) -> Path:
        return Path(os.environ["WORKBENCH_TEST_KEYRING"])

    def _load(self) -> dict[str, str]:
        path = self._path()
        return json.loads(path.read_text()) if path.exists() else {}

    def get_password(self, service: str, username: str) -> str | None:
        return self._load().get(f"{service}\x1f{username}")

    def set_password(self, service: str, username: str, password: str) -> None:
        data = self._load()
        data[f"{service}\x1f{username}"] = password
        self._path().write_text(json.dumps(data))

    def delete_password(self, service: str, username: str) -> None:
        data = self._load()
        if data.pop(f"{service}\x1f{username}", None) is None:
            raise PasswordDeleteError(username)
        self._path().write_text(json.dumps(data))
