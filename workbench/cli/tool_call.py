"""``workbench call``: one tool call streamed to the terminal, retried after a URL the server requires.

An MCP server may refuse a call with error -32042 ("URL elicitation required"): the user must first
open a URL (a login, a consent page) and then retry. The URL is shown in text and JSON output alike;
once the user says it is done (``--answer accept`` or ``y`` on the terminal) the same call is sent
again, at most ``MAX_URL_RETRIES`` times.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from workbench.cli.answers import AnswerBook
from workbench.cli.render import HumanPrinter, print_json, tool_result_human
from workbench.cli.terminal import STDERR
from workbench.cli.tool_arguments import check_arguments
from workbench.core.errors import ConfigError, WorkbenchError
from workbench.core.protocols.base import Completed, ElicitationRequest, Failed, TextDelta
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.tool_approval import DEFAULT_POLICY, ToolApprovalPolicy, ToolCallGate, ToolCallRequest

URL_ELICITATION_REQUIRED = -32042
"""The MCP error code of a call that needs the user to visit a URL first."""
MAX_URL_RETRIES = 3
EXIT_OK, EXIT_FAILED = 0, 1


def required_urls(error: BaseException | None, agent: str = "") -> list[ElicitationRequest]:
    """The URL elicitations a -32042 error carries (empty for any other error)."""
    if not isinstance(error, WorkbenchError) or error.details.get("remote_code") != URL_ELICITATION_REQUIRED:
        return []
    data = error.details.get("remote_data")
    items = data.get("elicitations") if isinstance(data, dict) else None
    out = []
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict) and isinstance(item.get("url"), str):
            message = item.get("message")
            out.append(
                ElicitationRequest(
                    mode="url",
                    message=message if isinstance(message, str) else error.message,
                    url=item["url"],
                    elicitation_id=item.get("elicitationId") if isinstance(item.get("elicitationId"), str) else None,
                    agent=agent,
                )
            )
    return out


def with_files(spec_schema: dict[str, Any] | None, arguments: dict[str, Any], files: Sequence[str]) -> dict[str, Any]:
    """``arguments`` with each ``FIELD=PATH`` of ``files`` read into FIELD as its schema asks.

    A field takes a file when its schema says ``format: data-url``, ``contentEncoding: base64`` or
    ``contentMediaType`` (``workbench.core.file_inputs``); the file is read up to the size it allows.

    Raises:
        ConfigError: Not ``FIELD=PATH``, a field the tool does not have or that takes no file, or a file that
            cannot fill it (missing, too big, not text where text is asked for).
    """
    from workbench.core.file_inputs import file_input_spec, read_file_input

    properties = (spec_schema or {}).get("properties") or {}
    out = dict(arguments)
    for given in files:
        field, sep, path = given.partition("=")
        if not sep or not field or not path:
            raise ConfigError(f"--file takes FIELD=PATH, not {given!r}.")
        schema = properties.get(field)
        if not isinstance(schema, dict):
            raise ConfigError(
                f"The tool has no argument {field!r} to fill from a file.", hint="see 'workbench inspect'"
            )
        file_spec = file_input_spec(schema)
        if file_spec is None:
            raise ConfigError(
                f"The argument {field!r} takes no file (its schema names no data-url format, encoding or media type).",
                hint="pass its value in --args",
            )
        out[field] = read_file_input(path, file_spec).value
    return out


async def call_tool(
    agent: RemoteAgent,
    tool: str,
    arguments: dict[str, Any],
    *,
    book: AnswerBook,
    as_json: bool,
    target: Sequence[str] | None = None,
    validate: bool = True,
    policy: ToolApprovalPolicy = DEFAULT_POLICY,
    approved: bool = False,
) -> int:
    """Call ``tool`` and print its events; returns the exit code (0 done, 1 failed or ``is_error``).

    ``target`` is the command line's target options (as arguments), repeated in the command that continues a task
    the call left waiting (an A2A skill that asks for input). With ``validate`` the arguments are
    checked against the input schema an MCP tool declares before anything is sent. A tool that
    ``policy`` says asks first (a destructive one, by default) is asked about on the terminal, unless
    ``approved`` (``--yes``); without a terminal it is refused.

    Raises:
        NotFoundError: The agent has no such tool (the error lists those it has).
        ConfigError: The arguments do not fit the tool's input schema; nothing was sent.
        ToolCallDeniedError: The call needed a yes and did not get one; nothing was sent.
    """
    spec = agent.tools[tool].spec  # NotFoundError listing the tools (skills) there are
    if not approved:
        asked = ToolCallRequest(agent.name, spec, dict(arguments), caller="cli")
        await ToolCallGate(book.approve_tool_call).check(asked, policy)
    # only a schema the peer declared (an A2A skill's is the workbench's own: message text, any data)
    declared = spec.kind == "tool"
    if validate and declared and (warning := check_arguments(tool, spec.input_schema, arguments)) is not None:
        print(f"[workbench] warning: {warning}", file=STDERR, flush=True)
    for attempt in range(MAX_URL_RETRIES + 1):
        status, urls = await _call_once(agent, tool, arguments, as_json=as_json, target=target)
        if not urls or attempt == MAX_URL_RETRIES:
            return status
        for request in urls:
            if not await book.consent_to_url(request):
                return status
    return EXIT_FAILED  # not reached: the last attempt returns


async def _call_once(
    agent: RemoteAgent, tool: str, arguments: dict[str, Any], *, as_json: bool, target: Sequence[str] | None
) -> tuple[int, list[ElicitationRequest]]:
    # An A2A skill gets its 'message' as text and the other arguments as a data part.
    full_results = agent.features.tool_results
    status = EXIT_OK
    human = HumanPrinter(target=target)
    urls: list[ElicitationRequest] = []
    async for event in agent.call_tool_stream(tool, arguments):
        if isinstance(event, Failed):
            status = EXIT_FAILED
            urls = required_urls(event.error, event.agent)
        elif isinstance(event, Completed) and event.result.is_error:
            status = EXIT_FAILED
        if as_json:
            print_json(event.to_dict())
        elif urls:
            pass  # the answer book shows the message and the URL when it asks to retry
        elif isinstance(event, Completed) and event.result.tool_result is not None:
            tool_result_human(event.result.tool_result)
        elif not (isinstance(event, TextDelta) and full_results):
            human.event(event)  # an MCP tool's text is printed once, with the rest of its result
    return status, urls
