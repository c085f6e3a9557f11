"""Serves a Client ID Metadata Document on a loopback port, for logging in with CIMD while testing locally.

An authorization server that supports CIMD fetches the client's metadata from the URL the client
gives as its ``client_id``. In production that document lives on the client's https site; for a
local authorization server (on this machine, where plain http is allowed) the workbench can serve
one itself::

    async with serve_client_metadata(redirect_port=53682) as client:
        agent = MCPAgent(url, oauth=OAuth(client=client, grant=AuthorizationCode(redirect_port=53682)))
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

from workbench.core.oauth_options import MetadataDocumentClient
from workbench.core.serving import serve_asgi

DOCUMENT_PATH = "/oauth/client-metadata.json"
"""Where the served document lives on its loopback origin."""


class _DocumentApp:
    """ASGI app: ``GET DOCUMENT_PATH`` answers the document; anything else 404."""

    def __init__(self) -> None:
        self.body = b"{}"

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        found = scope["method"] == "GET" and scope["path"] == DOCUMENT_PATH
        body = self.body if found else b'{"error": "not_found"}'
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
        await send({"type": "http.response.start", "status": 200 if found else 404, "headers": headers})
        await send({"type": "http.response.body", "body": body})


@contextlib.asynccontextmanager
async def serve_client_metadata(
    *, redirect_port: int, client_name: str = "Agent Workbench", port: int = 0
) -> AsyncIterator[MetadataDocumentClient]:
    """Serve a client metadata document on ``127.0.0.1`` while the context is open.

    Args:
        redirect_port: The loopback redirect port the document lists (log in with the same
            ``AuthorizationCode(redirect_port=…)``).
        client_name: The name the document gives the client.
        port: The port to serve on (0: a free one).

    Yields:
        The ``MetadataDocumentClient`` whose URL is the served document (its ``client_id``).

    Raises:
        ConnectError: The server could not start.
    """
    app = _DocumentApp()
    async with serve_asgi(lambda base: app, port=port, lifespan="off") as base:
        client = MetadataDocumentClient(f"{base}{DOCUMENT_PATH}")
        app.body = json.dumps(client.document(redirect_port, client_name=client_name)).encode()
        yield client
