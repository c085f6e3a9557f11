"""Which JSON-RPC errors the server itself sent, told apart from the ones the client side made up.

The MCP SDK reports its own failures as JSON-RPC errors too: -32000 when the connection closed,
-32001 when a request timed out, and the Streamable HTTP transport answers a request the server
left unanswered with a stand-in error (the stream ended, the body was unreadable, an HTTP error
status). A server may send any of those codes itself, meaning something else. The code alone
cannot tell them apart; where the error came from can:

- a transport's stand-in is a ``StandInError`` (the transports are set up to make them so);
- every other error message that arrives on the read stream is the server's, and ``ServerErrors``
  notes it by the id of the request it answered;
- an error raised without any such message arriving (the SDK's timeout, a closed connection) is
  the client side's own.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Collection

from mcp import MCPError
from mcp.shared.message import SessionMessage
from mcp.types import ErrorData, JSONRPCError

from workbench.core.http.limits import rpc_id_key

KEPT = 256
"""How many server errors are remembered (the oldest are forgotten first)."""


class StandInError(ErrorData):
    """An error the client side made up for a request the server did not answer (never the server's)."""


class ServerErrors:
    """The JSON-RPC errors a server sent, by the id of the request each answered (the last ``KEPT``).

    Each is kept as its code and a hash of its message (a message may be large; a hostile server may
    send many).
    """

    def __init__(self) -> None:
        self._seen: OrderedDict[str, tuple[int, int]] = OrderedDict()

    def note(self, item: SessionMessage | Exception) -> None:
        """Note ``item`` if it is an error response the server sent (stand-ins are not)."""
        if not isinstance(item, SessionMessage):
            return
        message = item.message
        if not isinstance(message, JSONRPCError) or message.id is None or isinstance(message.error, StandInError):
            return
        key = rpc_id_key(message.id)
        self._seen[key] = (message.error.code, hash(message.error.message))
        self._seen.move_to_end(key)
        while len(self._seen) > KEPT:
            self._seen.popitem(last=False)

    def sent(self, error: MCPError, request_ids: Collection[str] | None) -> bool:
        """Whether the server sent ``error`` (its code and message) in answer to one of ``request_ids``.

        Args:
            error: What the SDK raised.
            request_ids: The ids of the requests it may answer (as ``rpc_id_key`` writes them);
                ``None``: any request remembered.
        """
        wanted = (error.code, hash(error.error.message))
        if request_ids is None:
            return wanted in self._seen.values()
        return any(self._seen.get(key) == wanted for key in request_ids)
