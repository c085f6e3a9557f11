"""The command line's grammar (argparse) and the one place its namespace is read, into ``options`` objects.

``parse_command_line`` turns ``argv`` into the typed options of one command; nothing else in the
command line sees argparse's namespace. Targets: ``--mcp URL`` (Streamable HTTP), ``--mcp-sse URL``,
``--a2a URL``, ``--stdio`` with the server command after ``--``, or ``--profile NAME``.
``--config-dir DIR`` is accepted before the subcommand and after it.

Only argparse and the option types are imported here (no pydantic, no SDK, no asyncio): the window
starts through this module.

The grammar of the target options and of the profile commands is in ``target_parser`` and
``profile_parser``; the namespace is read here only.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from workbench.cli.client_options import ClientOptions
from workbench.cli.options import (
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
from workbench.cli.profile_parser import add_profile_commands
from workbench.cli.sampling_cli import ModelCommandOptions, add_model_commands, add_sampling_options
from workbench.cli.target_parser import add_config_dir_option, add_target_options
from workbench.cli.tasks_parser import add_tasks_commands
from workbench.core.timeouts import DEFAULT_CONNECT_TIMEOUT, DEFAULT_REQUEST_TIMEOUT


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
            files=tuple(args.file),
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
        "--file",
        action="append",
        default=[],
        metavar="FIELD=PATH",
        help="fill the argument FIELD from a file, as its schema asks (a data: URL, base64 or text; repeatable)",
    )
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
