"""``SessionBudget``: ``max_stream_bytes`` on a stream shared by every request (MCP's legacy HTTP+SSE).

On the legacy transport, requests are POSTed and every answer comes back on the one session
stream, between the server's notifications. That stream lives as long as the connection, so it has
no total; but a request waiting for its answer while the stream carries more than
``max_stream_bytes`` is treated as a Streamable HTTP request whose own stream did: it is refused
naming the limit, and the session stream is closed — the only way to stop a peer that floods it.
(Without a request waiting, the stream may carry as much as it likes; every event still has
``max_message_bytes``.)

The JSON-RPC seam tells the budget which requests went out and which were answered (``sent``,
``answered``, ``settled``); the session stream's meter counts what arrives (``count``).
"""

from __future__ import annotations

from workbench.core.errors import ProtocolError
from workbench.core.http.limits import limit_error, rpc_id_key


class SessionBudget:
    """What the session stream carried while each request waited for its answer.

    Args:
        limit: ``max_stream_bytes`` (``None``: no limit; the budget then only keeps count).
    """

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self.received = 0
        """Bytes the session stream carried so far."""
        self._waiting: dict[str, tuple[int, str]] = {}  # id -> (received when it was sent, method); oldest first

    @property
    def waiting(self) -> int:
        """How many requests wait for their answer."""
        return len(self._waiting)

    def sent(self, rpc_id: object, method: str) -> None:
        """A request went out; from now on what the stream carries counts against it."""
        key = rpc_id_key(rpc_id)
        self._waiting.pop(key, None)  # a re-used id starts again (and moves to the end)
        self._waiting[key] = (self.received, method)

    def answered(self, rpc_id: object) -> None:
        """The answer to a request arrived (or the request was cancelled): it no longer counts."""
        self._waiting.pop(rpc_id_key(rpc_id), None)

    def settled(self, rpc_ids: set[str]) -> None:
        """Requests whose callers stopped waiting (answered, timed out, cancelled)."""
        for key in rpc_ids:
            self._waiting.pop(key, None)

    def count(self, n: int, url: str) -> ProtocolError | None:
        """Count ``n`` bytes the stream carried; the refusal when a waiting request is over the limit.

        The request that waited longest is the one over it first; the refusal names its id and
        method, and forgets it (each refusal is reported once).
        """
        self.received += n
        limit, waiting = self.limit, self._waiting
        if limit is None or not waiting:
            return None
        key, (start, method) = next(iter(waiting.items()))
        carried = self.received - start
        if carried <= limit:
            return None
        del waiting[key]
        return limit_error(
            "max_stream_bytes",
            limit,
            carried,
            url,
            "more on the session stream",
            request_id=key,
            during=f" while '{method[:100]}' waited for its answer",
        )
