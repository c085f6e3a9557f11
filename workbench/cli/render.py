"""Human-readable and JSON output for the command line."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from workbench.cli.capabilities import capability_words
from workbench.cli.terminal import STDERR, STDOUT
from workbench.core.credential_hint import pass_credential_hint
from workbench.core.errors import AuthRequiredError, WorkbenchError
from workbench.core.flagged_json import flagged_json_line
from workbench.core.protocols.base import (
    AgentEvent,
    ArtifactUpdated,
    AuthRequired,
    Completed,
    ContentPart,
    ElicitationRequested,
    Failed,
    InputRequired,
    LogMessage,
    ProgressReported,
    SamplingRequested,
    StatusChanged,
    TextDelta,
    ToolCallRequested,
    ToolResult,
)
from workbench.core.safe_text import neutralise_line
from workbench.core.shell_quote import command_line
from workbench.core.sizes import base64_size


def print_json(obj: Any, out: TextIO = STDOUT) -> None:
    """Print one JSON object on one line: valid JSON always, hidden characters and non-finite numbers flagged.

    See ``workbench.core.flagged_json`` (the ``hidden_characters`` and ``non_finite_numbers`` members).
    """
    print(flagged_json_line(obj, default=_default), file=out, flush=True)


def _default(value: Any) -> Any:
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return repr(value)


def _allow_origin_hint(exc: BaseException) -> str | None:
    """The options that let a ``CredentialOriginError``'s refused origin have the credentials, as a note.

    The origin comes from a peer (a card's interface URL): it is one quoted shell word, or no note
    when no command line can carry it. Checked by code: no HTTP layer imported here.
    """
    if isinstance(exc, WorkbenchError) and exc.code == "credential-origin":
        origin = exc.details.get("origin")
        if isinstance(origin, str) and origin:
            try:
                return f"  to send them there too, add: {command_line('--allow-origin', origin)}"
            except ValueError:
                return None
    return None


def print_error(exc: WorkbenchError, *, as_json: bool, out: TextIO = STDOUT, err: TextIO = STDERR) -> None:
    """Report a typed failure: a JSON ``failed`` line, or words on stderr."""
    if as_json:
        print_json({"kind": "failed", "error": exc.to_dict()}, out)
        return
    print(f"error: {exc.message}", file=err)
    if hint := command_line_hint(exc):
        print(f"hint: {hint}", file=err)
    if (allow := _allow_origin_hint(exc)) is not None:
        print(allow, file=err)


def command_line_hint(exc: WorkbenchError) -> str | None:
    """The error's hint in the command line's words where the core's names library code."""
    details = exc.details or {}
    if details.get("problem") == "no-entry-point":  # the core's hint: agent.tools[...] / MCPAgent(agent_tool=…)
        return (
            "call one of its tools with the same target: workbench call … TOOL --args JSON; "
            "or send the message to the tool that takes it: --agent-tool TOOL"
        )
    return exc.hint


def describe_human(info: dict[str, Any], out: TextIO = STDOUT) -> None:
    """Print an ``inspect`` description for people (MCP or A2A)."""
    w = out.write
    if info.get("protocol") == "a2a":
        _describe_a2a(info, out)
        return
    server = info.get("server_info") or {}
    w(f"MCP server  {server.get('name', '?')} {server.get('version', '')}\n")
    w(f"target      {info.get('target')}\n")
    w(f"protocol    {info.get('protocol_version')} ({info.get('era')} era, {info.get('transport')})\n")
    caps = info.get("capabilities") or {}
    declared = (caps.get("extra") or {}).get("server_capabilities")
    if isinstance(declared, dict):  # what the server declared, not what the client could do
        w(f"server      {', '.join(capability_words(declared)) or 'no capabilities declared'}\n")
    client = info.get("client_capabilities")
    if isinstance(client, dict):
        w(f"client      {', '.join(capability_words(client)) or 'no capabilities declared'} (declared by workbench)\n")
    if caps.get("agent_entry_point"):
        w(f"agent tool  {caps['agent_entry_point']}\n")
    if info.get("instructions"):
        w(f"instructions {_one_line(info['instructions'], 200)}\n")
    _section(out, "tools", info.get("tools", []), lambda t: f"{t['name']}  {_one_line(t.get('description') or '')}")
    _section(out, "resources", info.get("resources", []), lambda r: _entry(r["uri"], r))
    _section(out, "resource templates", info.get("resource_templates", []), lambda t: _entry(t["uri_template"], t))
    _section(out, "prompts", info.get("prompts", []), _prompt_line)


def _entry(key: str, item: dict[str, Any]) -> str:
    """A resource (template) line: its URI, media type, title and description, as the server gave them."""
    mime = f"  ({item['mime_type']})" if item.get("mime_type") else ""
    about = ": ".join(str(x) for x in (item.get("title") or item.get("name"), item.get("description")) if x)
    return f"{key}{mime}  {_one_line(about)}".rstrip()


def _prompt_line(prompt: dict[str, Any]) -> str:
    """A prompt's line: its name, its arguments (``*`` when required) and description."""
    arguments = ", ".join(f"{a['name']}{'*' if a.get('required') else ''}" for a in prompt.get("arguments", []))
    return f"{prompt['name']}({arguments})  {_one_line(prompt.get('description') or '')}".rstrip()


def _describe_a2a(info: dict[str, Any], out: TextIO) -> None:
    w = out.write
    w(f"A2A agent   {info.get('name')} {info.get('version', '')}\n")
    if info.get("description"):
        w(f"about       {_one_line(info['description'], 200)}\n")
    versions = info.get("protocol_versions") or [info.get("protocol_version")]
    w(f"protocol    {', '.join(str(v) for v in versions if v)}\n")
    for iface in info.get("interfaces", []):
        binding = iface.get("binding") or iface.get("protocol_binding") or iface.get("protocolBinding")
        version = iface.get("protocol_version") or iface.get("protocolVersion") or ""
        w(f"interface   {binding} {version} {iface.get('url')}\n")
    caps = info.get("capabilities") or {}
    w(f"capabilities {json.dumps(caps)}\n")
    schemes = info.get("security_schemes") or {}
    if schemes:
        w(f"security    {json.dumps(schemes)}\n")
        if info.get("needs"):
            w(f"needs       {info['needs']}\n")
    _section(out, "skills", info.get("skills", []), lambda s: f"{s.get('id')}  {_one_line(s.get('description') or '')}")


def _section(out: TextIO, title: str, items: list[Any], line: Any) -> None:
    out.write(f"\n{title} ({len(items)})\n")
    for item in items:
        out.write(f"  {line(item)}\n")


def _one_line(text: str, limit: int = 100) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def tool_result_human(result: ToolResult, out: TextIO = STDOUT) -> None:
    """Print a tool result's content blocks, structured content and schema problems."""
    if result.is_error:
        out.write("tool reported an error:\n")
    for part in result.content:
        if part.type == "text":
            text = part.text or ""
            out.write(text if text.endswith("\n") else f"{text}\n")  # a file's last newline is not doubled
        elif part.blob is not None:
            out.write(f"[{part.type} {part.mime_type or ''} {base64_size(part.blob)} bytes]\n")
        else:
            out.write(f"[{part.type}] {json.dumps(part.to_dict(), ensure_ascii=False)[:500]}\n")
    if result.structured_content is not None and not _text_repeats(result, result.structured_content):
        shown = _abbreviated(result.structured_content)
        out.write("structured: " + json.dumps(shown, ensure_ascii=False) + "\n")
    for problem in result.schema_errors:
        out.write(f"outputSchema mismatch: {problem}\n")


LONG_STRING = 300
"""A string in structured content longer than this is shown cut (``--json`` has it whole)."""


def _text_repeats(result: ToolResult, structured: Any) -> bool:
    """Whether the text blocks already show the structured content.

    Either a text block is the structured content serialised (as the spec asks servers to add; then
    stdout stays one JSON document and ``| jq`` works), or the structured content is one field
    holding exactly the text (server-filesystem's ``{"content": TEXT}``). ``--json`` keeps both.
    """
    texts = [part.text for part in result.content if part.type == "text" and part.text]
    if isinstance(structured, dict) and len(structured) == 1 and texts and [*structured.values()] == ["".join(texts)]:
        return True
    for part in result.content:
        if part.type == "text" and part.text and part.text.lstrip()[:1] in ("{", "["):
            try:
                if json.loads(part.text) == structured:
                    return True
            except ValueError:
                continue
    return False


def _abbreviated(value: Any, depth: int = 0) -> Any:
    """``value`` with long strings cut (an image's base64 would fill the screen) and deep nesting elided."""
    if isinstance(value, str) and len(value) > LONG_STRING:
        return f"{value[:80]}… ({len(value)} characters)"
    if depth >= 20 and isinstance(value, dict | list):
        return "…"
    if isinstance(value, dict):
        return {k: _abbreviated(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_abbreviated(v, depth + 1) for v in value]
    return value


def _part_text(part: ContentPart) -> str:
    if part.text is not None:
        return part.text
    if part.data is not None:
        return json.dumps(part.data, ensure_ascii=False)
    if part.blob is not None:
        return f"[{part.type} {part.mime_type or ''} {base64_size(part.blob)} bytes]"
    return f"[{part.type} {part.uri or ''}]"


_ASKING_STATES = ("input_required", "auth_required", "input-required", "auth-required")


class HumanPrinter:
    """Prints streamed events for people: reply text to stdout, everything else to stderr.

    Keeps the two streams readable on one terminal: a note never lands in the middle of a line
    of reply text, and a status message that also arrives as reply text (A2A agents' "thinking…")
    is shown once when both streams are terminals (a pipe still gets it on stdout).
    """

    def __init__(self, out: TextIO = STDOUT, err: TextIO = STDERR, *, target: Sequence[str] | None = None) -> None:
        """Print to ``out`` (reply text) and ``err`` (notes).

        Args:
            out: Where reply text goes.
            err: Where notes go.
            target: The command-line target options as arguments (``["--a2a", URL]`` …), for the
                command that continues a waiting task; without them the command names only the ids.
        """
        self._out = out
        self._err = err
        self._target = target
        self._open_line = False
        self._shown_status: str | None = None  # the status message just noted, while it may still echo

    def _one_screen(self) -> bool:
        try:
            return self._out.isatty() and self._err.isatty()
        except (AttributeError, ValueError):  # a closed or unusual stream
            return False

    def _still_open(self) -> bool:
        """Whether the reply line this printer left open is still open (the answer book may have ended it)."""
        inner = sys.stdout if self._out is STDOUT else self._out
        return bool(getattr(inner, "mid_line", True))

    def _text(self, text: str) -> None:
        if text:
            self._out.write(text)
            self._out.flush()
            self._open_line = not text.endswith("\n")

    def _note(self, text: str) -> None:
        if self._open_line and self._still_open():
            self._out.write("\n")
            self._out.flush()
            self._open_line = False
        print(text, file=self._err, flush=True)

    def event(self, event: AgentEvent) -> None:
        """Print one event."""
        note = self._note
        shown, self._shown_status = self._shown_status, None
        if isinstance(event, TextDelta):
            if event.text != shown or not self._one_screen():
                self._text(event.text)
        elif isinstance(event, ProgressReported):
            total = f"/{event.total:g}" if event.total else ""
            note(f"[progress {event.progress:g}{total}] {event.message or ''}")
        elif isinstance(event, LogMessage):
            note(f"[log {event.level}] {event.data}")
        elif isinstance(event, StatusChanged):
            if event.state not in _ASKING_STATES:  # the answer book shows the question, once
                note(f"[status {event.state}]" + (f" {event.message}" if event.message else ""))
                self._shown_status = event.message
        elif isinstance(event, ArtifactUpdated):
            # The artifact is the agent's output: its content goes to stdout like reply text, its
            # name to stderr (a pipe gets the content alone).
            body = "".join(_part_text(p) for p in event.parts)
            if not event.append:
                note(f"[artifact {event.name or event.artifact_id}]")
            self._text(body)  # chunks continue the line; the next note or the end closes it
        elif isinstance(event, ToolCallRequested):
            note(f"[tool call] {event.name}({json.dumps(event.arguments)})")
        elif isinstance(event, ElicitationRequested | SamplingRequested):
            # The answer book speaks for these: it shows the question when it asks on the terminal and
            # says what it answered otherwise. (Printing here too would race with its prompt.)
            pass
        elif isinstance(event, InputRequired | AuthRequired):
            pass  # the answer book shows the question (and its schema) when it asks or declines
        elif isinstance(event, Completed):
            if self._open_line and self._still_open():
                self._text("\n")
            result = event.result
            if result.state in ("input_required", "auth_required") and result.task_id:
                what = "a credential" if result.state == "auth_required" else "your answer"
                ids = ["--task-id", result.task_id] + (["--context-id", result.context_id] if result.context_id else [])
                try:  # the ids are the agent's: each one quoted shell word, the command one line
                    command = command_line("workbench", "send", *(self._target or ()), *ids, "YOUR ANSWER")
                except ValueError as exc:
                    note(f"[{result.state}] the task waits for {what}; no command line can continue it ({exc})")
                else:
                    note(f"[{result.state}] the task waits for {what}; continue it with:")
                    note(f"  {command}")
            elif result.state != "completed":
                named = (("task", result.task_id), ("context", result.context_id))
                shown = " ".join(f"{k}={neutralise_line(v)}" for k, v in named if v)  # the agent's ids: one line
                note(f"[{result.state}]" + (f" {shown}" if shown else ""))
        elif isinstance(event, Failed):
            note(f"[failed] {event.message}")
            if isinstance(event.error, WorkbenchError) and (hint := command_line_hint(event.error)):
                note(f"hint: {hint}")
            if (allow := _allow_origin_hint(event.error)) is not None:
                note(allow)
            if isinstance(event.error, AuthRequiredError) and self._target:
                note("  " + pass_credential_hint(("workbench", "send", *self._target), event.error.details))
        else:
            note(f"[{event.kind.value}]")
