"""The MCP tool proxy agent against the real demo MCP server (stdio and Streamable HTTP)."""

from __future__ import annotations

import socket

import pytest

from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import InputRequired
from workbench.demo.a2a_agents import mcp_proxy_app_factory, serve_agent
from workbench.demo.mcp_server import serve_http


@pytest.mark.asyncio
async def test_proxy_calls_a_tool_on_the_demo_mcp_server_over_stdio_by_default() -> None:
    async with serve_agent(mcp_proxy_app_factory()) as url, A2AAgent(url) as agent:
        request = {"target_mcp_server_id": "demo", "tool_name": "add", "arguments": {"a": 2, "b": 3}}
        result = await agent.invoke_async(data=request)
    assert result.state == "completed"
    data = result.structured
    assert data["target_mcp_server_id"] == "demo" and data["tool_name"] == "add"
    assert data["is_error"] is False
    assert data["result"]["structuredContent"] == {"result": 5}


@pytest.mark.asyncio
async def test_proxy_returns_a_tool_error_as_data_and_protocol_errors_as_failed_tasks() -> None:
    async with serve_http() as mcp_url:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            closed_port = sock.getsockname()[1]
        targets = {"http-demo": mcp_url, "down": f"http://127.0.0.1:{closed_port}/mcp"}
        async with serve_agent(mcp_proxy_app_factory(targets=targets)) as url, A2AAgent(url) as agent:
            tool_error = await agent.invoke_async(
                data={"target_mcp_server_id": "http-demo", "tool_name": "fail", "arguments": {"message": "boom"}}
            )
            assert tool_error.state == "completed"
            assert tool_error.structured["is_error"] is True
            assert "boom" in tool_error.structured["result"]["content"][0]["text"]

            # MCPServer reports an unknown tool as a tool error too (isError), not a JSON-RPC error.
            unknown_tool = await agent.invoke_async(
                data={"target_mcp_server_id": "http-demo", "tool_name": "no-such-tool", "arguments": {}}
            )
            assert unknown_tool.state == "completed" and unknown_tool.structured["is_error"] is True

            down = await agent.invoke_async(data={"target_mcp_server_id": "down", "tool_name": "add"})
            assert down.state == "failed" and down.is_error
            assert down.structured["error"]["code"] == "unreachable"

            listed = await agent.invoke_async(data={"target_mcp_server_id": "http-demo"})
            assert "add" in {t["name"] for t in listed.structured["tools"]}

            unknown_server = await agent.invoke_async(data={"target_mcp_server_id": "nope", "tool_name": "add"})
            assert unknown_server.state == "rejected"
            assert unknown_server.structured["error"]["known"] == ["down", "http-demo"]


@pytest.mark.asyncio
async def test_proxy_asks_for_the_request_with_a_schema_when_given_plain_text() -> None:
    factory = mcp_proxy_app_factory(targets={"x": "http://127.0.0.1:9/mcp"})
    async with serve_agent(factory) as url, A2AAgent(url) as agent:
        events = [ev async for ev in agent.stream_async("please call something")]
    asked = next(e for e in events if isinstance(e, InputRequired))
    assert asked.request.schema is not None
    assert asked.request.schema["properties"]["target_mcp_server_id"]["enum"] == ["x"]
