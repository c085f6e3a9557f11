"""Answer a peer's questions from the command line: ``--answer`` values in order, else the TTY, else decline."""

from __future__ import annotations

import asyncio
import json
import sys
from collections import deque
from collections.abc import Callable
from typing import Any, Literal, TextIO

from workbench.cli.form_answers import (
    describe_field,
    field_prompt,
    form_summary,
    is_flat_form,
    parse_field,
    schema_problems,
    unknown_fields,
    with_defaults,
)
from workbench.cli.terminal import STDERR, STDOUT, end_line
from workbench.core.errors import ConfigError
from workbench.core.protocols.base import (
    ElicitationRequest,
    ElicitationResponse,
    InputRequest,
    InputResponse,
    SamplingRequest,
    SamplingResponse,
    parts_text,
)
from workbench.core.safe_text import neutralise_line
from workbench.core.schema_order import in_display_order, ordered_properties
from workbench.core.tool_approval import ToolCallRequest

MAX_SCHEMA_CHARS = 2_000
"""Characters of a question's schema printed on the terminal (a longer one is cut, its length said)."""
DECLINE_WORDS = ("decline", "no")
CANCEL_WORDS = ("cancel",)
ACCEPT_WORDS = ("accept", "yes", "y", "retry")


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
        self.problems: list[ConfigError] = []
        """Answers that could not be used (the request was cancelled instead); the CLI exits 2."""

    def _say(self, text: str) -> None:
        end_line(STDOUT)  # a question never continues the line of reply text streamed before it
        print(text, file=self._note, flush=True)

    def _say_schema(self, schema: dict[str, Any]) -> None:
        # Fields in the order the window's form shows them (the schema's, or the one it names); a
        # long schema is cut (the wire log has it whole).
        text = json.dumps(in_display_order(schema), ensure_ascii=False)
        if len(text) > MAX_SCHEMA_CHARS:
            text = f"{text[:MAX_SCHEMA_CHARS]}… ({len(text):,} characters in all; the wire log has it whole)"
        self._say("  answer with JSON matching: " + text)

    async def _ask(self, prompt: str) -> str:
        return await asyncio.to_thread(_read_line, prompt, self._note)

    async def _ask_or_none(self, prompt: str) -> str | None:
        try:
            return await self._ask(prompt)
        except InputEndedError:
            return None

    def _next_scripted(self) -> str | None:
        return self._answers.popleft() if self._answers else None

    async def elicitation(self, request: ElicitationRequest) -> ElicitationResponse:
        """Answer an MCP elicitation (form or URL mode)."""
        scripted = self._next_scripted()
        if scripted is None and self._interactive:
            return await self._elicit_on_tty(request)
        if scripted is None:
            self.declined.append(request.message)
            if request.mode == "url":
                self._say(
                    f"[workbench] declined the server's request to open a URL: {request.message!r}\n"
                    f"  open: {request.url}\n"
                    "  Pass --answer accept (once you have opened it) | decline | cancel to answer it."
                )
            else:
                self._say(
                    f"[workbench] declined the server's request for input (form): {request.message!r}. "
                    "Pass --answer JSON|decline|cancel to answer it."
                )
                if fields := form_summary(request.requested_schema):
                    self._say(f"  its fields (* required): {fields}")
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
        try:
            schema = request.requested_schema
            content = with_defaults(schema, _json_object(scripted, "--answer for a form"))
            problems = schema_problems(schema, content) + unknown_fields(schema, content)
            if problems:
                raise ConfigError(
                    "--answer does not fit the server's form: " + "; ".join(problems) + ".",
                    hint="answer with a JSON object matching the form, or decline / cancel",
                    details={"problems": problems},
                )
        except ConfigError as exc:
            self.problems.append(exc)
            self._say(f"[workbench] cancelled the server's request for input: {exc.message}")
            return ElicitationResponse("cancel")
        return ElicitationResponse("accept", content=content)

    async def input(self, request: InputRequest) -> InputResponse:
        """Answer an A2A ``input-required`` / ``auth-required`` pause.

        A JSON answer to a question that comes with a schema is checked against it first: a scripted
        one that does not fit is not sent (the task stays waiting, the CLI exits 2), a typed one is
        asked again.
        """
        # The one place the question is shown (the event printer leaves it to us): once, here.
        scripted = self._next_scripted()
        asks = f"[{request.agent or 'agent'} asks] {request.text}"
        if scripted is not None:
            self._say(f"{asks} → answered from --answer")
            try:
                return _input_answer(request, scripted)
            except ConfigError as exc:
                # Nothing is sent: the task stays waiting and the command that continues it is printed.
                self.problems.append(exc)
                self._say(f"[workbench] not sent: {exc.message}")
                return InputResponse()
        if self._interactive:
            self._say(asks)
            typed_answer = await self._input_on_tty(request)
            if typed_answer is not None:
                return typed_answer
        elif request.schema:
            self._say_schema(request.schema)
        self.declined.append(request.text)
        if request.kind == "auth":
            self._say(f"[workbench] the agent needs a credential and no --answer is left: {request.text}")
        else:
            self._say(
                f"[workbench] the agent asks for input and no --answer is left: {request.text!r}. "
                "The task stays waiting (the command to continue it follows the result)."
            )
        return InputResponse()

    async def _input_on_tty(self, request: InputRequest) -> InputResponse | None:
        """A person's answer to an A2A question; ``None`` when the input ended (the task stays waiting).

        A form of simple fields is offered field by field (titles, descriptions, choices by label, as
        for an MCP form), or as typed JSON or text; any other question is answered by typing.
        """
        schema = request.schema
        if schema and is_flat_form(schema):
            while (raw := await self._ask_or_none(FORM_OR_TYPE)) is not None:
                choice = raw.strip().lower()
                if choice in ("c", "cancel"):
                    return InputResponse(cancel=True)
                if choice in ("t", "type"):
                    break
                if choice not in ("y", "yes", "fill"):
                    self._say("  answer y, t or c")
                    continue
                try:
                    content = await _fill_form(self, schema, self._ask)
                except InputEndedError:
                    return None
                problems = schema_problems(schema, content)
                if not problems:
                    return InputResponse(data=content)
                for problem in problems:
                    self._say(f"  {problem}")
            else:
                return None
        if schema:
            self._say_schema(schema)
        while (typed := await self._ask_or_none("answer (JSON object, text, or 'cancel'): ")) is not None:
            try:
                return _input_answer(request, typed)
            except ConfigError as exc:
                self._say(f"  {exc.message}")
        return None

    async def sampling(self, request: SamplingRequest) -> SamplingResponse:
        """Answer an MCP sampling request with text (scripted or typed)."""
        scripted = self._next_scripted()
        last = request.messages[-1] if request.messages else None
        question = parts_text(last.content) if last else ""
        if scripted is None and self._interactive:
            self._say(f"[{request.agent or 'server'} asks for a completion (sampling)] {question}")
            scripted = await self._ask_or_none("reply: ")
        elif scripted is not None:
            self._say(
                f"[{request.agent or 'server'} asks for a completion (sampling)] {question} → answered from --answer"
            )
        if scripted is None:
            from workbench.core.errors import UnsupportedCapabilityError

            self.declined.append(question)
            self._say(
                f"[workbench] declined the server's request for a completion (sampling): {question!r}. "
                "Pass --answer TEXT to reply (or --answer decline)."
            )
            raise UnsupportedCapabilityError(
                "The server asked for an LLM completion (sampling) and no answer was given.",
                hint="pass --answer TEXT to reply, or run on a terminal",
            )
        if scripted.strip().lower() in (*DECLINE_WORDS, *CANCEL_WORDS):
            from workbench.core.errors import SamplingRejectedError

            # Sent as the spec's "user rejected" error, never as a reply reading "decline".
            self._say("[workbench] declined the server's request for a completion")
            raise SamplingRejectedError("The user declined the sampling request.")
        if request.tools and scripted.lstrip().startswith("{"):
            return person_tool_use(request, scripted)
        return SamplingResponse(text=scripted)

    async def approve_sampling(self, request: SamplingRequest, draft: SamplingResponse) -> SamplingResponse | None:
        """Show a script's or model's draft reply; send it, send typed text instead, or reject it (``None``).

        The answer is the next ``--answer`` (``accept``/``yes``/``y`` send the draft, ``decline``/``no``
        reject it, other text replaces it), else the terminal, else the draft is rejected.
        """
        uses = ", ".join(
            f"{(p.data or {}).get('name')}({json.dumps((p.data or {}).get('input'))})" for p in draft.tool_uses
        )
        self._say(
            f"[{draft.responder or 'responder'} drafted] {draft.text}" + (f" [tool calls: {uses}]" if uses else "")
        )
        answer = self._next_scripted()
        if answer is None and self._interactive:
            answer = await self._ask_or_none("send it? (y = send, n = reject, or type a reply): ")
        if answer is None or answer.strip().lower() in (*DECLINE_WORDS, *CANCEL_WORDS):
            return None
        if answer.strip().lower() in ACCEPT_WORDS:
            return draft
        return SamplingResponse(text=answer, responder="person")

    async def consent_to_url(self, request: ElicitationRequest) -> bool:
        """Ask whether the user completed a URL the server requires first (MCP error -32042).

        The URL is always shown; the answer is the next ``--answer`` (``accept``/``yes``/``y``
        consent, anything else does not), else the terminal, else no.
        """
        self._say(f"[{request.agent or 'server'} requires] {request.message}")
        self._say(f"  open: {request.url}")
        scripted = self._next_scripted()
        if scripted is None and self._interactive:
            scripted = await self._ask_or_none("Did you complete it there? Retry the call? [y = retry / n = stop]: ")
        elif scripted is not None:
            self._say(f"  → answered {scripted.strip()!r} from --answer")
        if scripted is None:
            self._say("[workbench] not retried: open the URL, then run the command again with --answer accept")
            return False
        return scripted.strip().lower() in ACCEPT_WORDS

    async def approve_tool_call(self, request: ToolCallRequest) -> bool:
        """Ask on the terminal whether a tool call that needs a yes (a destructive tool) may go out.

        The tool, its hints and the arguments are shown; only a person at the terminal can say yes here
        (``--answer`` values are for the server's questions; ``--yes`` approves without asking).
        """
        hints = ", ".join(f"{label.lower()}: {value}" for label, value in request.hints.lines())
        arguments = json.dumps(request.arguments, ensure_ascii=False, default=str)
        if len(arguments) > MAX_SCHEMA_CHARS:
            arguments = f"{arguments[:MAX_SCHEMA_CHARS]}… ({len(arguments):,} characters in all)"
        self._say(
            f"[workbench] {neutralise_line(request.tool.name)!r} on {neutralise_line(request.connection)} ({hints})"
        )
        self._say(f"  arguments: {neutralise_line(arguments)}")
        if not self._interactive:
            self._say("[workbench] not called: this tool needs your approval; run on a terminal or add --yes")
            return False
        answer = await self._ask_or_none("Call it? [y = call / n = don't]: ")
        return answer is not None and answer.strip().lower() in ACCEPT_WORDS

    @property
    def unused(self) -> int:
        """How many ``--answer`` values nobody asked for."""
        return len(self._answers)

    async def _elicit_on_tty(self, request: ElicitationRequest) -> ElicitationResponse:
        self._say(f"[{request.agent or 'server'} asks] {request.message}")
        if request.mode == "url":
            self._say(f"It wants you to open: {request.url}")
            prompt = "Did you complete it there? [y = accept / n = decline / c = cancel]: "
        else:
            prompt = "Fill the form? [y = fill / n = decline / c = cancel]: "
        while True:  # anything else is asked again: a typo (or an answer typed too early) must not decline
            raw = await self._ask_or_none(prompt)
            if raw is None:
                return ElicitationResponse("cancel")
            choice = _CHOICES.get(raw.strip().lower())
            if choice is not None:
                break
            self._say("  answer y, n or c")
        if choice != "accept":
            return ElicitationResponse(choice)
        if request.mode == "url":
            return ElicitationResponse("accept")
        schema = request.requested_schema or {}
        while True:
            try:
                content = await _fill_form(self, schema, self._ask)
            except InputEndedError:
                self._say("[workbench] input ended; the server's request is cancelled")
                return ElicitationResponse("cancel")
            problems = schema_problems(schema, content)
            if not problems:
                return ElicitationResponse("accept", content=content)
            for problem in problems:
                self._say(f"  {problem}")
            again = await self._ask_or_none("Fill it again? [y = again / c = cancel]: ")
            if again is None or again.strip().lower()[:1] != "y":
                return ElicitationResponse("cancel")


