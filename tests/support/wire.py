"""JSON-RPC wire tools for SDK-level tests: a recording transport wrapper and a client-side task host.

`TapTransport` wraps any `mcp.client.Transport` (stdio, Streamable HTTP, SSE) and records every
JSON-RPC message in both directions into a `WireLog`, which tests can wait on (bounded, no sleeps).
It can also patch the client's `initialize` capabilities (the SDK has no way to advertise
`capabilities.tasks`) and hand server→client task traffic to a `ClientTaskHost`, which plays the
receiver side of SEP-1686 (protocol 2025-11-25) for task-augmented `sampling/createMessage` and
`elicitation/create`: it answers `CreateTaskResult` and then serves the server's `tasks/get`,
`tasks/result`, `tasks/list` and `tasks/cancel` itself. Test-only; the SDK does none of this.
"""

from __future__ import annotations

import copy
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

import anyio
import anyio.abc
import mcp.types as types
from mcp.client import Transport
from mcp.shared.message import SessionMessage

Direction = Literal["in", "out"]
RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task"
TERMINAL_TASK_STATUSES = frozenset({"completed", "failed", "cancelled"})


@dataclass(frozen=True)
class Frame:
    """One JSON-RPC message as seen on the wire (`payload` is camelCase JSON, or a transport fault)."""

    seq: int
    direction: Direction
    at: float
    payload: dict[str, Any] | Exception

    @property
    def method(self) -> str | None:
        """The JSON-RPC method, or None for responses and faults."""
        return self.payload.get("method") if isinstance(self.payload, dict) else None

    @property
    def params(self) -> dict[str, Any]:
        """The params object ({} if absent)."""
        if isinstance(self.payload, dict):
            return self.payload.get("params") or {}
        return {}

    @property
    def is_request(self) -> bool:
        """True for requests (a method and an id)."""
        return isinstance(self.payload, dict) and "method" in self.payload and "id" in self.payload

    @property
    def is_notification(self) -> bool:
        """True for notifications (a method, no id)."""
        return isinstance(self.payload, dict) and "method" in self.payload and "id" not in self.payload


@dataclass
class _Waiter:
    predicate: Callable[[Frame], bool]
    event: anyio.Event
    frame: Frame | None = None


class WireLog:
    """Every frame a `TapTransport` saw, in order, with bounded waits for future frames."""

    def __init__(self) -> None:
        self.frames: list[Frame] = []
        self._waiters: list[_Waiter] = []

    def record(self, direction: Direction, payload: dict[str, Any] | Exception) -> None:
        """Append a frame and wake waiters whose predicate matches it."""
        frame = Frame(seq=len(self.frames), direction=direction, at=time.monotonic(), payload=payload)
        self.frames.append(frame)
        for waiter in list(self._waiters):
            if waiter.predicate(frame):
                waiter.frame = frame
                waiter.event.set()
                self._waiters.remove(waiter)

    async def wait_for(self, predicate: Callable[[Frame], bool], *, timeout: float, since: int = 0) -> Frame:
        """Return the first frame with `seq >= since` matching `predicate`, waiting at most `timeout` s.

        Raises:
            TimeoutError: No matching frame arrived in time.
        """
        for frame in self.frames[since:]:
            if predicate(frame):
                return frame
        waiter = _Waiter(predicate=predicate, event=anyio.Event())
        self._waiters.append(waiter)
        try:
            with anyio.fail_after(timeout):
                await waiter.event.wait()
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
        assert waiter.frame is not None
        return waiter.frame

    def mark(self) -> int:
        """The index the next frame will get (use as `since=`)."""
        return len(self.frames)

    def matching(self, direction: Direction | None = None, method: str | None = None) -> list[Frame]:
        """Frames with the given direction and/or method."""
        return [
            f
            for f in self.frames
            if (direction is None or f.direction == direction) and (method is None or f.method == method)
        ]

    def response_to(self, direction: Direction, request_id: Any) -> Frame | None:
        """The response/error frame travelling in `direction` for `request_id`, if seen."""
        for f in self.frames:
            if (
                f.direction == direction
                and isinstance(f.payload, dict)
                and "method" not in f.payload
                and f.payload.get("id") == request_id
            ):
                return f
        return None


