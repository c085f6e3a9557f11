"""Answer a peer's questions from the command line: ``--answer`` values in order, else the TTY, else decline."""

from __future__ import annotations

import asyncio
import json
import sys
from collections import deque
from collections.abc import Callable
from typing import Any, TextIO

from workbench.cli.terminal import STDERR
from workbench.core.protocols.base import (
    ElicitationRequest,
    ElicitationResponse,
    InputRequest,
    InputResponse,
    SamplingRequest,
    SamplingResponse,
    parts_text,
)

DECLINE_WORDS = ("decline", "no")
CANCEL_WORDS = ("cancel",)


class AnswerBook:
    """Hands out scripted answers in order, then asks on a TTY, then declines with a clear note.

    Args:
        answers: The ``--answer`` values, in order.
        interactive: Whether a person is at a terminal to ask.
        note: Where to write notes for the person (stderr).
    """

    def __init__(self, answers: list[str], *, interactive: bool, note: TextIO = STDERR) -> None:
        self._answers = deque(answers)
        self._interactive = interactive
        self._note = note
        self.declined: list[str] = []

    def _say(self, text: str) -> None:
        print(text, file=self._note, flush=True)

    async def _ask(self, prompt: str) -> str:
        return await asyncio.to_thread(_read_line, prompt, self._note)

    def _next_scripted(self) -> str | None:
        return self._answers.popleft() if self._answers else None

    async def elicitation(self, request: ElicitationRequest) -> ElicitationResponse:
        """Answer an MCP elicitation (form or URL mode)."""
        scripted = self._next_scripted()
        if scripted is None and self._interactive:
            return await self._elicit_on_tty(request)
        if scripted is None:
            self.declined.append(request.message)
            self._say(
                f"[workbench] declined the server's request for input ({request.mode} mode): {request.message!r}. "
                "Pass --answer JSON|decline|cancel to answer it."
            )
            return ElicitationResponse("decline")
        self._say(f"[{request.agent or 'server'} asks] {request.message} → answered from --answer")
        word = scripted.strip().lower()
        if word in DECLINE_WORDS:
            return ElicitationResponse("decline")
        if word in CANCEL_WORDS:
            return ElicitationResponse("cancel")
        if request.mode == "url":
            self._say(f"[workbench] URL the server asked you to open: {request.url}")
            return ElicitationResponse("accept")
        return ElicitationResponse("accept", content=_json_object(scripted, "--answer for a form"))

    async def input(self, request: InputRequest) -> InputResponse:
        """Answer an A2A ``input-required`` / ``auth-required`` pause."""
        scripted = self._next_scripted()
        if scripted is None and self._interactive:
            self._say(f"[{request.agent or 'agent'} asks] {request.text}")
            if request.schema:
                self._say("expected JSON matching: " + json.dumps(request.schema))
            scripted = await self._ask("answer (JSON object, text, or 'cancel'): ")
        if scripted is None:
            self.declined.append(request.text)
            self._say(
                f"[workbench] the agent asks for input and no --answer is left: {request.text!r}. "
                f"The task stays waiting; continue it with: send --task-id {request.task_id} --answer …"
            )
            return InputResponse()
        return answer_from_text(scripted)

    async def sampling(self, request: SamplingRequest) -> SamplingResponse:
        """Answer an MCP sampling request with text (scripted or typed)."""
        scripted = self._next_scripted()
        last = request.messages[-1] if request.messages else None
        question = parts_text(last.content) if last else ""
        if scripted is None and self._interactive:
            self._say(f"[{request.agent or 'server'} asks for a completion (sampling)] {question}")
            scripted = await self._ask("reply: ")
        elif scripted is not None:
            self._say(
                f"[{request.agent or 'server'} asks for a completion (sampling)] {question} → answered from --answer"
            )
        if scripted is None:
            from workbench.core.errors import UnsupportedCapabilityError

            raise UnsupportedCapabilityError(
                "The server asked for an LLM completion (sampling) and no answer was given.",
                hint="pass --answer TEXT to reply, or run on a terminal",
            )
        return SamplingResponse(text=scripted)

    async def _elicit_on_tty(self, request: ElicitationRequest) -> ElicitationResponse:
        self._say(f"[{request.agent or 'server'} asks] {request.message}")
        if request.mode == "url":
            self._say(f"It wants you to open: {request.url}")
            raw = await self._ask("Did you complete it there? [y = accept / n = decline / c = cancel]: ")
        else:
            raw = await self._ask("Fill the form? [y = fill / n = decline / c = cancel]: ")
        choice = raw.strip().lower()[:1]
        if choice == "c":
            return ElicitationResponse("cancel")
        if choice != "y":
            return ElicitationResponse("decline")
        if request.mode == "url":
            return ElicitationResponse("accept")
        content = await _fill_form(self, request.requested_schema or {}, self._ask)
        return ElicitationResponse("accept", content=content)


def answer_from_text(value: str) -> InputResponse:
    """Turn one ``--answer`` value into an A2A answer: JSON object → data, ``cancel`` → cancel, else text."""
    stripped = value.strip()
    if stripped.lower() in CANCEL_WORDS:
        return InputResponse(cancel=True)
    if stripped.startswith("{"):
        return InputResponse(data=_json_object(stripped, "--answer"))
    return InputResponse(text=value)


def _json_object(text: str, what: str) -> dict[str, Any]:
    from workbench.core.errors import ConfigError

    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{what} must be a JSON object: {exc.msg} at column {exc.colno}.") from None
    if not isinstance(value, dict):
        raise ConfigError(f"{what} must be a JSON object, got {type(value).__name__}.")
    return value


def _read_line(prompt: str, out: TextIO) -> str:
    print(prompt, end="", file=out, flush=True)
    return sys.stdin.readline().rstrip("\n")


def _coerce(kind: str, raw: str) -> Any:
    if kind == "integer":
        return int(raw)
    if kind == "number":
        return float(raw)
    if kind == "boolean":
        return raw.strip().lower() in ("y", "yes", "true", "1")
    return raw


async def _fill_form(book: AnswerBook, schema: dict[str, Any], ask: Callable[[str], Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    required = set(schema.get("required") or [])
    for name, prop in (schema.get("properties") or {}).items():
        kind = prop.get("type", "string")
        choices = prop.get("enum") or [o.get("const") for o in prop.get("oneOf", []) if "const" in o]
        hint = f" [{'/'.join(map(str, choices))}]" if choices else f" ({kind})"
        default = prop.get("default")
        label = prop.get("title") or name
        while True:
            raw = await ask(f"{label}{hint}{' *' if name in required else ''}{f' = {default}' if default else ''}: ")
            if not raw and default is not None:
                values[name] = default
                break
            if not raw and name not in required:
                break
            try:
                values[name] = _coerce(kind, raw)
                break
            except ValueError:
                book._say(f"not a valid {kind}")
    return values
