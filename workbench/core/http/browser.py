"""Browser openers for OAuth logins: how an authorization URL reaches the user (or a test's HTTP client).

A ``BrowserOpener`` is any ``async (url) -> None``: the system browser here, a GUI's own opener, a
printer for ``--no-browser``, or ``follow_redirects_opener`` for authorization servers that approve
without a person. Both protocol adapters take one.
"""

from __future__ import annotations

import asyncio
import webbrowser
from collections.abc import Awaitable, Callable

from workbench.core.errors import AuthRequiredError, UnreachableError
from workbench.core.http.loopback import CALLBACK_PATH

BrowserOpener = Callable[[str], Awaitable[None]]
"""Shows the user the authorization URL (opens a browser); returns once it is on its way."""


async def system_browser_opener(url: str) -> None:
    """Open ``url`` in the system browser (``webbrowser``; in a worker thread, it may block).

    Raises:
        AuthRequiredError: No browser could be started (open the URL by hand, e.g. ``--no-browser``).
    """
    opened = await asyncio.to_thread(webbrowser.open, url)
    if not opened:
        raise AuthRequiredError(
            "No web browser could be opened for the OAuth login.",
            hint="open the printed URL yourself (workbench login --no-browser)",
            details={"oauth": "no-browser"},
        )


async def follow_redirects_opener(url: str) -> None:
    """Follow the authorization URL with an HTTP client instead of a browser, up to the loopback redirect.

    Only useful with authorization servers that approve without a person (test servers, some
    development setups); a real login page stops it with an ``AuthRequiredError``.

    Raises:
        UnreachableError: The authorization server could not be reached.
        AuthRequiredError: It did not redirect back to the loopback receiver.
        ProtocolError: A body on the way was larger than the default size limit (or not decodable).
    """
    import httpx2  # only this opener needs an HTTP client; importing the module stays client-free

    from workbench.core.http.httpx2_transport import Httpx2TapTransport
    from workbench.core.http.limits import LimitGuard

    bounded = Httpx2TapTransport(None, guard=LimitGuard())  # every body bounded as it decodes (redirects' too)
    async with httpx2.AsyncClient(follow_redirects=True, timeout=30, transport=bounded) as http:
        try:
            async with http.stream("GET", url) as response:
                pass  # only where it ends matters: its body is not read
        except httpx2.HTTPError as exc:
            raise UnreachableError(f"Following the authorization URL failed: {type(exc).__name__}.") from None
    if response.url.path == CALLBACK_PATH and response.url.host == "127.0.0.1":
        return  # the loopback receiver has the outcome (a code, or the server's error)
    raise AuthRequiredError(
        "The authorization server did not redirect back without a person "
        f"(it answered HTTP {response.status_code} at {response.url.copy_with(query=None)}).",
        hint="log in with a browser",
        details={"oauth": "needs-a-person", "status": response.status_code},
    )
