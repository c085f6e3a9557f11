"""An ad-hoc command-line target as a transient profile, built by the same factory as saved profiles.

``workbench call --mcp URL …`` and ``workbench call --profile NAME …`` go through one path
(``core.agent_factory.build_agent``): the same transports, credential boundary, timeouts and
secret handling. The transient profile is never saved, so what a saved profile refuses to keep in
plain text — credential-looking ``--header``/``--env`` values, a key in the URL's query — is
copied onto it unchecked, as ``--profile``'s own overrides are; the wire log still redacts them.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit, urlunsplit

from workbench.cli.client_options import apply_client_options
from workbench.cli.targets import TargetSpec
from workbench.core.profiles import A2AProfile, ConnectionProfile, MCPHTTPProfile, MCPSSEProfile, MCPStdioProfile

MAX_NAME = 200
"""Longest profile name (a transient profile's name is its target's label, cut to fit)."""


def transient_profile(spec: TargetSpec) -> ConnectionProfile:
    """The profile ``spec`` describes (validated like a saved one except for the values noted above).

    Raises:
        pydantic.ValidationError: A value no profile can hold (a timeout out of range, a bad URL scheme).
    """
    label = spec.label
    fields: dict[str, Any] = {
        "name": label if len(label) <= MAX_NAME else label[: MAX_NAME - 1] + "…",
        "connect_timeout": spec.connect_timeout,
        "request_timeout": spec.request_timeout,
    }
    if spec.protocol == "mcp-stdio":
        stdio = MCPStdioProfile(
            command=spec.command[0], args=spec.command[1:], mode=spec.mode, agent_tool=spec.agent_tool, **fields
        )
        return apply_client_options(stdio.model_copy(update={"env": dict(spec.env)}), spec.client)
    assert spec.url is not None
    fields.update(url=_checkable(spec.url), allowed_origins=spec.allow_origins, **spec.limits)
    profile: A2AProfile | MCPHTTPProfile | MCPSSEProfile
    if spec.protocol == "a2a":
        # --timeout also bounds the wait for each next event of a task's stream (stream_idle_timeout)
        idle = spec.request_timeout
        profile = A2AProfile(
            binding=spec.binding, protocol_version=spec.a2a_version, stream_idle_timeout=idle, **fields
        )
    elif spec.protocol == "mcp-sse":
        profile = MCPSSEProfile(mode=spec.mode, agent_tool=spec.agent_tool, **fields)
    else:
        profile = MCPHTTPProfile(mode=spec.mode, agent_tool=spec.agent_tool, **fields)
    return apply_client_options(
        profile.model_copy(update={"url": spec.url, "headers": dict(spec.headers)}), spec.client
    )


def _checkable(url: str) -> str:
    """``url`` without user info and query: what a saved profile's URL check may see of it."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    netloc = (f"[{host}]" if ":" in host else host) + (f":{parts.port}" if parts.port else "")
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))
