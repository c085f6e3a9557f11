"""``--profile NAME`` with target options: the saved profile, with this run's options laid over it.

``--mode``, ``--agent-tool``, ``--header``, ``--env``, ``--allow-origin``, ``--binding``,
``--a2a-version``, ``--timeout``, ``--connect-timeout``, ``--max-message-bytes`` and
``--max-stream-bytes`` given next to ``--profile`` override the saved values for this run only
(nothing is saved). An option the profile's kind cannot use (``--env`` for an HTTP
server, ``--mode`` for an A2A agent, …) is refused with a ``ConfigError`` naming the conflict.
"""

from __future__ import annotations

import argparse
from typing import Any

from workbench.cli.targets import BINDINGS, LIMIT_OPTIONS, limits_from_args, pairs, parse_origins
from workbench.core.errors import ConfigError
from workbench.core.profiles import (
    A2AProfile,
    ConnectionProfile,
    MCPHTTPProfile,
    MCPSSEProfile,
    MCPStdioProfile,
    parse_profile,
)

_KIND_WORDS = {
    "mcp-stdio": "a stdio MCP server",
    "mcp-http": "an MCP server over HTTP",
    "mcp-sse": "an MCP server over HTTP+SSE",
    "a2a": "an A2A agent",
}


def load_profile(args: argparse.Namespace) -> ConnectionProfile:
    """The saved profile ``args.profile`` with the command line's overrides applied.

    Raises:
        NotFoundError: No such profile.
        ConfigError: An option does not fit the profile's kind, or a value is out of range.
    """
    from workbench.core.profile_secrets import find_profile
    from workbench.core.settings import ProfileStore

    return with_overrides(find_profile(ProfileStore(args.config_dir), args.profile), args)


def with_overrides(profile: ConnectionProfile, args: argparse.Namespace) -> ConnectionProfile:
    """``profile`` with the target options given in ``args`` laid over it (a copy; nothing is saved).

    Raises:
        ConfigError: An option does not fit the profile's kind, or a value is out of range.
    """
    update: dict[str, Any] = {}

    def refuse(option: str, wants: str) -> ConfigError:
        what = _KIND_WORDS.get(profile.kind, profile.kind)
        return ConfigError(
            f"{option} is for {wants}; the profile {profile.name!r} is {what}.",
            hint=f"leave out {option}, or use a profile (or target) it fits",
            details={"option": option, "profile_kind": profile.kind},
        )

    is_mcp = isinstance(profile, MCPStdioProfile | MCPHTTPProfile | MCPSSEProfile)
    if getattr(args, "mode", None) is not None:
        if not is_mcp:
            raise refuse("--mode", "MCP servers")
        update["mode"] = args.mode
    if getattr(args, "agent_tool", None) is not None:
        if not is_mcp:
            raise refuse("--agent-tool", "MCP servers")
        update["agent_tool"] = args.agent_tool
    if getattr(args, "binding", None) is not None:
        if not isinstance(profile, A2AProfile):
            raise refuse("--binding", "A2A agents")
        update["binding"] = BINDINGS[args.binding]  # the command line's name for it (jsonrpc → JSONRPC)
    if getattr(args, "a2a_version", None) is not None:
        if not isinstance(profile, A2AProfile):
            raise refuse("--a2a-version", "A2A agents")
        update["protocol_version"] = args.a2a_version
    env = pairs(getattr(args, "env", []) or [], "--env")
    if env:
        if not isinstance(profile, MCPStdioProfile):
            raise refuse("--env", "stdio MCP servers")
        update["env"] = {**profile.env, **env}
    origins = parse_origins(getattr(args, "allow_origin", []) or [])
    if origins:
        if isinstance(profile, MCPStdioProfile):
            raise refuse("--allow-origin", "HTTP targets")
        update["allowed_origins"] = [*profile.allowed_origins, *origins]
    limits = limits_from_args(args)
    if limits:
        if isinstance(profile, MCPStdioProfile):
            raise refuse(LIMIT_OPTIONS[next(iter(limits))], "HTTP targets")
        update.update(limits)
    if getattr(args, "timeout", None) is not None:
        update["request_timeout"] = args.timeout
        if isinstance(profile, A2AProfile):  # and the wait for each next event of a task's stream
            update["stream_idle_timeout"] = args.timeout
    if getattr(args, "connect_timeout", None) is not None:
        update["connect_timeout"] = args.connect_timeout
    if update:
        profile = parse_profile({**profile.model_dump(mode="json"), **update})
    headers = pairs(getattr(args, "header", []) or [], "--header")
    if headers:
        if isinstance(profile, MCPStdioProfile):
            raise refuse("--header", "HTTP targets")
        # Copied without validation on purpose: a saved profile refuses credential-looking headers
        # (they belong in the keyring), but this copy is never saved; the wire log still redacts them.
        profile = profile.model_copy(update={"headers": {**profile.headers, **headers}})
    return profile
