"""``--tool-approval`` of ``profile add`` and ``profile edit``: when an MCP profile's tool calls ask first."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from workbench.core.errors import ConfigError

if TYPE_CHECKING:  # the window starts through the parser: no pydantic before its first frame
    from workbench.core.profiles import ConnectionProfile

POLICY_NAMES = ("always", "destructive", "never")
"""``workbench.core.tool_approval.POLICIES``, spelled out (a unit test keeps the two equal)."""


def add_tool_approval_option(parser: argparse.ArgumentParser) -> None:
    """Add ``--tool-approval {always,destructive,never}``."""
    parser.add_argument(
        "--tool-approval",
        choices=POLICY_NAMES,
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
