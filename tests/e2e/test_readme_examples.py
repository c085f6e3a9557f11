"""Every ``workbench …`` example in the README and docs/*.md, run as written against live demo agents.

The examples are read from the fenced code blocks (a line starting with ``workbench `` or ``$ workbench ``,
``\\`` continuations joined). Each one must be known to ``EXAMPLES`` below, either with what it must do
(exit code, a meaningful part of its output) or as not runnable here, with the reason: an example the
test does not know, or one it knows that the docs no longer show, fails the test.

The placeholders the examples use (the demo agents' ports, ``URL``, ``mcp.example.com``,
``notes.example.com``) are bound to agents this test serves on 127.0.0.1 ephemeral ports: the demo
MCP server and A2A agents (``workbench demo``'s set), the demo MCP server behind a bearer token (the
token is in ``token.txt``, as the secret example reads it), and the demo MCP server behind the test
OAuth authorization server (``WORKBENCH_OAUTH_TEST_FOLLOW=1`` stands in for the person approving in a
browser). Each example runs through ``bash -c`` exactly as written after that binding, in a scratch
directory with its own config dir and file keyring; ``python`` and ``workbench`` are this checkout's
(``workbench`` a script first on ``PATH`` that runs ``python -m workbench`` through a fork server which
has imported the SDKs once: ``tests/support/forkserver.py``; each run is still a process of its own).
The examples that read or write saved profiles and secrets (``profile``, ``secret``, ``login``,
``logout``, ``--profile``) run one after another in the order the docs give them, as a user would type
them (two processes saving profiles at once is not guarded against: the last write wins); every other
example runs beside them, as many at a time as there are CPUs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import shlex
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.servers.oauth_as import serve_oauth_protected_mcp
from tests.support import forkserver
from tests.support.cli_profiles import cli_env
from workbench.demo.launcher import EPHEMERAL_PORTS, run_demo
from workbench.demo.mcp_server import serve_http

REPO = Path(__file__).resolve().parents[2]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
TOKEN = "readme-example-token-5c1e"  # the bearer the protected server wants; token.txt holds it
EXAMPLE_TIMEOUT_S = 60.0
STATEFUL_COMMANDS = {"profile", "secret", "login", "logout"}
SHELL_FENCES = {"", "sh", "bash", "shell", "console", "zsh"}  # code blocks whose lines are commands


@dataclass(frozen=True)
class Example:
    """One command-line example as the docs show it."""

    source: str  # "README.md:108"
    command: str  # the shell line, continuations joined, comment included
    key: str  # the command without its comment, whitespace collapsed: what EXAMPLES is keyed by


@dataclass(frozen=True)
class Runs:
    """What a runnable example must do: its exit code and parts of its output."""

    stdout: tuple[str, ...] = ()
    stderr: tuple[str, ...] = ()
    code: int = 0
    stdin: bytes = b""  # what a person types when the example reads standard input
    check: Callable[[str, str], str | None] | None = None  # (stdout, stderr) -> what is wrong, or None


@dataclass(frozen=True)
class NotRunnable:
    """An example this test cannot run, and why (listed, never skipped silently)."""

    reason: str


def _one_stdio_inspection(out: str, _err: str) -> str | None:
    lines = out.splitlines()
    if len(lines) != 1:
        return f"expected one JSON object, got {len(lines)} lines"
    info = json.loads(lines[0])
    if info.get("transport") != "stdio" or info.get("server_info", {}).get("name") != "workbench-demo":
        return f"not the demo server over stdio: {info.get('transport')!r} {info.get('server_info')!r}"
    if "plan_trip" not in [tool["name"] for tool in info.get("tools", [])]:
        return "the demo server's tools are missing"
    return None


def _handoff_chain_then_final_answer(out: str, _err: str) -> str | None:
    lines = [json.loads(line) for line in out.splitlines()]
    if len(lines) < 2:
        return "expected hop events, then the final answer"
    final = lines[-1]
    if final.get("type") != "final" or final.get("state") != "completed" or "Lisbon" not in final.get("answer", ""):
        return f"the last line is not a completed final answer about Lisbon: {str(final)[:300]}"
    return None


def _no_secret_in_output(out: str, err: str) -> str | None:
    return "the secret value was echoed" if TOKEN in out + err else None


EXAMPLES: dict[str, Runs | NotRunnable] = {
    # README, "Multi-agent handoffs"
    "workbench demo --scenario handoff": NotRunnable(
        "opens the window and waits for a person to approve each handoff and fill the traveller form; the same"
        " scenario without the window is the next example"
    ),
    "workbench demo --scenario handoff --headless --json": Runs(check=_handoff_chain_then_final_answer),
    # README, "The command line"
    "workbench inspect --mcp http://127.0.0.1:35955/mcp": Runs(
        stdout=("workbench-demo", "book_table", "resource templates", "prompts")
    ),
    "workbench inspect --stdio --json -- python -m workbench.demo.mcp_server --stdio": Runs(
        check=_one_stdio_inspection
    ),
    """workbench call --mcp URL slow_count --args '{"n": 5}'""": Runs(
        stdout=("counted to 5",), stderr=("[progress 5/5]", "[log info] slow_count: 5")
    ),
    """workbench call --mcp URL book_table --answer '{"name": "Ada", "email": "ada@example.org", "party_size": 2}'""": (
        Runs(stdout=("Booked a table for 2", "for Ada"), stderr=("answered from --answer",))
    ),
    'workbench send --stdio "weather in Paris" -- python -m workbench.demo.mcp_server --stdio': Runs(
        stdout=("The weather in Paris is",)
    ),
    """workbench send --a2a http://127.0.0.1:43321 "Plan a trip to Lisbon" --answer '{"departure_date":"""
    """ "2026-12-01", "return_date": "2026-12-08", "travellers": 2, "cabin_class": "business"}'""": Runs(
        stdout=("Day 1 (2026-12-01): fly to Lisbon in business.", "Your trip to Lisbon is planned"),
        stderr=("answered from --answer", "[status completed]"),
    ),
    """workbench call --a2a http://127.0.0.1:45309 call-mcp-tool --args '{"target_mcp_server_id": "demo","""
    """ "tool_name": "add", "arguments": {"a": 2, "b": 3}}'""": Runs(
        stdout=('"structuredContent": {"result": 5}', "Called 'add' on 'demo'."), stderr=("[status completed]",)
    ),
    # README, "Sampling answered by a script or a model"
    "workbench model add local --api openai --url http://127.0.0.1:11434/v1 --model llama3.2": NotRunnable(
        "names a local Ollama; tests/e2e/test_cli_sampling.py adds an endpoint of tests/servers/model_api.py"
    ),
    "workbench model add claude --api anthropic --url https://api.anthropic.com --model claude-sonnet-4-5"
    " --input-price 3 --output-price 15": NotRunnable("names Anthropic's API and its prices"),
    "workbench model key claude < key.txt": NotRunnable("stores a key for the endpoint above"),
    "workbench call --profile docs research --sampling model:claude": NotRunnable(
        "needs a model server: tests/integration/sampling and tests/e2e/test_cli_sampling.py run the same"
        " against tests/servers/model_api.py"
    ),
    "workbench call --profile docs research --sampling script:replies.yaml --sampling-policy ask": NotRunnable(
        "needs a server whose tool samples and a script file: tests/e2e/test_cli_sampling.py runs both"
    ),
    # README, "Saved profiles, secrets and logins" (run in this order, sharing one config dir and keyring)
    "workbench profile add docs --mcp https://mcp.example.com/mcp": Runs(stderr=("saved docs",)),
    "workbench secret set docs bearer < token.txt": Runs(
        stderr=("stored bearer for docs",), check=_no_secret_in_output
    ),
    "workbench profile add local --stdio -- python -m workbench.demo.mcp_server --stdio": Runs(stderr=("saved local",)),
    "workbench secret set local env:API_TOKEN": Runs(
        stdin=b"api-token-typed-at-the-prompt\n", stderr=("stored env:API_TOKEN for local",)
    ),
    "workbench profile add notes --mcp https://notes.example.com/mcp --oauth && workbench login notes": Runs(
        stderr=("saved notes", "[token] ok:", "logged in to notes")
    ),
    "workbench login notes --explain": Runs(
        # the login before this one left tokens: step 1 says they are set aside, then the login runs afresh
        stdout=("1. Refresh", ". Resource metadata", "✓ issuer: ", ". Token  POST "),
        stderr=("logged in to notes",),
    ),
    "workbench profile add travel --a2a http://127.0.0.1:43321 --allow-origin http://127.0.0.1:45309": Runs(
        stderr=("saved travel",)
    ),
    "workbench profile edit travel --forget-origin http://127.0.0.1:45309 --timeout 20": Runs(stderr=("saved travel",)),
    """workbench call --profile docs weather --args '{"city": "Oslo"}'""": Runs(stdout=("Oslo",)),
    "workbench profile list": Runs(
        stdout=("docs", "[secrets: bearer]", "local", "notes", "[oauth: dynamic, authorization_code]")
    ),
    "workbench secret clear docs bearer": Runs(stderr=("forgot 1 secret(s) of docs",)),
    "workbench logout notes --explain": Runs(
        stdout=("1. Revocation  POST ", "✓ https: "), stderr=("logged out of notes", "the tokens were revoked")
    ),
    "workbench profile remove docs": Runs(stderr=("removed docs",)),
}


