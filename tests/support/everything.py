"""Run the reference MCP server `@modelcontextprotocol/server-everything` on loopback for tests.

`make test` installs the npm package into `.cache/npm` with `npm ci` from the lock file in
`tests/peers/npm/server-everything` (every transitive dependency pinned). Its HTTP modes listen on
`process.env.PORT || 3001` on all interfaces; we start node with the `loopback.cjs` preload, which
rebinds every TCP listen to 127.0.0.1 (PORT=0 → ephemeral port) and prints
`WORKBENCH_LISTENING <port>` on stderr once the socket is bound.

Every node process started from here carries `WORKBENCH_TEST_OWNER=<pytest pid>` in its
environment so `leftover_everything_processes()` can prove that none survived a test.

Plain asyncio (no anyio task groups) on purpose: pytest-asyncio runs fixture setup and teardown
in different tasks, and an anyio cancel scope must be exited by the task that entered it.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import json
import os
import re
import shutil
import signal
import subprocess
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, NamedTuple

from tests.support.processes import SHARED_SERVER_PIDS

EVERYTHING_VERSION = "2026.8.31"
REPO_ROOT = Path(__file__).resolve().parents[2]
NPM_PREFIX = REPO_ROOT / ".cache" / "npm"
PACKAGE_DIR = NPM_PREFIX / "node_modules" / "@modelcontextprotocol" / "server-everything"
LOOPBACK_PRELOAD = Path(__file__).with_name("loopback.cjs")
OWNER_ENV = "WORKBENCH_TEST_OWNER"
LISTENING_PREFIX = "WORKBENCH_LISTENING "
INSTALL_HINT = (
    f"run `make test` (or `make .cache/npm/.installed-{EVERYTHING_VERSION}` in the repository root: `npm ci` from"
    " tests/peers/npm/server-everything/package-lock.json) to install it"
)

HttpMode = Literal["streamableHttp", "sse"]
HTTP_PATHS: dict[str, str] = {"streamableHttp": "/mcp", "sse": "/sse"}  # from dist/transports/*.js

_MIN_NODE_MAJOR = 18  # @modelcontextprotocol/sdk and express 5 require node >= 18


class EverythingUnavailableError(RuntimeError):
    """node or the npm package is missing; the message says what to install."""


class EverythingStartError(RuntimeError):
    """The node process exited or did not announce its port in time."""


class StdioCommand(NamedTuple):
    """How to spawn server-everything in stdio mode; unpacks as `(command, args, env)`."""

    command: str
    args: list[str]
    env: dict[str, str]


@functools.cache
def node_path() -> str | None:
    """Absolute path of a usable `node` (major version >= 18), or None."""
    node = shutil.which("node")
    if node is None:
        return None
    try:
        version = subprocess.run([node, "--version"], capture_output=True, text=True, timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.match(r"v(\d+)\.", version.strip())
    if match is None or int(match.group(1)) < _MIN_NODE_MAJOR:
        return None
    return node


def everything_dir() -> Path | None:
    """The installed package directory, or None if it or node is missing (or the version differs)."""
    if node_path() is None:
        return None
    try:
        manifest = json.loads((PACKAGE_DIR / "package.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if manifest.get("version") != EVERYTHING_VERSION or not (PACKAGE_DIR / "dist" / "index.js").is_file():
        return None
    return PACKAGE_DIR


def unavailable_reason() -> str | None:
    """Why server-everything cannot run here (a sentence for `pytest.skip`), or None if it can."""
    if shutil.which("node") is None:
        return f"server-everything tests need node >= {_MIN_NODE_MAJOR} and npm; node is not on PATH"
    if node_path() is None:
        return f"server-everything tests need node >= {_MIN_NODE_MAJOR}; the node on PATH is older or broken"
    if everything_dir() is None:
        package = f"@modelcontextprotocol/server-everything@{EVERYTHING_VERSION}"
        return f"{package} is not installed in .cache/npm; {INSTALL_HINT}"
    return None


def _require() -> tuple[str, Path]:
    reason = unavailable_reason()
    node, package = node_path(), everything_dir()
    if reason is not None or node is None or package is None:
        raise EverythingUnavailableError(reason or "server-everything is unavailable")
    return node, package


def owner_token() -> str:
    """The marker value put into the environment of every node process this test process starts."""
    return str(os.getpid())


def _node_argv(node: str, package: Path, mode: str) -> list[str]:
    return [node, "--require", str(LOOPBACK_PRELOAD), str(package / "dist" / "index.js"), mode]


def stdio_params() -> StdioCommand:
    """Command, args and extra env for server-everything in stdio mode.

    The loopback preload is included too, so nothing the server might open can bind 0.0.0.0.

    Raises:
        EverythingUnavailableError: node or the package is missing.
    """
    node, package = _require()
    argv = _node_argv(node, package, "stdio")
    return StdioCommand(command=argv[0], args=argv[1:], env={OWNER_ENV: owner_token()})


@dataclass
class EverythingProcess:
    """A running HTTP-mode server: its URL, pid, port and the recent lines of its stderr."""

    url: str
    pid: int
    port: int
    mode: HttpMode
    stderr_lines: deque[str] = field(default_factory=lambda: deque(maxlen=500))


async def _drain(stream: asyncio.StreamReader, lines: deque[str], port: asyncio.Future[int]) -> None:
    while raw := await stream.readline():
        line = raw.decode(errors="replace").rstrip()
        lines.append(line)
        if line.startswith(LISTENING_PREFIX) and not port.done():
            port.set_result(int(line[len(LISTENING_PREFIX) :]))
    if not port.done():
        port.set_exception(EverythingStartError("server-everything exited before listening"))


async def _stop(proc: asyncio.subprocess.Process, grace: float) -> None:
    """SIGTERM the process group, SIGKILL it after `grace` seconds, and reap the leader."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)
        try:
            await asyncio.wait_for(proc.wait(), grace)
        except TimeoutError:
            continue
        if sig == signal.SIGTERM:
            # The leader is gone; take any stragglers of its group with it.
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
        return
    await asyncio.wait_for(proc.wait(), grace)


