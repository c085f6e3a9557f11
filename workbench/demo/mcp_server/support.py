"""Small helpers the demo tools share: era detection and warning-free client logging."""

from __future__ import annotations

import warnings
from typing import Any

from mcp.server.mcpserver import Context
from mcp.shared.exceptions import MCPDeprecationWarning
from mcp_types import LoggingLevel
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from workbench.demo.mcp_server.log_levels import LEVELS

LOGGER_NAME = "demo"


def is_modern(ctx: Context[Any, Any]) -> bool:
    """Whether the request arrived on a 2026-07-28 (modern, sessionless) connection."""
    return ctx.protocol_version in MODERN_PROTOCOL_VERSIONS


async def log(ctx: Context[Any, Any], level: LoggingLevel, message: str) -> None:
    """Send a `notifications/message` to the client for the current request.

    Legacy connections receive it at or above the level they set with `logging/setLevel` (every
    level until they set one); modern ones only if the request opted in via
    `_meta["io.modelcontextprotocol/logLevel"]` at this level or below (the SDK filters).
    The logging capability is deprecated in 2026-07-28, so the SDK warns on every call;
    the warning is silenced here, around the synchronous call that emits it only.
    """
    if not is_modern(ctx) and not LEVELS.allows(ctx.session.client_params, level):
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", MCPDeprecationWarning)
        pending = ctx.session.send_log_message(level, message, logger=LOGGER_NAME, related_request_id=ctx.request_id)
    await pending
