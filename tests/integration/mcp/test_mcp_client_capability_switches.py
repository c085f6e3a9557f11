"""Per-connection switches for the client capabilities advertised: what goes on the wire, how a server degrades."""

from __future__ import annotations

from typing import Any

import pytest

from workbench.cli.capabilities import client_capabilities
from workbench.core.errors import RemoteError
from workbench.core.profiles.client_capabilities import ALL_ON, ClientCapabilitySwitches
from workbench.core.protocols.base import ElicitationRequest, ElicitationResponse, SamplingRequest, SamplingResponse
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.mcp_server.app import build_server

pytestmark = pytest.mark.asyncio
TASKS = "io.modelcontextprotocol/tasks"
APPS = "io.modelcontextprotocol/ui"


async def answer_elicitation(request: ElicitationRequest) -> ElicitationResponse:
    return ElicitationResponse("accept", {})


async def answer_sampling(request: SamplingRequest) -> SamplingResponse:
    raise AssertionError("a switched-off capability's request reaches no handler")


def demo(wire: WireRecorder, **kwargs: Any) -> MCPAgent:
    return MCPAgent.in_process(
        build_server(),
        wire=wire,
        elicitation_handler=answer_elicitation,
        sampling_handler=answer_sampling,
        **kwargs,
    )


async def declared(**kwargs: Any) -> dict[str, Any]:
    wire = WireRecorder()
    async with demo(wire, **kwargs):
        caps = client_capabilities(wire.records())
    assert caps is not None
    return caps


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_every_switch_on_declares_sampling_with_tools_both_elicitation_modes_roots_tasks_and_apps(
    mode: str,
) -> None:
    caps = await declared(mode=mode, roots=[], renders_apps=True)
    extensions = caps.pop("extensions")
    assert extensions[APPS] == {"mimeTypes": ["text/html;profile=mcp-app"]}
    assert (TASKS in extensions) == (mode == "2026-07-28")  # the Tasks extension is a 2026-07-28 one
    # 2025-11-25: the client runs the server's task-augmented sampling and elicitation (client_tasks)
    client_tasks = {
        "list": {},
        "cancel": {},
        "requests": {"sampling": {"createMessage": {}}, "elicitation": {"create": {}}},
    }
    assert caps == {
        "sampling": {"tools": {}},
        "elicitation": {"form": {}, "url": {}},
        "roots": {"listChanged": True},
        **({"tasks": client_tasks} if mode == "legacy" else {}),
    }


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_switches_that_are_off_leave_their_capabilities_out(mode: str) -> None:
    switches = ALL_ON.without(["sampling-tools", "elicitation-url", "roots", "tasks", "apps"])
    caps = await declared(mode=mode, roots=[("file:///data", "data")], renders_apps=True, client_capabilities=switches)
    assert caps == {"sampling": {}, "elicitation": {"form": {}}}
    none = ALL_ON.without(["sampling", "elicitation"])
    assert "sampling" not in await declared(mode=mode, client_capabilities=none)
    assert "elicitation" not in await declared(mode=mode, client_capabilities=none)


async def test_apps_are_advertised_only_when_the_host_renders_them() -> None:
    assert APPS not in (await declared(renders_apps=False)).get("extensions", {})


async def test_without_url_elicitation_the_server_degrades_and_a_form_still_works() -> None:
    wire = WireRecorder()
    switches = ALL_ON.without(["elicitation-url"])
    async with demo(wire, mode="legacy", client_capabilities=switches) as agent:
        refused = await agent.call_tool("connect_account", {})
    assert refused.is_error  # the demo tool needs URL elicitation and says so


async def test_without_the_tasks_extension_a_task_tool_runs_inline_or_is_refused() -> None:
    wire = WireRecorder()
    async with demo(wire, client_capabilities=ALL_ON.without(["tasks"])) as agent:
        assert not agent.features.tasks
        inline = await agent.call_tool("task_count", {"n": 2, "pause_ms": 1}, timeout=30)
        assert inline.text == "counted to 2"
        assert agent.tasks.seen() == []
        with pytest.raises(RemoteError) as refused:
            await agent.call_tool("task_confirm", {}, timeout=30)
    assert refused.value.remote_code == -32021  # missing required client capability


@pytest.mark.everything
async def test_server_everything_lists_fewer_tools_for_each_capability_switched_off(everything_http_url: str) -> None:
    """server-everything registers a tool per client capability it can use (its 'conditional' tools)."""

    async def tools(switches: ClientCapabilitySwitches) -> set[str]:
        async with MCPAgent(
            everything_http_url,
            mode="legacy",
            roots=[],
            elicitation_handler=answer_elicitation,
            sampling_handler=answer_sampling,
            client_capabilities=switches,
        ) as agent:
            return {tool.name for tool in await agent.server_features.list_tools()}

    full = await tools(ALL_ON)
    assert {"get-roots-list", "trigger-sampling-request", "trigger-elicitation-request"} <= full
    assert full - await tools(ALL_ON.without(["roots"])) == {"get-roots-list"}
    assert full - await tools(ALL_ON.without(["sampling"])) == {
        "trigger-sampling-request",
        "trigger-sampling-request-async",  # it asks for sampling as a client-side task
    }
    assert full - await tools(ALL_ON.without(["tasks"])) == {
        "trigger-sampling-request-async",
        "trigger-elicitation-request-async",
    }
    assert {"trigger-elicitation-request", "trigger-url-elicitation"} <= full - await tools(
        ALL_ON.without(["elicitation"])
    )