def _without_comment(line: str) -> str:
    """The shell line up to an unquoted ``#`` that starts a word."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


def doc_examples(paths: list[Path]) -> list[Example]:
    """Every ``workbench`` command line in the fenced shell code blocks (or blocks without a language) of ``paths``."""
    examples: list[Example] = []
    for path in paths:
        fenced = shell = False
        pending: tuple[int, str] | None = None
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            stripped = raw.strip()
            if stripped.startswith("```"):
                fenced, pending = not fenced, None
                shell = fenced and stripped[3:].strip() in SHELL_FENCES
                continue
            if not shell:
                continue
            if pending is not None:
                start, text = pending
                text = f"{text[:-1].rstrip()} {stripped}"
            elif stripped.removeprefix("$ ").startswith("workbench ") or stripped.removeprefix("$ ") == "workbench":
                start, text = number, stripped.removeprefix("$ ")
            else:
                continue
            if text.endswith("\\"):
                pending = (start, text)
                continue
            pending = None
            key = " ".join(_without_comment(text).split())
            examples.append(Example(f"{path.relative_to(REPO)}:{start}", text, key))
    return examples


@dataclass(frozen=True)
class Peers:
    """The live agents the placeholders are bound to."""

    mcp: str
    travel: str
    proxy: str
    protected: str
    oauth: str


def bind(command: str, peers: Peers) -> str:
    """The example with its placeholders replaced by the live agents' URLs."""
    bound = (
        command.replace("http://127.0.0.1:35955/mcp", peers.mcp)
        .replace("http://127.0.0.1:43321", peers.travel)
        .replace("http://127.0.0.1:45309", peers.proxy)
        .replace("https://mcp.example.com/mcp", peers.protected)
        .replace("https://notes.example.com/mcp", peers.oauth)
    )
    return re.sub(r"(--mcp(?:-sse)?) URL\b", lambda m: f"{m.group(1)} {peers.mcp}", bound)


