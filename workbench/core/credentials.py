"""Credential store: secret values live only in the OS keyring (or in memory, for tests).

The one module that imports ``keyring``. Backend selection is keyring's own (``PYTHON_KEYRING_BACKEND``,
``keyringrc.cfg``, then the platform's best: Secret Service, KWallet, macOS Keychain, Windows
Credential Manager). Backends that cannot keep a secret safely are refused with
``SecureStorageUnavailableError`` and a hint, never used silently:

    fail / null backends        refused always (nothing can be stored)
    keyrings.alt (plaintext,    refused unless the user opted in (``allow_insecure`` /
    obfuscated files, …)        ``WORKBENCH_ALLOW_INSECURE_KEYRING=1``); then ``warning`` says why it is unsafe

Values travel as ``pydantic.SecretStr`` (their repr is ``**********``). Keyring calls can block
(D-Bus, an unlock prompt), so they run in a worker thread and never stall the event loop.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass
from typing import Any, Protocol

from pydantic import SecretStr

from workbench.core.errors import SecureStorageUnavailableError

SERVICE = "agent-workbench"
"""The keyring service name every workbench secret is stored under (the account is the reference key)."""

INSECURE_OPT_IN_ENV = "WORKBENCH_ALLOW_INSECURE_KEYRING"

_ALWAYS_REFUSED = ("keyring.backends.fail", "keyring.backends.null")
_INSECURE = ("keyrings.alt",)

_NO_BACKEND_HINT = (
    "install and unlock a system keyring (GNOME Keyring / KWallet via Secret Service on Linux; "
    "Keychain and Credential Manager work out of the box on macOS and Windows), or choose a backend "
    "with PYTHON_KEYRING_BACKEND / keyringrc.cfg. Secrets are never written to plain files."
)


@dataclass(frozen=True, slots=True)
class BackendInfo:
    """Which keyring backend is in use and whether it is trusted with secrets.

    Attributes:
        name: The backend's class path (``keyring.backends.SecretService.Keyring``) or ``memory``.
        secure: Whether it keeps secrets encrypted / OS-protected.
        warning: Set when the user opted in to an insecure backend: what the risk is.
    """

    name: str
    secure: bool
    warning: str | None = None


class SecretReference(Protocol):
    """What the store needs of a profile's secret reference (a ``SecretRef``): the key of its value.

    A protocol, so that the credential store does not depend on the profile types (they are a layer
    above it: the profile use cases store secrets here).
    """

    @property
    def key(self) -> str:
        """The key the value is stored under."""
        ...


class CredentialStore(Protocol):
    """Where secret values live; profiles hold only ``SecretRef`` keys into it."""

    async def get(self, key: str) -> SecretStr | None:
        """The value stored under ``key``, or ``None``."""
        ...

    async def set(self, key: str, value: SecretStr | str) -> None:
        """Store ``value`` under ``key`` (replacing any previous value)."""
        ...

    async def delete(self, key: str) -> bool:
        """Forget ``key``; returns whether a value was stored."""
        ...

    async def resolve(self, ref: SecretReference) -> str | None:
        """The plain value for a profile's reference (a ``SecretResolver`` for the agent factory)."""
        ...

    def backend(self) -> BackendInfo:
        """The backend in use (raises ``SecureStorageUnavailableError`` if none is acceptable)."""
        ...


def _plain(value: SecretStr | str) -> str:
    return value.get_secret_value() if isinstance(value, SecretStr) else value


class MemoryCredentialStore:
    """Secrets in a dict for one process (tests, or a user's explicit "this session only" choice)."""

    def __init__(self, values: dict[str, str] | None = None) -> None:
        self._values: dict[str, str] = dict(values or {})

    async def get(self, key: str) -> SecretStr | None:
        """The value stored under ``key``, or ``None``."""
        value = self._values.get(key)
        return SecretStr(value) if value is not None else None

    async def set(self, key: str, value: SecretStr | str) -> None:
        """Store ``value`` under ``key``."""
        self._values[key] = _plain(value)

    async def delete(self, key: str) -> bool:
        """Forget ``key``; returns whether a value was stored."""
        return self._values.pop(key, None) is not None

    async def resolve(self, ref: SecretReference) -> str | None:
        """The plain value for ``ref``, or ``None``."""
        return self._values.get(ref.key)

    def backend(self) -> BackendInfo:
        """An in-memory store is safe from disk but gone when the process ends."""
        return BackendInfo(name="memory", secure=True)

    def __repr__(self) -> str:
        return f"MemoryCredentialStore(keys={sorted(self._values)})"


def _backend_classes(kr: Any) -> list[Any]:
    backends = getattr(kr, "backends", None)  # ChainerBackend wraps several
    return list(backends) if backends else [kr]


