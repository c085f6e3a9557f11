"""Save an ``AgentSnapshot`` as JSON and read it back, so a session can be reopened with no agent behind it.

The document is ``{"format": "agent-workbench/snapshot", "version": 1, "snapshot": {...}}``; the
snapshot's dataclasses become JSON objects field by field (the protocol objects in ``raw`` fields
are left out: they are the SDKs', not ours). Reading is driven by the dataclasses' type hints, so a
file that does not fit — wrong types, unknown version, too big, not JSON — is a ``ConfigError``
naming where, never a half-built snapshot. Files are untrusted input: reads are bounded.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Literal, Union

from workbench.core.errors import ConfigError
from workbench.core.protocols.snapshot import AgentSnapshot

FORMAT = "agent-workbench/snapshot"
VERSION = 1
MAX_SNAPSHOT_BYTES = 64 * 1024 * 1024
"""Largest snapshot file read (a catalog of thousands of tools with schemas stays far below)."""
_SKIPPED = frozenset({"raw"})


def snapshot_to_json(snapshot: AgentSnapshot) -> dict[str, Any]:
    """The JSON document of ``snapshot`` (``raw`` protocol objects left out)."""
    return {"format": FORMAT, "version": VERSION, "snapshot": _encode(snapshot)}


def snapshot_from_json(document: Any) -> AgentSnapshot:
    """The snapshot a ``snapshot_to_json`` document describes.

    Raises:
        ConfigError: Not a snapshot document, another version, or a field of the wrong type (the
            message names the field's path).
    """
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise ConfigError("This is not an Agent Workbench snapshot (its 'format' is missing or different).")
    if document.get("version") != VERSION:
        raise ConfigError(
            f"This snapshot has version {document.get('version')!r}; this workbench reads version {VERSION}.",
            hint="open it with the workbench version that saved it",
        )
    decoded = _decode(AgentSnapshot, document.get("snapshot"), "snapshot")
    assert isinstance(decoded, AgentSnapshot)
    return decoded


def save_snapshot(path: str | Path, snapshot: AgentSnapshot) -> None:
    """Write ``snapshot`` to ``path`` as JSON (UTF-8).

    Raises:
        ConfigError: The file cannot be written.
    """
    text = json.dumps(snapshot_to_json(snapshot), ensure_ascii=False, indent=1, default=str)
    try:
        Path(path).write_text(text + "\n", encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"Cannot write the snapshot to {path}: {exc.strerror or exc}.") from exc


def read_snapshot(path: str | Path, *, max_bytes: int = MAX_SNAPSHOT_BYTES) -> AgentSnapshot:
    """Read a snapshot saved with ``save_snapshot`` (at most ``max_bytes``).

    Raises:
        ConfigError: Unreadable, too big, not JSON, or not a snapshot this version reads.
    """
    try:
        with Path(path).open("rb") as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise ConfigError(f"Cannot read the snapshot {path}: {exc.strerror or exc}.") from exc
    if len(data) > max_bytes:
        raise ConfigError(f"The snapshot {path} is larger than {max_bytes // (1024 * 1024)} MB; not read.")
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ConfigError(f"The snapshot {path} is not valid JSON: {exc}.") from None
    return snapshot_from_json(document)


def _encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _encode(getattr(value, f.name)) for f in dataclasses.fields(value) if f.name not in _SKIPPED}
    if isinstance(value, Mapping):
        return {str(k): _encode(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_encode(v) for v in value]
    return value


def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode(kind: Any, value: Any, where: str) -> Any:
    origin = typing.get_origin(kind)
    if kind is Any:
        return value
    if origin in (Union, types.UnionType):
        options = typing.get_args(kind)
        if value is None and type(None) in options:
            return None
        problems: list[str] = []
        for option in options:
            if option is type(None):
                continue
            try:
                return _decode(option, value, where)
            except ConfigError as exc:
                problems.append(exc.message)
        raise ConfigError(problems[0] if problems else f"{where}: unexpected null.")
    if origin is Literal:
        if value not in typing.get_args(kind):
            raise ConfigError(f"{where}: {value!r} is not one of {list(typing.get_args(kind))}.")
        return value
    if origin in (tuple, list):
        if not isinstance(value, list):
            raise ConfigError(f"{where}: expected a list, got {type(value).__name__}.")
        item = typing.get_args(kind)[0] if typing.get_args(kind) else Any
        items = [_decode(item, v, f"{where}[{i}]") for i, v in enumerate(value)]
        return tuple(items) if origin is tuple else items
    if origin in (dict, Mapping) or kind in (dict, Mapping) or origin is typing.get_origin(Mapping[str, Any]):
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: expected an object, got {type(value).__name__}.")
        return dict(value)
    if isinstance(kind, type) and dataclasses.is_dataclass(kind):
        if not isinstance(value, dict):
            raise ConfigError(f"{where}: expected an object, got {type(value).__name__}.")
        hints = _hints(kind)
        arguments: dict[str, Any] = {}
        for f in dataclasses.fields(kind):
            if f.name in _SKIPPED or not f.init or f.name not in value:
                continue
            arguments[f.name] = _decode(hints[f.name], value[f.name], f"{where}.{f.name}")
        try:
            return kind(**arguments)
        except TypeError as exc:  # a required field is missing
            raise ConfigError(f"{where}: {exc}.") from None
    if kind is float:
        if isinstance(value, int | float) and not isinstance(value, bool):
            return float(value)
        raise ConfigError(f"{where}: expected a number, got {type(value).__name__}.")
    if isinstance(kind, type):
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ConfigError(f"{where}: expected {kind.__name__}, got {type(value).__name__}.")
        return value
    return value
