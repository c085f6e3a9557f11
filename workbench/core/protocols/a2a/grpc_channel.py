"""gRPC channels for the A2A gRPC binding: the connection's headers as metadata, messages in the wire log.

The wire log is fed by an httpx tap, which gRPC (HTTP/2 through grpcio's own core) bypasses. So a
client interceptor records what it can see: each request and response message, decoded to JSON
(protobuf field names as on the JSON bindings), as ``raw`` records noted ``gRPC <method>``, plus
a failed call's status. HTTP/2 frames, headers and trailers are not recorded. ``grpcio`` is only
imported here, when a gRPC interface is used.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import grpc  # type: ignore[import-untyped]
from google.protobuf.json_format import MessageToJson
from google.protobuf.message import Message

from workbench.core.wire.records import Direction

if TYPE_CHECKING:
    from workbench.core.wire.recorder import WireRecorder

PROTOCOL = "a2a"
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
"""Largest gRPC message received (grpcio refuses a bigger one with RESOURCE_EXHAUSTED)."""
NOT_RECORDED = "gRPC: messages are recorded decoded; HTTP/2 frames, headers and trailers are not"
"""What the wire log says about a gRPC connection."""


def grpc_target(url: str) -> tuple[str, bool]:
    """``host:port`` of an interface URL and whether it needs TLS (``https://``, ``grpcs://``).

    A card may give ``host:port`` (as the A2A samples do) or a URL with a scheme.
    """
    if "://" not in url:
        return url.rstrip("/"), False
    parts = urlsplit(url)
    secure = parts.scheme in ("https", "grpcs")
    port = parts.port or (443 if secure else 80)
    host = parts.hostname or ""
    return (f"[{host}]" if ":" in host else host) + f":{port}", secure


def _json(message: Any) -> str:
    if isinstance(message, Message):
        return MessageToJson(message, indent=None)
    return repr(message)


class _Tap:
    """Adds the connection's headers as metadata and records every message (see the module docstring)."""

    def __init__(self, headers: Callable[[], Mapping[str, str]], wire: WireRecorder | None, connection_id: str) -> None:
        self._headers = headers
        self._wire = wire
        self._cid = connection_id

    def _details(self, details: grpc.aio.ClientCallDetails) -> grpc.aio.ClientCallDetails:
        metadata = list(details.metadata or [])
        present = {key for key, _ in metadata}
        metadata += [(k.lower(), v) for k, v in self._headers().items() if k.lower() not in present]
        return grpc.aio.ClientCallDetails(
            details.method, details.timeout, metadata, details.credentials, details.wait_for_ready
        )

    def _record(self, direction: Direction, method: str, text: str) -> None:
        if self._wire is not None:
            name = method.rsplit("/", 1)[-1]
            self._wire.raw(self._cid, direction, text, note=f"gRPC {name}", protocol=PROTOCOL)

    def _failed(self, method: str, error: grpc.aio.AioRpcError) -> None:
        self._record(Direction.IN, method, f"status {error.code().name}: {error.details() or ''}")


class _UnaryTap(_Tap, grpc.aio.UnaryUnaryClientInterceptor):  # type: ignore[misc]
    """The tap of unary calls (grpcio files an interceptor under one kind only)."""

    async def intercept_unary_unary(self, continuation: Any, client_call_details: Any, request: Any) -> Any:
        """Send one request; record it and its response."""
        method = _method(client_call_details)
        self._record(Direction.OUT, method, _json(request))
        call = await continuation(self._details(client_call_details), request)
        try:
            response = await call
        except grpc.aio.AioRpcError as exc:
            self._failed(method, exc)
            raise
        self._record(Direction.IN, method, _json(response))
        return call


class _StreamTap(_Tap, grpc.aio.UnaryStreamClientInterceptor):  # type: ignore[misc]
    """The tap of server-streaming calls."""

    async def intercept_unary_stream(self, continuation: Any, client_call_details: Any, request: Any) -> Any:
        """Open a response stream; record the request and each message as it arrives."""
        method = _method(client_call_details)
        self._record(Direction.OUT, method, _json(request))
        call = await continuation(self._details(client_call_details), request)
        return self._relay(method, call)

    async def _relay(self, method: str, call: Any) -> AsyncIterator[Any]:
        try:
            async for response in call:
                self._record(Direction.IN, method, _json(response))
                yield response
        except grpc.aio.AioRpcError as exc:
            self._failed(method, exc)
            raise
        finally:
            call.cancel()  # a no-op once the stream ended; stops it when the reader leaves early


def _method(details: Any) -> str:
    method = details.method
    return method.decode() if isinstance(method, bytes) else str(method)


def channel_factory(
    headers: Callable[[], Mapping[str, str]], wire: WireRecorder | None, connection_id: str
) -> Callable[[str], grpc.aio.Channel]:
    """What the SDK's ``ClientConfig.grpc_channel_factory`` takes: interface URL → channel.

    Args:
        headers: The connection's headers now (sent as metadata on every call, names lower-cased).
        wire: Where messages are recorded (``None``: nowhere).
        connection_id: The connection id the records carry.
    """

    def create(url: str) -> grpc.aio.Channel:
        target, secure = grpc_target(url)
        options = [("grpc.max_receive_message_length", MAX_MESSAGE_BYTES)]
        interceptors = [_UnaryTap(headers, wire, connection_id), _StreamTap(headers, wire, connection_id)]
        if wire is not None:
            wire.raw(connection_id, Direction.LOCAL, f"channel to {target}", note=NOT_RECORDED, protocol=PROTOCOL)
        if secure:
            return grpc.aio.secure_channel(
                target, grpc.ssl_channel_credentials(), options=options, interceptors=interceptors
            )
        return grpc.aio.insecure_channel(target, options=options, interceptors=interceptors)

    return create