@contextlib.asynccontextmanager
async def start_everything_http(
    mode: HttpMode, *, start_timeout: float = 20.0, stop_timeout: float = 3.0
) -> AsyncIterator[EverythingProcess]:
    """Start server-everything in an HTTP mode on 127.0.0.1:<ephemeral>; stop it on exit.

    Args:
        mode: "streamableHttp" (endpoint /mcp) or "sse" (GET /sse, POST /message).
        start_timeout: Seconds to wait for the port announcement.
        stop_timeout: Seconds to wait after SIGTERM (and again after SIGKILL).

    Yields:
        The running process description; `url` is the endpoint to connect to.

    Raises:
        EverythingUnavailableError: node or the package is missing.
        EverythingStartError: The server exited or did not listen within `start_timeout`.
    """
    node, package = _require()
    env = {**os.environ, "PORT": "0", OWNER_ENV: owner_token()}
    proc = await asyncio.create_subprocess_exec(
        *_node_argv(node, package, mode),
        cwd=str(package),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,  # streamableHttp logs every request with console.log
        stderr=subprocess.PIPE,
        start_new_session=True,  # own process group, killed as a whole
    )
    assert proc.stderr is not None
    lines: deque[str] = deque(maxlen=500)
    port_future: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    drain = asyncio.ensure_future(_drain(proc.stderr, lines, port_future))
    try:
        try:
            port = await asyncio.wait_for(asyncio.shield(port_future), start_timeout)
        except (TimeoutError, EverythingStartError) as exc:
            tail = "\n".join(lines)
            raise EverythingStartError(f"server-everything {mode} did not start: {exc!r}\n{tail}") from exc
        url = f"http://127.0.0.1:{port}{HTTP_PATHS[mode]}"
        yield EverythingProcess(url=url, pid=proc.pid, port=port, mode=mode, stderr_lines=lines)
    finally:
        await _stop(proc, stop_timeout)
        # The pipe reaches EOF once every holder of its write end (the group) is gone.
        try:
            await asyncio.wait_for(drain, stop_timeout)
        except TimeoutError:
            drain.cancel()
        if not port_future.done():
            port_future.cancel()
        elif not port_future.cancelled():
            port_future.exception()  # mark retrieved


