"""The command line's grammar (argparse) and the one place its namespace is read, into ``options`` objects.

``parse_command_line`` turns ``argv`` into the typed options of one command; nothing else in the
command line sees argparse's namespace. Targets: ``--mcp URL`` (Streamable HTTP), ``--mcp-sse URL``,
``--a2a URL``, ``--stdio`` with the server command after ``--``, or ``--profile NAME``.
``--config-dir DIR`` is accepted before the subcommand and after it.

Only argparse and the option types are imported here (no pydantic, no SDK, no asyncio): the window
starts through this module.

Over 500 lines on purpose: it is the whole grammar, every subcommand's options beside the one reading of
the namespace into typed options, so a flag and what it becomes are read in one place.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from workbench.cli.client_options import ClientOptions, add_client_options
from workbench.cli.oauth_grant_parser import (
    OAUTH_GRANT_HELP,
    OAUTH_GRANTS,
    OAUTH_SECRET_KINDS,
    add_oauth_grant_options,
    add_secret_file_options,
)
from workbench.cli.options import (
    A2A_VERSIONS,
    BINDINGS,
    MCP_MODES,
    AgentCommandOptions,
    CallOptions,
    CommandOptions,
    DemoOptions,
    InspectOptions,
    LimitOptions,
    LoginOptions,
    LogoutOptions,
    OAuthClientOptions,
    OutputOptions,
    ProfileAddOptions,
    ProfileCommandOptions,
    ProfileEditOptions,
    ProfileListOptions,
    ProfileRemoveOptions,
    SecretClearOptions,
    SecretSetOptions,
    SendOptions,
    SkillsListOptions,
    SkillsShowOptions,
    TargetOptions,
    TasksOptions,
    TimeoutOptions,
    WindowOptions,
)
from workbench.cli.sampling_cli import ModelCommandOptions, add_model_commands, add_sampling_options
from workbench.cli.tasks_parser import add_tasks_commands
from workbench.cli.tool_approval_cli import add_tool_approval_option
from workbench.core.oauth_names import SIGNING_ALGORITHMS, TOKEN_ENDPOINT_AUTH_METHODS
from workbench.core.timeouts import DEFAULT_CONNECT_TIMEOUT, DEFAULT_LOGIN_TIMEOUT, DEFAULT_REQUEST_TIMEOUT


def parse_command_line(argv: Sequence[str]) -> CommandOptions:
    """The typed options of the command ``argv`` asks for (``argv`` without the program name).

    What follows ``--`` is the ``--stdio`` server's command (``TargetOptions.command``).

    Raises:
        SystemExit: A usage error, ``--help`` or ``--version`` (argparse prints what it must).
    """
    head, command = _split_double_dash(list(argv))
    return command_options(build_parser().parse_args(head), command)


def command_options(args: argparse.Namespace, command: Sequence[str] = ()) -> CommandOptions:
    """The typed options of a namespace ``build_parser`` produced; ``command`` is what followed ``--``."""
    config_dir = _given(args, "config_dir")  # before the subcommand, after it, or not given
    if args.command is None:
        return _window_options(args, config_dir)
    if args.command == "demo":
        return DemoOptions(
            headless=args.headless,
            scenario=args.scenario,
            json=args.json,
            base_port=args.base_port,
            window=_window_options(args, config_dir),
        )
    if args.command in ("inspect", "call", "send", "skills", "tasks"):
        return _agent_command_options(args, command, config_dir)
    if args.command == "model":
        return _model_command_options(args, config_dir)
    return _profile_command_options(args, command, config_dir)


def target_options(args: argparse.Namespace, command: Sequence[str] = ()) -> TargetOptions:
    """The target options found in ``args`` (those its parser does not define count as not given).

    Args:
        args: A namespace from a parser with ``add_target_options`` (or with some of its options:
            ``profile edit``'s, ``login``'s).
        command: What followed ``--`` on the command line.
    """
    return TargetOptions(
        profile=_given(args, "profile"),
        mcp=_given(args, "mcp"),
        mcp_sse=_given(args, "mcp_sse"),
        a2a=_given(args, "a2a"),
        stdio=bool(_given(args, "stdio")),
        command=tuple(command),
        mode=_given(args, "mode"),
        agent_tool=_given(args, "agent_tool"),
        binding=_given(args, "binding"),
        a2a_version=_given(args, "a2a_version"),
        headers=tuple(_given(args, "header") or ()),
        env=tuple(_given(args, "env") or ()),
        allow_origins=tuple(_given(args, "allow_origin") or ()),
        limits=LimitOptions(
            max_message_bytes=_given(args, "max_message_bytes"), max_stream_bytes=_given(args, "max_stream_bytes")
        ),
        timeouts=TimeoutOptions(connect=_given(args, "connect_timeout"), request=_given(args, "timeout")),
        client=ClientOptions(
            capabilities=_given(args, "client_capabilities"),
            switched_off=tuple(_given(args, "capabilities_off") or ()),
            roots=tuple(_given(args, "root") or ()),
            forget_roots=tuple(_given(args, "forget_root") or ()),
        ),
    )


def _given(args: argparse.Namespace, name: str) -> Any:
    """``args.name``, or ``None`` where the parser that made ``args`` has no such option."""
    return getattr(args, name, None)


def _window_options(args: argparse.Namespace, config_dir: str | None) -> WindowOptions:
    return WindowOptions(smoke_test=args.smoke_test, screenshot=args.screenshot, config_dir=config_dir)


def _agent_command_options(
    args: argparse.Namespace, command: Sequence[str], config_dir: str | None
) -> AgentCommandOptions:
    common: dict[str, Any] = {
        "target": target_options(args, command),
        "output": OutputOptions(json=args.json, wire=args.wire, stderr=args.stderr),
        "config_dir": config_dir,
        "sampling": getattr(args, "sampling", "person"),
        "sampling_policy": getattr(args, "sampling_policy", "auto"),
    }
    if args.command == "inspect":
        return InspectOptions(**common)
    if args.command == "skills":
        return (
            SkillsShowOptions(skill=args.skill, **common)
            if args.skills_command == "show"
            else SkillsListOptions(**common)
        )
    if args.command == "tasks":
        return TasksOptions(
            action=args.tasks_command,
            task_id=getattr(args, "task_id", None),
            wait=getattr(args, "wait", None),
            answers=tuple(getattr(args, "answer", ())),
            **common,
        )
    if args.command == "call":
        return CallOptions(
            tool=args.tool,
            arguments=args.args,
            validate=not args.no_validate,
            answers=tuple(args.answer),
            yes=args.yes,
            **common,
        )
    return SendOptions(
        text=args.text,
        answers=tuple(args.answer),
        data=args.data,
        task_id=args.task_id,
        context_id=args.context_id,
        **common,
    )


def _model_command_options(args: argparse.Namespace, config_dir: str | None) -> ModelCommandOptions:
    action = args.model_command
    fields: dict[str, Any] = {}
    if action == "add":
        fields = {
            "api": args.api,
            "base_url": args.url,
            "model": args.model,
            "timeout": args.timeout,
            "max_tokens": args.max_tokens,
            "input_price": args.input_price,
            "output_price": args.output_price,
            "stream": not args.no_stream,
        }
    return ModelCommandOptions(
        action=action,
        name=_given(args, "name"),
        fields=fields,
        file=_given(args, "file"),
        json=bool(_given(args, "json")),
        config_dir=config_dir,
    )


def _profile_command_options(
    args: argparse.Namespace, command: Sequence[str], config_dir: str | None
) -> ProfileCommandOptions:
    if args.command == "login":
        return LoginOptions(
            name=args.name,
            timeout=args.timeout,
            open_browser=not args.no_browser,
            allow_origins=tuple(args.allow_origin),
            explain=args.explain,
            json=args.json,
            config_dir=config_dir,
        )
    if args.command == "logout":
        return LogoutOptions(name=args.name, json=args.json, explain=args.explain, config_dir=config_dir)
    if args.command == "secret":
        if args.secret_command == "set":
            return SecretSetOptions(
                name=args.name, kind=args.kind, file=args.file, algorithm=args.algorithm, config_dir=config_dir
            )
        return SecretClearOptions(name=args.name, kind=args.kind, config_dir=config_dir)
    if args.profile_command == "list":
        return ProfileListOptions(json=args.json, config_dir=config_dir)
    if args.profile_command == "remove":
        return ProfileRemoveOptions(name=args.name, config_dir=config_dir)
    if args.profile_command == "edit":
        return ProfileEditOptions(
            name=args.name,
            overrides=target_options(args),
            forget_origins=tuple(args.forget_origin),
            oauth=args.oauth,
            oauth_client=oauth_client_options(args),
            config_dir=config_dir,
            tool_approval=args.tool_approval,
        )
    return ProfileAddOptions(
        name=args.name,
        target=target_options(args, command),
        oauth=args.oauth,
        oauth_scopes=tuple(args.oauth_scope),
        oauth_client=oauth_client_options(args),
        config_dir=config_dir,
        tool_approval=args.tool_approval,
    )


def _split_double_dash(argv: list[str]) -> tuple[list[str], list[str]]:
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1 :]
    return argv, []


# --------------------------------------------------------------------------- the grammar


def build_parser() -> argparse.ArgumentParser:
    """The ``workbench`` parser: the window's options, then one subcommand."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--wire",
        metavar="FILE",
        help="write the wire log as JSONL (as it happens), or as HAR 1.2 if FILE ends in .har (HTTP targets only: "
        "a HAR holds HTTP exchanges, with every body whole)",
    )
    common.add_argument("--mode", choices=MCP_MODES, default=None, help="MCP protocol era (default: auto)")
    common.add_argument("--json", action="store_true", help="machine-readable output, one JSON object per line")
    common.add_argument("--stderr", action="store_true", help="show a stdio server's stderr lines")
    common.add_argument(
        "--connect-timeout",
        type=float,
        default=None,
        metavar="S",
        help=f"seconds to connect and discover ({DEFAULT_CONNECT_TIMEOUT:g})",
    )
    add_config_dir_option(common)
    common.add_argument(
        "--timeout",
        type=float,
        default=None,
        metavar="S",
        help="seconds per request, a trickling answer included; for an A2A stream, for its first event and then "
        f"for each next one (default: a saved profile's, {DEFAULT_REQUEST_TIMEOUT:g} s unless it says otherwise; "
        "none for a target given on the command line)",
    )

    parser = argparse.ArgumentParser(
        prog="workbench", description="Explore MCP servers and A2A agents. Without a command: open the window."
    )
    from workbench import __version__

    parser.add_argument("--version", action="version", version=f"workbench {__version__}")
    add_window_options(parser)
    sub = parser.add_subparsers(dest="command")

    inspect = sub.add_parser("inspect", parents=[common], help="show what an agent offers")
    add_target_options(inspect)

    call = sub.add_parser("call", parents=[common], help="call one MCP tool (or A2A skill)")
    add_target_options(call)
    call.add_argument("tool", metavar="TOOL")
    call.add_argument("--args", default="{}", metavar="JSON", help="tool arguments as a JSON object")
    call.add_argument(
        "--no-validate",
        action="store_true",
        help="send --args as given even if they do not fit the tool's input schema (to test the server's checks)",
    )
    call.add_argument(
        "--yes",
        action="store_true",
        help="call a tool that asks first (annotated destructive, or every tool under the profile's "
        "tool_approval=always) without asking; without a terminal such a call is refused unless --yes",
    )
    call.add_argument(
        "--answer",
        action="append",
        default=[],
        metavar="JSON|TEXT|accept|decline|cancel",
        help="answers to the server's questions, in order: a JSON object for a form, TEXT for a completion "
        "(sampling), accept once a URL it asked you to open is done (the call is then retried), decline or cancel",
    )
    add_sampling_options(call)

    send = sub.add_parser("send", parents=[common], help="send a message to an agent and stream the reply")
    add_target_options(send)
    send.add_argument("text", metavar="TEXT")
    send.add_argument(
        "--answer", action="append", default=[], metavar="JSON|TEXT|decline|cancel", help="answers, in order"
    )
    send.add_argument("--data", metavar="JSON", help="A2A: also send this JSON value as a data part")
    send.add_argument("--task-id", help="A2A: continue this task")
    send.add_argument("--context-id", help="A2A: continue this conversation")
    add_sampling_options(send)

    skills = sub.add_parser("skills", help="the skills an MCP server serves (its skills extension)")
    skills_sub = skills.add_subparsers(dest="skills_command", required=True)
    skills_list = skills_sub.add_parser("list", parents=[common], help="list the skills (no skill file is read)")
    add_target_options(skills_list)
    skills_show = skills_sub.add_parser(
        "show", parents=[common], help="print a skill's SKILL.md once its size, digest and frontmatter match its entry"
    )
    add_target_options(skills_show)
    skills_show.add_argument("skill", metavar="NAME", help="the skill's name, or the URI of its SKILL.md")

    add_tasks_commands(sub, common, add_target_options)
    add_profile_commands(sub)
    add_model_commands(sub, add_config_dir_option)

    demo = sub.add_parser("demo", help="start the bundled demo agents (and the window)")
    demo.add_argument("--headless", action="store_true", help="no window: print the agents and serve until Ctrl-C")
    demo.add_argument("--scenario", default=None, help="run a demo scenario")
    demo.add_argument("--json", action="store_true")
    demo.add_argument(
        "--base-port",
        type=int,
        default=None,
        metavar="PORT",
        help="with --headless: the first of the agents' ports (default 47801, so 127.0.0.1:47801-47804; "
        "0: any free ports). A taken port falls back to a free one, and the demo says so",
    )
    add_window_options(demo)
    return parser


