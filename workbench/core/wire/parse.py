"""Cheap inspection of wire text: JSON-RPC classification, large-message scanning, sizes, previews."""

from __future__ import annotations

import json
import json.encoder
import re
from typing import Any

_NAMED_PARAMS = frozenset({"tools/call", "prompts/get"})  # show params.name in the summary

# Texts above this size are not parsed: method and id come from the object's leading or trailing
# top-level members (where every serializer puts them), so a 20 MB result is never decoded.
LARGE_TEXT = 64 * 1024
_SCALAR = r'(?:-?\d+(?:\.\d+)?|"(?:[^"\\]|\\.)*"|null)'  # number, string or null
_HEAD_MEMBER = re.compile(r'\s*"(jsonrpc|id|method)"\s*:\s*(' + _SCALAR + r")\s*,")
_HEAD_NEXT = re.compile(r'\s*"(result|error|params)"\s*:')
_TAIL = re.compile(r'(?:,\s*"(?:jsonrpc|id|method)"\s*:\s*' + _SCALAR + r"\s*)+\}\s*$")
_TAIL_MEMBER = re.compile(r'"(jsonrpc|id|method)"\s*:\s*(' + _SCALAR + ")")
_OPEN = re.compile(r"\s*\{")
INVALID = object()  # decoded value of text that is not JSON


_fallback_encode = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, default=str).encode
# The C encoder built once (``JSONEncoder.encode`` rebuilds it per call, doubling the cost of a small
# message). No circular check: a cycle ends in RecursionError, and then the safe path takes over.
_c_make = getattr(json.encoder, "c_make_encoder", None)
_c_encode = _c_make(None, str, json.encoder.encode_basestring, None, ":", ",", False, False, True) if _c_make else None


def compact_json(obj: Any) -> str:
    """Serialize like ``json.dumps(obj, separators=(",", ":"), ensure_ascii=False, default=str)``.

    Never raises: a value that cannot be encoded at all (a cycle) yields its ``repr``.
    """
    if _c_encode is not None:
        try:
            return "".join(_c_encode(obj, 0))
        except (ValueError, TypeError, RecursionError):
            pass
    try:
        return _fallback_encode(obj)
    except (ValueError, TypeError, RecursionError):
        return repr(obj)


def utf8_len(text: str) -> int:
    """Return the UTF-8 byte length of ``text`` (no copy for ASCII text)."""
    return len(text) if text.isascii() else len(text.encode("utf-8", "surrogatepass"))


def preview(text: str, limit: int = 80) -> str:
    """Return the first line of ``text``, cut to ``limit`` characters, for one-line summaries."""
    head = text[: limit + 1].lstrip()
    line = head.split("\n", 1)[0].rstrip("\r")
    return line if len(line) <= limit and line == head else line[:limit] + "…"


def scan_large(text: str) -> dict[str, Any] | None:
    """Return the top-level jsonrpc/id/method members of a large JSON object without decoding it.

    None when they are not where serializers put them (first or last members): decode it then.
    """
    try:
        return _scan_large(text)
    except ValueError:  # a member that looked like a scalar but is not valid JSON (e.g. ``01``)
        return None


def _scan_large(text: str) -> dict[str, Any] | None:
    opening = _OPEN.match(text)
    if opening is None:
        return None
    found: dict[str, Any] = {}
    pos = opening.end()
    while m := _HEAD_MEMBER.match(text, pos):
        found[m.group(1)] = json.loads(m.group(2))
        pos = m.end()
    if nxt := _HEAD_NEXT.match(text, pos):
        found[nxt.group(1)] = None  # marks which member the big value is
    if tail := _TAIL.search(text, max(0, len(text) - 1024)):
        for m in _TAIL_MEMBER.finditer(tail.group(0)):
            found[m.group(1)] = json.loads(m.group(2))
    return found if ("id" in found or "method" in found) else None


def classify(obj: Any) -> tuple[str, str | None, Any, str]:
    """Return (kind, method, raw id, detail) of a decoded JSON value."""
    if not isinstance(obj, dict):
        return ("batch" if isinstance(obj, list) else "other"), None, None, ""
    method, rid = obj.get("method"), obj.get("id")
    if isinstance(method, str):
        detail = ""
        if method in _NAMED_PARAMS and isinstance(params := obj.get("params"), dict):
            name = params.get("name")
            detail = name[:60] if isinstance(name, str) else ""
        return ("request" if rid is not None else "notification"), method, rid, detail
    if "error" in obj:
        err = obj["error"]
        code = err.get("code") if isinstance(err, dict) else None
        return "error", None, rid, "" if code is None else str(code)
    if "result" in obj:
        return "response", None, rid, ""
    return "other", None, rid, ""


def header(headers: dict[str, str], name: str) -> str | None:
    """Return a header value by case-insensitive name."""
    for key, value in headers.items():
        if key.lower() == name:
            return value
    return None


def url_path(url: str) -> str:
    """Return the path of a URL for summaries (``/`` when it has none)."""
    after_scheme = url.partition("://")[2] or url
    path = after_scheme[after_scheme.find("/") :] if "/" in after_scheme else "/"
    return path.split("?", 1)[0].split("#", 1)[0] or "/"
