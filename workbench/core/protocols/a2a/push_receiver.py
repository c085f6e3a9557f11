"""A loopback HTTP endpoint that receives A2A push notifications for the workbench.

An agent POSTs each task event as bare ``StreamResponse`` JSON to the URL given in a push
notification config, with the config's token in ``X-A2A-Notification-Token``. ``PushReceiver``
listens on 127.0.0.1 (ephemeral port), rejects requests without the right token (401), records
what arrives in the wire log, and hands the parsed events to whoever waits for them.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Any

from a2a.types import StreamResponse
from a2a.utils.proto_utils import parse_lenient
from google.protobuf.json_format import ParseError
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from workbench.core.errors import UsageError
from workbench.core.http.limits import DEFAULT_MAX_MESSAGE_BYTES
from workbench.core.protocols.a2a.normalise import normalise_json
from workbench.core.serving import serve_asgi
from workbench.core.wire.records import WireKind

if TYPE_CHECKING:
    from workbench.core.wire.recorder import WireRecorder

TOKEN_HEADER = "X-A2A-Notification-Token"
PATH = "/a2a/push"


@dataclass(frozen=True, slots=True)
class PushNotification:
    """One push notification as received.

    Attributes:
        task_id: The task it is about ("" if the payload names none).
        event: The parsed ``StreamResponse``.
        payload: The JSON body.
        received_at: Wall-clock arrival time.
    """

    task_id: str
    event: StreamResponse
    payload: dict[str, Any]
    received_at: float = field(default_factory=time.time)


def _task_id_of(event: StreamResponse) -> str:
    kind = event.WhichOneof("payload")
    if kind == "task":
        return event.task.id
    if kind == "status_update":
        return event.status_update.task_id
    if kind == "artifact_update":
        return event.artifact_update.task_id
    if kind == "message":
        return event.message.task_id
    return ""


async def _bounded_body(request: Request, limit: int) -> bytes | None:
    """The request's body, or ``None`` as soon as it passes ``limit`` bytes (the rest is never read)."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        return None
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            return None
        chunks.append(chunk)
    return b"".join(chunks)


class PushReceiver:
    """Receives push notifications on ``url`` while running (``async with PushReceiver() as r``).

    Args:
        host: Loopback interface to listen on.
        token: The token agents must send back (generated when not given).
        recorder: Wire recorder for the received requests (optional).
        connection_id: Connection id for the records.
        max_body_bytes: Most bytes of one notification (a larger one is refused with 413 unread).
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        token: str | None = None,
        recorder: WireRecorder | None = None,
        connection_id: str = "a2a-push",
        max_body_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    ) -> None:
        self.host = host
        self.max_body_bytes = max_body_bytes
        self.token = token or secrets.token_urlsafe(24)
        self.recorder = recorder
        self.connection_id = connection_id
        self.notifications: list[PushNotification] = []
        self.rejected = 0
        self._base: str | None = None
        self._queues: list[tuple[str | None, asyncio.Queue[PushNotification]]] = []
        self._stack: contextlib.AsyncExitStack | None = None
        if recorder is not None:
            recorder.redactor.add_secret(self.token)

    @property
    def url(self) -> str:
        """The URL to give agents.

        Raises:
            UsageError: The receiver is not running.
        """
        if self._base is None:
            raise UsageError("The push receiver is not running.", hint="use 'async with PushReceiver() as r'")
        return self._base + PATH

    async def start(self) -> None:
        """Start listening (idempotent)."""
        if self._stack is not None:
            return
        stack = contextlib.AsyncExitStack()
        self._base = await stack.enter_async_context(serve_asgi(self._app, self.host))
        self._stack = stack

    async def stop(self) -> None:
        """Stop listening (idempotent)."""
        stack, self._stack = self._stack, None
        if stack is not None:
            await stack.aclose()
        self._base = None

    async def __aenter__(self) -> PushReceiver:
        await self.start()
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.stop()

    async def events(self, task_id: str | None = None) -> AsyncIterator[PushNotification]:
        """Yield notifications (for one task, or all) as they arrive, starting with those already received."""
        queue: asyncio.Queue[PushNotification] = asyncio.Queue()
        for n in self.notifications:
            if task_id is None or n.task_id == task_id:
                queue.put_nowait(n)
        entry = (task_id, queue)
        self._queues.append(entry)
        try:
            while True:
                yield await queue.get()
        finally:
            self._queues.remove(entry)

    def _app(self, base: str) -> Starlette:
        return Starlette(routes=[Route(PATH, self._receive, methods=["POST"])])

    async def _receive(self, request: Request) -> Response:
        rec = self.recorder
        if not secrets.compare_digest(request.headers.get(TOKEN_HEADER, ""), self.token):
            # Refused before its body is read: a sender without the token costs nothing.
            self.rejected += 1
            if rec is not None:
                refusal = f"push notification POST {request.url.path} refused: bad or missing token"
                rec.local(self.connection_id, WireKind.HTTP_REQUEST, refusal, "", protocol="a2a")
            return JSONResponse({"error": "bad or missing notification token"}, status_code=401)
        body = await _bounded_body(request, self.max_body_bytes)
        if body is None:
            self.rejected += 1
            if rec is not None:
                refusal = f"push notification POST {request.url.path} refused: over {self.max_body_bytes:,} bytes"
                rec.local(self.connection_id, WireKind.HTTP_REQUEST, refusal, "", protocol="a2a")
            return JSONResponse({"error": f"over {self.max_body_bytes} bytes"}, status_code=413)
        if rec is not None:
            rec.local(
                self.connection_id,
                WireKind.HTTP_REQUEST,
                f"push notification POST {request.url.path} ({len(body)} bytes)",
                body.decode("utf-8", "replace"),
                protocol="a2a",
            )
        try:
            payload = json.loads(body)  # kept as sent; the event is parsed from the repaired JSON
            event = parse_lenient(json.loads(normalise_json(body)), StreamResponse())
        except (ValueError, TypeError, ParseError) as exc:
            return JSONResponse({"error": f"not a StreamResponse: {exc}"}, status_code=400)
        note = PushNotification(task_id=_task_id_of(event), event=event, payload=payload)
        self.notifications.append(note)
        for wanted, queue in list(self._queues):
            if wanted is None or wanted == note.task_id:
                queue.put_nowait(note)
        return Response(status_code=204)
