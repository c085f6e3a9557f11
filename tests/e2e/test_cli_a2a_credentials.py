"""Where the command line sends an A2A agent's credentials, against real agents that check them.

An API key goes where the agent's card says (header, query parameter or cookie, by its name),
whether it comes from ``--answer`` or from ``secret set``; a ``--header`` value is a credential: it
never follows a card to another origin and never shows in the wire log, a HAR file, the terminal
or a log record.
"""

from __future__ import annotations

import json
import logging
import shlex
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest

from tests.support.a2a_agents import echo_app
from tests.support.a2a_security_agents import API_KEY, PARAM_NAMES, Location, api_key_agent
from tests.support.cli_profiles import cli_env
from tests.support.cli_runner import json_lines, run_workbench
from workbench.core.agent_factory import build_agent
from workbench.core.profiles import A2AProfile
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.a2a_agents import serve_agent

pytestmark = pytest.mark.asyncio
CUSTOM = "S3CRET-custom-7d41c9"


@dataclass(frozen=True, slots=True)
class Seen:
    """One request as the agent received it."""

    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]

    @property
    def cookies(self) -> dict[str, str]:
        raw = self.headers.get("cookie", "")
        return dict(part.strip().partition("=")[::2] for part in raw.split(";") if part.strip())


class Recorded:
    """An app factory whose app records every request it gets (the card fetch included)."""

    def __init__(self, factory: Callable[[str], Any]) -> None:
        self.factory = factory
        self.seen: list[Seen] = []

    def __call__(self, base_url: str) -> Any:
        app = self.factory(base_url)

        async def recording(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                headers = {k.decode().lower(): v.decode() for k, v in scope["headers"]}
                query = parse_qs(bytes(scope.get("query_string", b"")).decode())
                self.seen.append(Seen(scope["path"], query, headers))
            await app(scope, receive, send)

        return recording

    @property
    def calls(self) -> list[Seen]:
        """The requests that were not for the card."""
        return [s for s in self.seen if not s.path.startswith("/.well-known/")]


def _carried_where_the_card_says(seen: Seen, location: Location) -> bool:
    name = PARAM_NAMES[location]
    if location == "header":
        return seen.headers.get(name.lower()) == API_KEY
    if location == "query":
        return seen.query.get(name) == [API_KEY]
    return seen.cookies.get(name) == API_KEY


def _carried_anywhere_else(seen: Seen, location: Location) -> bool:
    name = PARAM_NAMES[location]
    elsewhere = {k: v for k, v in seen.headers.items() if not (location == "header" and k == name.lower())}
    if location == "cookie":
        elsewhere.pop("cookie", None)
    in_query = any(API_KEY in v for k, vs in seen.query.items() for v in vs if not (location == "query" and k == name))
    return in_query or any(API_KEY in v for v in elsewhere.values())


@pytest.mark.parametrize("location", ["header", "query", "cookie"])
async def test_an_answered_api_key_goes_where_the_card_says_and_never_as_a_bearer_token(
    location: Location, tmp_path: Path
) -> None:
    agent = Recorded(api_key_agent(location))
    async with serve_agent(agent) as url:
        code, out, err = await run_workbench(
            "send", "--a2a", url, "hello", "--answer", API_KEY, "--json", env=cli_env(tmp_path)
        )
    assert code == 0, err
    assert json_lines(out)[-1]["result"]["state"] == "completed"
    assert _carried_where_the_card_says(agent.calls[-1], location)
    assert not any("authorization" in s.headers for s in agent.seen)
    assert not any(_carried_anywhere_else(s, location) for s in agent.seen)
    assert API_KEY not in err


@pytest.mark.parametrize("location", ["query", "cookie"])
async def test_secret_set_query_or_cookie_for_an_a2a_profile_is_accepted_and_sent_there(
    location: Location, tmp_path: Path
) -> None:
    env = cli_env(tmp_path)
    agent = Recorded(api_key_agent(location))
    name = PARAM_NAMES[location]
    async with serve_agent(agent) as url:
        code, _, err = await run_workbench("profile", "add", "keyed", "--a2a", url, env=env)
        assert code == 0, err
        code, _, err = await run_workbench(
            "secret", "set", "keyed", f"{location}:{name}", stdin=API_KEY.encode(), env=env
        )
        assert code == 0, err
        wire = tmp_path / "wire.jsonl"
        code, out, err = await run_workbench(
            "send", "--profile", "keyed", "hello", "--json", "--wire", str(wire), env=env
        )
    assert code == 0, err
    assert json_lines(out)[-1]["result"]["state"] == "completed"
    assert agent.calls and all(_carried_where_the_card_says(s, location) for s in agent.calls)
    assert API_KEY not in wire.read_text() + out + err


@pytest.mark.parametrize("wire_name", ["wire.jsonl", "wire.har"])
async def test_a_custom_header_never_follows_a_card_to_another_origin_nor_shows_anywhere(
    wire_name: str, tmp_path: Path
) -> None:
    env = cli_env(tmp_path)
    agent = Recorded(echo_app)
    wire = tmp_path / wire_name
    async with serve_agent(agent) as url:  # its card names 127.0.0.1; the command calls it localhost
        local = url.replace("127.0.0.1", "localhost")
        code, out, err = await run_workbench(
            "send", "--a2a", local, "--header", f"X-Custom={CUSTOM}", "hello", "--json", "--wire", str(wire), env=env
        )
    assert code == 1, err
    failed = [line for line in json_lines(out) if line.get("type") == "failed" or "error" in line]
    assert failed and (failed[-1].get("error") or {}).get("code") == "credential-origin"
    assert agent.seen and not agent.calls  # the card was fetched; the message never left
    written = wire.read_text()
    assert written
    for name, text in {"wire": written, "stdout": out, "stderr": err}.items():
        assert CUSTOM not in text, name


async def test_a_custom_header_value_is_masked_in_log_records(caplog: pytest.LogCaptureFixture) -> None:
    profile = A2AProfile(name="custom", url="http://127.0.0.1:9", headers={"X-Custom": CUSTOM})
    await build_agent(profile, wire=WireRecorder())
    with caplog.at_level(logging.INFO):
        logging.getLogger("some.sdk").info("sending headers %s", {"x-custom": CUSTOM})
    assert caplog.records and all(CUSTOM not in r.getMessage() for r in caplog.records)


async def test_a_custom_header_of_a_saved_profile_stays_on_its_origin(tmp_path: Path) -> None:
    env = cli_env(tmp_path)
    agent = Recorded(echo_app)
    async with serve_agent(agent) as url:
        local = url.replace("127.0.0.1", "localhost")
        code, _, err = await run_workbench(
            "profile", "add", "custom", "--a2a", local, "--header", f"X-Custom={CUSTOM}", env=env
        )
        assert code == 0, err
        code, out, err = await run_workbench("send", "--profile", "custom", "hello", "--json", env=env)
    assert code == 1, err
    assert json.loads(out.splitlines()[-1])["error"]["code"] == "credential-origin"
    assert agent.seen and not agent.calls
    assert CUSTOM not in out + err


@pytest.mark.parametrize("location", ["header", "query", "cookie"])
async def test_a_401_hint_passes_the_key_where_the_card_says_and_works_as_written(
    location: Location, tmp_path: Path
) -> None:
    agent = Recorded(api_key_agent(location))
    async with serve_agent(agent) as url:
        code, _, err = await run_workbench("send", "--a2a", url, "hello", env=cli_env(tmp_path))
        assert code == 1
        [hint] = [line.strip() for line in err.splitlines() if "pass the credential: " in line]
        argv = shlex.split(hint.split(": ", 1)[1].split(" …")[0])[1:]
        assert "Authorization=Bearer TOKEN" not in argv
        assert any("KEY" in value for value in argv)
        written = [value.replace("KEY", API_KEY) for value in argv]
        code, out, err = await run_workbench(*written, "hello", "--json", env=cli_env(tmp_path))
    assert code == 0, err
    assert json_lines(out)[-1]["result"]["state"] == "completed"
    assert _carried_where_the_card_says(agent.calls[-1], location)
