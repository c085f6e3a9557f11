"""`logging/setLevel` for the demo server's handshake-era connections: each connection's level, honoured."""

from __future__ import annotations

import weakref
from typing import Any, get_args

from mcp.server.context import ServerRequestContext
from mcp.server.mcpserver import MCPServer
from mcp_types import EmptyResult, LoggingLevel, SetLevelRequestParams

SEVERITY: tuple[LoggingLevel, ...] = get_args(LoggingLevel)
"""The MCP log levels from least to most severe (``debug`` … ``emergency``)."""


class ConnectionLogLevels:
    """The level each connection asked for with `logging/setLevel`, forgotten when the connection goes.

    A connection is recognised by the identity of its handshake ``client_params`` (one object per
    connection, as for legacy subscriptions in ``resources.py``); the SDK offers no public
    per-connection store to a request handler.
    """

    def __init__(self) -> None:
        self._levels: dict[int, LoggingLevel] = {}

    def set(self, connection: object, level: LoggingLevel) -> None:
        """Remember ``level`` for ``connection`` (its ``client_params``)."""
        key = id(connection)
        if key not in self._levels:
            weakref.finalize(connection, self._levels.pop, key, None)
        self._levels[key] = level

    def allows(self, connection: object | None, level: LoggingLevel) -> bool:
        """Whether a message at ``level`` may go to ``connection``: at or above its level, or no level set."""
        threshold = self._levels.get(id(connection)) if connection is not None else None
        return threshold is None or SEVERITY.index(level) >= SEVERITY.index(threshold)


LEVELS = ConnectionLogLevels()
"""The levels of every demo server in this process (keyed by connection, so servers never share one)."""


def add_legacy_set_level(server: MCPServer) -> None:
    """Serve `logging/setLevel` on handshake-era connections and advertise the `logging` capability.

    MCPServer does not implement it (the 2026-07-28 era replaced it with a per-request ``_meta``
    opt-in, which the SDK applies itself); as for ``resources/subscribe``, the low-level
    ``Server.add_request_handler`` re-provides it, reached through MCPServer's ``_lowlevel_server``.
    Registering the handler is also what makes ``initialize`` advertise ``logging: {}``.
    """

    async def set_level(ctx: ServerRequestContext[Any, Any], params: SetLevelRequestParams) -> EmptyResult:
        connection = ctx.session.client_params
        if connection is not None:
            LEVELS.set(connection, params.level)
        return EmptyResult()

    lowlevel = server._lowlevel_server  # private: see the docstring
    lowlevel.add_request_handler("logging/setLevel", SetLevelRequestParams, set_level)
