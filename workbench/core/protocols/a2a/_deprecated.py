"""The names ``A2AAgent`` had before its facets, and where each is now (``deprecated.moved_attribute``)."""

from __future__ import annotations

_CONFIG = (
    "url",
    "target_label",
    "card_url",
    "binding",
    "protocol_version",
    "streaming",
    "wire",
    "connect_timeout",
    "request_timeout",
    "stream_idle_timeout",
    "http_transport",
    "input_handler",
)

MOVED: dict[str, str] = {
    **{name: f"config.{name}" for name in _CONFIG},
    "card": "discovery.card",
    "skills": "discovery.card.skills",
    "interface": "discovery.interface",
    "extended_card": "discovery.extended",
    "extended_card_error": "discovery.extended_error",
    "card_json": "discovery.fetch.raw",
    "card_url_used": "discovery.fetch.url",
    "card_notes": "discovery.fetch.notes",
    "card_warnings": "discovery.fetch.warnings",
    "task_operations": "tasks",
    "task_views": "tasks.views",
    "get_task": "tasks.get_view",
    "list_tasks": "tasks.list_views",
    "cancel_task": "tasks.cancel_view",
    "subscribe": "tasks.follow",
    "set_push_config": "tasks.push.set_config",
    "get_push_config": "tasks.push.get_config",
    "list_push_configs": "tasks.push.list_configs",
    "delete_push_config": "tasks.push.delete_config",
    "push_events": "tasks.push.events",
}
"""Old ``A2AAgent`` attribute -> its path from the agent now."""
