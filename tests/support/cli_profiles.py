"""The command line with a configuration directory and a test keyring of its own, for tests of saved
profiles and secrets."""

from __future__ import annotations

import json
import os
from pathlib import Path

from tests.support.cli_runner import run_workbench, workbench_process

TOKEN = "tok-e2e-7f3a9c"
"""A secret that must appear only in the (test) keyring."""

REPO = Path(__file__).resolve().parents[2]


def cli_env(tmp_path: Path, *, keyring_backend: bool = True) -> dict[str, str]:
    """This process's environment for a run of the command, with its configuration under ``tmp_path``.

    With ``keyring_backend`` the test keyring (tests/support/keyrings.py) keeps secrets in
    ``tmp_path/keyring.json``; without it no backend is named and none of the user's is configured.
    """
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHON_KEYRING_BACKEND", "DBUS_SESSION_BUS_ADDRESS")}
    env["WORKBENCH_CONFIG_DIR"] = str(tmp_path / "config")
    env["XDG_CONFIG_HOME"] = str(tmp_path / "xdg")  # no keyringrc.cfg from the user
    env["PYTHONPATH"] = str(REPO)
    if keyring_backend:
        env["PYTHON_KEYRING_BACKEND"] = "tests.support.keyrings.FileTestKeyring"
        env["WORKBENCH_TEST_KEYRING"] = str(tmp_path / "keyring.json")
    return env


def oauth_cli_env(tmp_path: Path) -> dict[str, str]:
    """``cli_env`` with the CLI's test hook ``WORKBENCH_OAUTH_TEST_FOLLOW=1``: a login follows the authorization
    URL with an HTTP client instead of opening a browser (the test authorization servers approve at once)."""
    env = cli_env(tmp_path)
    env["WORKBENCH_OAUTH_TEST_FOLLOW"] = "1"
    return env


def keyring_entries(tmp_path: Path) -> dict[str, str]:
    """What the test keyring of ``cli_env(tmp_path)`` holds (empty before anything was stored)."""
    path = tmp_path / "keyring.json"
    return json.loads(path.read_text()) if path.exists() else {}


def saved_text(tmp_path: Path) -> str:
    """Every file the command wrote under the configuration directory of ``cli_env(tmp_path)``, as one text."""
    return "".join(p.read_text(errors="replace") for p in (tmp_path / "config").rglob("*") if p.is_file())


async def saved_profile(env: dict[str, str], name: str) -> dict[str, object]:
    """The profile ``name`` as ``workbench profile list --json`` shows it."""
    code, out, err = await workbench(env, "profile", "list", "--json")
    assert code == 0, err
    return next(p for p in map(json.loads, out.splitlines()) if p["name"] == name)


async def workbench(env: dict[str, str], *argv: str, stdin: bytes = b"") -> tuple[int, str, str]:
    """Run ``workbench ARGV`` with ``env`` as its whole environment.

    In this process (tests/support/cli_runner.py, which picks the keyring backend again from ``env``)
    when ``env`` names the test keyring; in a process of its own when it names none, because keyring's
    discovery would see the test backends this process has imported where a user's process has none.
    """
    if "PYTHON_KEYRING_BACKEND" not in env:
        return await workbench_process(*argv, stdin=stdin, env=env, timeout=90)
    return await run_workbench(*argv, stdin=stdin, env=env, timeout=90)


def json_error_code(out: str) -> str | None:
    """The error code of ``--json`` output: of its ``error`` object or its ``failed`` event; None without one."""
    for line in out.splitlines():
        data = json.loads(line)
        if "error" in data:
            return data["error"].get("code")
        if data.get("type") == "failed":
            return data.get("error", {}).get("code")
    return None
