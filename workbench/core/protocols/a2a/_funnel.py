"""The one request/error funnel of an A2A agent: every SDK call goes out here, every failure comes back typed.

A request is a function of the SDK ``Client``. ``request`` connects first when needed, runs it and
maps whatever the SDK, httpx or protobuf raised to a ``WorkbenchError`` naming what was being done
and the URL in use. ``stream`` does the same for the event streams of ``send_message`` and
``subscribe``: the error surfaces where the stream is read. ``errors`` is the mapping itself, for
the few places that hold the client already.

``request_timeout`` bounds a request as a whole: all of a response (httpx's read timeout starts
again with every chunk, so an agent sending a byte a second never hits it), and for a stream the
wait for its first event, the agent's answer; after that, a stream is the running task's, and only
``stream_idle_timeout`` applies: the longest wait for the next whole event (a stream that trickles
a byte a second ends there too).
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable, Iterator
from contextlib import aclosing, contextmanager, nullcontext
from typing import Any, cast

import anyio
from a2a.client import Client
from a2a.types import StreamResponse

from workbench.core.errors import RequestTimeoutError, WorkbenchError
from workbench.core.http.transport import resend_on_reset
from workbench.core.protocols.a2a._session import Session
from workbench.core.protocols.a2a.errors import map_error
from workbench.core.safe_text import neutralise_line


class RequestFunnel:
    """Sends requests through one session's client and turns failures into typed errors.

    Args:
        session: The agent's session (connected lazily by the first request).
    """

    def __init__(self, session: Session) -> None:
        self._session = session

    def map(self, exc: BaseException, doing: str) -> WorkbenchError:
        """The typed error for ``exc``, raised while ``doing`` (``exc`` chained as its cause)."""
        # ``doing`` may name an id the agent chose: one inert line, whatever it holds.
        error = map_error(
            exc, action=neutralise_line(doing), url=self._session.error_url, sent=self._session.unreadable.last
        )
        if error is not exc:
            error.__cause__ = exc
        return error

    @contextmanager
    def errors(self, doing: str) -> Iterator[None]:
        """Map any ``Exception`` raised inside (a ``WorkbenchError`` passes as it is) to a typed error.

        Raises:
            WorkbenchError: Mapped from what the SDK or httpx raised.
        """
        try:
            yield
        except WorkbenchError:
            raise
        except Exception as exc:
            raise self.map(exc, doing) from exc

    async def request[T](self, doing: str, fn: Callable[[Client], Awaitable[T]], *, idempotent: bool = False) -> T:
        """Connect if needed, then run ``fn`` with the SDK client; failures come back typed.

        Args:
            doing: What is being done, for messages ("cancelling task X").
            fn: The request, given the client.
            idempotent: The request changes nothing on the agent (listing, getting): it is sent once
                more when its connection breaks before the answer starts (an idle keep-alive
                connection the agent closed just as the request reused it).

        Raises:
            WorkbenchError: The connection failed, or mapped from what the SDK or httpx raised.
        """
        await self._session.connect()
        client = self._session.require_client()
        seconds = self._session.config.request_timeout
        with self.errors(doing):
            with anyio.move_on_after(seconds), resend_on_reset() if idempotent else nullcontext():
                return await fn(client)
            raise self._timed_out(doing, seconds)

    async def stream(
        self, doing: str, fn: Callable[[Client], AsyncIterator[StreamResponse]]
    ) -> AsyncGenerator[StreamResponse, None]:
        """The events of a streaming request (the agent must be connected); failures raise typed errors.

        Raises:
            UsageError: The agent is not connected.
            RequestTimeoutError: The first event did not arrive within ``request_timeout``.
            WorkbenchError: Mapped from what the SDK or httpx raised while the stream was read.
        """
        client = self._session.require_client()
        seconds = self._session.config.request_timeout
        with self.errors(doing):
            source = cast(AsyncGenerator[StreamResponse, Any], fn(client))  # the SDK returns async generators
            async with aclosing(source) as events:
                with anyio.move_on_after(seconds) as first_wait:
                    first = await anext(events, None)
                if first_wait.cancelled_caught:
                    raise self._timed_out(doing, seconds)
                if first is None:
                    return
                yield first
                idle = self._session.config.stream_idle_timeout
                while True:
                    # A whole event within ``stream_idle_timeout``: httpx's read timeout alone starts again
                    # with every chunk, so a stream trickling a byte a second would never end.
                    with anyio.move_on_after(idle) as wait:
                        event = await anext(events, None)
                    if wait.cancelled_caught:
                        raise self._timed_out(f"{doing} (no event for {idle:g} s)", idle)
                    if event is None:
                        return
                    yield event

    def _timed_out(self, doing: str, seconds: float | None) -> RequestTimeoutError:
        """The error for a request that got no (whole) answer within ``seconds``."""
        url = self._session.error_url
        return RequestTimeoutError(
            f"The agent at {url} did not answer within {seconds:g} s while {neutralise_line(doing)}.",
            hint="raise the timeout (--timeout, request_timeout) if it needs longer; check that the agent is alive",
            details={"url": url, "timeout": seconds},
        )
