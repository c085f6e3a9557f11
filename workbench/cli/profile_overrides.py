"""``--profile NAME`` with target options: the saved profile, with this run's options laid over it.

``--mode``, ``--agent-tool``, ``--header``, ``--env``, ``--allow-origin``, ``--binding``,
``--a2a-version``, ``--timeout``, ``--connect-timeout``, ``--max-message-bytes`` and
``--max-stream-bytes`` given next to ``--profile`` override the saved values for this run only
(nothing is saved); so do ``--root`` and the client-capability switches
(``client_options``). An option the profile's kind cannot use (``--env`` for an HTTP
server, ``--mode`` for an A2A agent, …) is refused with a ``ConfigError`` naming the conflict.
"""

from __future__ import annotations

import argparse
from typing import Any

from workbench.cli.client_options import apply_client_options
from workbench.cli.options import BINDINGS, TargetOptions
from workbench.cli.parser import target_options
from workbench.cli.targets import LIMIT_OPTIONS, pairs, parse_limits, parse_origins
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


def load_profile(options: TargetOptions, config_dir: str | None) -> ConnectionProfile:
    """The saved profile ``options.profile`` (in ``config_dir``) with the command line's overrides applied.

    Raises:
        NotFoundError: No such profile.
        ConfigError: An option does not fit the profile's kind, or a value is out of range.
    """
    from workbench.core.profiles.store import ProfileStore

    assert options.profile is not None
    return apply_overrides(ProfileStore(config_dir).find(options.profile), options)


def with_overrides(profile: ConnectionProfile, args: argparse.Namespace) -> ConnectionProfile:
    """Deprecated: ``apply_overrides(profile, parser.target_options(args))``, for a parser of one's own.

    The command line itself reads its namespace once, in ``parser``, and calls ``apply_overrides``.

    Raises:
        ConfigError: An option does not fit the profile's kind, or a value is out of range.
    """
    return apply_overrides(profile, target_options(args))


def apply_overrides(profile: ConnectionProfile, options: TargetOptions) -> ConnectionProfile:
    """``profile`` with the target options given in ``options`` laid over it (a copy; nothing is saved).

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
    if options.mode is not None:
        if not is_mcp:
            raise refuse("--mode", "MCP servers")
        update["mode"] = options.mode
    if options.agent_tool is not None:
        if not is_mcp:
            raise refuse("--agent-tool", "MCP servers")
        update["agent_tool"] = options.agent_tool
    if options.binding is not None:
        if not isinstance(profile, A2AProfile):
            raise refuse("--binding", "A2A agents")
        update["binding"] = BINDINGS[options.binding]  # the command line's name for it (jsonrpc → JSONRPC)
    if options.a2a_version is not None:
        if not isinstance(profile, A2AProfile):
            raise refuse("--a2a-version", "A2A agents")
        update["protocol_version"] = options.a2a_version
    env = pairs(options.env, "--env")
    if env:
        if not isinstance(profile, MCPStdioProfile):
            raise refuse("--env", "stdio MCP servers")
        update["env"] = {**profile.env, **env}
    origins = parse_origins(options.allow_origins)
    if origins:
        if isinstance(profile, MCPStdioProfile):
            raise refuse("--allow-origin", "HTTP targets")
        update["allowed_origins"] = [*profile.allowed_origins, *origins]
    limits = parse_limits(options.limits)
    if limits:
        if isinstance(profile, MCPStdioProfile):
            raise refuse(LIMIT_OPTIONS[next(iter(limits))], "HTTP targets")
        update.update(limits)
    timeouts = options.timeouts
    if timeouts.request is not None:
        update["request_timeout"] = timeouts.request
        if isinstance(profile, A2AProfile):  # and the wait for each next event of a task's stream
            update["stream_idle_timeout"] = timeouts.request
    if timeouts.connect is not None:
        update["connect_timeout"] = timeouts.connect
    if update:
        profile = parse_profile({**profile.model_dump(mode="json"), **update})
    headers = pairs(options.headers, "--header")
    if headers:
        if isinstance(profile, MCPStdioProfile):
            raise refuse("--header", "HTTP targets")
        # Copied without validation on purpose: a saved profile refuses credential-looking headers
        # (they belong in the keyring), but this copy is never saved; the wire log still redacts them.
        profile = profile.model_copy(update={"headers": {**profile.headers, **headers}})
    return apply_client_options(profile, options.client)
