"""``inspect``, ``call`` and ``send``: build the agent for a target, run the command, print what happened."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from typing import TYPE_CHECKING, Any, TextIO

from workbench.cli.answers import AnswerBook
from workbench.cli.options import (
    AgentCommandOptions,
    CallOptions,
    SendOptions,
    SkillsListOptions,
    SkillsShowOptions,
    TargetOptions,
    TasksOptions,
)
from workbench.cli.render import HumanPrinter, describe_human, print_error, print_json
from workbench.cli.targets import TargetSpec, target_spec
from workbench.cli.tool_call import call_tool, with_files
from workbench.core.errors import ConfigError, NotFoundError, WorkbenchError
from workbench.core.events import EventBus, ServerStderrLine
from workbench.core.protocols.base import Completed, Failed, SamplingHandler
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.shell_quote import command_line
from workbench.core.tool_approval import policy_of
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import WireRecord

if TYPE_CHECKING:
    from workbench.cli.logs import DebugLogHandler
    from workbench.cli.run_credentials import RunCredentialStore
    from workbench.core.agent_factory import AgentHandlers
    from workbench.core.profiles import ConnectionProfile

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2


def run_agent_command(options: AgentCommandOptions, debug_log: DebugLogHandler) -> int:
    """Run ``inspect``, ``call`` or ``send`` as parsed; returns the exit code.

    Args:
        options: The command's options (``InspectOptions``, ``CallOptions`` or ``SendOptions``).
        debug_log: Where this run's log records went (named on failure).
    """
    as_json = options.output.json
    try:
        spec, profile = _target(options)
        _check_usage(options, spec.protocol if spec is not None else profile.kind if profile is not None else "")
    except (ConfigError, NotFoundError) as exc:
        print_error(exc, as_json=as_json)
        return EXIT_USAGE
    try:
        code = asyncio.run(_run(options, spec, profile))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:  # the reader went away (| head): no traceback, no second error at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 141
    if code != EXIT_OK and debug_log.records and not as_json:
        print(f"[workbench] more in the debug log: {debug_log.path}", file=sys.stderr)
    return code


def _target(options: AgentCommandOptions) -> tuple[TargetSpec | None, ConnectionProfile | None]:
    """The ad-hoc target, or the saved profile with this run's options laid over it (one of the two)."""
    target = options.target
    if not target.profile:
        return target_spec(target), None
    if target.command:
        raise ConfigError("Arguments after '--' are only for --stdio; a profile has its command saved.")
    from workbench.cli.profile_overrides import load_profile

    return None, load_profile(target, options.config_dir)


