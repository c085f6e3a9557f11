"""Conversation: one protocol-neutral transcript of a chat with an MCP server or an A2A agent.

A ``Conversation`` is an ordered list of items built from what the user sent and the ``AgentEvent``
stream the agent answered with. It is plain data (no Qt, no I/O), so the chat pane renders it, a
script can print it, and the handoff feature reads it (``messages()``, ``to_dicts()``).

``items`` holds the item classes (one per kind of line in the transcript); ``reducer`` holds
``Conversation``, which turns user input and agent events into items turn by turn. Every public
name of both is importable from here.
"""

from workbench.core.conversation.items import (
    AgentMessage,
    Answer,
    AnyItem,
    Artifact,
    Completion,
    Failure,
    Item,
    ItemChange,
    ItemKind,
    LogLine,
    Progress,
    Question,
    RequestKind,
    RequestStatus,
    StatusLine,
    ToolCall,
    UserMessage,
    answer_text,
)
from workbench.core.conversation.reducer import FINAL_STATES, WAITING_STATES, Conversation, Turn

__all__ = [
    "FINAL_STATES",
    "WAITING_STATES",
    "AgentMessage",
    "Answer",
    "AnyItem",
    "Artifact",
    "Completion",
    "Conversation",
    "Failure",
    "Item",
    "ItemChange",
    "ItemKind",
    "LogLine",
    "Progress",
    "Question",
    "RequestKind",
    "RequestStatus",
    "StatusLine",
    "ToolCall",
    "Turn",
    "UserMessage",
    "answer_text",
]
