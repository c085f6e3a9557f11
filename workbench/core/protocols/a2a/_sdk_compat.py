"""Every private name of the A2A SDK (and its httpx / protobuf stack) the workbench relies on.

Checked against ``a2a-sdk`` 1.3.0. Each use is behind a name here whose docstring names the SDK
version and the private name, with a contract test in ``tests/unit/a2a/`` that runs without npm;
``tests/unit/test_sdk_private_names.py`` fails when one is used anywhere else.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncGenerator
from typing import Any

import httpx
from a2a.client import ClientFactory
from a2a.client.client import ClientCallContext
from a2a.client.errors import A2AClientError
from a2a.client.transports.http_helpers import get_http_args, send_http_stream_request
from a2a.client.transports.jsonrpc import JsonRpcTransport
from a2a.compat.v0_3.versions import is_legacy_version
from a2a.types import AgentCard, AgentInterface, StreamResponse
from a2a.utils.constants import TransportProtocol
from google.protobuf import json_format

from workbench.core.protocols.a2a.stream_parse import stream_response

SDK_VERSION = "1.3.0"
"""The ``a2a-sdk`` version this module was checked against."""
PROTOBUF_VERSION = "7.36.2"
"""The ``protobuf`` version ``SurrogateCheck`` was checked against."""


class SurrogateCheck:
    """protobuf's unpaired-surrogate pattern, searched only in strings that hold a surrogate.

    ``json_format`` (protobuf 7.36.2) searches every string field it parses with the private
    ``_UNPAIRED_SURROGATE_PATTERN``, a regex with look-arounds that Python runs character by
    character: 25-50 ms per MiB on this machine, most of the CPU a stream of large text parts costs
    (status updates and tasks take the SDK's parse, on the window's event loop). A string UTF-8 can
    encode holds no surrogate, so the pattern cannot match it: that is checked in C first
    (``str.isascii`` in constant time, else ``encode``, ~1 ms per MiB), and only a string that fails
    goes to the pattern. The answers are the pattern's own.

    Args:
        pattern: The pattern it stands in for.
    """

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern

    def search(self, value: object) -> re.Match[str] | None:
        """The pattern's match in ``value`` (``None`` without a lone surrogate; what isn't text, as the pattern)."""
        if not isinstance(value, str):
            return self.pattern.search(value)  # type: ignore[call-overload,no-any-return]  # its TypeError
        if value.isascii():
            return None
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return self.pattern.search(value)
        return None


def check_surrogates_fast() -> None:
    """Put ``SurrogateCheck`` in place of ``json_format._UNPAIRED_SURROGATE_PATTERN`` (once)."""
    current = getattr(json_format, "_UNPAIRED_SURROGATE_PATTERN")  # noqa: B009 (private, not in the stubs)
    if not isinstance(current, SurrogateCheck):
        setattr(json_format, "_UNPAIRED_SURROGATE_PATTERN", SurrogateCheck(current))  # noqa: B010 (typed as a Pattern)


check_surrogates_fast()


class AgentJSONRPCError(A2AClientError):
    """A JSON-RPC error an agent sent with a code that names no A2A error: its code, message and data kept.

    The SDK (a2a-sdk 1.3.0) raises a bare ``A2AClientError`` for such a code, its text
    ``"JSON-RPC Error <code>: <message>"`` (1.x) or the message alone (0.3): the code is lost, and
    the text reads like one of the client's own failures.

    Args:
        error: The JSON-RPC error object as the agent sent it.
    """

    def __init__(self, error: dict[str, Any]) -> None:
        code, message = error.get("code"), str(error.get("message", ""))
        super().__init__(f"JSON-RPC error {code}: {message}")
        self.code: object = code
        self.message = message
        self.remote_data: object = error.get("data")
        """The error's ``data`` as sent (any JSON value; ``A2AError.data`` holds only objects)."""


def keep_unknown_code(error: Exception, error_dict: object) -> Exception:
    """``error`` as the SDK built it from ``error_dict``, or an ``AgentJSONRPCError`` for its bare fallback."""
    if type(error) is A2AClientError and isinstance(error_dict, dict):
        return AgentJSONRPCError(error_dict)
    return error


class StreamingJsonRpcTransport(JsonRpcTransport):
    """The SDK's JSON-RPC transport, its event streams read with ``stream_parse.stream_response``.

    Overrides ``JsonRpcTransport._send_stream_request`` (private, a2a-sdk 1.3.0) with the SDK's own
    body except the parse: an artifact chunk of the usual shape is built directly instead of through
    ``json_format.ParseDict`` (about 6 µs per event instead of 50). A plain ``result`` skips
    ``_check_jsonrpc_response`` (private; it returns such a message unchanged); anything else goes
    through it, so errors and malformed messages raise what the SDK raises. SSE error events go to
    the SDK's ``_handle_sse_error`` (private). An error whose code names no A2A error is an
    ``AgentJSONRPCError`` (overrides ``JsonRpcTransport._create_jsonrpc_error``, private).
    """

    def _create_jsonrpc_error(self, error_dict: dict[str, Any]) -> Exception:
        return keep_unknown_code(super()._create_jsonrpc_error(error_dict), error_dict)

    async def _send_stream_request(
        self, rpc_request_payload: dict[str, Any], context: ClientCallContext | None = None
    ) -> AsyncGenerator[StreamResponse, None]:
        http_kwargs = get_http_args(context)
        async for sse_data in send_http_stream_request(
            self.httpx_client,
            "POST",
            self.url,
            None,
            self._handle_sse_error,
            json=rpc_request_payload,
            **http_kwargs,
        ):
            try:
                message = json.loads(sse_data)
            except json.JSONDecodeError as e:
                raise A2AClientError(f"Invalid JSON-RPC response in SSE stream: {e}") from e
            if type(message) is not dict or message.get("error") or "result" not in message:
                message = self._check_jsonrpc_response(message)
            yield stream_response(message["result"])


def use_streaming_jsonrpc(factory: ClientFactory, http: httpx.AsyncClient, interface: AgentInterface) -> None:
    """Make ``factory`` build ``StreamingJsonRpcTransport`` for an A2A 1.x JSON-RPC ``interface``.

    The SDK's own producer (a2a-sdk 1.3.0) builds ``JsonRpcTransport(http, card, url,
    is_shared_httpx=True)`` for a shared client and ``CompatJsonRpcTransport`` likewise for a 0.3
    interface; for that one, a subclass whose unknown error codes are kept
    (``AgentJSONRPCError``, overriding its private ``_create_jsonrpc_error``).
    """
    if interface.protocol_binding != TransportProtocol.JSONRPC:
        return
    if is_legacy_version(interface.protocol_version):
        from a2a.compat.v0_3.jsonrpc_transport import CompatJsonRpcTransport

        class KeepingCompatJsonRpcTransport(CompatJsonRpcTransport):
            def _create_jsonrpc_error(self, error_dict: dict[str, Any]) -> Exception:
                return keep_unknown_code(super()._create_jsonrpc_error(error_dict), error_dict)

        def produce_0_3(card: AgentCard, url: str, _config: object) -> CompatJsonRpcTransport:
            return KeepingCompatJsonRpcTransport(http, card, url, is_shared_httpx=True)

        factory.register(TransportProtocol.JSONRPC, produce_0_3)
        return

    def produce(card: AgentCard, url: str, _config: object) -> StreamingJsonRpcTransport:
        return StreamingJsonRpcTransport(http, card, url, is_shared_httpx=True)

    factory.register(TransportProtocol.JSONRPC, produce)
