"""The connection dialog on a system without a secure keyring (keyring's ``null`` backend), as the sidebar tells it."""

from __future__ import annotations

import contextlib
from typing import Any

import keyring
import keyring.backends.null

from tests.support.connection_dialogs import new_connection_dialog
from tests.support.keyrings import using_keyring
from workbench.core.credentials import KeyringCredentialStore
from workbench.core.errors import SecureStorageUnavailableError
from workbench.ui.dialogs.connection import ConnectionDialog


def null_keyring() -> contextlib.AbstractContextManager[None]:
    """keyring's ``null`` backend (as with PYTHON_KEYRING_BACKEND=keyring.backends.null.Keyring), restored after."""
    return using_keyring(keyring.backends.null.Keyring())


def no_keyring_error() -> SecureStorageUnavailableError:
    """What the workbench's keyring store says with the current backend (call it under ``null_keyring``)."""
    try:
        KeyringCredentialStore().backend()
    except SecureStorageUnavailableError as exc:
        return exc
    raise AssertionError("the keyring backend was usable")


def no_keyring_dialog(
    qtbot: Any, kind: str, name: str = "agent", url: str = "http://127.0.0.1:9/mcp"
) -> ConnectionDialog:
    """A new connection dialog of ``kind`` told (as the sidebar's keyring check does) that no secure keyring exists.

    Call it under ``null_keyring``.
    """
    dialog = new_connection_dialog(qtbot, kind, name, url)
    dialog.set_credentials_backend(None, no_keyring_error())
    return dialog