@contextlib.asynccontextmanager
async def run_everything_http(mode: HttpMode, *, start_timeout: float = 20.0) -> AsyncIterator[str]:
    """Start server-everything in an HTTP mode and yield its URL (`…/mcp` or `…/sse`).

    See `start_everything_http` for the arguments and errors.
    """
    async with start_everything_http(mode, start_timeout=start_timeout) as server:
        yield server.url


@dataclass(frozen=True)
class NodeLeftover:
    """A process started by this test process that is still around."""

    pid: int
    state: str
    cmdline: str


def _read_stat(pid: str) -> tuple[str, int, str] | None:
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    comm = raw[raw.index("(") + 1 : raw.rindex(")")]
    state, ppid = raw[raw.rindex(")") + 2 :].split()[:2]
    return comm, int(ppid), state


def leftover_everything_processes() -> list[NodeLeftover]:
    """Live node processes we started (by env marker) plus unreaped node children of ours.

    The servers shared by many tests on purpose (``SHARED_SERVER_PIDS``) are not counted.

    Linux only (reads /proc); returns [] elsewhere.
    """
    proc_root = Path("/proc")
    if not proc_root.is_dir():
        return []
    marker = f"{OWNER_ENV}={owner_token()}".encode()
    me = os.getpid()
    found: list[NodeLeftover] = []
    for entry in proc_root.iterdir():
        if not entry.name.isdigit() or int(entry.name) == me or int(entry.name) in SHARED_SERVER_PIDS:
            continue
        stat = _read_stat(entry.name)
        if stat is None:
            continue
        comm, ppid, state = stat
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            environ = []
        ours = marker in environ or (ppid == me and comm == "node")
        if not ours:
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace").strip()
        except OSError:
            cmdline = ""
        found.append(NodeLeftover(pid=int(entry.name), state=state, cmdline=cmdline or comm))
    return found


@dataclass(frozen=True)
class ListeningSocket:
    """One TCP socket in LISTEN state from /proc/net/tcp{,6}."""

    address: str
    port: int
    family: Literal["ipv4", "ipv6"]
    inode: int


def _decode_ipv4(hex_addr: str) -> str:
    raw = bytes.fromhex(hex_addr)[::-1]  # little-endian u32
    return ".".join(str(b) for b in raw)


def _decode_ipv6(hex_addr: str) -> str:
    raw = bytes.fromhex(hex_addr)
    words = b"".join(raw[i : i + 4][::-1] for i in range(0, 16, 4))
    return str(ipaddress.IPv6Address(words))


def listening_sockets(port: int) -> list[ListeningSocket]:
    """All LISTEN sockets on `port` (any address, both families), read from /proc/net."""
    found: list[ListeningSocket] = []
    for family, name, decode in (("ipv4", "tcp", _decode_ipv4), ("ipv6", "tcp6", _decode_ipv6)):
        try:
            rows = Path(f"/proc/net/{name}").read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            local, state, inode = fields[1], fields[3], int(fields[9])
            addr_hex, port_hex = local.split(":")
            if state == "0A" and int(port_hex, 16) == port:  # 0A = TCP_LISTEN
                found.append(ListeningSocket(address=decode(addr_hex), port=port, family=family, inode=inode))  # type: ignore[arg-type]
    return found


def socket_inodes(pid: int) -> set[int]:
    """Inodes of the sockets process `pid` holds open (from /proc/<pid>/fd)."""
    inodes: set[int] = set()
    fd_dir = Path(f"/proc/{pid}/fd")
    try:
        entries = list(fd_dir.iterdir())
    except OSError:
        return inodes
    for entry in entries:
        try:
            target = os.readlink(entry)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(int(target[len("socket:[") : -1]))
    return inodes