def add_window_options(parser: argparse.ArgumentParser) -> None:
    """Options of the window itself (``workbench`` and ``workbench demo``)."""
    parser.add_argument(
        "--smoke-test",
        action="store_true",
        help="open the window, print how long it took to show (its frame) and to be ready, and exit",
    )
    parser.add_argument("--screenshot", metavar="PNG", help="save a picture of the window once it is ready, then exit")
    add_config_dir_option(parser)


def add_target_options(parser: argparse.ArgumentParser, *, with_profile: bool = True) -> None:
    """Add the mutually exclusive protocol/target options (``--stdio`` takes the command after ``--``).

    ``--profile NAME`` (a saved profile, its secrets from the OS keyring) is one of them unless
    ``with_profile`` is False.
    """
    group = parser.add_mutually_exclusive_group(required=True)
    if with_profile:
        group.add_argument("--profile", metavar="NAME", help="a saved profile (see 'workbench profile list')")
    group.add_argument("--mcp", metavar="URL", help="an MCP server over Streamable HTTP")
    group.add_argument("--mcp-sse", metavar="URL", help="an MCP server over the legacy HTTP+SSE transport")
    group.add_argument("--a2a", metavar="URL", help="an A2A agent (base URL or agent card URL)")
    group.add_argument(
        "--stdio", action="store_true", help="an MCP server started as a child process: give its command after --"
    )
    parser.add_argument("--agent-tool", metavar="TOOL", help="MCP: the tool that serves as the agent entry point")
    parser.add_argument(
        "--binding",
        choices=tuple(BINDINGS),
        default=None,
        help="A2A: the protocol binding to use among those the card offers (default: auto, the card's first "
        "HTTP one; grpc needs a2a-sdk[grpc] and its wire log keeps messages, not HTTP/2 frames)",
    )
    parser.add_argument(
        "--a2a-version",
        choices=A2A_VERSIONS,
        default=None,
        help="A2A: the protocol version to speak, using the card's interface of that version "
        "(default: auto, 1.0 when the card offers it)",
    )
    parser.add_argument(
        "--header", action="append", default=[], metavar="K=V", help="HTTP header for every request (repeatable)"
    )
    parser.add_argument(
        "--env", action="append", default=[], metavar="K=V", help="stdio: environment variable for the server"
    )
    parser.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="also send this target's credentials (--header values) to ORIGIN (https://host:port), e.g. where "
        "an agent card points; by default they go only to the URL given (repeatable)",
    )
    parser.add_argument(
        "--max-message-bytes",
        metavar="SIZE",
        help="HTTP: most bytes of one response body or one event, e.g. 64MiB (the default), 128M, 500KB, or none",
    )
    parser.add_argument(
        "--max-stream-bytes",
        metavar="SIZE",
        help="HTTP: most bytes of one event stream answering one request (default 128MiB), or none",
    )
    add_client_options(parser)


