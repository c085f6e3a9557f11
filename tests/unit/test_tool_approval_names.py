"""The command line spells the tool-approval policies out (no pydantic before the window's first frame)."""

from workbench.cli.tool_approval_cli import POLICY_NAMES
from workbench.core.tool_approval import POLICIES


def test_the_command_line_offers_exactly_the_policies_the_core_knows() -> None:
    assert POLICY_NAMES == POLICIES
