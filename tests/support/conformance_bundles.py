"""A client scenario's source in a minified MCP conformance bundle, in a form two bundles can be compared by.

A bundle (``@modelcontextprotocol/conformance``'s ``dist/index.js``) defines each client scenario as a
top-level class that sets ``this.name=`<scenario>```, or as one class or factory for a family of
scenarios (``auth/token-endpoint-auth-${...}``, ``auth/${e.name}`` over a list of configurations).
Its source here is that declaration (with the family's configuration entry), less the fields that
only describe it (``specVersions``, ``source``, ``description``). The minifier names locals and
top-level bindings afresh in each release (and reuses ``e``, ``t``, ... in every scope), so each
such name is written ``$``; keywords, property names, object keys and literals stay. Two bundles run
a scenario alike when these forms are equal. What this cannot see: which local or helper a name
stands for (``f(a, b)`` and ``f(b, a)`` read alike) and the code of the helpers it calls.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

_KEYWORDS = frozenset(
    [
        "await",
        "break",
        "case",
        "catch",
        "class",
        "const",
        "continue",
        "debugger",
        "default",
        "delete",
        "do",
        "else",
        "export",
        "extends",
        "false",
        "finally",
        "for",
        "function",
        "if",
        "import",
        "in",
        "instanceof",
        "let",
        "new",
        "null",
        "of",
        "return",
        "static",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "typeof",
        "var",
        "void",
        "while",
        "with",
        "yield",
        "async",
        "get",
        "set",
        "undefined",
        "arguments",
    ]
)
_REGEX_AFTER = frozenset(
    [
        "(",
        ",",
        "=",
        ":",
        "[",
        "!",
        "&",
        "|",
        "?",
        "{",
        "}",
        ";",
        "+",
        "-",
        "*",
        "%",
        "<",
        ">",
        "~",
        "^",
        "=>",
        "return",
        "typeof",
        "case",
        "do",
        "else",
        "in",
        "of",
        "delete",
        "void",
    ]
)
"""Tokens after which a ``/`` starts a regular expression literal, not a division."""
_PUNCT = re.compile(r"=>|\?\?=|\?\?|\?\.|\.\.\.|[=!]==|\*\*=?|<<=?|>>>?=?|[-+*/%&|^<>!=]=|&&=?|\|\|=?|\+\+|--|[^\s]")
_NAME = re.compile(r"[A-Za-z_$][\w$]*")
_NUMBER = re.compile(r"\d[\w.]*|\.\d[\w]*")


@dataclass(frozen=True, slots=True)
class Token:
    """One token: its kind (``name``, ``str``, ``num``, ``regex``, ``punct``) and its text."""

    kind: str
    text: str


def tokenize(src: str) -> list[Token]:
    """The tokens of JavaScript ``src`` (template literals kept whole, ``${...}`` parts included)."""
    out: list[Token] = []
    i, n = 0, len(src)
    while i < n:
        c = src[i]
        if c.isspace():
            i += 1
        elif src.startswith("//", i):
            i = src.find("\n", i)
            i = n if i < 0 else i
        elif src.startswith("/*", i):
            i = src.index("*/", i + 2) + 2
        elif c in "'\"":
            j = i + 1
            while src[j] != c:
                j += 2 if src[j] == "\\" else 1
            out.append(Token("str", src[i : j + 1]))
            i = j + 1
        elif c == "`":
            j = _template_end(src, i)
            out.append(Token("str", src[i:j]))
            i = j
        elif c == "/" and (not out or out[-1].text in _REGEX_AFTER):
            j, in_class = i + 1, False
            while in_class or src[j] != "/":
                if src[j] == "\\":
                    j += 1
                elif src[j] == "[":
                    in_class = True
                elif src[j] == "]":
                    in_class = False
                j += 1
            j += 1
            while j < n and (src[j].isalnum()):
                j += 1
            out.append(Token("regex", src[i:j]))
            i = j
        elif m := _NAME.match(src, i):
            out.append(Token("name", m.group()))
            i = m.end()
        elif m := _NUMBER.match(src, i):
            out.append(Token("num", m.group()))
            i = m.end()
        else:
            m = _PUNCT.match(src, i)
            assert m is not None
            out.append(Token("punct", m.group()))
            i = m.end()
    return out


def _template_end(src: str, start: int) -> int:
    """The index just past the template literal opening at ``start``."""
    j = start + 1
    while src[j] != "`":
        if src[j] == "\\":
            j += 2
        elif src.startswith("${", j):
            depth, j = 1, j + 2
            while depth:
                if src[j] in "'\"`":
                    j = _template_end(src, j) if src[j] == "`" else _string_end(src, j)
                    continue
                depth += {"{": 1, "}": -1}.get(src[j], 0)
                j += 1
        else:
            j += 1
    return j + 1


def _string_end(src: str, start: int) -> int:
    j = start + 1
    while src[j] != src[start]:
        j += 2 if src[j] == "\\" else 1
    return j + 1


class Bundle:
    """A bundle's top-level declarations and its client scenarios, by name."""

    def __init__(self, path: Path) -> None:
        self.tokens = tokenize(path.read_text(encoding="utf-8"))
        self.declarations: dict[str, tuple[int, int]] = {}
        self._index()

    def _index(self) -> None:
        """The spans of the top-level ``function``, ``class`` and ``var``/``let``/``const`` declarations."""
        toks, i, depth = self.tokens, 0, 0
        while i < len(toks):
            t = toks[i]
            if depth == 0 and t.text == "import" and (toks[i + 1].text in ("{", "*") or toks[i + 1].kind == "name"):
                i = self._past_import(i)
                continue
            if depth == 0 and t.text in ("function", "class") and toks[i + 1].kind == "name":
                end = self._skip_to_body_end(i)
                self.declarations[toks[i + 1].text] = (i, end)
                i = end
                continue
            if depth == 0 and t.text in ("var", "let", "const"):
                i = self._declarators(i + 1)
                continue
            depth += _depth_change(t)
            i += 1

    def _past_import(self, i: int) -> int:
        """The index after the ``import ... from "..."`` starting at ``i``."""
        j = i + 1
        while self.tokens[j].text != "from":
            j += 1
        return j + 2

    def _skip_to_body_end(self, i: int) -> int:
        toks, j = self.tokens, i
        if toks[i].text == "function":  # past the parameters: a default value may hold braces
            while toks[j].text != "(":
                j += 1
            j = _matching(toks, j)
        while toks[j].text != "{":
            j += 1
        return _matching(toks, j) + 1

    def _declarators(self, i: int) -> int:
        toks, j = self.tokens, i
        while True:
            name, start, depth = toks[j].text, j, 0
            while True:
                t = toks[j]
                if depth == 0 and t.text in (",", ";"):
                    break
                depth += _depth_change(t)
                if depth < 0:
                    break
                j += 1
                if j >= len(toks):
                    break
            self.declarations[name] = (start, j)
            if j >= len(toks) or toks[j].text != ",":
                return j
            j += 1

    def scenario_names(self) -> dict[str, str]:
        """Scenario name (a template's text for a family, ``auth/${e.name}``) -> the declaration naming it."""
        toks, found = self.tokens, {}
        for name, (start, end) in self.declarations.items():
            for k in range(start + 2, end - 4):
                assigned = toks[k - 2].text == "this" and toks[k - 1].text == "." and toks[k + 1].text == "="
                keyed = toks[k - 1].text in ("{", ",") and toks[k + 1].text == ":"
                if toks[k].text == "name" and (assigned or keyed) and toks[k + 2].kind == "str":
                    text = toks[k + 2].text[1:-1]
                    if keyed and "/" not in text:
                        continue  # a configuration's own name, not a scenario's
                    found.setdefault(text, name)
        return found

    def scenario_source(self, scenario: str) -> str | None:
        """The canonical source of ``scenario``; ``None`` when the bundle has no such scenario.

        A scenario of a family (one class or factory for several names) is the family's source plus,
        where the name comes from a configuration entry (``{name:`metadata-default`,...}``), that entry.
        """
        named = self.scenario_names()
        if scenario in named:
            return self.canonical(named[scenario])
        for template, declaration in named.items():
            if "${" not in template:
                continue
            pattern = re.escape(template[: template.index("${")]) + "(.+)"
            if (m := re.fullmatch(pattern, scenario)) is None:
                continue
            configuration = self._configuration(m.group(1))
            if configuration or f"`{m.group(1)}`" in template:  # a named entry, or a choice the template spells
                return self.canonical(declaration) + configuration
        return None

    def _configuration(self, name: str) -> str:
        """The object literal ``{name:`<name>`,...}`` among the top-level declarations, as text ('' if none)."""
        toks = self.tokens
        for k in range(1, len(toks) - 2):
            opens_entry = toks[k].text == "name" and toks[k - 1].text == "{" and toks[k + 1].text == ":"
            if opens_entry and toks[k + 2].text == f"`{name}`":
                return " ".join(t.text for t in toks[k - 1 : _matching(toks, k - 1) + 1])
        return ""

    def canonical(self, root: str) -> str:
        """The declaration ``root`` without its descriptive fields, each name it binds or reads written ``$``.

        ``specVersions``, ``source`` and ``description`` say where a scenario belongs and what it is
        about; they change between releases without changing what the scenario does. So does a
        parameter that its function never reads (``async start(e){...}`` with no ``e`` of its own inside).
        """
        toks, out = self.tokens, []
        start, end = self.declarations[root]
        unused = _unused_parameters(toks, start, end)
        k = start
        while k < end:
            t = toks[k]
            if t.text in DESCRIPTIVE and toks[k - 1].text in (".", "{", ",") and toks[k + 1].text in ("=", ":"):
                k = _value_end(toks, k + 2)
                continue
            prev = toks[k - 1].text
            if k in unused:
                pass
            elif t.kind == "str" and t.text.startswith("`"):
                out.append(_SUBSTITUTION.sub(_names_written_as_placeholder, t.text))
            elif t.kind != "name" or t.text in _KEYWORDS or prev in (".", "?.") or _is_key(toks, k):
                out.append(t.text)
            else:
                out.append("$")
            k += 1
        return " ".join(out)