FORM_OR_TYPE = "Fill the form? [y = field by field / t = type JSON or text / c = cancel the task]: "
"""What a person is asked first when an A2A agent's question comes with a form of simple fields."""

_CHOICES: dict[str, Literal["accept", "decline", "cancel"]] = {
    **dict.fromkeys(("y", "yes", "fill", "accept"), "accept"),
    **dict.fromkeys(("n", "no", "decline"), "decline"),
    **dict.fromkeys(("c", "cancel"), "cancel"),
}
"""What a person may type at "Fill the form? [y / n / c]" and what it means."""


def answer_from_text(value: str) -> InputResponse:
    """Turn one ``--answer`` value into an A2A answer: JSON object → data, ``cancel`` → cancel, else text."""
    stripped = value.strip()
    if stripped.lower() in CANCEL_WORDS:
        return InputResponse(cancel=True)
    if stripped.startswith("{"):
        return InputResponse(data=_json_object(stripped, "--answer"))
    return InputResponse(text=value)


def _input_answer(request: InputRequest, text: str) -> InputResponse:
    """``text`` as the answer to ``request``; a JSON object is checked against the request's schema.

    Raises:
        ConfigError: The text is malformed JSON, or an object that does not fit the schema.
    """
    answer = answer_from_text(text)
    if answer.data is not None and request.schema:
        problems = schema_problems(request.schema, answer.data)
        if problems:
            raise ConfigError(
                "--answer does not fit the agent's form: " + "; ".join(problems) + ".",
                hint="answer with a JSON object matching the form, or cancel",
                details={"problems": problems},
            )
    return answer


