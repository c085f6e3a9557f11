"""Requests that only the handshake era (2024-11-05 … 2025-11-25) has, sent without SDK deprecation warnings.

The SDK marks ``ping``, ``logging/setLevel``, ``resources/(un)subscribe`` and
``notifications/roots/list_changed`` deprecated because the 2026-07-28 era removed them; its
methods warn on every call, even in a 2025-11-25 session where they are the protocol. Sending the
typed requests through the session's public ``send_request`` / ``send_notification`` is the same
message on the wire, and no ``MCPDeprecationWarning`` reaches a user's terminal.
"""

from __future__ import annotations

import mcp.types as types
from mcp import Client


async def ping(client: Client) -> None:
    """``ping``."""
    await client.session.send_request(types.PingRequest(), types.EmptyResult)


async def set_logging_level(client: Client, level: types.LoggingLevel) -> None:
    """``logging/setLevel``."""
    params = types.SetLevelRequestParams(level=level)
    await client.session.send_request(types.SetLevelRequest(params=params), types.EmptyResult)


async def subscribe_resource(client: Client, uri: str) -> None:
    """``resources/subscribe``."""
    params = types.SubscribeRequestParams(uri=uri)
    await client.session.send_request(types.SubscribeRequest(params=params), types.EmptyResult)


async def unsubscribe_resource(client: Client, uri: str) -> None:
    """``resources/unsubscribe``."""
    params = types.UnsubscribeRequestParams(uri=uri)
    await client.session.send_request(types.UnsubscribeRequest(params=params), types.EmptyResult)


async def roots_list_changed(client: Client) -> None:
    """``notifications/roots/list_changed``."""
    await client.session.send_notification(types.RootsListChangedNotification())