def add_oauth_client_options(parser: argparse.ArgumentParser) -> None:
    """``profile add/edit``'s OAuth client (dynamic, pre-registered, CIMD, private key JWT), grant and DPoP."""
    parser.add_argument(
        "--oauth-client-id",
        metavar="ID",
        help="with --oauth, or for an --a2a agent card's OAuth schemes: a client registered out of band",
    )
    secret = parser.add_mutually_exclusive_group()
    secret.add_argument(
        "--oauth-client-secret-from-stdin",
        dest="oauth_client_secret_from",
        action="store_const",
        const="stdin",
        help="read the pre-registered client's secret from standard input (kept in the OS keyring)",
    )
    secret.add_argument(
        "--oauth-client-secret-ask",
        dest="oauth_client_secret_from",
        action="store_const",
        const="ask",
        help="ask for the pre-registered client's secret at a hidden prompt (kept in the OS keyring)",
    )
    parser.add_argument(
        "--oauth-token-auth",
        choices=TOKEN_ENDPOINT_AUTH_METHODS,
        default=None,
        metavar="METHOD",
        help="the pre-registered client's token endpoint auth: client_secret_basic (default), client_secret_post, none",
    )
    parser.add_argument(
        "--oauth-client-metadata-url",
        metavar="URL",
        help="with --oauth: the client's metadata document (CIMD); its https URL is the client id",
    )
    parser.add_argument(
        "--oauth-dynamic-client", action="store_true", help="with --oauth: register dynamically (the default)"
    )
    parser.add_argument(
        "--oauth-redirect-port",
        type=int,
        default=None,
        metavar="PORT",
        help="with --oauth: the loopback redirect port (http://127.0.0.1:PORT/callback) the client is registered with",
    )
    parser.add_argument(
        "--oauth-grant",
        choices=OAUTH_GRANTS,
        default=None,
        help=OAUTH_GRANT_HELP,
    )
    add_oauth_grant_options(parser)
    parser.add_argument(
        "--oauth-client-key-file",
        metavar="PEM",
        help="with --oauth-client-id: a private_key_jwt client's PEM private key file (the profile keeps its path)",
    )
    parser.add_argument(
        "--oauth-client-key-algorithm",
        choices=SIGNING_ALGORITHMS,
        default=None,
        metavar="ALG",
        help="the client key's signature algorithm: RS256, ES256, … (default: the key's usual one)",
    )
    parser.add_argument(
        "--oauth-dpop",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="with --oauth or --a2a: DPoP-bound tokens, proofs signed with the profile's own key (kept in the OS "
        "keyring)",
    )