_SUBSTITUTION = re.compile(r"\$\{([^{}`]*)\}")
_BOUND_NAME = re.compile(r"(?<![.\w$])[A-Za-z_$][\w$]*")


def _names_written_as_placeholder(m: re.Match[str]) -> str:
    """A template's ``${...}`` with the names it reads written ``$`` (as ``canonical`` writes them)."""
    inner = _BOUND_NAME.sub(lambda n: n.group() if n.group() in _KEYWORDS else "$", m.group(1))
    return "${" + inner + "}"


_NOT_A_FUNCTION = frozenset({"if", "for", "while", "switch", "with"})


def _functions(toks: list[Token], start: int, end: int) -> list[tuple[list[int], int, int]]:
    """Each function in ``toks[start:end]``: the indices of its plain parameters and its body's span."""
    found = []
    for k in range(start, end):
        t = toks[k]
        if t.kind == "name" and toks[k + 1].text == "=>" and toks[k - 1].text != ".":
            found.append(([k], k, _body_end(toks, k + 2)))
        elif t.text == "(" and toks[k - 1].text not in _NOT_A_FUNCTION:
            close = _matching(toks, k)
            if toks[close + 1].text in ("{", "=>"):
                body = close + 2 if toks[close + 1].text == "=>" else close + 1
                params = [
                    j
                    for j in range(k + 1, close)
                    if toks[j].kind == "name" and toks[j - 1].text in ("(", ",") and toks[j + 1].text in (",", ")")
                ]
                found.append((params, k, _body_end(toks, body)))
    return found


