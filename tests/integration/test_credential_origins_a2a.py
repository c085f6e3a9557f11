"""A profile's credentials stay with the origins the user configured, against a real A2A agent.

The agent's card names its interface on 127.0.0.1; the profile points at ``localhost`` on the same
port — another origin, as a card naming another host would be. Without approval the bearer token
never leaves for 127.0.0.1; approved once, it does, and the approval is asked only once.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.support.a2a_agents import BEARER, bearer_app, echo_app
from workbench.core.agent_factory import AgentHandlers, build_agent
from workbench.core.http.origins import CredentialOriginError, OriginApproval
from workbench.core.profiles import A2AProfile, SecretRef
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.a2a_agents import serve_agent

BOUND = 30.0


async def keyring(ref: SecretRef) -> str | None:
    return {"protected-echo": BEARER}.get(ref.key)


def profile_for(url: str, **changes: object) -> A2AProfile:
    return A2AProfile(
        id="echo",
        name="Protected echo",
        url=url.replace("127.0.0.1", "localhost"),
        secrets=[SecretRef(kind="bearer", key="protected-echo")],
        **changes,  # type: ignore[arg-type]
    )


class Counted:
    """``bearer_app`` counting the requests that reach it (the card fetch included)."""

    def __init__(self) -> None:
        self.paths: list[str] = []

    def __call__(self, base_url: str) -> Any:
        app = bearer_app(base_url)

        async def counting(scope: Any, receive: Any, send: Any) -> None:
            if scope["type"] == "http":
                self.paths.append(scope["path"])
            await app(scope, receive, send)

        return counting


@pytest.mark.asyncio
async def test_the_token_does_not_follow_a_card_that_points_to_another_origin() -> None:
    wire = WireRecorder()
    counted = Counted()
    async with serve_agent(counted) as url:
        agent = await build_agent(profile_for(url), wire=wire, resolve_secret=keyring)
        async with agent:
            with pytest.raises(CredentialOriginError) as refused:
                await asyncio.wait_for(agent.invoke_async("hello"), BOUND)
    assert refused.value.origin.startswith("http://127.0.0.1:")
    assert refused.value.details["allowed"] == [url.replace("127.0.0.1", "localhost").rstrip("/")]
    assert all(path.startswith("/.well-known/") for path in counted.paths)  # the message never left
    assert any("Refused to send" in r.summary + r.payload for r in wire.records())


@pytest.mark.asyncio
async def test_an_approved_origin_gets_the_token_after_one_question() -> None:
    asked: list[OriginApproval] = []

    async def approve(question: OriginApproval) -> bool:
        asked.append(question)
        return True

    async with serve_agent(bearer_app) as url:
        agent = await build_agent(
            profile_for(url), resolve_secret=keyring, handlers=AgentHandlers(origin_approval=approve)
        )
        async with agent:
            for word in ("one", "two"):
                result = await asyncio.wait_for(agent.invoke_async(word), BOUND)
                assert result.artifacts["echo"][0].text == word
    assert [(q.profile_name, q.origin.startswith("http://127.0.0.1:")) for q in asked] == [("Protected echo", True)]
    assert asked[0].allowed == (url.replace("127.0.0.1", "localhost").rstrip("/"),)


@pytest.mark.asyncio
async def test_an_origin_saved_in_the_profile_is_allowed_without_asking() -> None:
    async with serve_agent(bearer_app) as url:
        agent = await build_agent(profile_for(url, allowed_origins=[url]), resolve_secret=keyring)
        async with agent:
            result = await asyncio.wait_for(agent.invoke_async("hello"), BOUND)
    assert result.artifacts["echo"][0].text == "hello"


@pytest.mark.asyncio
async def test_an_anonymous_agent_whose_card_points_elsewhere_still_works() -> None:
    async with serve_agent(echo_app) as url:
        profile = A2AProfile(id="anon", name="anon", url=url.replace("127.0.0.1", "localhost"))
        agent = await build_agent(profile)
        async with agent:
            result = await asyncio.wait_for(agent.invoke_async("hello"), BOUND)
    assert result.artifacts["echo"][0].text == "hello"