def oauth_client_options(args: argparse.Namespace) -> OAuthClientOptions:
    """The ``--oauth-client-*`` values of ``profile add/edit``."""
    return OAuthClientOptions(
        client_id=args.oauth_client_id,
        secret_from=args.oauth_client_secret_from,
        token_auth=args.oauth_token_auth,
        metadata_url=args.oauth_client_metadata_url,
        dynamic=args.oauth_dynamic_client,
        redirect_port=args.oauth_redirect_port,
        grant=args.oauth_grant,
        key_file=args.oauth_client_key_file,
        key_algorithm=args.oauth_client_key_algorithm,
        dpop=args.oauth_dpop,
        assertion_file=args.oauth_assertion_file,
        idp_token_endpoint=args.oauth_idp_token_endpoint,
        idp_client_id=args.oauth_idp_client_id,
        id_token_file=args.oauth_id_token_file,
    )


def add_profile_commands(sub: Any) -> None:
    """Register ``profile``, ``secret``, ``login`` and ``logout`` on the top-level subparsers."""
    profile = sub.add_parser("profile", help="saved connection profiles")
    psub = profile.add_subparsers(dest="profile_command", required=True)
    add = psub.add_parser("add", help="save a profile (the protocol is explicit)")
    add.add_argument("name", metavar="NAME")
    add_target_options(add, with_profile=False)
    add.add_argument("--mode", choices=MCP_MODES, default=None, help="MCP protocol era (auto)")
    add.add_argument("--connect-timeout", type=float, default=None, metavar="S")
    add.add_argument("--timeout", type=float, default=None, metavar="S")
    add.add_argument("--oauth", action="store_true", help="MCP over HTTP: log in with OAuth 2.1 (workbench login NAME)")
    add.add_argument("--oauth-scope", action="append", default=[], metavar="SCOPE", help="with --oauth: extra scope")
    add_oauth_client_options(add)
    add_tool_approval_option(add)
    edit = psub.add_parser("edit", help="change a saved profile (only the options given)")
    edit.add_argument("name", metavar="NAME")
    edit.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="also send the profile's credentials to ORIGIN (https://host:port), kept with the profile (repeatable)",
    )
    edit.add_argument(
        "--forget-origin", action="append", default=[], metavar="ORIGIN", help="no longer allow ORIGIN (repeatable)"
    )
    edit.add_argument("--mode", choices=MCP_MODES, default=None, help="MCP protocol era")
    edit.add_argument("--agent-tool", metavar="TOOL", help="MCP: the tool that serves as the agent entry point")
    edit.add_argument("--connect-timeout", type=float, default=None, metavar="S")
    edit.add_argument("--timeout", type=float, default=None, metavar="S")
    edit.add_argument("--max-message-bytes", metavar="SIZE", help="HTTP: most bytes of one response body or event")
    edit.add_argument("--max-stream-bytes", metavar="SIZE", help="HTTP: most bytes of one event stream")
    edit.add_argument("--oauth", action="store_true", help="MCP over HTTP: log in with OAuth 2.1 from now on")
    add_client_options(edit, editing=True)
    add_oauth_client_options(edit)
    add_tool_approval_option(edit)
    add_config_dir_option(edit)
    listing = psub.add_parser("list", help="list saved profiles")
    listing.add_argument("--json", action="store_true")
    remove = psub.add_parser("remove", help="delete a profile and forget its secrets")
    remove.add_argument("name", metavar="NAME")

    secret = sub.add_parser("secret", help="secrets of a profile, kept in the OS keyring")
    ssub = secret.add_subparsers(dest="secret_command", required=True)
    sset = ssub.add_parser("set", help="store a secret (value read from standard input)")
    sset.add_argument("name", metavar="NAME")
    sset.add_argument(
        "kind",
        metavar="KIND",
        help="bearer | api-key[:HEADER] | header:NAME | env:NAME | query:PARAM | cookie:NAME | "
        + " | ".join(OAUTH_SECRET_KINDS),
    )
    add_secret_file_options(sset)
    sclear = ssub.add_parser("clear", help="forget a profile's secrets (all, or one kind)")
    sclear.add_argument("name", metavar="NAME")
    sclear.add_argument("kind", metavar="KIND", nargs="?")

    for leaf in (add, listing, remove, sset, sclear):
        add_config_dir_option(leaf)
    login = sub.add_parser(
        "login", help="log in to a saved profile's OAuth-protected MCP server, or its A2A agent card's OAuth schemes"
    )
    login.add_argument("name", metavar="NAME")
    login.add_argument("--no-browser", action="store_true", help="only print the authorization URL; open it yourself")
    login.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_LOGIN_TIMEOUT,
        metavar="S",
        help=f"seconds to finish the login ({DEFAULT_LOGIN_TIMEOUT:g})",
    )
    login.add_argument("--json", action="store_true", help="one JSON object per auth step, then the result")
    login.add_argument(
        "--explain",
        action="store_true",
        help="show each step as it happens: its requests and answers (tokens ***), what was checked, "
        "and on failure why and what to change",
    )
    login.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="for this login, also send the profile's credentials to ORIGIN (saved ones: profile edit)",
    )
    logout = sub.add_parser("logout", help="revoke and forget the OAuth tokens of a saved profile (A2A: forget)")
    logout.add_argument("name", metavar="NAME")
    logout.add_argument("--json", action="store_true", help="one JSON object per auth step, then the result")
    logout.add_argument(
        "--explain",
        action="store_true",
        help="show the revocation step: its requests and answers (tokens ***) and what was checked",
    )
    for leaf in (login, logout):
        add_config_dir_option(leaf)


def add_config_dir_option(parser: argparse.ArgumentParser) -> None:
    """``--config-dir DIR`` after a subcommand too (``workbench --config-dir DIR …`` works as well).

    Its default is no attribute at all, so that a value given before the subcommand is kept.
    """
    parser.add_argument(
        "--config-dir", metavar="DIR", default=argparse.SUPPRESS, help="where profiles and window settings live"
    )
