"""Profile → agent: secret references resolved to headers, env and bearer tokens; the real agent classes built."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from workbench.core.agent_factory import AgentHandlers, DefaultAgentFactory, build_agent
from workbench.core.errors import SecureStorageUnavailableError
from workbench.core.events import EventBus
from workbench.core.profiles import A2AProfile, MCPHTTPProfile, MCPSSEProfile, MCPStdioProfile, Root, SecretRef
from workbench.core.profiles.secret_values import resolve_secrets
from workbench.core.protocols.base import ElicitationRequest, ElicitationResponse, InputRequest, InputResponse
from workbench.core.wire.recorder import WireRecorder

VALUES = {
    "tok": "SECRET-token-1111",
    "key": "SECRET-apikey-2222",
    "sig": "Signature SECRET-sig-3333",
    "env": "SECRET-env-4444",
}


async def keyring(ref: SecretRef) -> str | None:
    await asyncio.sleep(0)  # the real store hops to a thread
    return VALUES.get(ref.key)


def http_profile(**kw: Any) -> MCPHTTPProfile:
    return MCPHTTPProfile(
        id="h",
        name="http server",
        url="http://127.0.0.1:9/mcp",
        headers={"X-Trace": "1"},
        secrets=[
            SecretRef(kind="bearer", key="tok"),
            SecretRef(kind="api-key", key="key"),
            SecretRef(kind="header", name="X-Signature", key="sig"),
        ],
        **kw,
    )


@pytest.mark.asyncio
async def test_mcp_secrets_become_headers() -> None:
    resolved = await resolve_secrets(http_profile(), keyring)
    assert resolved.headers == {
        "Authorization": "Bearer SECRET-token-1111",
        "X-API-Key": "SECRET-apikey-2222",
        "X-Signature": "Signature SECRET-sig-3333",
    }
    assert resolved.env == {}
    assert resolved.bearer_token is None
    assert resolved.missing == []


@pytest.mark.asyncio
async def test_an_a2a_bearer_secret_becomes_the_bearer_token_not_a_header() -> None:
    profile = A2AProfile(name="a", url="http://h/", secrets=[SecretRef(kind="bearer", key="tok")])
    resolved = await resolve_secrets(profile, keyring)
    assert resolved.bearer_token == "SECRET-token-1111"
    assert resolved.headers == {}


@pytest.mark.asyncio
async def test_a_stdio_secret_becomes_an_environment_variable() -> None:
    profile = MCPStdioProfile(name="s", command="srv", secrets=[SecretRef(kind="env", name="API_TOKEN", key="env")])
    resolved = await resolve_secrets(profile, keyring)
    assert resolved.env == {"API_TOKEN": "SECRET-env-4444"}


@pytest.mark.asyncio
async def test_a_missing_secret_is_left_out_and_listed() -> None:
    profile = http_profile().with_changes(
        secrets=[{"kind": "bearer", "key": "tok"}, {"kind": "api-key", "key": "gone"}]
    )
    resolved = await resolve_secrets(profile, keyring)
    assert resolved.headers == {"Authorization": "Bearer SECRET-token-1111"}
    assert [r.key for r in resolved.missing] == ["gone"]
    nothing = await resolve_secrets(profile, None)
    assert nothing.headers == {}
    assert len(nothing.missing) == 2


@pytest.mark.asyncio
async def test_resolved_secrets_never_show_their_values_in_a_repr() -> None:
    resolved = await resolve_secrets(http_profile(), keyring)
    for value in VALUES.values():
        assert value not in repr(resolved)


@pytest.mark.asyncio
async def test_a_failing_secret_store_fails_the_build_with_its_typed_error() -> None:
    async def broken(ref: SecretRef) -> str | None:
        raise SecureStorageUnavailableError("no keyring")

    with pytest.raises(SecureStorageUnavailableError):
        await build_agent(http_profile(), resolve_secret=broken)


@pytest.mark.asyncio
async def test_a_stdio_profile_builds_an_mcp_agent_with_command_env_roots_and_timeouts() -> None:
    from workbench.core.protocols.mcp import MCPAgent

    bus = EventBus()
    profile = MCPStdioProfile(
        id="s",
        name="stdio server",
        command="python",
        args=["-m", "srv"],
        env={"LOG_LEVEL": "debug"},
        cwd="/tmp",
        mode="legacy",
        agent_tool="ask",
        roots=[Root(uri="file:///srv", name="srv"), Root(uri="file:///tmp")],
        connect_timeout=7,
        request_timeout=None,
        secrets=[SecretRef(kind="env", name="API_TOKEN", key="env")],
    )
    agent = await build_agent(profile, bus=bus, resolve_secret=keyring)
    assert isinstance(agent, MCPAgent)
    config = agent.config
    assert (config.transport, config.command, config.args, config.cwd) == ("stdio", "python", ("-m", "srv"), "/tmp")
    assert config.env == {"LOG_LEVEL": "debug", "API_TOKEN": "SECRET-env-4444"}
    assert (agent.name, config.mode, config.agent_tool) == ("stdio server", "legacy", "ask")
    assert config.roots == (("file:///srv", "srv"), ("file:///tmp", None))
    assert (config.connect_timeout, config.request_timeout) == (7, None)
    assert (agent.connection_id, config.bus) == ("s", bus)


@pytest.mark.asyncio
@pytest.mark.parametrize(("cls", "transport"), [(MCPHTTPProfile, "streamable-http"), (MCPSSEProfile, "sse")])
async def test_an_http_profile_builds_an_mcp_agent_with_plain_and_secret_headers(cls: Any, transport: str) -> None:
    from workbench.core.protocols.mcp import MCPAgent

    profile = cls(id="h", name="srv", url="http://127.0.0.1:9/x", headers={"X-Trace": "1"},
                  secrets=[SecretRef(kind="bearer", key="tok")])  # fmt: skip
    agent = await build_agent(profile, connection_id="conn-7", resolve_secret=keyring)
    assert isinstance(agent, MCPAgent)
    assert (agent.config.transport, agent.config.url, agent.connection_id) == (
        transport,
        "http://127.0.0.1:9/x",
        "conn-7",
    )
    assert agent.config.headers == {"X-Trace": "1", "Authorization": "Bearer SECRET-token-1111"}


@pytest.mark.asyncio
async def test_an_a2a_profile_builds_an_a2a_agent() -> None:
    from workbench.core.protocols.a2a import A2AAgent

    profile = A2AProfile(
        id="a",
        name="agent",
        url="http://127.0.0.1:9/",
        card_url="http://127.0.0.1:9/card.json",
        binding="HTTP+JSON",
        streaming=False,
        request_timeout=5,
    )
    agent = await build_agent(profile, resolve_secret=keyring)
    assert isinstance(agent, A2AAgent)
    config = agent.config
    assert (config.url, agent.name, config.card_url) == ("http://127.0.0.1:9/", "agent", "http://127.0.0.1:9/card.json")
    assert (config.binding, config.streaming, config.request_timeout) == ("HTTP+JSON", False, 5)
    assert agent.connection_id == "a"


@pytest.mark.asyncio
async def test_the_default_factory_injects_the_handlers() -> None:
    async def elicit(request: ElicitationRequest) -> ElicitationResponse:
        return ElicitationResponse(action="decline")

    async def answer(request: InputRequest) -> InputResponse:
        return InputResponse(cancel=True)

    factory = DefaultAgentFactory(handlers=AgentHandlers(elicitation=elicit, input=answer), resolve_secret=keyring)
    mcp = await factory(http_profile(), connection_id="h", wire=None, bus=None)
    a2a = await factory(A2AProfile(name="a", url="http://h/"), connection_id="a", wire=None, bus=None)
    assert mcp.config.elicitation_handler is elicit  # type: ignore[attr-defined]
    assert a2a.config.input_handler is answer  # type: ignore[attr-defined]


@pytest.mark.asyncio
async def test_resolved_secrets_are_registered_with_the_wire_redactor() -> None:
    wire = WireRecorder()
    await build_agent(http_profile(), wire=wire, resolve_secret=keyring)
    stdio = MCPStdioProfile(name="s", command="srv", secrets=[SecretRef(kind="env", name="API_TOKEN", key="env")])
    await build_agent(stdio, wire=wire, resolve_secret=keyring)
    leaked = " ".join(["SECRET-token-1111", "SECRET-apikey-2222", "SECRET-sig-3333", "SECRET-env-4444"])
    redacted = wire.redactor.text(f"stderr: env says {leaked}")
    assert "SECRET" not in redacted
