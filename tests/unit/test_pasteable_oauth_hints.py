"""A hint that names a command for a profile quotes the profile's name for the shell (names may hold spaces)."""

from __future__ import annotations

import shlex

import pytest

from workbench.core.credentials import MemoryCredentialStore
from workbench.core.errors import ConfigError
from workbench.core.protocols.mcp._oauth_profile_grant import _stored


@pytest.mark.asyncio
async def test_the_secret_set_hint_of_a_missing_keyring_secret_pastes_as_one_argument_per_value() -> None:
    with pytest.raises(ConfigError) as missing:
        await _stored(MemoryCredentialStore(), "k", "Docs (prod); rm -rf ~", "an ID token", "oauth-id-token", "x")
    hint = missing.value.hint or ""
    command = hint.split(" < FILE")[0]
    assert shlex.split(command) == ["workbench", "secret", "set", "Docs (prod); rm -rf ~", "oauth-id-token"]
