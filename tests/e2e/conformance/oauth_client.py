"""The MCP conformance suite's client for its ``auth/*`` scenarios: ``python oauth_client.py SERVER_URL``.

The suite starts a scenario's authorization server and MCP server, then runs this with
``MCP_CONFORMANCE_SCENARIO`` (and for some scenarios ``MCP_CONFORMANCE_CONTEXT``, a JSON object) set.
It logs in the way ``workbench login`` does — ``build_oauth_provider`` with the loopback redirect,
here followed by an HTTP client instead of a browser (``follow_redirects_opener``) and a credential
store in memory — then lists the tools and calls ``test-tool`` when the server has it. A client
registered out of band (``auth/pre-registration``: the context gives ``client_id`` and
``client_secret``) is put in the store as the registration the login then uses.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from mcp.shared.auth import OAuthClientInformationFull

from workbench.core.credentials import MemoryCredentialStore
from workbench.core.http.loopback import free_port, redirect_uri
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.protocols.mcp import MCPAgent
from workbench.core.protocols.mcp.oauth import build_oauth_provider, follow_redirects_opener
from workbench.core.protocols.mcp.oauth_storage import CredentialTokenStorage
from workbench.core.wire import WireRecorder


async def main(url: str) -> None:
    """Log in, list the tools, call ``test-tool`` if there is one; print what happened."""
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    context: dict[str, Any] = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    profile = MCPHTTPProfile(name="conformance", url=url, auth="oauth")
    store = MemoryCredentialStore()
    if "client_id" in context:  # a registration made out of band
        registration = OAuthClientInformationFull(
            client_id=context["client_id"],
            client_secret=context.get("client_secret"),
            redirect_uris=[redirect_uri(free_port())],  # type: ignore[list-item]
            token_endpoint_auth_method="client_secret_basic" if context.get("client_secret") else "none",
        )
        await CredentialTokenStorage(store, profile.id).set_client_info(registration)
    wire = WireRecorder()
    auth = await build_oauth_provider(
        profile, store, wire=wire, connection_id=profile.id, opener=follow_redirects_opener, login_timeout=30
    )
    async with MCPAgent(url, wire=wire, auth=auth, connect_timeout=30, request_timeout=30) as agent:
        names = [tool.name for tool in agent.tool_specs()]
        print(f"{scenario}: tools {names}", flush=True)
        if "test-tool" in names:
            result = await agent.call_tool("test-tool", {})
            print(f"{scenario}: test-tool -> {result.text!r}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[-1]))