async def _run(options: AgentCommandOptions, spec: TargetSpec | None, profile: ConnectionProfile | None) -> int:
    output = options.output
    wire = WireRecorder()
    wire_file: TextIO | None = None
    as_har = wants_har(output.wire)
    if output.wire and not as_har:
        # Opened once, before any traffic; every record is appended as it happens (survives a crash).
        wire_file = open(output.wire, "w", encoding="utf-8")  # noqa: SIM115, ASYNC230 - closed in finally

        def append(record: WireRecord) -> None:
            wire_file.write(json.dumps(record.to_dict(), ensure_ascii=False) + "\n")

        wire.subscribe(append)
    bus = EventBus()
    if output.stderr and not output.json:
        bus.subscribe(ServerStderrLine, lambda e: print(f"[server stderr] {e.line}", file=sys.stderr))
    answers = options.answers if isinstance(options, CallOptions | SendOptions | TasksOptions) else ()
    book = AnswerBook(list(answers), interactive=sys.stdin.isatty() and not output.json)
    from workbench.core.agent_factory import AgentHandlers

    sampling: SamplingHandler = book.sampling
    if (options.sampling, options.sampling_policy) != ("person", "auto"):  # only call and send set them
        from workbench.cli.sampling_cli import sampling_handler

        try:
            sampling = await sampling_handler(
                options.sampling, options.sampling_policy, book.sampling, book.approve_sampling, options.config_dir
            )
        except WorkbenchError as exc:
            print_error(exc, as_json=output.json)
            return EXIT_USAGE if isinstance(exc, ConfigError | NotFoundError) else EXIT_FAILED
    handlers = AgentHandlers(elicitation=book.elicitation, sampling=sampling, input=book.input)
    store: RunCredentialStore | None = None
    try:
        if spec is not None:
            agent = await _target_agent(spec, wire=wire, bus=bus, handlers=handlers)
        else:
            assert profile is not None
            agent, store = await _profile_agent(profile, wire=wire, bus=bus, handlers=handlers)
    except WorkbenchError as exc:
        print_error(exc, as_json=output.json)
        return EXIT_USAGE if isinstance(exc, ConfigError | NotFoundError) else EXIT_FAILED
    try:
        await agent.connect()
        for warning in agent.capabilities.extra.get("warnings") or []:  # e.g. a URL whose path had no card
            print(f"[workbench] warning: {warning}", file=sys.stderr)
        if output.wire and agent.capabilities.transport == "GRPC":
            kept = "only the agent card's HTTP fetch" if as_har else "each gRPC message decoded as JSON"
            print(f"[workbench] gRPC binding: the wire log keeps {kept}, not HTTP/2 frames or headers", file=sys.stderr)
        if isinstance(options, CallOptions):
            arguments = _json_value(options.arguments, "--args")
            try:
                if options.files:
                    tool_spec = agent.tools[options.tool].spec  # NotFoundError listing the tools there are
                    arguments = with_files(tool_spec.input_schema, arguments, options.files)
                status = await call_tool(
                    agent,
                    options.tool,
                    arguments,
                    book=book,
                    as_json=output.json,
                    target=_target_arguments(options.target),
                    validate=options.validate,
                    policy=policy_of(profile),
                    approved=options.yes,
                )
            except (ConfigError, NotFoundError) as exc:  # no such tool, --args that do not fit: nothing sent
                print_error(exc, as_json=output.json)
                return EXIT_USAGE
        elif isinstance(options, SendOptions):
            status = await _send(agent, options)
        elif isinstance(options, SkillsListOptions | SkillsShowOptions):
            from workbench.cli.skills import run_skills

            return await run_skills(agent, options)
        elif isinstance(options, TasksOptions):
            from workbench.cli.tasks import run_tasks

            status = await run_tasks(agent, options)
        else:
            return _inspect(agent, as_json=output.json, wire=wire)
        if book.unused:
            print(f"[workbench] warning: {_answers(book.unused)} not used (nothing asked for it)", file=sys.stderr)
        if book.problems:  # an --answer that did not fit: the request was cancelled, nothing invalid sent
            print_error(book.problems[0], as_json=output.json)
            return EXIT_USAGE
        return status
    except WorkbenchError as exc:
        print_error(exc, as_json=output.json)
        return EXIT_USAGE if _named_a_missing_tool(exc) else EXIT_FAILED
    finally:
        await agent.aclose()
        if store is not None and store.unstored and not output.json:
            assert options.target.profile is not None
            store_it = command_line("workbench", "secret", "set", options.target.profile)
            print(
                f"[workbench] no keyring: the credential you gave was used for this run and not stored "
                f"(store it with: {store_it} bearer|api-key[:HEADER])",
                file=sys.stderr,
            )
        if wire_file is not None:
            wire_file.close()
        if as_har:  # HAR is one JSON document: written when the session is over
            assert output.wire is not None
            wire.export_har(output.wire)


async def _target_agent(spec: TargetSpec, *, wire: WireRecorder, bus: EventBus, handlers: AgentHandlers) -> RemoteAgent:
    """The agent for an ad-hoc target: a transient profile through the same factory as saved ones.

    Raises:
        ConfigError: A value no profile can hold (a timeout out of range, a bad URL).
    """
    from pydantic import ValidationError

    from workbench.cli.transient import transient_profile
    from workbench.core.agent_factory import build_agent
    from workbench.core.profiles import validation_details

    try:
        profile = transient_profile(spec)
    except ValidationError as exc:
        first = validation_details(exc)[0]
        raise ConfigError(f"{'.'.join(first['loc'])}: {first['msg']}", details={"errors": [first]}) from None
    # no keyring: the command line's own values only (an A2A agent's 401 asks the answer book)
    return await build_agent(profile, wire=wire, bus=bus, handlers=handlers, peer_names_itself=True)


async def _profile_agent(
    profile: ConnectionProfile, *, wire: WireRecorder, bus: EventBus, handlers: AgentHandlers
) -> tuple[RemoteAgent, RunCredentialStore]:
    """The agent for a saved profile, its secrets from the keyring (answers kept for the run without one)."""
    from workbench.cli.run_credentials import RunCredentialStore
    from workbench.core.agent_factory import build_agent
    from workbench.core.credentials import KeyringCredentialStore

    keyring = KeyringCredentialStore()
    store = RunCredentialStore(keyring)
    agent = await build_agent(
        profile,
        wire=wire,
        bus=bus,
        handlers=handlers,
        resolve_secret=keyring.resolve if profile.secrets else None,  # no keyring: says so, names the fix
        credentials=store,  # OAuth tokens (MCP) and A2A security-scheme credentials
    )
    return agent, store


def _inspect(agent: RemoteAgent, *, as_json: bool, wire: WireRecorder) -> int:
    from workbench.cli.capabilities import client_capabilities

    info = agent.describe().to_dict()
    declared = client_capabilities(wire.records())  # as the client declared them on the wire (MCP's handshake)
    if declared is not None:
        info["client_capabilities"] = declared
    if as_json:
        print_json(info)
    else:
        describe_human(info)
    return EXIT_OK