def stateful(example: Example) -> bool:
    """Whether the example reads or writes saved profiles or secrets (shared state: they run in order)."""
    words = shlex.split(example.key)
    return words[1] in STATEFUL_COMMANDS or "--profile" in words


CLI_IMPORTS = ["anyio", "httpx", "pydantic", "mcp", "mcp.client.stdio", "mcp.client.streamable_http", "a2a.client"]
"""The third-party packages a ``workbench`` run imports, done once in the fork server; none reads the
environment when imported (the keyring backend, the config dir are chosen later, from the run's own)."""


def _environment(scratch: Path, workbench: Path | None = None) -> dict[str, str]:
    env = cli_env(scratch)
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # this checkout's python, workbench
    if workbench is not None:  # `workbench` first on PATH: this checkout's, its imports done in a fork server
        env["PATH"] = f"{workbench.parent}{os.pathsep}{env['PATH']}"
    env["WORKBENCH_OAUTH_TEST_FOLLOW"] = "1"  # the login follows the authorization URL instead of a browser
    env["QT_QPA_PLATFORM"] = "offscreen"
    return env


async def _run(command: str, stdin: bytes, cwd: Path, env: dict[str, str]) -> tuple[int | None, str, str]:
    """``bash -c COMMAND``; (exit code, stdout, stderr); exit code None when it outlived the timeout."""
    proc = await asyncio.create_subprocess_exec(
        "bash",
        "-c",
        command,
        cwd=cwd,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,  # its own process group: a timeout stops the whole example
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(stdin), EXAMPLE_TIMEOUT_S)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        out, err = await proc.communicate()
        return None, out.decode(errors="replace"), err.decode(errors="replace")
    return proc.returncode, out.decode(errors="replace"), err.decode(errors="replace")


