"""Qt-free JSON Schema helpers for forms: local ``$ref`` resolution, field kinds, validation, error paths.

Validators come from ``workbench.core.schema_check`` (shared with the command line; ``format_checker``,
``make_validator`` and ``schema_problem`` are re-exported here).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, cast

from workbench.core.schema_check import format_checker as format_checker
from workbench.core.schema_check import make_validator as make_validator
from workbench.core.schema_check import schema_problem as schema_problem
from workbench.ui.forms.messages import human_message, without_redundant

if TYPE_CHECKING:
    from jsonschema import ValidationError


class _Missing:
    """Marker for "no value": the field is empty and its key is left out of the object."""

    _instance: _Missing | None = None

    def __new__(cls) -> _Missing:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "MISSING"

    def __bool__(self) -> bool:
        return False


MISSING: Any = _Missing()
"""The value of an empty field (never sent)."""

Kind = Literal[
    "string", "number", "integer", "boolean", "null", "enum", "const", "multiselect", "array", "object", "choice", "raw"
]

MAX_REF_DEPTH = 3
"""How often one ``$ref`` may nest inside itself before the subtree becomes a raw JSON field."""

Path = tuple[str | int, ...]


@dataclass(frozen=True, slots=True)
class Option:
    """One choice of an enum: the JSON value and the text shown for it."""

    value: Any
    title: str


@dataclass(frozen=True, slots=True)
class Shape:
    """A schema after ``$ref``/``allOf`` resolution, classified for the widget builder.

    Attributes:
        kind: Which widget to build.
        schema: The resolved schema (``$ref`` siblings merged over the target).
        nullable: ``null`` is also allowed (``anyOf [X, null]`` or ``type: [X, "null"]``).
        options: Enum / multi-select options.
        branches: ``oneOf``/``anyOf`` alternatives (unresolved) for a choice.
        refs: The ``$ref`` chain that led here (recursion guard).
    """

    kind: Kind
    schema: Mapping[str, Any]
    nullable: bool = False
    options: tuple[Option, ...] = ()
    branches: tuple[Mapping[str, Any], ...] = ()
    refs: tuple[str, ...] = ()


class SchemaResolver:
    """Resolves local references (``#/$defs/X``, ``#/definitions/X``, any ``#/`` pointer) in one root schema."""

    def __init__(self, root: Mapping[str, Any]) -> None:
        self.root = root

    def lookup(self, ref: str) -> Mapping[str, Any] | None:
        """The schema ``ref`` points at, or None when it is not a resolvable local pointer."""
        if ref == "#":
            return self.root
        if not ref.startswith("#/"):
            return None
        node: Any = self.root
        for raw in ref[2:].split("/"):
            part = raw.replace("~1", "/").replace("~0", "~")
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                return None
        return node if isinstance(node, Mapping) else None

    def resolve(self, schema: Any, refs: tuple[str, ...] = ()) -> tuple[Mapping[str, Any] | None, tuple[str, ...]]:
        """Follow ``$ref`` (siblings override the target) and merge ``allOf``.

        Returns ``(schema, refs)``; schema is None when a reference cannot be resolved or nests deeper
        than ``MAX_REF_DEPTH`` (the caller falls back to raw JSON).
        """
        if schema is True or schema is None:
            return {}, refs
        if not isinstance(schema, Mapping):
            return None, refs
        seen = 0
        while "$ref" in schema:
            ref = schema["$ref"]
            if not isinstance(ref, str) or refs.count(ref) >= MAX_REF_DEPTH or seen > 32:
                return None, refs
            target = self.lookup(ref)
            if target is None:
                return None, refs
            refs = (*refs, ref)
            seen += 1
            siblings = {k: v for k, v in schema.items() if k != "$ref"}
            schema = {**target, **siblings}
        if "allOf" in schema and isinstance(schema["allOf"], list):
            merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
            for part in schema["allOf"]:
                sub, refs = self.resolve(part, refs)
                if sub is None:
                    return None, refs
                merged = _merge(merged, sub)
            schema = merged
        return schema, refs

    def shape(self, schema: Any, refs: tuple[str, ...] = ()) -> Shape:
        """Classify ``schema`` into the widget kind that edits it."""
        resolved, refs = self.resolve(schema, refs)
        if resolved is None:
            return Shape("raw", schema if isinstance(schema, Mapping) else {}, refs=refs)
        s = resolved
        if "const" in s:
            return Shape("const", s, refs=refs)
        if isinstance(s.get("enum"), list) and s["enum"]:
            return Shape("enum", s, options=tuple(enum_options(s)), refs=refs)
        for key in ("oneOf", "anyOf"):
            branches = s.get(key)
            if not isinstance(branches, list) or not branches:
                continue
            consts = self._const_options(branches, refs)
            if consts is not None:
                return Shape("enum", s, options=tuple(consts), refs=refs)
            non_null = [b for b in branches if not self._is_null(b, refs)]
            if len(non_null) == 1 and len(branches) == 2:
                inner = self.shape(_with_annotations(non_null[0], s), refs)
                return Shape(inner.kind, inner.schema, True, inner.options, inner.branches, inner.refs)
            return Shape("choice", s, branches=tuple(branches), refs=refs)
        types = s.get("type")
        nullable = False
        if isinstance(types, list):
            rest = [t for t in types if t != "null"]
            nullable = len(rest) < len(types)
            if len(rest) != 1:
                return Shape("null" if not rest else "raw", s, refs=refs)
            types = rest[0]
        if types is None:
            if isinstance(s.get("properties"), Mapping):
                types = "object"
            elif "items" in s:
                types = "array"
            else:
                return Shape("raw", s, refs=refs)
        if types in ("string", "number", "integer", "boolean", "null"):
            return Shape(cast(Kind, types), s, nullable, refs=refs)
        if types == "object":
            # declared properties (or provably none) get fields; a free-form object is edited as JSON
            if isinstance(s.get("properties"), Mapping) or s.get("additionalProperties") is False:
                return Shape("object", s, nullable, refs=refs)
            return Shape("raw", s, nullable, refs=refs)
        if types == "array":
            if "prefixItems" in s or not isinstance(s.get("items", {}), Mapping):
                return Shape("raw", s, nullable, refs=refs)
            item, _ = self.resolve(s.get("items", {}), refs)
            if item is not None:
                opts = self._item_options(item, refs)
                if opts is not None:
                    return Shape("multiselect", s, nullable, options=tuple(opts), refs=refs)
            return Shape("array", s, nullable, refs=refs)
        return Shape("raw", s, nullable, refs=refs)

    def _is_null(self, branch: Any, refs: tuple[str, ...]) -> bool:
        resolved, _ = self.resolve(branch, refs)
        return resolved is not None and (resolved.get("type") == "null" or resolved.get("const", 0) is None)

    def _const_options(self, branches: list[Any], refs: tuple[str, ...]) -> list[Option] | None:
        out: list[Option] = []
        for b in branches:
            resolved, _ = self.resolve(b, refs)
            if resolved is None or "const" not in resolved:
                return None
            out.append(Option(resolved["const"], str(resolved.get("title") or display(resolved["const"]))))
        return out

    def _item_options(self, item: Mapping[str, Any], refs: tuple[str, ...]) -> list[Option] | None:
        if isinstance(item.get("enum"), list) and item["enum"]:
            return enum_options(item)
        for key in ("oneOf", "anyOf"):
            if isinstance(item.get(key), list) and item[key]:
                return self._const_options(item[key], refs)
        return None


def _merge(a: Mapping[str, Any], b: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(a)
    for key, value in b.items():
        if key == "properties" and isinstance(out.get(key), Mapping) and isinstance(value, Mapping):
            out[key] = {**out[key], **value}
        elif key == "required" and isinstance(out.get(key), list) and isinstance(value, list):
            out[key] = list(dict.fromkeys([*out[key], *value]))
        elif key not in out:
            out[key] = value
    return out


def _with_annotations(branch: Any, outer: Mapping[str, Any]) -> Any:
    """The branch with the outer schema's title/description/default added (for ``anyOf [X, null]``)."""
    notes = {k: outer[k] for k in ("title", "description", "default") if k in outer}
    if not notes or not isinstance(branch, Mapping):
        return branch
    return {**branch, **notes}


def enum_options(schema: Mapping[str, Any]) -> list[Option]:
    """Options of an ``enum``, titled by ``enumNames`` (legacy MCP) when present."""
    values = list(schema.get("enum") or [])
    names = schema.get("enumNames") or schema.get("x-enumNames")
    titles = list(names) if isinstance(names, list) and len(names) == len(values) else [None] * len(values)
    return [Option(v, str(t) if t is not None else display(v)) for v, t in zip(values, titles, strict=True)]


def display(value: Any) -> str:
    """A short literal rendering of a JSON value (strings without quotes)."""
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def format_path(path: Iterable[str | int]) -> str:
    """``("travellers", 0, "email")`` → ``travellers/0/email``; the root is ``(root)``."""
    parts = [str(p) for p in path]
    return "/".join(parts) if parts else "(root)"


# --------------------------------------------------------------------------- validation


def leaf_errors(error: ValidationError, choose: Any) -> Iterator[tuple[Path, str]]:
    """Flatten one jsonschema error into ``(path, message)`` pairs a person can act on.

    ``required`` errors point at the missing property; ``oneOf``/``anyOf`` errors are replaced by the
    errors of the branch the form has selected (``choose(path, error) -> int | None``), when it has some.
    """
    path: Path = tuple(error.absolute_path)
    if error.validator == "required" and isinstance(error.instance, Mapping):
        for name in error.validator_value or ():
            if name not in error.instance and error.message.startswith(repr(name)):
                yield (*path, name), "required"
                return
    if error.validator in ("oneOf", "anyOf") and error.context:
        index = choose(path, error)
        if index is not None:
            subs = [c for c in error.context if c.relative_schema_path and c.relative_schema_path[0] == index]
            if subs:
                for sub in without_redundant(subs):
                    yield from leaf_errors(sub, choose)
                return
    yield path, human_message(error)


def sorted_pairs(
    pairs: Sequence[tuple[Path, str]], order: Callable[[Path], tuple[int, ...]] | None = None
) -> list[tuple[Path, str]]:
    """Errors de-duplicated, in the form's order (``order(path)``: the fields' positions), else by path."""
    seen: dict[tuple[str, str], tuple[Path, str]] = {}
    for path, msg in pairs:
        seen.setdefault((format_path(path), msg), (path, msg))
    if order is not None:
        return sorted(seen.values(), key=lambda pm: order(pm[0]))
    return sorted(seen.values(), key=lambda pm: [str(p).zfill(8) if isinstance(p, int) else str(p) for p in pm[0]])
