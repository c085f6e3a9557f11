"""The shared system browser opener: a browser that cannot be opened is a typed error, not a silent wait."""

from __future__ import annotations

import webbrowser

import pytest

from workbench.core.errors import AuthRequiredError
from workbench.core.http.browser import system_browser_opener
from workbench.core.protocols.a2a import security_oauth
from workbench.core.protocols.mcp import oauth


def test_both_adapters_use_the_shared_opener() -> None:
    assert oauth.system_browser_opener is system_browser_opener
    assert security_oauth.system_browser is system_browser_opener


@pytest.mark.asyncio
async def test_no_browser_raises_auth_required(monkeypatch: pytest.MonkeyPatch) -> None:
    opened: list[str] = []

    def open_nothing(url: str) -> bool:
        opened.append(url)
        return False

    monkeypatch.setattr(webbrowser, "open", open_nothing)
    with pytest.raises(AuthRequiredError) as info:
        await system_browser_opener("https://as.test/authorize?x=1")
    assert opened == ["https://as.test/authorize?x=1"]
    assert info.value.details == {"oauth": "no-browser"}


@pytest.mark.asyncio
async def test_an_opened_browser_returns(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(webbrowser, "open", lambda url: True)
    await system_browser_opener("https://as.test/authorize")