def _verdict(example: Example, bound: str, expected: Runs, result: tuple[int | None, str, str]) -> str | None:
    code, out, err = result
    problems = []
    if code is None:
        problems.append(f"still running after {EXAMPLE_TIMEOUT_S:.0f} s")
    elif code != expected.code:
        problems.append(f"exit code {code}, the docs say {expected.code}")
    problems += [f"stdout lacks {s!r}" for s in expected.stdout if s not in out]
    problems += [f"stderr lacks {s!r}" for s in expected.stderr if s not in err]
    if expected.check is not None and code is not None:
        try:
            wrong = expected.check(out, err)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            wrong = f"unreadable output ({type(exc).__name__}: {exc})"
        if wrong:
            problems.append(wrong)
    if not problems:
        return None
    return (
        f"{example.source}: {example.key}\n  ran: {bound}\n  "
        + "\n  ".join(problems)
        + f"\n  stdout (end): {out[-800:]!r}\n  stderr (end): {err[-800:]!r}"
    )


def test_the_test_knows_every_command_line_example_in_the_docs() -> None:
    found = {example.key: example for example in doc_examples(DOCS)}
    unknown = [f"{e.source}: {e.key}" for key, e in found.items() if key not in EXAMPLES]
    assert not unknown, "examples this test does not know (add each to EXAMPLES):\n" + "\n".join(unknown)
    gone = [key for key in EXAMPLES if key not in found]
    assert not gone, "EXAMPLES lists commands the docs no longer show:\n" + "\n".join(gone)


def test_placeholders_bind_every_example_to_loopback() -> None:
    peers = Peers(*(f"http://127.0.0.1:{port}/p" for port in range(1, 6)))
    for example in doc_examples(DOCS):
        if isinstance(EXAMPLES.get(example.key), NotRunnable):
            continue
        bound = bind(example.command, peers)
        urls = re.findall(r"\w+://[^\s'\"]+", bound)
        assert all(url.startswith("http://127.0.0.1:") for url in urls), (example.source, urls)
        assert not re.search(r"\b(URL|NAME|KIND|TEXT|CMD)\b", _without_comment(bound)), (example.source, bound)


@pytest.mark.asyncio
@pytest.mark.timeout(240)  # 18 CLI runs, ~30 s of CPU: past the default 120 s on a loaded 2-core machine
async def test_every_command_line_example_in_the_docs_runs_as_written(tmp_path: Path) -> None:
    examples = [e for e in doc_examples(DOCS) if isinstance(EXAMPLES.get(e.key), Runs)]
    assert examples, "no runnable examples found"
    (tmp_path / "token.txt").write_text(TOKEN + "\n")
    cli_server = forkserver.ForkServer(CLI_IMPORTS) if forkserver.enabled() else None
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    wrapper = cli_server.script(bin_dir, "workbench", "-m", "workbench") if cli_server is not None else None
    env = _environment(tmp_path, wrapper)
    slots = asyncio.Semaphore(max(2, os.cpu_count() or 1))  # CPU-bound: more at once only thrashes
    async with (
        run_demo(chunk_delay=0.01, ports=EPHEMERAL_PORTS) as demo,
        serve_http(transport="streamable-http", require_bearer=TOKEN) as protected,
        serve_oauth_protected_mcp() as oauth,
    ):
        targets = {agent.name: agent.target for agent in demo}
        peers = Peers(targets["demo-mcp"], targets["travel"], targets["mcp-proxy"], protected, oauth.url)

        async def run(example: Example, *, in_turn: bool = False) -> str | None:
            expected = EXAMPLES[example.key]
            assert isinstance(expected, Runs)
            bound = bind(example.command, peers)
            async with contextlib.nullcontext() if in_turn else slots:  # the sequence is never held up for a slot
                result = await _run(bound, expected.stdin, tmp_path, env)
            return _verdict(example, bound, expected, result)

        async def in_order(chain: list[Example]) -> list[str | None]:
            return [await run(example, in_turn=True) for example in chain]

        try:
            in_sequence = asyncio.ensure_future(in_order([e for e in examples if stateful(e)]))
            at_once = await asyncio.gather(*(run(e) for e in examples if not stateful(e)))
            verdicts = [*await in_sequence, *at_once]
        finally:
            if cli_server is not None:
                cli_server.close()
    failures = [v for v in verdicts if v]
    assert not failures, f"{len(failures)} of {len(examples)} examples failed:\n\n" + "\n\n".join(failures)
