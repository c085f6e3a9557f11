"""``workbench call`` against mcp-server-git on a repository made by the test: status and log."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from tests.support.peers import peer_command, run_cli

pytestmark = pytest.mark.asyncio


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A repository with one commit, a modified file and an untracked one."""
    env = {"GIT_CONFIG_GLOBAL": "/dev/null", "GIT_CONFIG_NOSYSTEM": "1", "PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}

    def git(*args: str) -> None:
        subprocess.run(["git", "-C", str(tmp_path), *args], check=True, capture_output=True, env=env, timeout=30)

    git("init", "-q", "-b", "main")
    (tmp_path / "tracked.txt").write_text("one\n", encoding="utf-8")
    git("add", "tracked.txt")
    git("-c", "user.name=Peer Test", "-c", "user.email=peer@test.invalid", "commit", "-q", "-m", "first commit")
    (tmp_path / "tracked.txt").write_text("one\ntwo\n", encoding="utf-8")
    (tmp_path / "untracked.txt").write_text("new\n", encoding="utf-8")
    return tmp_path


def server(repo: Path) -> list[str]:
    return [*peer_command("git"), "--repository", str(repo)]


async def test_status_and_log_of_a_repository(repo: Path) -> None:
    args = f'{{"repo_path": "{repo}"}}'
    run = await run_cli("git", "call", "git_status", "--args", args, server=server(repo))
    assert run.code == 0, run.err
    assert run.err == ""
    assert "On branch main" in run.out
    assert "modified:   tracked.txt" in run.out and "untracked.txt" in run.out

    args = f'{{"repo_path": "{repo}", "max_count": 5}}'
    run = await run_cli("git", "call", "--json", "git_log", "--args", args, server=server(repo))
    assert run.code == 0, run.err
    text = run.json_lines()[-1]["result"]["text"]
    assert "Author: Peer Test" in text and "Message: first commit" in text


async def test_inspect_lists_the_git_tools(repo: Path) -> None:
    run = await run_cli("git", "inspect", server=server(repo))
    assert run.code == 0, run.err
    assert run.err == ""
    assert "mcp-git" in run.out and "  git_status  Shows the working tree status" in run.out
