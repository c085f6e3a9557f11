"""The conformance tests' fork server: the client programs' imports paid once per test worker."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.support.forkserver import ForkServer, enabled

CLIENT_IMPORTS = [
    "asyncio",
    "json",
    "concurrent.futures.thread",
    "anyio._core._sockets",
    "httpcore2",
    "jwt",
    "mcp",
    "mcp.shared.auth",
    "workbench.agents",
    "workbench.core.protocols.mcp.agent",
    "workbench.core.protocols.mcp.oauth",
    "workbench.core.protocols.mcp.oauth_storage",
    "workbench.core.agent_factory",
    "workbench.core.oauth_login",
    "workbench.core.http.browser",
]
"""What ``client.py`` and ``oauth_client.py`` import on their way through a scenario (``-X importtime``)."""


@pytest.fixture(scope="session")
def client_forkserver() -> Iterator[ForkServer | None]:
    """A fork server with the clients' imports done (``None`` when ``WORKBENCH_TEST_FORKSERVER=0``)."""
    if not enabled():
        yield None
        return
    server = ForkServer(CLIENT_IMPORTS)
    try:
        yield server
    finally:
        server.close()
