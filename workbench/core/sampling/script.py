r"""A scripted sampling responder: rules from a JSON or YAML file, for repeatable demos and tests.

The file::

    model: demo-script                    # optional; the model name the replies carry
    rules:                                # tried in order; the first that matches answers
      - match: {last_user: "What is 2+2?"}  # the last user message's text, exactly (trimmed)
        reply: "4"
      - match: {regex: "weather in (\\w+)"}  # searched in the last user message's text
        tool_use: {name: get_weather, input: {city: "\\1"}}   # \\1 / \\g<name>: the regex's groups
      - match: {after_tool_result: true}  # the last message carries a tool result
        reply: "Done: \\0"                # \\0 is the whole match (with after_tool_result: the result's text)
      - reply: "fallback"                 # no match: always

A rule answers with ``reply`` (text) or ``tool_use`` (a call to one of the request's tools). A request
no rule matches is refused (``SamplingRejectedError``); a ``tool_use`` of a tool the request did not
offer is a ``SamplingToolError``.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from workbench.core.errors import ConfigError, SamplingRejectedError
from workbench.core.protocols.base import ContentPart, SamplingRequest, SamplingResponse
from workbench.core.sampling.tools import check_tool_uses, has_tool_result, last_user_text, tool_use_part

MAX_SCRIPT_BYTES = 1_000_000
DEFAULT_MODEL = "workbench-script"
_MATCH_KEYS = {"last_user", "regex", "after_tool_result"}
_RULE_KEYS = {"match", "reply", "tool_use", "stop_reason"}


@dataclass(frozen=True, slots=True)
class ScriptRule:
    """One rule: when it matches, and what it answers."""

    last_user: str | None
    regex: re.Pattern[str] | None
    after_tool_result: bool
    reply: str | None
    tool_name: str | None
    tool_input: dict[str, Any]

    def match(self, request: SamplingRequest) -> re.Match[str] | None:
        """The match (group 0 is the text matched) or ``None``."""
        text = last_user_text(request)
        if self.after_tool_result and not has_tool_result(request):
            return None
        if self.last_user is not None and text.strip() != self.last_user.strip():
            return None
        if self.regex is not None:
            return self.regex.search(text)
        return re.match(r"(?s).*", text)


def _expand(value: Any, found: re.Match[str]) -> Any:
    if isinstance(value, str):
        try:
            return found.expand(value.replace("\\0", "\\g<0>"))
        except (re.error, IndexError) as exc:
            raise ConfigError(f"A sampling script's reply refers to a group the regex lacks: {exc}.") from None
    if isinstance(value, dict):
        return {k: _expand(v, found) for k, v in value.items()}
    if isinstance(value, list):
        return [_expand(v, found) for v in value]
    return value


def _rule(raw: Any, index: int) -> ScriptRule:
    where = f"rule {index + 1}"
    if not isinstance(raw, dict) or set(raw) - _RULE_KEYS:
        raise ConfigError(f"A sampling script's {where} is not an object with {sorted(_RULE_KEYS)}.")
    match = raw.get("match") or {}
    if not isinstance(match, dict) or set(match) - _MATCH_KEYS:
        raise ConfigError(f"A sampling script's {where} has a match other than {sorted(_MATCH_KEYS)}.")
    if ("reply" in raw) == ("tool_use" in raw):
        raise ConfigError(f"A sampling script's {where} needs exactly one of reply and tool_use.")
    regex = None
    if match.get("regex") is not None:
        try:
            regex = re.compile(str(match["regex"]))
        except re.error as exc:
            raise ConfigError(f"A sampling script's {where} has an invalid regex: {exc}.") from None
    tool = raw.get("tool_use")
    if tool is not None and not (isinstance(tool, dict) and isinstance(tool.get("name"), str)):
        raise ConfigError(f"A sampling script's {where}: tool_use needs a name (and an input object).")
    tool_input = (tool or {}).get("input") or {}
    if not isinstance(tool_input, dict):
        raise ConfigError(f"A sampling script's {where}: tool_use input must be an object.")
    last = match.get("last_user")
    return ScriptRule(
        last_user=None if last is None else str(last),
        regex=regex,
        after_tool_result=bool(match.get("after_tool_result")),
        reply=None if raw.get("reply") is None else str(raw["reply"]),
        tool_name=tool["name"] if tool else None,
        tool_input=tool_input,
    )


class SamplingScript:
    """Answers sampling requests from rules (see the module docstring for the file's shape).

    Args:
        rules: The rules, tried in order.
        model: The model name the replies carry.
        name: How the responder is named in logs and errors (``script:FILE``).
    """

    def __init__(self, rules: list[ScriptRule], *, model: str = DEFAULT_MODEL, name: str = "script") -> None:
        self.rules = rules
        self.model = model
        self.name = name
        self._calls = 0

    @classmethod
    def from_data(cls, data: Any, *, name: str = "script") -> SamplingScript:
        """Build from parsed JSON/YAML.

        Raises:
            ConfigError: The data is not a script.
        """
        if isinstance(data, list):
            data = {"rules": data}
        if not isinstance(data, dict) or not isinstance(data.get("rules"), list):
            raise ConfigError(
                "A sampling script is an object with a list of rules.", hint="see workbench.core.sampling.script"
            )
        rules = [_rule(r, i) for i, r in enumerate(data["rules"])]
        return cls(rules, model=str(data.get("model") or DEFAULT_MODEL), name=name)

    @classmethod
    def from_file(cls, path: str | Path) -> SamplingScript:
        """Read a ``.json``, ``.yaml`` or ``.yml`` script.

        Raises:
            ConfigError: The file cannot be read, is too big, or is not a script.
        """
        path = Path(path)
        try:
            if path.stat().st_size > MAX_SCRIPT_BYTES:
                raise ConfigError(f"The sampling script {path.name} is larger than {MAX_SCRIPT_BYTES:,} bytes.")
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(f"Cannot read the sampling script {str(path)!r}.", hint=str(exc)) from None
        if path.suffix.lower() in (".yaml", ".yml"):
            import yaml  # only for YAML scripts

            try:
                data = yaml.safe_load(text)
            except yaml.YAMLError as exc:
                raise ConfigError(f"The sampling script {path.name} is not valid YAML.", hint=str(exc)[:300]) from None
        else:
            try:
                data = json.loads(text)
            except ValueError as exc:
                raise ConfigError(f"The sampling script {path.name} is not valid JSON.", hint=str(exc)) from None
        return cls.from_data(data, name=f"script:{path.name}")

    async def __call__(self, request: SamplingRequest) -> SamplingResponse:
        """Answer with the first matching rule.

        Raises:
            SamplingRejectedError: No rule matches.
            SamplingToolError: The rule calls a tool the request did not offer.
        """
        for rule in self.rules:
            found = rule.match(request)
            if found is None:
                continue
            if rule.tool_name is not None:
                self._calls += 1
                part = tool_use_part(f"script_call_{self._calls}", rule.tool_name, _expand(rule.tool_input, found))
                check_tool_uses(request, [part], self.name)
                return SamplingResponse(
                    text="", model=self.model, stop_reason="toolUse", content=(part,), responder=self.name
                )
            text = _expand(rule.reply or "", found)
            return SamplingResponse(
                text=text, model=self.model, content=(ContentPart("text", text=text),), responder=self.name
            )
        raise SamplingRejectedError(
            f"No rule of {self.name} matches the sampling request.", hint="add a rule without match as a fallback"
        )
