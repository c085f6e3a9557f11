"""RFC 6570 URI templates, as far as resource templates need them: the variable names and expansion."""

from __future__ import annotations

import re
from urllib.parse import quote

_EXPRESSION = re.compile(r"\{([+#./;?&]?)([^{}]+)\}")
# operator → (prefix, separator, named, allow reserved characters)
_OPERATORS: dict[str, tuple[str, str, bool, bool]] = {
    "": ("", ",", False, False),
    "+": ("", ",", False, True),
    "#": ("#", ",", False, True),
    ".": (".", ".", False, False),
    "/": ("/", "/", False, False),
    ";": (";", ";", True, False),
    "?": ("?", "&", True, False),
    "&": ("&", "&", True, False),
}
_RESERVED = ":/?#[]@!$&'()*+,;="


def _names(spec: str) -> list[str]:
    return [re.sub(r"(\*|:\d+)$", "", part.strip()) for part in spec.split(",") if part.strip()]


def variables(template: str) -> list[str]:
    """The variable names of ``template``, in order of appearance, without repeats."""
    seen: list[str] = []
    for match in _EXPRESSION.finditer(template):
        for name in _names(match.group(2)):
            if name not in seen:
                seen.append(name)
    return seen


def expand(template: str, values: dict[str, str]) -> str:
    """Fill ``template`` with ``values`` (empty or missing variables are left out, as RFC 6570 says)."""

    def replace(match: re.Match[str]) -> str:
        prefix, separator, named, reserved = _OPERATORS[match.group(1)]
        safe = _RESERVED if reserved else ""
        parts = []
        for name in _names(match.group(2)):
            value = values.get(name, "")
            if not value:
                continue
            encoded = quote(value, safe=safe)
            parts.append(f"{name}={encoded}" if named else encoded)
        return prefix + separator.join(parts) if parts else ""

    return _EXPRESSION.sub(replace, template)
