"""Human-readable and JSON output for the command line."""

from __future__ import annotations

import json
import sys
from typing import Any, TextIO

from workbench.core.errors import WorkbenchError
from workbench.core.protocols.base import (
    AgentEvent,
    ArtifactUpdated,
    Completed,
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

BLOB_PREVIEW = 60


def print_json(obj: Any, out: TextIO = sys.stdout) -> None:
    """Print one JSON object on one line."""
    print(json.dumps(obj, ensure_ascii=False, default=_default), file=out, flush=True)


def _default(value: Any) -> Any:
    to_dict = getattr(value, "to_dict", None)
    if callable(to_dict):
        return to_dict()
    return repr(value)


def print_error(exc: WorkbenchError, *, as_json: bool, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> None:
    """Report a typed failure: a JSON ``failed`` line, or words on stderr."""
    if as_json:
        print_json({"kind": "failed", "error": exc.to_dict()}, out)
        return
    print(f"error: {exc.message}", file=err)
    if exc.hint:
        print(f"hint: {exc.hint}", file=err)


def describe_human(info: dict[str, Any], out: TextIO = sys.stdout) -> None:
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
    offered = [k.removeprefix("supports_") for k, v in caps.items() if k.startswith("supports_") and v is True]
    w(f"offers      {', '.join(offered)}\n")
    if caps.get("agent_entry_point"):
        w(f"agent tool  {caps['agent_entry_point']}\n")
    if info.get("instructions"):
        w(f"instructions {_one_line(info['instructions'], 200)}\n")
    _section(out, "tools", info.get("tools", []), lambda t: f"{t['name']}  {_one_line(t.get('description') or '')}")
    _section(out, "resources", info.get("resources", []), lambda r: f"{r['uri']}  {r.get('mime_type') or ''}")
    _section(out, "resource templates", info.get("resource_templates", []), lambda t: t["uri_template"])
    _section(
        out,
        "prompts",
        info.get("prompts", []),
        lambda p: f"{p['name']}({', '.join(a['name'] for a in p.get('arguments', []))})",
    )


def _describe_a2a(info: dict[str, Any], out: TextIO) -> None:
    w = out.write
    w(f"A2A agent   {info.get('name')} {info.get('version', '')}\n")
    if info.get("description"):
        w(f"about       {_one_line(info['description'], 200)}\n")
    versions = info.get("protocol_versions") or [info.get("protocol_version")]
    w(f"protocol    {', '.join(str(v) for v in versions if v)}\n")
    for iface in info.get("interfaces", []):
        w(f"interface   {iface.get('protocol_binding') or iface.get('protocolBinding')} {iface.get('url')}\n")
    caps = info.get("capabilities") or {}
    w(f"capabilities {json.dumps(caps)}\n")
    schemes = info.get("security_schemes") or {}
    if schemes:
        w(f"security    {json.dumps(schemes)}\n")
    _section(out, "skills", info.get("skills", []), lambda s: f"{s.get('id')}  {_one_line(s.get('description') or '')}")


def _section(out: TextIO, title: str, items: list[Any], line: Any) -> None:
    out.write(f"\n{title} ({len(items)})\n")
    for item in items:
        out.write(f"  {line(item)}\n")


def _one_line(text: str, limit: int = 100) -> str:
    flat = " ".join(str(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def tool_result_human(result: ToolResult, out: TextIO = sys.stdout) -> None:
    """Print a tool result's content blocks, structured content and schema problems."""
    if result.is_error:
        out.write("tool reported an error:\n")
    for part in result.content:
        if part.type == "text":
            out.write(f"{part.text}\n")
        elif part.blob is not None:
            out.write(f"[{part.type} {part.mime_type or ''} {len(part.blob) * 3 // 4} bytes]\n")
        else:
            out.write(f"[{part.type}] {json.dumps(part.to_dict(), ensure_ascii=False)[:500]}\n")
    if result.structured_content is not None:
        out.write("structured: " + json.dumps(result.structured_content, ensure_ascii=False) + "\n")
    for problem in result.schema_errors:
        out.write(f"outputSchema mismatch: {problem}\n")


def event_human(event: AgentEvent, out: TextIO = sys.stdout, err: TextIO = sys.stderr) -> None:
    """Print one streamed event for people: reply text to stdout, everything else to stderr."""
    if isinstance(event, TextDelta):
        out.write(event.text)
        out.flush()
    elif isinstance(event, ProgressReported):
        total = f"/{event.total:g}" if event.total else ""
        print(f"[progress {event.progress:g}{total}] {event.message or ''}", file=err)
    elif isinstance(event, LogMessage):
        print(f"[log {event.level}] {event.data}", file=err)
    elif isinstance(event, StatusChanged):
        print(f"[status {event.state}] {event.message or ''}", file=err)
    elif isinstance(event, ArtifactUpdated):
        text = "".join(p.text or "" for p in event.parts)
        print(f"[artifact {event.name or event.artifact_id}{' +' if event.append else ''}] {text}", file=err)
    elif isinstance(event, ToolCallRequested):
        print(f"[tool call] {event.name}({json.dumps(event.arguments)})", file=err)
    elif isinstance(event, ElicitationRequested):
        print(f"[input requested] {event.request.message}", file=err)
    elif isinstance(event, SamplingRequested):
        print("[sampling requested]", file=err)
    elif isinstance(event, InputRequired):
        print(f"[{event.kind.value}] {event.request.text}", file=err)
    elif isinstance(event, Completed):
        if not event.result.text.endswith("\n"):
            out.write("\n")
        if event.result.state not in ("completed",):
            print(f"[{event.result.state}] task={event.result.task_id} context={event.result.context_id}", file=err)
    elif isinstance(event, Failed):
        print(f"[failed] {event.message}", file=err)
    else:
        print(f"[{event.kind.value}]", file=err)
