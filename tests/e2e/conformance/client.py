"""The MCP conformance suite's client for all its scenarios: ``python client.py SERVER_URL``.

The suite (``@modelcontextprotocol/conformance`` 0.2, ``client --command``) starts a scenario's
servers, appends the MCP server's URL to the command and sets ``MCP_CONFORMANCE_SCENARIO`` (the
scenario's name), ``MCP_CONFORMANCE_PROTOCOL_VERSION`` (the wire the servers speak) and, for some
scenarios, ``MCP_CONFORMANCE_CONTEXT`` (a JSON object: client ids, secrets, keys, tokens, tool
calls). This program does for each scenario what a user of the public library would do, with
nothing from ``workbench`` but ``workbench.agents``.

The OAuth scenarios of the authorization code grant log in with ``MCPAgent(url, oauth=OAuth(...))``:
an in-memory credential store, the loopback redirect followed by an HTTP client instead of a browser
(``follow_redirects_opener``; the suite's authorization server approves without a person), the
client identity the scenario calls for (dynamic registration; the pre-registered client of the
context; the suite's fixed client metadata document URL, which this machine cannot read). The other
grants take the context's client and credentials: ``ClientCredentials`` with a client secret or a
``PrivateKeyJWTClient``, ``JWTBearer`` with the workload's JWT, ``EnterpriseManaged`` with the IdP's
token endpoint and ID token; the DPoP scenarios add ``DPoP()`` (a key made for the agent).

The skills scenarios (SEP-2640) list the server's skills with ``agent.server_features.skills`` and load
``pdf-processing``: the library reads its ``SKILL.md`` and refuses it when its size, digest or
frontmatter differs from the listed entry; only a skill that passed would have its referenced file read.

A scenario whose client mode the public library does not offer has no handler in ``SCENARIOS`` but an
entry in ``GAPS`` (none now) saying what is missing and what the public API would need;
it exits with ``NOT_SUPPORTED`` (3) at once, saying so on stderr. The
tests read ``GAPS`` for their expected-failure reasons: when the library gains a mode, its scenarios
get a handler here and leave ``GAPS``, and the tests run them.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from workbench.agents import (
        ElicitationRequest,
        ElicitationResponse,
        MCPAgent,
        SamplingRequest,
        SamplingResponse,
    )

NOT_SUPPORTED = 3
"""Exit status of a scenario whose client mode the public library does not offer."""


@dataclass(frozen=True, slots=True)
class Gap:
    """A client mode that ``workbench.agents`` does not offer.

    Attributes:
        capability: What the scenario needs the client to do.
        needs: What the public API would need so that a user could do it.
    """

    capability: str
    needs: str

    def __str__(self) -> str:
        return f"{self.capability}; needs {self.needs}"


GAPS: dict[str, Gap] = {}
"""Scenario -> the client mode ``workbench.agents`` lacks for it."""


Context = dict[str, Any]
Handler = Callable[["MCPAgent", Context], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Scenario:
    """How to run one scenario: the agent's options and what to do once connected.

    Attributes:
        run: What to do with the connected agent.
        answers_questions: Give the agent handlers for elicitation and sampling and offer roots, as a
            host that can answer them does.
        elicitation: The elicitation answer (default: accept the form's defaults).
        oauth: Log in with OAuth when the server asks (``oauth_for``).
    """

    run: Handler
    answers_questions: bool = False
    elicitation: Callable[[ElicitationRequest], Awaitable[ElicitationResponse]] | None = None
    oauth: bool = False


async def accept_defaults(request: ElicitationRequest) -> ElicitationResponse:
    """Accept a form with the default of every field that has one (SEP-1034), as a user pressing OK."""
    from workbench.agents import ElicitationResponse

    properties = (request.requested_schema or {}).get("properties", {})
    content = {name: field["default"] for name, field in properties.items() if "default" in field}
    return ElicitationResponse(action="accept", content=content)


async def confirm(request: ElicitationRequest) -> ElicitationResponse:
    """Accept a confirmation form (the SEP-2322 scenario's tools ask for ``confirmed``)."""
    from workbench.agents import ElicitationResponse

    return ElicitationResponse(action="accept", content={"confirmed": True})


async def answer_sampling(request: SamplingRequest) -> SamplingResponse:
    """Answer a sampling request with an empty completion (the scenarios only look at capabilities)."""
    from workbench.agents import SamplingResponse

    return SamplingResponse(text="")


def show(agent_result: object) -> None:
    """Print what a call returned (the suite keeps the client's stdout with the results)."""
    print(repr(agent_result)[:500], flush=True)


async def list_tools(agent: MCPAgent, context: Context) -> None:
    """Connecting lists the tools; print their names."""
    print("tools:", [tool.name for tool in agent.tool_specs()], flush=True)


def call(name: str, arguments: dict[str, Any] | None = None) -> Handler:
    """A handler that calls the tool ``name`` once."""

    async def run(agent: MCPAgent, context: Context) -> None:
        show(await agent.call_tool(name, arguments or {}))

    return run


async def call_mrtr_tools(agent: MCPAgent, context: Context) -> None:
    """The SEP-2322 tools in the order the scenario expects them (request state echo, then the others)."""
    for name in ("test_mrtr_echo_state", "test_mrtr_unrelated", "test_mrtr_no_state", "test_mrtr_no_result_type"):
        show(await agent.call_tool(name, {}))


async def replay_tool_calls(agent: MCPAgent, context: Context) -> None:
    """Make the calls the context lists (``toolCalls``) with their exact arguments, if the tool is listed.

    A call that fails is reported and the next one made, as a user going through a list would.
    """
    from workbench.agents import WorkbenchError

    listed = {tool.name for tool in agent.tool_specs()}
    for entry in context.get("toolCalls", []):
        if entry["name"] not in listed:
            print(f"{entry['name']}: not listed", flush=True)
            continue
        try:
            show(await agent.call_tool(entry["name"], entry.get("arguments") or {}))
        except WorkbenchError as exc:
            print(f"{entry['name']}: {type(exc).__name__}: {exc}", flush=True)


def placeholder_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    """The simplest value of its type for each required argument of ``schema``."""
    by_type = {"string": "x", "integer": 0, "number": 0, "boolean": False, "object": {}, "array": [], "null": None}
    properties = schema.get("properties", {})
    return {name: by_type.get(properties.get(name, {}).get("type"), "x") for name in schema.get("required", [])}


async def call_every_tool(agent: MCPAgent, context: Context) -> None:
    """Call each tool the agent offers (tools with invalid ``x-mcp-header`` annotations must not be among them)."""
    from workbench.agents import WorkbenchError

    for tool in agent.tool_specs():
        try:
            show(await agent.call_tool(tool.name, placeholder_arguments(tool.input_schema)))
        except WorkbenchError as exc:
            print(f"{tool.name}: {type(exc).__name__}: {exc}", flush=True)


async def echo_focal_schema(agent: MCPAgent, context: Context) -> None:
    """Send the 2020-12 tool's input schema, as the agent holds it, back through ``json_schema_echo``."""
    focal = next(tool for tool in agent.tool_specs() if tool.name == "json_schema_2020_12_tool")
    show(await agent.call_tool("json_schema_echo", {"schema": focal.input_schema}))


async def call_first_tool(agent: MCPAgent, context: Context) -> None:
    """List the tools and call the first one (after the login; a later 403 may ask for more scope)."""
    tools = agent.tool_specs()
    print("tools:", [tool.name for tool in tools], flush=True)
    if tools:
        show(await agent.call_tool(tools[0].name, placeholder_arguments(tools[0].input_schema)))


async def list_skills(agent: MCPAgent, context: Context) -> None:
    """List the server's skills (their entries only: no skill file is read before one is loaded)."""
    skills = await agent.server_features.skills.list()
    print("skills:", [(skill.name, skill.uri) for skill in skills], flush=True)


async def load_skill(agent: MCPAgent, context: Context) -> None:
    """Load ``pdf-processing`` as a host would, then read the reference its instructions name.

    Loading checks ``SKILL.md`` against the listed entry (size, digest, frontmatter); a skill that
    fails is refused and nothing more of it is read, which these scenarios expect.
    """
    from workbench.agents import SkillVerificationError

    skills = agent.server_features.skills
    print("skills:", [skill.name for skill in await skills.list()], flush=True)
    try:
        loaded = await skills.load("pdf-processing")
    except SkillVerificationError as exc:
        print(f"refused: {type(exc).__name__} ({exc.code}): {exc}", flush=True)
        return
    print("loaded:", loaded.spec.uri, flush=True)
    print("reference:", len(await skills.read_file(loaded, "references/FORMS.md")), "bytes", flush=True)


CIMD_URL = "https://conformance-test.local/client-metadata.json"
"""The client metadata document URL the suite's ``auth/basic-cimd`` expects as client id (never fetched)."""

AUTHORIZATION_CODE_SCENARIOS = (
    "metadata-default",
    "metadata-var1",
    "metadata-var2",
    "metadata-var3",
    "basic-cimd",
    "scope-from-www-authenticate",
    "scope-from-scopes-supported",
    "scope-omitted-when-undefined",
    "scope-step-up",
    "scope-retry-limit",
    "token-endpoint-auth-basic",
    "token-endpoint-auth-post",
    "token-endpoint-auth-none",
    "pre-registration",
    "2025-03-26-oauth-metadata-backcompat",
    "2025-03-26-oauth-endpoint-fallback",
    "resource-mismatch",
    "offline-access-scope",
    "offline-access-not-supported",
    "authorization-server-migration",
    "iss-supported",
    "iss-not-advertised",
    "iss-supported-missing",
    "iss-wrong-issuer",
    "iss-unexpected",
    "iss-normalized",
    "metadata-issuer-mismatch",
)
"""The ``auth/*`` scenarios of the authorization code grant (``Scenario(..., oauth=True)``)."""


MACHINE_SCENARIOS = (
    "client-credentials-basic",
    "client-credentials-jwt",
    "enterprise-managed-authorization",
    "wif-jwt-bearer",
    "dpop",
    "dpop-nonce",
)
"""The ``auth/*`` scenarios of the other grants and of DPoP (``machine_oauth_for``)."""


def machine_oauth_for(name: str, context: Context) -> Any:
    """The ``OAuth`` options for a grant without a browser, or for DPoP, from what the scenario gives."""
    from workbench.agents import (
        ClientCredentials,
        DPoP,
        EnterpriseManaged,
        JWTBearer,
        OAuth,
        PreRegisteredClient,
        PrivateKeyJWTClient,
    )

    if name == "auth/client-credentials-basic":
        client = PreRegisteredClient(context["client_id"], context["client_secret"], "client_secret_basic")
        return OAuth(client=client, grant=ClientCredentials())
    if name == "auth/client-credentials-jwt":
        key = PrivateKeyJWTClient(context["client_id"], context["private_key_pem"], context["signing_algorithm"])
        return OAuth(client=key, grant=ClientCredentials())
    if name == "auth/enterprise-managed-authorization":
        grant = EnterpriseManaged(context["idp_token_endpoint"], context["idp_client_id"], context["idp_id_token"])
        return OAuth(client=PreRegisteredClient(context["client_id"], context["client_secret"]), grant=grant)
    if name == "auth/wif-jwt-bearer":
        return OAuth(client=PreRegisteredClient(context["client_id"]), grant=JWTBearer(context["valid_jwt"]))
    return OAuth(dpop=DPoP(), login_timeout=20)  # auth/dpop, auth/dpop-nonce: a key made for this agent


def oauth_for(name: str, context: Context) -> Any:
    """The ``OAuth`` options a user would give for the scenario: the client it calls for."""
    from workbench.agents import DynamicClient, MetadataDocumentClient, OAuth, OAuthClient, PreRegisteredClient

    if name.removeprefix("auth/") in MACHINE_SCENARIOS:
        return machine_oauth_for(name, context)
    client: OAuthClient = DynamicClient()
    if "client_id" in context:  # registered out of band
        client = PreRegisteredClient(context["client_id"], context.get("client_secret"))
    elif name == "auth/basic-cimd":
        client = MetadataDocumentClient(CIMD_URL, verify=False)
    return OAuth(client=client, login_timeout=20)


SCENARIOS: dict[str, Scenario] = {
    "initialize": Scenario(list_tools),
    "tools_call": Scenario(call("add_numbers", {"a": 5, "b": 3})),
    "elicitation-sep1034-client-defaults": Scenario(
        call("test_client_elicitation_defaults"), elicitation=accept_defaults
    ),
    # the server drops the stream; the client reconnects with Last-Event-ID after the retry delay
    "sse-retry": Scenario(call("test_reconnection")),
    # every request carries _meta (protocol version, client info and capabilities) on the 2026-07-28 wire
    "request-metadata": Scenario(call("add_numbers", {"a": 5, "b": 3}), answers_questions=True),
    "sep-2322-client-request-state": Scenario(call_mrtr_tools, elicitation=confirm),
    "http-standard-headers": Scenario(call("add_numbers", {"a": 5, "b": 3})),
    "http-custom-headers": Scenario(replay_tool_calls),
    "http-invalid-tool-headers": Scenario(call_every_tool),
    "json-schema-ref-no-deref": Scenario(list_tools),
    "json-schema-2020-12-preservation": Scenario(echo_focal_schema),
    "sep-2640-client-no-prefetch": Scenario(list_skills),
    **{f"sep-2640-client-verify-{what}": Scenario(load_skill) for what in ("digest", "size", "frontmatter")},
    **{f"auth/{name}": Scenario(call_first_tool, oauth=True) for name in AUTHORIZATION_CODE_SCENARIOS},
    **{f"auth/{name}": Scenario(call_first_tool, oauth=True) for name in MACHINE_SCENARIOS},
}
"""Scenario -> what a user of ``workbench.agents`` does for it."""


async def run(url: str, scenario: Scenario, context: Context, name: str = "") -> None:
    """Connect an ``MCPAgent`` to ``url`` as the scenario needs and run it."""
    from workbench.agents import MCPAgent, MemoryCredentialStore, follow_redirects_opener

    questions: dict[str, Any] = {}
    if scenario.oauth:
        questions = {
            "oauth": oauth_for(name, context),
            "credentials": MemoryCredentialStore(),
            "open_browser": follow_redirects_opener,
        }
    if scenario.answers_questions:
        questions = {"elicitation_handler": accept_defaults, "sampling_handler": answer_sampling, "roots": []}
    if scenario.elicitation is not None:
        questions["elicitation_handler"] = scenario.elicitation
    agent = MCPAgent(url, name="conformance", connect_timeout=20, request_timeout=20, **questions)
    async with agent:
        await scenario.run(agent, context)


RENAMED = {"auth/cross-app-access-complete-flow": "auth/enterprise-managed-authorization"}
"""Older suites' names of a scenario (0.1.16's), for running this client under them too."""


def main(argv: list[str]) -> int:
    """Run the scenario named in the environment against the URL that ends ``argv``; return the exit status."""
    if len(argv) < 2:
        print(f"usage: {argv[0]} SERVER_URL (with MCP_CONFORMANCE_SCENARIO set)", file=sys.stderr)
        return 2
    name = os.environ.get("MCP_CONFORMANCE_SCENARIO", "")
    name = RENAMED.get(name, name)
    context: Context = json.loads(os.environ.get("MCP_CONFORMANCE_CONTEXT") or "{}")
    if name not in SCENARIOS:
        if name in GAPS:
            print(f"{name}: not supported by workbench.agents: {GAPS[name]}", file=sys.stderr)
            return NOT_SUPPORTED
        print(f"{name!r}: unknown scenario", file=sys.stderr)
        return 2
    from workbench.agents import WorkbenchError

    try:
        asyncio.run(run(argv[-1], SCENARIOS[name], context, name))
    except WorkbenchError as exc:
        print(f"{name}: {type(exc).__name__} ({exc.code}): {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