def _json_object(text: str, what: str) -> dict[str, Any]:
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{what} must be a JSON object: {exc.msg} at column {exc.colno}.") from None
    if not isinstance(value, dict):
        raise ConfigError(f"{what} must be a JSON object, got {type(value).__name__}.")
    return value


class InputEndedError(Exception):
    """The terminal's input ended (Ctrl-D or a closed pipe) while a question was open."""


def person_tool_use(request: SamplingRequest, answer: str) -> SamplingResponse:
    """A person's ``{"tool_use": {"name": ..., "input": {...}}}`` answer to a request that offers tools.

    Raises:
        ConfigError: The answer is not such an object.
        SamplingToolError: It names a tool the request did not offer.
    """
    from workbench.core.sampling.tools import check_tool_uses, tool_use_part

    value = _json_object(answer, "--answer for a completion with tools")
    use = value.get("tool_use")
    if not isinstance(use, dict) or not isinstance(use.get("name"), str) or not isinstance(use.get("input", {}), dict):
        raise ConfigError(
            'A JSON answer to a completion with tools is {"tool_use": {"name": TOOL, "input": {...}}}.',
            hint="or answer with plain text",
        )
    part = tool_use_part("person_call_1", use["name"], use.get("input") or {})
    check_tool_uses(request, [part], "The answer")
    return SamplingResponse(text="", stop_reason="toolUse", content=(part,), responder="person")


def _read_line(prompt: str, out: TextIO) -> str:
    print(prompt, end="", file=out, flush=True)
    line = sys.stdin.readline()
    if not line:
        raise InputEndedError
    return line.rstrip("\n")


async def _fill_form(book: AnswerBook, schema: dict[str, Any], ask: Callable[[str], Any]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    required = set(schema.get("required") or [])
    for name, prop in ordered_properties(schema):
        for line in describe_field(prop):
            book._say(line)
        while True:
            raw = await ask(field_prompt(name, prop, name in required))
            if not raw.strip():
                if "default" in prop:
                    values[name] = prop["default"]
                    break
                if name not in required:
                    break
                book._say("  this field is required")
                continue
            try:
                value = parse_field(prop, raw)
            except ValueError as exc:
                book._say(f"  {exc}")
                continue
            problems = schema_problems(prop, value)
            if problems:
                book._say("  " + "; ".join(problems))
                continue
            values[name] = value
            break
    return values
