"""The command line reads argparse's namespace once, in ``workbench.cli.parser``, into typed options.

Structural checks over the source (nothing outside the parser reads the namespace or takes it as a
parameter, but two deprecated adapters for parsers of one's own) and what the parser builds: the
typed options of each command, ``--config-dir`` on either side of the subcommand, and the defaults
that come from the core.
"""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from workbench.cli import options as options_module
from workbench.cli.options import (
    CallOptions,
    DemoOptions,
    InspectOptions,
    LimitOptions,
    LoginOptions,
    ProfileAddOptions,
    ProfileEditOptions,
    SecretClearOptions,
    SendOptions,
    TargetOptions,
    TimeoutOptions,
    WindowOptions,
)
from workbench.cli.parser import parse_command_line
from workbench.cli.targets import target_spec
from workbench.core.profiles import MCPHTTPProfile
from workbench.core.timeouts import DEFAULT_CONNECT_TIMEOUT, DEFAULT_LOGIN_TIMEOUT, DEFAULT_REQUEST_TIMEOUT

PACKAGE = Path(__file__).resolve().parents[2] / "workbench"
PARSER = PACKAGE / "cli" / "parser.py"
NAMESPACE_ADAPTERS = {("cli/targets.py", "target_from_args"), ("cli/profile_overrides.py", "with_overrides")}
"""Deprecated functions that take a namespace from a parser of one's own (the CLI never calls them)."""


def _sources() -> list[tuple[str, ast.Module]]:
    """The command line's modules and the package's top-level ones (the demo servers' own ``__main__``s aside)."""
    paths = [*sorted((PACKAGE / "cli").rglob("*.py")), *sorted(PACKAGE.glob("*.py"))]
    return [
        (path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(encoding="utf-8")))
        for path in paths
        if path != PARSER
    ]


def _is_namespace(annotation: ast.expr | None) -> bool:
    return annotation is not None and "Namespace" in ast.unparse(annotation)


def test_no_module_but_the_parser_reads_the_namespace_with_getattr() -> None:
    found = [
        f"{name}:{node.lineno}"
        for name, tree in _sources()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and node.args
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == "args"
    ]
    assert found == []


def test_no_function_but_the_deprecated_adapters_takes_a_namespace_outside_the_parser() -> None:
    takers = {
        (name, node.name)
        for name, tree in _sources()
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
        and any(_is_namespace(arg.annotation) for arg in [*node.args.args, *node.args.kwonlyargs])
    }
    assert takers == NAMESPACE_ADAPTERS


def test_the_command_line_never_calls_the_deprecated_adapters() -> None:
    adapters = {function for _, function in NAMESPACE_ADAPTERS}
    calls = [
        f"{name}:{node.lineno}"
        for name, tree in _sources()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in adapters
    ]
    assert calls == []


def test_every_option_object_is_frozen() -> None:
    classes = [value for value in vars(options_module).values() if dataclasses.is_dataclass(value)]
    assert len(classes) > 10
    for cls in classes:
        assert cls.__dataclass_params__.frozen, cls.__name__  # type: ignore[union-attr]


def test_call_parses_into_call_options_with_its_target_and_output() -> None:
    options = parse_command_line(
        [
            "call",
            "echo",
            "--mcp",
            "http://127.0.0.1:9/mcp",
            "--args",
            '{"text": "hi"}',
            "--answer",
            "decline",
            "--no-validate",
            "--json",
            "--wire",
            "w.jsonl",
            "--header",
            "X-A=1",
            "--max-message-bytes",
            "1MiB",
            "--timeout",
            "5",
        ]
    )
    assert isinstance(options, CallOptions)
    assert (options.tool, options.arguments, options.answers, options.validate) == (
        "echo",
        '{"text": "hi"}',
        ("decline",),
        False,
    )
    assert (options.output.json, options.output.wire, options.output.stderr) == (True, "w.jsonl", False)
    target = options.target
    assert (target.mcp, target.headers, target.command) == ("http://127.0.0.1:9/mcp", ("X-A=1",), ())
    assert target.limits == LimitOptions(max_message_bytes="1MiB")
    assert target.timeouts == TimeoutOptions(request=5.0)