def _body_end(toks: list[Token], body: int) -> int:
    return _matching(toks, body) + 1 if toks[body].text == "{" else _value_end(toks, body)


def _unused_parameters(toks: list[Token], start: int, end: int) -> set[int]:
    """The indices of the parameters in ``toks[start:end]`` that their function never reads."""
    functions = _functions(toks, start, end)
    unused = set()
    for params, _, body_end in functions:
        for p in params:
            name = toks[p].text
            shadows = [(s, e) for ps, s, e in functions if s > p and any(toks[q].text == name for q in ps)]
            reads = (
                q
                for q in range(p + 1, body_end)
                if ((toks[q].text == name and toks[q - 1].text not in (".", "?.")) or _template_reads(toks[q], name))
                and not any(a <= q < b for a, b in shadows)
            )
            if next(reads, None) is None:
                unused.add(p)
    return unused


def _template_reads(token: Token, name: str) -> bool:
    """Whether ``token`` is a template literal whose ``${...}`` parts read ``name``."""
    if token.kind != "str" or not token.text.startswith("`"):
        return False
    return any(name in _BOUND_NAME.findall(m.group(1)) for m in _SUBSTITUTION.finditer(token.text))


DESCRIPTIVE = frozenset({"specVersions", "source", "description"})
"""Fields that describe (the spec versions a scenario belongs to, a scenario's or a check's summary), left
out wherever they are set (``this.description=...``, ``{description: ...}``)."""


def _value_end(toks: list[Token], k: int) -> int:
    """The index of the ``,``, ``;``, ``}`` or ``)`` that ends the expression starting at ``k``."""
    depth = 0
    while depth > 0 or toks[k].text not in (",", ";", "}", ")"):
        depth += _depth_change(toks[k])
        k += 1
    return k


def _is_key(toks: list[Token], k: int) -> bool:
    """Whether the name at ``k`` is an object literal's key (``{key: ...`` or ``, key: ...``)."""
    return toks[k + 1].text == ":" and toks[k - 1].text in ("{", ",")


def _depth_change(t: Token) -> int:
    if t.kind != "punct":
        return 0
    return {"{": 1, "(": 1, "[": 1, "}": -1, ")": -1, "]": -1}.get(t.text, 0)


def _matching(toks: list[Token], open_at: int) -> int:
    depth = 0
    for k in range(open_at, len(toks)):
        depth += _depth_change(toks[k])
        if depth == 0:
            return k
    raise ValueError("unbalanced")


def differing_scenarios(old: Path, new: Path, scenarios: list[str]) -> dict[str, str]:
    """Of ``scenarios`` (run by the ``old`` bundle), those that ``new`` runs differently -> why."""
    a, b = Bundle(old), Bundle(new)
    result = {}
    for name in scenarios:
        mine, theirs = a.scenario_source(name), b.scenario_source(name)
        if mine is None:
            raise LookupError(f"{name} is not in {old}")
        if theirs is None:
            result[name] = "absent from the newer suite"
        elif mine != theirs:
            result[name] = "its source differs"
    return result