def _named_a_missing_tool(exc: WorkbenchError) -> bool:
    """Whether ``send --agent-tool NAME`` named a tool the server does not have (bad usage, like ``call NAME``)."""
    return exc.details.get("problem") == "no-entry-point" and bool(exc.details.get("agent_tool"))


HEADER_PLACEHOLDER = "…"
"""What a printed command shows for a ``--header`` value (the user fills it in)."""


def _target_arguments(options: TargetOptions) -> list[str] | None:
    """The options naming this command's target as arguments, to repeat in a hint (``None`` for stdio).

    Printed with ``shell_quote.command_line``; every ``--header`` value is a credential and shows as
    ``NAME=…``.
    """
    if options.profile:
        target = ["--profile", options.profile]
    elif options.a2a:
        target = ["--a2a", options.a2a]
    else:
        return None
    # the task is continued the way it was started (the same interface of the card)
    for option, value in (("--binding", options.binding), ("--a2a-version", options.a2a_version)):
        if value is not None:
            target += [option, value]
    for origin in options.allow_origins:
        target += ["--allow-origin", origin]
    for header in options.headers:
        target += ["--header", f"{header.split('=', 1)[0]}={HEADER_PLACEHOLDER}"]
    return target


def _check_usage(options: AgentCommandOptions, protocol: str) -> None:
    """Refuse a malformed command before anything is started or connected (exit 2).

    Raises:
        ConfigError: ``--args`` is not a JSON object, ``--data`` is not JSON or is given for an
            MCP target, ``skills`` names an A2A agent, or ``--wire`` names a file that cannot be
            written (or a HAR for stdio).
    """
    if isinstance(options, CallOptions):
        arguments = _json_value(options.arguments, "--args")
        if not isinstance(arguments, dict):
            hint = 'for example --args \'{"text": "hi"}\''
            raise ConfigError("--args must be a JSON object.", hint=hint, details={"args": options.arguments})
    if isinstance(options, SkillsListOptions | SkillsShowOptions) and protocol == "a2a":
        raise ConfigError(
            "Skills are served by MCP servers.", hint="give an MCP target: --mcp URL, --stdio or --profile"
        )
    if isinstance(options, TasksOptions) and protocol == "a2a":
        raise ConfigError(
            "'workbench tasks' speaks MCP tasks.",
            hint="give an MCP target: --mcp URL, --stdio or --profile; an A2A task continues with send --task-id",
        )
    if isinstance(options, SendOptions) and options.data is not None:
        _json_value(options.data, "--data")
        if protocol != "a2a":
            hint = "an MCP tool takes its arguments with: call TOOL --args JSON"
            raise ConfigError("--data is for A2A agents.", hint=hint)
    wire = options.output.wire
    if wire:
        check_wire_format(wire, protocol)
        try:
            with open(wire, "a", encoding="utf-8"):
                pass
        except OSError as exc:
            raise ConfigError(
                f"The wire log cannot be written to {wire!r}: {exc.strerror or exc}.",
                hint="choose a file in a folder you can write to",
                details={"wire": str(wire)},
            ) from None


def wants_har(wire: str | None) -> bool:
    """Whether ``--wire FILE`` asks for HAR 1.2 (the name ends in ``.har``) rather than JSON Lines."""
    return bool(wire) and str(wire).lower().endswith(".har")


def check_wire_format(wire: str, protocol: str) -> None:
    """Refuse ``--wire x.har`` for a stdio server: HAR holds HTTP exchanges, and stdio has none.

    Raises:
        ConfigError: The file would be a HAR with no entries.
    """
    if protocol == "mcp-stdio" and wants_har(wire):
        raise ConfigError(
            "A HAR file holds HTTP exchanges only; a stdio server has none, so it would be empty.",
            hint="write the wire log as JSON Lines instead: --wire session.jsonl",
            details={"wire": str(wire)},
        )


def _answers(count: int) -> str:
    return "1 --answer value was" if count == 1 else f"{count} --answer values were"


def _json_value(text: str, option: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise ConfigError(f"{option} is not valid JSON: {exc.msg} at column {exc.colno}.") from None


async def _send(agent: RemoteAgent, options: SendOptions) -> int:
    kwargs: dict[str, Any] = {}
    if options.task_id:
        kwargs["task_id"] = options.task_id
    if options.context_id:
        kwargs["context_id"] = options.context_id
    if options.data:
        if not agent.features.message_data:
            raise ConfigError("--data is for A2A agents (MCP agents take --args with 'call').")
        kwargs["data"] = _json_value(options.data, "--data")
    status = EXIT_OK
    human = HumanPrinter(target=_target_arguments(options.target))
    async for event in agent.stream_async(options.text, **kwargs):
        if options.output.json:
            print_json(event.to_dict())
        else:
            human.event(event)
        if isinstance(event, Failed) or (isinstance(event, Completed) and event.result.is_error):
            status = EXIT_FAILED
    return status
