"""The names ``MCPAgent`` had before its facets, and where each is now (``deprecated.moved_attribute``)."""

from __future__ import annotations

_FEATURES = (
    "read_resource",
    "subscribe_resource",
    "unsubscribe_resource",
    "get_prompt",
    "complete",
    "set_logging_level",
    "set_roots",
    "ping",
    "resources",
    "resource_templates",
    "prompts",
    "log_level",
    "roots",
    "add_listener",
    "list_tools",
)
_CONFIG = (
    "transport",
    "url",
    "target_label",
    "command",
    "args",
    "env",
    "cwd",
    "mode",
    "headers",
    "agent_tool",
    "elicitation_handler",
    "sampling_handler",
    "wire",
    "bus",
    "connect_timeout",
    "request_timeout",
    "auth",
    "http_transport",
    "limits",
)

MOVED: dict[str, str] = {
    **{name: f"server_features.{name}" for name in _FEATURES},
    **{name: f"config.{name}" for name in _CONFIG},
    "task_operations": "tasks",
}
"""Old ``MCPAgent`` attribute -> its path from the agent now (``log_level`` and ``roots``: as they are now)."""
