"""stdio transport for MCP that owns its child process.

The SDK's ``stdio_client`` hides the process (no pid, no exit code), needs a real file for stderr
and turns a garbage stdout line into a bare exception. This transport keeps the same wire
behaviour and shutdown order (close stdin, wait, SIGTERM the process group, SIGKILL) and adds:

- every stdout line and every outgoing message recorded as the exact text that travelled;
- a listing page with too many items refused before it is parsed (``ListingCap``);
- stderr read line by line (wire log + events + a tail kept for error messages);
- the child's exit noticed at once: the read stream ends, so pending requests fail immediately
  with "connection closed" instead of on the next request;
- a quick close: after stdin closes, a child that keeps working (CPU time, output) gets up to
  ``STDIN_CLOSE_GRACE`` to exit, but one that sits idle without exiting is sent SIGTERM after
  ``IDLE_EXIT`` (the SDK always waits the whole grace, so a server that ignores stdin-close cost
  every command two seconds).
POSIX only; on Windows the adapter falls back to the SDK's ``stdio_client``.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import sys
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field

import anyio
import anyio.abc
import anyio.lowlevel
import mcp_types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.client.stdio import get_default_environment
from mcp.shared.message import SessionMessage

from workbench.core.protocols.mcp.listing_cap import ListingCap
from workbench.core.protocols.mcp.stdio_lines import OversizedLine, read_lines, unreadable_reply
from workbench.core.wire.recorder import WireRecorder
from workbench.core.wire.records import Direction, WireKind

log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 64 * 1024 * 1024
"""Longest stdout line a stdio server may send (a 20 MB result fits; a 200 MB one is refused)."""
STDERR_LINE_CHARS = 64 * 1024
"""Longest stderr line kept whole (the rest is counted, not kept)."""
STDIN_CLOSE_GRACE = 2.0
"""Most seconds a child that is still working gets to exit by itself after its stdin closed."""
IDLE_EXIT = 0.3
"""Seconds of doing nothing (no CPU time, no output) after which a child that has not exited is terminated."""
TERM_GRACE = 2.0
KILL_REAP = 2.0
EXIT_POLL = 0.25
EXIT_AFTER_EOF = 1.0


@dataclass
class StdioProcessInfo:
    """What is known about the running child: filled in as it starts, runs and exits."""

    command: str
    args: list[str]
    pid: int | None = None
    returncode: int | None = None
    closing: bool = False
    stderr_tail: deque[str] = field(default_factory=lambda: deque(maxlen=50))

    @property
    def running(self) -> bool:
        """Whether the child was started and has not exited."""
        return self.pid is not None and self.returncode is None

    def describe_exit(self) -> str:
        """One sentence on how the process ended, with the last stderr lines."""
        code = self.returncode
        if code is None:
            how = "is still running"
        elif code < 0:
            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"was killed by signal {-code}"
        else:
            how = f"exited with code {code}"
        tail = " | ".join(list(self.stderr_tail)[-3:])
        return f"server process {self.pid} {how}" + (f"; last stderr: {tail}" if tail else "")


class StdioTransport:
    """An MCP ``Transport`` (async context manager yielding read/write streams) for a child process.

    Args:
        command: Executable to start.
        args: Its arguments.
        env: Extra environment, merged over the SDK's safe default set (not the whole parent env).
        cwd: Working directory.
        wire: Recorder for stdout/stdin lines, stderr lines and process events.
        connection_id: Connection id for wire records.
        on_stderr: Called with each stderr line.
        on_exit: Called once when the process ends (with ``info``); ``info.closing`` tells whether
            the workbench asked for it.
        max_message_chars: Longest stdout line (one JSON-RPC message) kept; a longer one is dropped
            and, when its request id can be read, answered as unreadable naming the limit.
    """

    def __init__(
        self,
        command: str,
        args: list[str] | None = None,
        *,
        env: dict[str, str] | None = None,
        cwd: str | None = None,
        wire: WireRecorder | None = None,
        connection_id: str = "",
        on_stderr: Callable[[str], None] | None = None,
        on_exit: Callable[[StdioProcessInfo], None] | None = None,
        max_message_chars: int = MAX_MESSAGE_CHARS,
    ) -> None:
        self.info = StdioProcessInfo(command=command, args=list(args or []))
        self.max_message_chars = max_message_chars
        self.listing_cap = ListingCap()
        self._env = env
        self._cwd = cwd
        self._wire = wire
        self._cid = connection_id
        self._on_stderr = on_stderr
        self._on_exit = on_exit
        self._exit_noted = False
        self._activity = 0
        self._cm: contextlib.AbstractAsyncContextManager[
            tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]
        ] = self._run()

    async def __aenter__(
        self,
    ) -> tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]:
        return await self._cm.__aenter__()

    async def __aexit__(self, *exc: object) -> bool | None:
        return await self._cm.__aexit__(*exc)  # type: ignore[arg-type]

    def _record_local(self, kind: WireKind, summary: str, payload: str = "") -> None:
        if self._wire is not None:
            self._wire.local(self._cid, kind, summary, payload, protocol="mcp")

    @contextlib.asynccontextmanager
    async def _run(
        self,
    ) -> AsyncIterator[
        tuple[MemoryObjectReceiveStream[SessionMessage | Exception], MemoryObjectSendStream[SessionMessage]]
    ]:
        env = get_default_environment() | (self._env or {})
        process = await anyio.open_process(
            [self.info.command, *self.info.args],
            env=env,
            cwd=self._cwd,
            stdin=-1,
            stdout=-1,
            stderr=-1,
            start_new_session=True,
        )
        self.info.pid = process.pid
        self._record_local(
            WireKind.PROCESS, f"started pid {process.pid}: {self.info.command} {' '.join(self.info.args)}"
        )
        read_send, read_recv = anyio.create_memory_object_stream[SessionMessage | Exception](0)
        write_send, write_recv = anyio.create_memory_object_stream[SessionMessage](0)
        stdout_closed = anyio.Event()

        async def stdout_reader() -> None:
            # The read stream is closed by exit_watcher, after the exit is noted, so that a request
            # failing because the server died can already say how it died.
            assert process.stdout is not None
            try:
                async for line in read_lines(process.stdout, self.max_message_chars):
                    self._activity += 1
                    item = self._parse_incoming(line) if isinstance(line, str) else self._oversized(line)
                    if item is None:
                        continue
                    try:
                        await read_send.send(item)
                    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                        return
            finally:
                stdout_closed.set()

        async def stdin_writer() -> None:
            assert process.stdin is not None
            try:
                async with write_recv:
                    async for message in write_recv:
                        self.listing_cap.sent(message.message)
                        text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                        if self._wire is not None:
                            self._wire.jsonrpc(self._cid, Direction.OUT, text, protocol="mcp")
                        await process.stdin.send((text + "\n").encode())
            except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                await read_send.aclose()

        async def stderr_reader() -> None:
            assert process.stderr is not None
            async for line in read_lines(process.stderr, STDERR_LINE_CHARS):
                self._activity += 1
                if isinstance(line, OversizedLine):
                    self._stderr_line(f"{line.head[:STDERR_LINE_CHARS]}… ({line.size:,} characters in all)")
                else:
                    self._stderr_line(line.rstrip("\r"))

        async def exit_watcher() -> None:
            while process.returncode is None and not stdout_closed.is_set():
                with anyio.move_on_after(EXIT_POLL):
                    await stdout_closed.wait()
            # stdout closed: the exit code follows within milliseconds, unless the server closed
            # stdout and lives on (then the session still ends: nothing more can arrive).
            with anyio.move_on_after(EXIT_AFTER_EOF):
                while process.returncode is None:  # noqa: ASYNC110 - no event exists for a pipe-less exit
                    await anyio.sleep(0.005)
            self._note_exit(process.returncode)
            # The session must learn at once: ending the read stream fails pending requests now.
            await read_send.aclose()

        async with anyio.create_task_group() as tg:
            tg.start_soon(stdout_reader)
            tg.start_soon(stdin_writer)
            tg.start_soon(stderr_reader)
            tg.start_soon(exit_watcher)
            try:
                yield read_recv, write_send
            finally:
                self.info.closing = True
                with anyio.CancelScope(shield=True):
                    await self._shutdown(process, write_send)
                    self._note_exit(process.returncode)
                    read_send.close()
                    await anyio.lowlevel.checkpoint()
                tg.cancel_scope.cancel()

    def _note_exit(self, returncode: int | None) -> None:
        """Record the exit once (the watcher and the shutdown path may both see it)."""
        if self._exit_noted or returncode is None:
            return
        self._exit_noted = True
        self.info.returncode = returncode
        suffix = "" if self.info.closing else " (unexpected)"
        self._record_local(WireKind.PROCESS, self.info.describe_exit() + suffix)
        if self._on_exit is not None:
            self._on_exit(self.info)

    def _parse_incoming(self, line: str) -> SessionMessage | Exception | None:
        """Turn one stdout line into a message, recording it exactly as it arrived."""
        stripped = line.strip()
        if not stripped:
            return None
        refused = self.listing_cap.check_text(stripped)
        if refused is not None:
            if self._wire is not None:
                note = f"a listing page over {self.listing_cap.max_page_items:,} items: refused unread"
                self._wire.raw(self._cid, Direction.IN, stripped, note=note, protocol="mcp")
            return refused
        try:
            message = mcp_types.jsonrpc_message_adapter.validate_json(stripped, by_name=False)
        except ValueError as exc:
            if self._wire is not None:
                self._wire.raw(self._cid, Direction.IN, line, note="not a JSON-RPC message", protocol="mcp")
            return unreadable_reply(stripped, exc)
        if self._wire is not None:
            self._wire.jsonrpc(self._cid, Direction.IN, stripped, protocol="mcp")
        item = SessionMessage(message)
        return self.listing_cap.check_message(item) or item

    def _oversized(self, line: OversizedLine) -> SessionMessage | Exception:
        """A stdout line over the limit: recorded by its head, answered as unreadable when its id is."""
        note = (
            f"over the {self.max_message_chars:,}-character message limit: "
            f"{line.size:,} characters, first {len(line.head):,} kept"
        )
        if self._wire is not None:
            self._wire.raw(self._cid, Direction.IN, line.head, note=note, protocol="mcp")
        return unreadable_reply(line.head, ValueError(note), size=line.size, limit=self.max_message_chars)

    def _stderr_line(self, line: str) -> None:
        self.info.stderr_tail.append(line)
        if self._wire is not None:
            self._wire.stderr_line(self._cid, line)
        if self._on_stderr is not None:
            self._on_stderr(line)

    async def _shutdown(self, process: anyio.abc.Process, write_send: MemoryObjectSendStream[SessionMessage]) -> None:
        """Close stdin, let a working server finish, then terminate its whole process group."""
        await write_send.aclose()
        if process.stdin is not None:
            with contextlib.suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
                await process.stdin.aclose()
        if await self._wait_while_busy(process):
            return
        for sig, grace in ((signal.SIGTERM, TERM_GRACE), (signal.SIGKILL, KILL_REAP)):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, sig)
            if await _wait_exit(process, grace):
                return
        log.warning("MCP server process %d survived SIGKILL; abandoning it", process.pid)

    async def _wait_while_busy(self, process: anyio.abc.Process) -> bool:
        """Wait for the exit while the child works; returns whether it exited.

        Working means CPU time advanced (Linux ``/proc``; elsewhere a child always counts as working)
        or a line arrived on stdout or stderr during the last ``IDLE_EXIT`` seconds. A child idle for
        that long is not exiting on its own; the grace is not waited out for it.
        """
        loop_time = anyio.current_time
        deadline = loop_time() + STDIN_CLOSE_GRACE
        cpu, activity = _cpu_ticks(process.pid), self._activity
        while (left := deadline - loop_time()) > 0:
            if await _wait_exit(process, min(IDLE_EXIT, left)):
                return True
            now_cpu, now_activity = _cpu_ticks(process.pid), self._activity
            if now_cpu is not None and now_cpu == cpu and now_activity == activity:
                log.debug("MCP server process %d is idle after stdin closed: terminating it", process.pid)
                return False
            cpu, activity = now_cpu, now_activity
        return False


def _cpu_ticks(pid: int) -> int | None:
    """CPU time the process used so far, in clock ticks (``None`` where ``/proc`` does not tell)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
        return int(fields[11]) + int(fields[12])  # utime + stime
    except (OSError, IndexError, ValueError):
        return None


async def _wait_exit(process: anyio.abc.Process, timeout: float) -> bool:
    """Wait up to ``timeout`` seconds for the process to exit (polling: pipes may outlive it)."""
    with anyio.move_on_after(timeout):
        while process.returncode is None:  # noqa: ASYNC110 - pipes may outlive the process; poll the code
            await anyio.sleep(0.01)
    return process.returncode is not None


SUPPORTED = sys.platform != "win32"
