"""The OAuth names the A2A adapter had before the shared OAuth layer still answer there, with a deprecation warning."""

from __future__ import annotations

import pytest

from workbench.core.oauth import pkce, tokens
from workbench.core.protocols.a2a import security_oauth


@pytest.mark.parametrize(("name", "module"), [("TokenSet", tokens), ("pkce_pair", pkce)])
def test_a_moved_name_warns_and_is_the_shared_layers(name: str, module: object) -> None:
    with pytest.warns(DeprecationWarning, match=rf"security_oauth\.{name} is deprecated"):
        value = getattr(security_oauth, name)
    assert value is getattr(module, name)


def test_a_name_that_never_was_there_is_still_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        _ = security_oauth.no_such_name  # type: ignore[attr-defined]
