"""The MCP conformance suite's client for its ``auth/*`` scenarios: ``python oauth_client.py SERVER_URL``.

The suite starts a scenario's authorization server and MCP server, then runs this with
``MCP_CONFORMANCE_SCENARIO`` (and for some scenarios ``MCP_CONFORMANCE_CONTEXT``, a JSON object) set.
It logs in as ``workbench login`` does — ``profile_service.login``, whose agent is built from the
profile with the same credential boundary as the command line's; the loopback redirect is followed
by an HTTP client instead of a browser (``follow_redirects_opener``) and the credential store is in
memory — then lists the tools and calls ``test-tool`` when the server has it through an agent built
as ``workbench call --profile`` builds one. A client
registered out of band (``auth/pre-registration``: the context gives ``client_id`` and
``client_secret``) is put in the store as the registration the login then uses.

The grants without a browser get the profile a user would save (``machine_profile``): a pre-registered
client with its secret for ``client_credentials``, a ``private-key-jwt`` client whose PEM key is in the
credential store (checked as ``workbench secret set NAME oauth-client-key`` checks it), and for the
cross-app access flow an ``enterprise_managed`` profile with the IdP's token endpoint and client id and
the user's ID token in the store.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import Any

from mcp.shared.auth import OAuthClientInformationFull
from pydantic import SecretStr

from workbench.core.agent_factory import build_agent
from workbench.core.credentials import CredentialStore, MemoryCredentialStore
from workbench.core.http.browser import follow_redirects_opener
from workbench.core.http.loopback import redirect_uri, reserve_port
from workbench.core.oauth_login import login
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.profiles.credential_keys import oauth_client_key_key, oauth_client_secret_key, oauth_id_token_key
from workbench.core.profiles.oauth_files import check_client_key_pem
from workbench.core.protocols.mcp.oauth_storage import CredentialTokenStorage
from workbench.core.wire.recorder import WireRecorder

MACHINE_SCENARIOS = (
    "auth/client-credentials-basic",
    "auth/client-credentials-jwt",
    "auth/cross-app-access-complete-flow",
)
"""The scenarios of the grants without a browser (``machine_profile``)."""


async def machine_profile(scenario: str, url: str, context: dict[str, Any], store: CredentialStore) -> MCPHTTPProfile:
    """The profile a user would save for a grant without a browser, its secrets put in ``store``."""
    fields: dict[str, Any] = {"oauth_client": "pre-registered", "oauth_client_id": context["client_id"]}
    secrets: dict[str, str] = {}
    if scenario == "auth/client-credentials-jwt":
        pem = context["private_key_pem"]
        algorithm = check_client_key_pem(pem, context.get("signing_algorithm"))
        fields.update(oauth_client="private-key-jwt", oauth_client_key_algorithm=algorithm)
        fields["oauth_grant"] = "client_credentials"
        secrets["client-key"] = pem
    elif scenario == "auth/client-credentials-basic":
        fields.update(oauth_grant="client_credentials", oauth_token_auth="client_secret_basic")
        secrets["client-secret"] = context["client_secret"]
    else:
        fields.update(
            oauth_grant="enterprise_managed",
            oauth_idp_token_endpoint=context["idp_token_endpoint"],
            oauth_idp_client_id=context["idp_client_id"],
        )
        secrets.update({"client-secret": context["client_secret"], "id-token": context["idp_id_token"]})
    profile = MCPHTTPProfile(
        name="conformance", url=url, auth="oauth", connect_timeout=30, request_timeout=30, **fields
    )
    keys = {
        "client-key": oauth_client_key_key(profile.id),
        "client-secret": oauth_client_secret_key(profile.id),
        "id-token": oauth_id_token_key(profile.id),
    }
    for name, value in secrets.items():
        await store.set(keys[name], SecretStr(value))
    return profile


async def main(url: str) -> None:
    """Log in, list the tools, call ``test-tool`` if there is one; print what happened."""
    scenario = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    context: dict[str, Any] = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    profile = MCPHTTPProfile(name="conformance", url=url, auth="oauth", connect_timeout=30, request_timeout=30)
    store = MemoryCredentialStore()
    if scenario in MACHINE_SCENARIOS:
        profile = await machine_profile(scenario, url, context, store)
    elif "client_id" in context:  # a registration made out of band
        registration = OAuthClientInformationFull(
            client_id=context["client_id"],
            client_secret=context.get("client_secret"),
            redirect_uris=[redirect_uri(reserve_port())],  # type: ignore[list-item]
            token_endpoint_auth_method="client_secret_basic" if context.get("client_secret") else "none",
        )
        await CredentialTokenStorage(store, profile.id).set_client_info(registration)
    wire = WireRecorder()
    # The command line's path: 'workbench login' (profile_service.login), then an agent built from the
    # profile with its credential boundary, as 'workbench call --profile' builds it; like the window's,
    # it may log in again when the server asks for more scope (step-up).
    await login(profile, store, opener=follow_redirects_opener, wire=wire, timeout=30)
    agent = await build_agent(profile, wire=wire, credentials=store, oauth_opener=follow_redirects_opener)
    async with agent:
        names = [tool.name for tool in agent.tool_specs()]  # type: ignore[attr-defined]
        print(f"{scenario}: tools {names}", flush=True)
        if "test-tool" in names:
            result = await agent.call_tool("test-tool", {})  # type: ignore[attr-defined]
            print(f"{scenario}: test-tool -> {result.text!r}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[-1]))