def _class_path(backend: Any) -> str:
    return f"{type(backend).__module__}.{type(backend).__qualname__}"


def inspect_backend(kr: Any, *, allow_insecure: bool = False) -> BackendInfo:
    """Decide whether keyring backend ``kr`` may hold secrets.

    Raises:
        SecureStorageUnavailableError: Only fail/null backends, or an insecure one without opt-in.
    """
    candidates = [b for b in _backend_classes(kr) if not type(b).__module__.startswith(_ALWAYS_REFUSED)]
    candidates = [b for b in candidates if getattr(b, "priority", 1) > 0 or b is kr]
    secure = [b for b in candidates if not type(b).__module__.startswith(_INSECURE)]
    if secure:
        return BackendInfo(name=_class_path(secure[0]), secure=True)
    if candidates and allow_insecure:
        name = _class_path(candidates[0])
        warning = f"Secrets are stored by {name}, which keeps them readable on disk. Use it only for throwaway setups."
        return BackendInfo(name=name, secure=False, warning=warning)
    found = ", ".join(_class_path(b) for b in _backend_classes(kr))
    # the backend's class path is for the curious: in the hint and the details, not the sentence people read
    if candidates:
        raise SecureStorageUnavailableError(
            "The only credential store on this system keeps secrets readable on disk; nothing was stored.",
            hint=f"{_NO_BACKEND_HINT} To accept it anyway for a throwaway setup, set {INSECURE_OPT_IN_ENV}=1. "
            f"(Keyring backend: {found}.)",
            details={"backend": found},
        )
    raise SecureStorageUnavailableError(
        "No secure credential store is available on this system; nothing was stored.",
        hint=f"{_NO_BACKEND_HINT} (Keyring backend: {found}.)",
        details={"backend": found},
    )


class KeyringCredentialStore:
    """Secrets in the OS keyring via ``keyring`` (service ``agent-workbench``, account = reference key).

    Args:
        allow_insecure: Accept a plaintext/obfuscated backend (``keyrings.alt``) with a warning.
            Default: the ``WORKBENCH_ALLOW_INSECURE_KEYRING`` environment variable (``1`` = yes).
        service: Keyring service name (tests may isolate themselves with another).
    """

    def __init__(self, *, allow_insecure: bool | None = None, service: str = SERVICE) -> None:
        if allow_insecure is None:
            allow_insecure = os.environ.get(INSECURE_OPT_IN_ENV, "") == "1"
        self._allow_insecure = allow_insecure
        self._service = service

    def backend(self) -> BackendInfo:
        """The backend keyring selected, checked (raises ``SecureStorageUnavailableError``)."""
        import keyring

        try:
            kr = keyring.get_keyring()
        except Exception as exc:  # keyring loads PYTHON_KEYRING_BACKEND / keyringrc.cfg names lazily
            raise SecureStorageUnavailableError(
                f"The configured keyring backend cannot be loaded ({type(exc).__name__}: {exc}).",
                hint="check PYTHON_KEYRING_BACKEND or keyringrc.cfg",
            ) from None
        return inspect_backend(kr, allow_insecure=self._allow_insecure)

    async def _call(self, fn_name: str, *args: str) -> Any:
        import keyring
        import keyring.errors

        self.backend()

        def run() -> Any:
            return getattr(keyring, fn_name)(self._service, *args)

        try:
            return await asyncio.to_thread(run)
        except keyring.errors.PasswordDeleteError:
            raise
        except keyring.errors.KeyringError as exc:  # locked collection, dismissed prompt, D-Bus gone
            raise SecureStorageUnavailableError(
                f"The keyring refused the request: {type(exc).__name__}.",
                hint="unlock your keyring (or log in to the desktop session) and try again",
                details={"backend": self.backend().name},
            ) from None

    async def get(self, key: str) -> SecretStr | None:
        """The value stored under ``key``, or ``None``."""
        value = await self._call("get_password", key)
        return SecretStr(value) if value is not None else None

    async def set(self, key: str, value: SecretStr | str) -> None:
        """Store ``value`` under ``key``."""
        await self._call("set_password", key, _plain(value))

    async def delete(self, key: str) -> bool:
        """Forget ``key``; returns whether a value was stored."""
        import keyring.errors

        try:
            await self._call("delete_password", key)
        except keyring.errors.PasswordDeleteError:
            return False
        return True

    async def resolve(self, ref: SecretReference) -> str | None:
        """The plain value for ``ref``, or ``None``."""
        value = await self.get(ref.key)
        return value.get_secret_value() if value is not None else None

    def __repr__(self) -> str:
        return f"KeyringCredentialStore(service={self._service!r}, allow_insecure={self._allow_insecure})"
