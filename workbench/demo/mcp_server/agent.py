"""The deterministic "agent" behind the `ask` tool: fixed rules, no model, no network."""

from __future__ import annotations

import re

from workbench.demo.mcp_server.schemas import Weather

WEATHER_TABLE: dict[str, Weather] = {
    w.city.lower(): w
    for w in (
        Weather(city="Oslo", condition="cloudy", temp_c=7.5, humidity_pct=81),
        Weather(city="Paris", condition="sunny", temp_c=18.0, humidity_pct=55),
        Weather(city="Tokyo", condition="rain", temp_c=16.5, humidity_pct=90),
        Weather(city="Cairo", condition="sunny", temp_c=31.0, humidity_pct=20),
        Weather(city="Lima", condition="fog", temp_c=15.0, humidity_pct=88),
        Weather(city="Reykjavik", condition="snow", temp_c=-2.0, humidity_pct=75),
    )
}

_CONDITIONS = ("sunny", "cloudy", "rain", "snow", "fog")
_WEATHER = re.compile(r"\bweather\s+(?:in|for)\s+([A-Za-z][A-Za-z .'-]{0,60})", re.IGNORECASE)
_ARITHMETIC = re.compile(r"(-?\d+(?:\.\d+)?)\s*([-+*/x])\s*(-?\d+(?:\.\d+)?)")
_GREETING = re.compile(r"^\s*(hi|hello|hey)\b", re.IGNORECASE)
_HELP = re.compile(r"^\s*(help|what can you do)\b", re.IGNORECASE)

HELP_REPLY = """# Demo agent

Fixed rules, no model and no network.

## What it answers

### Weather

Ask for the *weather in Oslo* (or Paris, Tokyo, Cairo, Lima, Reykjavik; other cities get a made-up report).

### Sums

Give it a sum such as `2 + 3`, `7 x 6` or `1 / 4`.

### Anything else

It says back what you wrote, in capitals.
"""
"""The reply to ``help``: markdown with three levels of headings (the chat draws them as such)."""


def lookup_weather(city: str) -> tuple[Weather, bool]:
    """Return the weather for `city` and whether it came from the fixed table.

    Unknown cities get a stable made-up report derived from the letters of the name.
    """
    name = city.strip().rstrip("?.!").strip()
    known = WEATHER_TABLE.get(name.lower())
    if known is not None:
        return known, True
    seed = sum(ord(c) for c in name.lower())
    made_up = Weather(
        city=name.title() or "Nowhere",
        condition=_CONDITIONS[seed % len(_CONDITIONS)],
        temp_c=float(seed % 35 - 5),
        humidity_pct=seed % 101,
    )
    return made_up, False


def _calculate(a: float, op: str, b: float) -> str:
    if op == "+":
        value = a + b
    elif op == "-":
        value = a - b
    elif op in "*x":
        value = a * b
    elif b == 0:
        return "I cannot divide by zero."
    else:
        value = a / b
    shown = int(value) if value == int(value) else round(value, 6)
    return f"{a:g} {op} {b:g} = {shown}"


def reply_to(message: str) -> tuple[str, str]:
    """Compute the agent's reply to `message`.

    Args:
        message: What the user asked.

    Returns:
        `(rule, reply)`: the name of the rule that fired and the reply text.
    """
    if match := _WEATHER.search(message):
        weather, _ = lookup_weather(match.group(1))
        return "weather", f"The weather in {weather.city} is {weather.condition}, {weather.temp_c:g} °C."
    if match := _ARITHMETIC.search(message):
        return "arithmetic", _calculate(float(match.group(1)), match.group(2), float(match.group(3)))
    if _HELP.match(message):
        return "help", HELP_REPLY
    if _GREETING.match(message):
        return "greeting", (
            "Hello! Ask me about the weather in a city, give me a sum like 2 + 3, say help, or say anything."
        )
    words = message.split()
    return "echo", f'You said "{message.strip()}" ({len(words)} words). In capitals: {message.strip().upper()}'
