"""``--tool-approval`` of ``profile add`` and ``profile edit``: when an MCP profile's tool calls ask first."""

from __future__ import annotations

import argparse

from workbench.core.errors import ConfigError
from workbench.core.profiles import ConnectionProfile
from workbench.core.tool_approval import POLICIES


def add_tool_approval_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--tool-approval {always,destructive,never}``."""
    parser.add_argument(
        "--tool-approval",
        choices=POLICIES,
        default=None,
        help="MCP: when a tool call asks first: always, destructive (tools annotated so; the default) or never",
    )


def with_tool_approval(profile: ConnectionProfile, policy: str | None) -> ConnectionProfile:
    """``profile`` with its ``tool_approval`` set to ``policy`` (``None``: unchanged).

    Raises:
        ConfigError: The profile is not an MCP server's.
    """
    if policy is None:
        return profile
    if profile.kind == "a2a":
        raise ConfigError("--tool-approval is for MCP servers (an A2A agent's skills carry no hints).")
    return profile.with_changes(tool_approval=policy)