def test_what_follows_the_double_dash_is_the_stdio_command() -> None:
    options = parse_command_line(["inspect", "--stdio", "--env", "A=1", "--", "python", "server.py", "--flag"])
    assert isinstance(options, InspectOptions)
    assert options.target.stdio and options.target.command == ("python", "server.py", "--flag")
    assert options.target.env == ("A=1",)


def test_send_parses_its_a2a_options() -> None:
    options = parse_command_line(
        ["send", "hello", "--a2a", "http://127.0.0.1:9", "--binding", "jsonrpc", "--task-id", "t1", "--data", "[1]"]
    )
    assert isinstance(options, SendOptions)
    assert (options.text, options.task_id, options.context_id, options.data) == ("hello", "t1", None, "[1]")
    assert (options.target.a2a, options.target.binding, options.target.a2a_version) == (
        "http://127.0.0.1:9",
        "jsonrpc",
        None,
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["--config-dir", "/cfg", "profile", "list"],
        ["profile", "list", "--config-dir", "/cfg"],
        ["--config-dir", "/cfg", "inspect", "--mcp", "http://127.0.0.1:9/mcp"],
        ["inspect", "--mcp", "http://127.0.0.1:9/mcp", "--config-dir", "/cfg"],
        ["--config-dir", "/cfg", "login", "p"],
        ["logout", "p", "--config-dir", "/cfg"],
        ["secret", "clear", "p", "--config-dir", "/cfg"],
        ["--config-dir", "/cfg", "demo", "--headless"],
        ["--config-dir", "/cfg"],
    ],
)
def test_config_dir_is_read_before_or_after_the_subcommand(argv: list[str]) -> None:
    options = parse_command_line(argv)
    config_dir = options.window.config_dir if isinstance(options, DemoOptions) else options.config_dir
    assert config_dir == "/cfg"


def test_config_dir_not_given_is_none() -> None:
    assert parse_command_line(["profile", "list"]).config_dir is None
    assert parse_command_line([]) == WindowOptions()


def test_profile_commands_parse_into_their_options() -> None:
    add = parse_command_line(
        ["profile", "add", "p", "--mcp", "http://127.0.0.1:9/mcp", "--oauth", "--connect-timeout", "7"]
    )
    assert isinstance(add, ProfileAddOptions)
    assert (add.name, add.oauth, add.target.mcp, add.target.timeouts.connect) == (
        "p",
        True,
        "http://127.0.0.1:9/mcp",
        7.0,
    )
    edit = parse_command_line(["profile", "edit", "p", "--forget-origin", "https://a:443", "--timeout", "3"])
    assert isinstance(edit, ProfileEditOptions)
    assert (edit.forget_origins, edit.overrides.timeouts) == (("https://a:443",), TimeoutOptions(request=3.0))
    clear = parse_command_line(["secret", "clear", "p"])
    assert clear == SecretClearOptions(name="p", kind=None)


def test_login_waits_the_cores_default_unless_told() -> None:
    login = parse_command_line(["login", "p", "--no-browser"])
    assert isinstance(login, LoginOptions)
    assert (login.timeout, login.open_browser) == (DEFAULT_LOGIN_TIMEOUT, False)
    told = parse_command_line(["login", "p", "--timeout", "12"])
    assert isinstance(told, LoginOptions) and told.timeout == 12.0


def test_an_ad_hoc_target_connects_within_the_same_default_as_a_saved_profile() -> None:
    spec = target_spec(TargetOptions(mcp="http://127.0.0.1:9/mcp"))
    assert (
        spec.connect_timeout == DEFAULT_CONNECT_TIMEOUT == MCPHTTPProfile(name="m", url="http://h/mcp").connect_timeout
    )
    assert MCPHTTPProfile(name="m", url="http://h/mcp").request_timeout == DEFAULT_REQUEST_TIMEOUT
