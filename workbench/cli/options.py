"""The command line's options as typed, frozen objects, built once from argparse's namespace by ``parser``.

Each command function takes the object of its command (``CallOptions``, ``LoginOptions``, …) and
never the namespace. Values are kept as given, ``None`` (or an empty tuple) when an option was not
given; checking them (sizes, ``K=V`` pairs, origins, JSON) is left to the commands, which report a
bad value as a usage error in the command's output format. Defaults that are not "not given" come
from the core (``workbench.core.timeouts``), where the library uses them too.

This module imports nothing heavy: ``workbench`` without a command opens the window without it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from workbench.cli.client_options import ClientOptions

MCP_MODES: tuple[str, ...] = ("auto", "legacy", "2026-07-28")
"""``--mode`` values: the MCP protocol era (``auto``: the server's newest)."""
A2ABindingName = Literal["auto", "JSONRPC", "HTTP+JSON", "GRPC"]
BINDINGS: dict[str, A2ABindingName] = {"auto": "auto", "jsonrpc": "JSONRPC", "http-json": "HTTP+JSON", "grpc": "GRPC"}
"""``--binding`` values and the A2A binding names they stand for."""
A2AVersionName = Literal["auto", "1.0", "0.3"]
A2A_VERSIONS: tuple[A2AVersionName, ...] = ("auto", "1.0", "0.3")
"""``--a2a-version`` values."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeoutOptions:
    """``--connect-timeout`` and ``--timeout``, in seconds (``None``: not given).

    Attributes:
        connect: Seconds to connect and discover.
        request: Seconds per request (and, for an A2A stream, per event).
    """

    connect: float | None = None
    request: float | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LimitOptions:
    """``--max-message-bytes`` and ``--max-stream-bytes`` as typed (``None``: not given).

    Attributes:
        max_message_bytes: Most bytes of one response body or event (``64MiB``, ``none``, …).
        max_stream_bytes: Most bytes of one event stream.
    """

    max_message_bytes: str | None = None
    max_stream_bytes: str | None = None

    def given(self) -> dict[str, str]:
        """The limits given, by profile field name (``max_message_bytes`` / ``max_stream_bytes``)."""
        given = {"max_message_bytes": self.max_message_bytes, "max_stream_bytes": self.max_stream_bytes}
        return {name: text for name, text in given.items() if text is not None}


@dataclass(frozen=True, slots=True, kw_only=True)
class TargetOptions:
    """Which agent to talk to and how: the target options of a command, or the overrides over a profile.

    At most one of ``profile``, ``mcp``, ``mcp_sse``, ``a2a`` and ``stdio`` is set (argparse makes
    them exclusive where a target is required).

    Attributes:
        profile: ``--profile NAME``: a saved profile.
        mcp: ``--mcp URL``: an MCP server over Streamable HTTP.
        mcp_sse: ``--mcp-sse URL``: an MCP server over the legacy HTTP+SSE transport.
        a2a: ``--a2a URL``: an A2A agent.
        stdio: ``--stdio``: an MCP server started as a child process.
        command: What followed ``--`` on the command line (the ``--stdio`` server's command).
        mode: ``--mode``: the MCP protocol era.
        agent_tool: ``--agent-tool``: the MCP tool that serves as the agent entry point.
        binding: ``--binding``: the A2A binding, as the command line names it (``jsonrpc``, …).
        a2a_version: ``--a2a-version``: the A2A protocol version.
        headers: ``--header K=V`` values, in order.
        env: ``--env K=V`` values, in order.
        allow_origins: ``--allow-origin`` values, in order.
        limits: The size limits given.
        timeouts: The timeouts given.
        client: MCP: the client capabilities switched and the roots given (``client_options``).
    """

    profile: str | None = None
    mcp: str | None = None
    mcp_sse: str | None = None
    a2a: str | None = None
    stdio: bool = False
    command: tuple[str, ...] = ()
    mode: str | None = None
    agent_tool: str | None = None
    binding: str | None = None
    a2a_version: str | None = None
    headers: tuple[str, ...] = ()
    env: tuple[str, ...] = ()
    allow_origins: tuple[str, ...] = ()
    limits: LimitOptions = field(default_factory=LimitOptions)
    timeouts: TimeoutOptions = field(default_factory=TimeoutOptions)
    client: ClientOptions = field(default_factory=ClientOptions)


@dataclass(frozen=True, slots=True, kw_only=True)
class OutputOptions:
    """What a command prints and records.

    Attributes:
        json: ``--json``: one JSON object per line instead of text for people.
        wire: ``--wire FILE``: where the wire log goes (JSON Lines, or HAR 1.2 for ``*.har``).
        stderr: ``--stderr``: show a stdio server's stderr lines.
    """

    json: bool = False
    wire: str | None = None
    stderr: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class WindowOptions:
    """``workbench`` without a command, and the window of ``workbench demo``.

    Attributes:
        smoke_test: ``--smoke-test``: print how long the window took to show and be ready, then exit.
        screenshot: ``--screenshot PNG``: save a picture of the ready window, then exit.
        config_dir: ``--config-dir DIR``: where profiles and window settings live.
    """

    smoke_test: bool = False
    screenshot: str | None = None
    config_dir: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class DemoOptions:
    """``workbench demo``.

    Attributes:
        headless: ``--headless``: no window; print the agents and serve until stopped.
        scenario: ``--scenario NAME``: run a bundled scenario.
        json: ``--json``: machine-readable output (headless).
        base_port: ``--base-port PORT``: the first of the agents' ports (headless).
        window: The window's own options.
    """

    headless: bool = False
    scenario: str | None = None
    json: bool = False
    base_port: int | None = None
    window: WindowOptions = field(default_factory=WindowOptions)


@dataclass(frozen=True, slots=True, kw_only=True)
class AgentCommandOptions:
    """What ``inspect``, ``call`` and ``send`` share.

    Attributes:
        target: The agent to talk to.
        output: What to print and record.
        config_dir: Where profiles live (``--profile``) and the debug log goes.
        sampling: ``--sampling``: who answers sampling (``person``, ``script:FILE``, ``model:NAME``).
        sampling_policy: ``--sampling-policy``: ``auto``, ``ask`` or ``deny``.
    """

    target: TargetOptions
    output: OutputOptions = field(default_factory=OutputOptions)
    config_dir: str | None = None
    sampling: str = "person"
    sampling_policy: str = "auto"


@dataclass(frozen=True, slots=True, kw_only=True)
class InspectOptions(AgentCommandOptions):
    """``workbench inspect``: show what an agent offers."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CallOptions(AgentCommandOptions):
    """``workbench call TOOL``.

    Attributes:
        tool: The MCP tool (or A2A skill) to call.
        arguments: ``--args``: the tool's arguments as JSON text (the parser's default: ``{}``).
        validate: Check the arguments against the tool's input schema (``--no-validate``: don't).
        answers: ``--answer`` values, in order.
        yes: ``--yes``: call a tool that needs approval (a destructive one) without asking.
        files: ``--file FIELD=PATH`` values: a file read into the argument FIELD as its schema asks.
    """

    tool: str
    arguments: str
    validate: bool = True
    answers: tuple[str, ...] = ()
    yes: bool = False
    files: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class SendOptions(AgentCommandOptions):
    """``workbench send TEXT``.

    Attributes:
        text: The message.
        answers: ``--answer`` values, in order.
        data: ``--data``: a JSON value sent as a data part (A2A).
        task_id: ``--task-id``: the A2A task to continue.
        context_id: ``--context-id``: the A2A conversation to continue.
    """

    text: str
    answers: tuple[str, ...] = ()
    data: str | None = None
    task_id: str | None = None
    context_id: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SkillsListOptions(AgentCommandOptions):
    """``workbench skills list``: the skills an MCP server serves (their entries; no skill file is read)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class SkillsShowOptions(AgentCommandOptions):
    """``workbench skills show NAME``: print a skill's SKILL.md once it matches its listed entry.

    Attributes:
        skill: The skill's name or the URI of its SKILL.md.
    """

    skill: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TasksOptions(AgentCommandOptions):
    """``workbench tasks list|get|result|cancel``: an MCP server's tasks.

    Attributes:
        action: ``list``, ``get``, ``result`` or ``cancel``.
        task_id: The task (all but ``list``).
        wait: ``result --wait``: seconds to wait for the task to end (``None``: the default, 60 s).
        answers: ``result --answer`` values, in order (for the task's questions).
    """

    action: str
    task_id: str | None = None
    wait: float | None = None
    answers: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileCommandOptions:
    """What ``profile …``, ``secret …``, ``login`` and ``logout`` share.

    Attributes:
        config_dir: Where profiles live.
        json: ``--json``: machine-readable output (the commands that have it).
    """

    config_dir: str | None = None
    json: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class OAuthClientOptions:
    """Who an OAuth profile's client is (``profile add/edit … --oauth``); nothing given: no change.

    Attributes:
        client_id: ``--oauth-client-id``: a client registered out of band (pre-registered).
        secret_from: Where its secret comes from: ``stdin`` (``--oauth-client-secret-from-stdin``)
            or ``ask`` (``--oauth-client-secret-ask``: typed at a hidden prompt); never argv.
        token_auth: ``--oauth-token-auth``: ``client_secret_basic``, ``client_secret_post`` or ``none``.
        metadata_url: ``--oauth-client-metadata-url``: a Client ID Metadata Document (CIMD).
        dynamic: ``--oauth-dynamic-client``: back to dynamic registration.
        redirect_port: ``--oauth-redirect-port``: the loopback redirect port the client is registered with.
        grant: ``--oauth-grant``: ``authorization_code`` (a person in a browser) or ``client_credentials``.
        key_file: ``--oauth-client-key-file``: a ``private_key_jwt`` client's PEM private key file (the
            profile keeps its path; the key is never copied or printed).
        key_algorithm: ``--oauth-client-key-algorithm``: the client assertions' signature algorithm.
        dpop: ``--oauth-dpop`` (``True``) or ``--no-oauth-dpop`` (``False``); ``None``: unchanged.
        assertion_file: ``--oauth-assertion-file``: ``jwt_bearer``'s workload JWT file.
        idp_token_endpoint: ``--oauth-idp-token-endpoint``: ``enterprise_managed``'s IdP token endpoint.
        idp_client_id: ``--oauth-idp-client-id``: this client's id at the IdP.
        id_token_file: ``--oauth-id-token-file``: ``enterprise_managed``'s ID token file.
    """

    client_id: str | None = None
    secret_from: Literal["stdin", "ask"] | None = None
    token_auth: str | None = None
    metadata_url: str | None = None
    dynamic: bool = False
    redirect_port: int | None = None
    grant: str | None = None
    key_file: str | None = None
    key_algorithm: str | None = None
    dpop: bool | None = None
    assertion_file: str | None = None
    idp_token_endpoint: str | None = None
    idp_client_id: str | None = None
    id_token_file: str | None = None

    def __bool__(self) -> bool:
        given = (self.client_id, self.secret_from, self.token_auth, self.metadata_url, self.dynamic, self.redirect_port)
        grant = (self.grant, self.assertion_file, self.idp_token_endpoint, self.idp_client_id, self.id_token_file)
        return any(given) or any(grant) or any((self.key_file, self.key_algorithm)) or self.dpop is not None


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileAddOptions(ProfileCommandOptions):
    """``workbench profile add NAME``.

    Attributes:
        name: The new profile's name.
        target: Its target and options (``command``: a stdio server's command).
        oauth: ``--oauth``: log in with OAuth 2.1 (MCP over HTTP).
        oauth_scopes: ``--oauth-scope`` values.
        oauth_client: Who the OAuth client is (default: dynamic registration).
        tool_approval: ``--tool-approval``: when its tool calls ask first (MCP; ``None``: the default).
    """

    name: str
    target: TargetOptions
    oauth: bool = False
    oauth_scopes: tuple[str, ...] = ()
    oauth_client: OAuthClientOptions = field(default_factory=OAuthClientOptions)
    tool_approval: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileEditOptions(ProfileCommandOptions):
    """``workbench profile edit NAME``: only the options given change.

    Attributes:
        name: The profile to change.
        overrides: The values to lay over it.
        forget_origins: ``--forget-origin`` values.
        oauth: ``--oauth``: log in with OAuth 2.1 from now on (MCP over HTTP).
        oauth_client: A new OAuth client identity (nothing given: unchanged).
        tool_approval: ``--tool-approval``: when its tool calls ask first (MCP; ``None``: unchanged).
    """

    name: str
    overrides: TargetOptions = field(default_factory=TargetOptions)
    forget_origins: tuple[str, ...] = ()
    oauth: bool = False
    oauth_client: OAuthClientOptions = field(default_factory=OAuthClientOptions)
    tool_approval: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileListOptions(ProfileCommandOptions):
    """``workbench profile list``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ProfileRemoveOptions(ProfileCommandOptions):
    """``workbench profile remove NAME``.

    Attributes:
        name: The profile to delete (its secrets are forgotten).
    """

    name: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SecretSetOptions(ProfileCommandOptions):
    """``workbench secret set NAME KIND`` (the value comes from standard input, or ``--file``).

    Attributes:
        name: The profile.
        kind: ``bearer``, ``api-key[:HEADER]``, ``header:NAME``, ``env:NAME``, ``query:PARAM``, ``cookie:NAME``,
            or an OAuth secret (``oauth-client-key``, ``oauth-assertion``, ``oauth-id-token``, …).
        file: ``--file``: read the value from this file.
        algorithm: ``--algorithm``: an ``oauth-client-key``'s signature algorithm.
    """

    name: str
    kind: str
    file: str | None = None
    algorithm: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class SecretClearOptions(ProfileCommandOptions):
    """``workbench secret clear NAME [KIND]``.

    Attributes:
        name: The profile.
        kind: The one kind of secret to forget (``None``: all of them).
    """

    name: str
    kind: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class LoginOptions(ProfileCommandOptions):
    """``workbench login NAME``.

    Attributes:
        name: The profile (saved with ``--oauth``).
        timeout: Seconds to finish the login, the person in the browser included.
        open_browser: Open the authorization URL in the browser (``--no-browser``: only print it).
        allow_origins: ``--allow-origin`` values for this login.
        explain: Show each step with its requests, answers and checks (``--explain``).
    """

    name: str
    timeout: float
    open_browser: bool = True
    allow_origins: tuple[str, ...] = ()
    explain: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class LogoutOptions(ProfileCommandOptions):
    """``workbench logout NAME``.

    Attributes:
        name: The profile.
        explain: Show the revocation step with its requests, answers and checks (``--explain``).
    """

    name: str
    explain: bool = False


CommandOptions = WindowOptions | DemoOptions | AgentCommandOptions | ProfileCommandOptions
"""What one run of ``workbench`` was asked to do."""
