"""Every command line the CLI prints for a person to run reads back, pasted into a shell, as exactly its arguments.

The values come from a loopback A2A agent (tests/servers/a2a_hostile_ids.py) that chooses its task and
context ids, or its interface's host, to escape a shell: ``;``, ``$(…)``, backticks, quotes, newlines.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import pytest

from tests.servers.a2a_hostile_ids import hostile_ids_app
from tests.servers.oauth_as import serve_oauth_protected_mcp
from tests.support.cli_profiles import cli_env, workbench
from tests.support.cli_runner import run_workbench
from tests.support.shell import bash_commands
from workbench.core.serving import serve_asgi

pytestmark = pytest.mark.asyncio
CONTINUE = "continue it with:"
PLANTED = "\nworkbench send --a2a http://attacker.example/ 'planted'"
HOSTILE_IDS = [
    pytest.param("x; touch pwned-task;", "$(touch pwned-context)", id="semicolon-and-substitution"),
    pytest.param('`touch pwned` it\'s "quoted"', "a b\\c", id="backticks-and-quotes"),
    pytest.param(f"task-1{PLANTED}", "\x1b]0;retitled\x07ctx\r", id="newline-and-escapes"),
]


def assert_pasting_runs_only(text: str, intended: list[str], cwd: Path) -> None:
    """``text`` pasted into bash runs the one command ``intended`` and nothing else (no file appears)."""
    assert bash_commands(text, cwd=cwd) == [intended]
    assert list(cwd.iterdir()) == []


def _line_after(err: str, marker: str) -> str:
    """The one line printed after the line that ends with ``marker``."""
    lines = err.splitlines()
    [at] = [n for n, line in enumerate(lines) if line.endswith(marker)]
    return lines[at + 1].strip()


@pytest.mark.parametrize(("task_id", "context_id"), HOSTILE_IDS)
async def test_the_command_that_continues_a_task_reads_back_as_its_arguments_whatever_ids_the_agent_chose(
    task_id: str, context_id: str, tmp_path: Path
) -> None:
    received: list[dict[str, Any]] = []
    async with serve_asgi(hostile_ids_app(task_id, context_id, received=received)) as url:
        code, _, err = await run_workbench("send", "--a2a", url, "--header", "X-Trace=run-1", "hi")
        assert code == 0, err
        line = _line_after(err, CONTINUE)
        intended = [
            "workbench", "send", "--a2a", url, "--header", "X-Trace=…",
            "--task-id", task_id, "--context-id", context_id, "YOUR ANSWER",
        ]  # fmt: skip
        assert_pasting_runs_only(line, intended, tmp_path)
        assert "run-1" not in err  # a --header value is never printed
        assert not any(shown.strip().startswith("workbench send --a2a http://attacker") for shown in err.splitlines())
        if "\n" not in task_id + context_id and "\x1b" not in context_id:
            assert shlex.split(line) == intended
        # pasted (the header's value filled in), the command continues the agent's task
        argv = [("X-Trace=run-1" if word == "X-Trace=…" else word) for word in intended[1:-1]]
        code, _, err = await run_workbench(*argv, "my answer", "--json")
    assert code == 0, err
    assert (received[-1]["taskId"], received[-1]["contextId"]) == (task_id, context_id)


async def test_an_allow_origin_hint_for_a_hostile_host_reads_back_as_one_argument(tmp_path: Path) -> None:
    hostile = "http://evil;$(touch${IFS}pwned)`touch${IFS}pwned2`'q':9/"
    async with serve_asgi(hostile_ids_app("t", "c", interface_url=hostile)) as url:
        argv = ("send", "--a2a", url, "--header", "X-Api-Key=s3cret-value", "hi")
        code, out, _ = await run_workbench(*argv, "--json")
        assert code == 1
        [failed] = [json.loads(line) for line in out.splitlines() if '"failed"' in line]
        origin = failed["error"]["details"]["origin"]
        assert failed["error"]["code"] == "credential-origin" and origin.startswith("http://evil;")
        code, _, err = await run_workbench(*argv)
    assert code == 1
    [hint] = [line for line in err.splitlines() if "--allow-origin" in line]
    options = hint.split("add: ", 1)[1]
    assert_pasting_runs_only(f"workbench {options}", ["workbench", "--allow-origin", origin], tmp_path)
    assert shlex.split(options) == ["--allow-origin", origin]
    assert "s3cret-value" not in err


async def test_the_ids_of_a_task_that_ended_unanswered_are_shown_on_one_line() -> None:
    async with serve_asgi(hostile_ids_app(f"t{PLANTED}", "c\nsecond", state="TASK_STATE_REJECTED")) as url:
        _, _, err = await run_workbench("send", "--a2a", url, "hi")
    assert not any(line.startswith("workbench ") for line in err.splitlines()), err
    [note] = [line for line in err.splitlines() if line.startswith("[rejected]")]
    assert "task=" in note and "context=" in note and "planted" in note and "second" in note


async def test_the_login_hint_names_a_profile_a_shell_would_split_as_one_argument(tmp_path: Path) -> None:
    env, name = cli_env(tmp_path), "notes; touch pwned $(touch pwned2) `id`"
    async with serve_oauth_protected_mcp() as servers:
        code, _, err = await workbench(env, "profile", "add", name, "--mcp", servers.url, "--oauth")
        assert code == 0, err
        code, _, err = await workbench(env, "inspect", "--profile", name)
    assert code == 1
    [hint] = [line for line in err.splitlines() if line.startswith("hint: ")]
    command = hint.split(": ", 2)[2]
    (tmp_path / "shell").mkdir()
    assert_pasting_runs_only(command, ["workbench", "login", name], tmp_path / "shell")
    assert shlex.split(command) == ["workbench", "login", name]


async def test_profile_list_shows_a_stdio_servers_command_as_a_line_that_reads_back_as_its_arguments(
    tmp_path: Path,
) -> None:
    env = cli_env(tmp_path)
    argv = ["python3", "srv.py", "a b; touch pwned", "$(touch pwned2)", "two\nlines"]
    code, _, err = await workbench(env, "profile", "add", "local", "--stdio", "--", *argv)
    assert code == 0, err
    code, out, err = await workbench(env, "profile", "list")
    assert code == 0, err
    [line] = [line for line in out.splitlines() if line.startswith("local ")]
    command = line.split("mcp-stdio", 1)[1].split("  (id ", 1)[0].strip()
    (tmp_path / "shell").mkdir()
    assert_pasting_runs_only(command, argv, tmp_path / "shell")