def _dump(item: SessionMessage | Exception) -> dict[str, Any] | Exception:
    if isinstance(item, Exception):
        return item
    return item.message.model_dump(by_alias=True, mode="json", exclude_unset=True)


def _merge(base: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


@dataclass
class HostedTask:
    """A task the client created for a server→client request."""

    task_id: str
    method: str
    request: dict[str, Any]
    status: str
    ttl: int | None
    poll_interval: int
    created_at: str
    last_updated_at: str
    status_message: str | None = None
    result: dict[str, Any] | None = None
    done: anyio.Event = field(default_factory=anyio.Event)

    def wire(self) -> dict[str, Any]:
        """The `Task` object as it goes on the wire (camelCase)."""
        task: dict[str, Any] = {
            "taskId": self.task_id,
            "status": self.status,
            "ttl": self.ttl,
            "createdAt": self.created_at,
            "lastUpdatedAt": self.last_updated_at,
            "pollInterval": self.poll_interval,
        }
        if self.status_message is not None:
            task["statusMessage"] = self.status_message
        return task


Producer = Callable[[HostedTask], Awaitable[dict[str, Any]]]


class ClientTaskHost:
    """Receiver side of task-augmented server→client requests (SEP-1686, 2025-11-25), for tests.

    A `sampling/createMessage` or `elicitation/create` request whose params carry `task` gets a
    `CreateTaskResult` at once; `produce(task)` then runs in the background and its return value
    (a `CreateMessageResult` / `ElicitResult` as camelCase JSON) becomes the task's result.
    While it runs the task reports `pending_status` ("working", or "input_required" for a form
    waiting on the user). The host answers the server's `tasks/get`, `tasks/result` (blocks until
    terminal, like the spec says), `tasks/list` and `tasks/cancel`.
    """

    TASK_METHODS = frozenset({"sampling/createMessage", "elicitation/create"})
    SERVED_METHODS = frozenset({"tasks/get", "tasks/result", "tasks/list", "tasks/cancel"})

    def __init__(self, produce: Producer, *, pending_status: str = "working", poll_interval_ms: int = 500) -> None:
        self.produce = produce
        self.pending_status = pending_status
        self.poll_interval_ms = poll_interval_ms
        self.tasks: dict[str, HostedTask] = {}

    def wants(self, payload: dict[str, Any]) -> bool:
        """True if this inbound request is the host's to answer."""
        method = payload.get("method")
        if "id" not in payload:
            return False
        if method in self.TASK_METHODS:
            return isinstance((payload.get("params") or {}).get("task"), dict)
        return method in self.SERVED_METHODS

    async def answer(self, payload: dict[str, Any], tg: anyio.abc.TaskGroup) -> dict[str, Any] | types.ErrorData:
        """Produce the JSON-RPC result (or error) for an inbound request the host wants."""
        method: str = payload["method"]
        params: dict[str, Any] = payload.get("params") or {}
        if method in self.TASK_METHODS:
            created = _now()
            task = HostedTask(
                task_id=secrets.token_hex(8),
                method=method,
                request=payload,
                status=self.pending_status,
                ttl=params["task"].get("ttl"),
                poll_interval=self.poll_interval_ms,
                created_at=created,
                last_updated_at=created,
            )
            self.tasks[task.task_id] = task
            tg.start_soon(self._run, task)
            return {"task": task.wire()}
        if method == "tasks/list":
            return {"tasks": [t.wire() for t in self.tasks.values()]}
        task_or_none = self.tasks.get(params.get("taskId", ""))
        if task_or_none is None:
            return types.ErrorData(code=types.INVALID_PARAMS, message="Task not found")
        task = task_or_none
        if method == "tasks/get":
            return task.wire()
        if method == "tasks/cancel":
            if task.status in TERMINAL_TASK_STATUSES:
                return types.ErrorData(code=types.INVALID_PARAMS, message=f"Task is {task.status}")
            self._settle(task, "cancelled", None)
            return task.wire()
        # tasks/result: block until terminal, then the stored result with the related-task stamp
        await task.done.wait()
        if task.result is None:
            return types.ErrorData(code=types.INVALID_PARAMS, message=f"Task is {task.status}")
        meta = {**task.result.get("_meta", {}), RELATED_TASK_META_KEY: {"taskId": task.task_id}}
        return {**task.result, "_meta": meta}

    async def _run(self, task: HostedTask) -> None:
        try:
            result = await self.produce(task)
        except Exception as exc:  # the task fails; the server reads that via tasks/get
            self._settle(task, "failed", None, message=repr(exc))
            return
        if task.status not in TERMINAL_TASK_STATUSES:
            self._settle(task, "completed", result)

    @staticmethod
    def _settle(task: HostedTask, status: str, result: dict[str, Any] | None, message: str | None = None) -> None:
        task.status = status
        task.result = result
        task.status_message = message
        task.last_updated_at = _now()
        task.done.set()


class _TapRead:
    def __init__(self, owner: TapTransport, inner: Any) -> None:
        self._owner, self._inner = owner, inner

    @property
    def last_context(self) -> Any:
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        while True:
            item = await self._inner.receive()
            payload = _dump(item)
            self._owner.log.record("in", payload)
            host = self._owner.task_host
            if host is not None and isinstance(payload, dict) and host.wants(payload):
                self._owner.serve(payload)
                continue
            return item

    def __aiter__(self) -> _TapRead:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _TapRead:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class _TapWrite:
    def __init__(self, owner: TapTransport, inner: Any) -> None:
        self._owner, self._inner = owner, inner

    async def send(self, item: SessionMessage) -> None:
        extra = self._owner.extra_capabilities
        message = item.message
        if extra and isinstance(message, types.JSONRPCRequest) and message.method == "initialize":
            params = dict(message.params or {})
            params["capabilities"] = _merge(params.get("capabilities") or {}, extra)
            item = SessionMessage(message=message.model_copy(update={"params": params}), metadata=item.metadata)
        self._owner.log.record("out", _dump(item))
        await self._inner.send(item)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def __aenter__(self) -> _TapWrite:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


class TapTransport:
    """Wrap a client `Transport`: record all frames; optionally patch capabilities and host tasks.

    Args:
        inner: The transport to wrap (`stdio_client(...)`, `streamable_http_client(...)`, `sse_client(...)`).
        log: Where frames go (a new `WireLog` if omitted; read it back from `.log`).
        extra_capabilities: Deep-merged into `initialize` `params.capabilities` (e.g. `{"tasks": ...}`).
        task_host: Answers server→client task traffic instead of the SDK session.
    """

    def __init__(
        self,
        inner: Transport,
        log: WireLog | None = None,
        *,
        extra_capabilities: Mapping[str, Any] | None = None,
        task_host: ClientTaskHost | None = None,
    ) -> None:
        self._inner = inner
        self.log = log if log is not None else WireLog()
        self.extra_capabilities = extra_capabilities
        self.task_host = task_host
        self._tg: anyio.abc.TaskGroup | None = None
        self._write: _TapWrite | None = None

    def serve(self, payload: dict[str, Any]) -> None:
        """Answer an inbound request with the task host, in the background."""
        assert self._tg is not None
        self._tg.start_soon(self._serve, payload)

    async def _serve(self, payload: dict[str, Any]) -> None:
        assert self.task_host is not None
        assert self._write is not None
        assert self._tg is not None
        outcome = await self.task_host.answer(payload, self._tg)
        message: types.JSONRPCMessage
        if isinstance(outcome, types.ErrorData):
            message = types.JSONRPCError(jsonrpc="2.0", id=payload["id"], error=outcome)
        else:
            message = types.JSONRPCResponse(jsonrpc="2.0", id=payload["id"], result=outcome)
        await self._write.send(SessionMessage(message=message))

    async def __aenter__(self) -> tuple[_TapRead, _TapWrite]:
        self._tg = anyio.create_task_group()
        await self._tg.__aenter__()
        try:
            read, write = await self._inner.__aenter__()
        except BaseException as exc:
            self._tg.cancel_scope.cancel()
            await self._tg.__aexit__(type(exc), exc, exc.__traceback__)
            raise
        self._write = _TapWrite(self, write)
        return _TapRead(self, read), self._write

    async def __aexit__(self, *exc: Any) -> bool | None:
        assert self._tg is not None
        try:
            return await self._inner.__aexit__(*exc)
        finally:
            # Host tasks may still wait on a result nobody will fetch now.
            self._tg.cancel_scope.cancel()
            await self._tg.__aexit__(None, None, None)
