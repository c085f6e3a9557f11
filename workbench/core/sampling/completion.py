"""A model's answer while it streams in, bounded, and the errors both model APIs share."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from workbench.core.errors import ModelEndpointError, ModelResponseError
from workbench.core.protocols.base import ContentPart
from workbench.core.sampling.tools import MAX_TOOL_USES, tool_use_part

MAX_REPLY_CHARS = 1_000_000
"""Most characters of text plus tool arguments one answer may hold."""

TextSink = Callable[[str], None]
"""Receives the answer's text as it streams in."""


@dataclass(slots=True)
class Completion:
    """One model answer, protocol-neutral: its text, its tool calls, why it stopped, what it cost in tokens."""

    model: str
    text: str = ""
    tool_uses: list[ContentPart] = field(default_factory=list)
    stop_reason: str = "endTurn"
    input_tokens: int | None = None
    output_tokens: int | None = None


class ToolCallDraft:
    """A tool call whose JSON arguments arrive in pieces."""

    def __init__(self, call_id: str, name: str) -> None:
        self.call_id = call_id
        self.name = name
        self.arguments: list[str] = []

    def part(self, endpoint: str) -> ContentPart:
        """The finished call as a ``tool_use`` part.

        Raises:
            ModelResponseError: The arguments are not a JSON object.
        """
        raw = "".join(self.arguments).strip() or "{}"
        try:
            value: Any = json.loads(raw)
        except ValueError:
            value = None
        if not isinstance(value, dict):
            raise ModelResponseError(
                f"{endpoint} called the tool {self.name[:80]!r} with arguments that are not a JSON object.",
                details={"tool": self.name[:200], "arguments": raw[:200]},
            )
        return tool_use_part(self.call_id, self.name, value)


class Budget:
    """Counts what an answer has delivered and refuses past ``MAX_REPLY_CHARS`` or ``MAX_TOOL_USES``."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.chars = 0

    def take(self, text: str) -> str:
        """Count ``text``; return it.

        Raises:
            ModelResponseError: The answer grew past the bound.
        """
        self.chars += len(text)
        if self.chars > MAX_REPLY_CHARS:
            raise ModelResponseError(f"{self.endpoint} sent more than {MAX_REPLY_CHARS:,} characters; stopped reading.")
        return text

    def check_calls(self, count: int) -> None:
        """Refuse more than ``MAX_TOOL_USES`` tool calls."""
        if count > MAX_TOOL_USES:
            raise ModelResponseError(f"{self.endpoint} asked for more than {MAX_TOOL_USES} tool calls in one answer.")


def scrub(text: str, secret: str | None, limit: int = 300) -> str:
    """``text`` cut to ``limit`` characters with the key (and any long piece of it) masked."""
    if secret:
        text = text.replace(secret, "***")
        if len(secret) >= 12:  # providers echo a key's start or end ("sk-abc…xyz")
            text = text.replace(secret[:8], "***").replace(secret[-6:], "***")
    return text[:limit]


def status_error(endpoint: str, status: int, body_message: str, secret: str | None) -> ModelEndpointError:
    """An HTTP error status from the endpoint, its message scrubbed of the key."""
    hints = {401: "check the endpoint's key (workbench model key NAME)", 403: "the key lacks access to this model"}
    hints |= {404: "check the base URL and the model name", 429: "rate limited: wait, or lower the request rate"}
    return ModelEndpointError(
        f"{endpoint} answered HTTP {status}.",
        hint=hints.get(status, "see the details"),
        details={"status": status, "message": scrub(body_message, secret)},
    )
