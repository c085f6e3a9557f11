"""A test peer: the Python a2a-sdk's own gRPC server (``GrpcHandler``) in front of the echo agent.

``grpc_agent()`` serves, on loopback ephemeral ports, the gRPC service and, over HTTP, the card
(offering GRPC first, then JSON-RPC on the same request handler, both protocol 1.0). Skipped when
``a2a-sdk[grpc]`` (grpcio) is not installed. ``python -m tests.servers.a2a_grpc_agent`` runs it
and prints the card URL.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest
from a2a.server.request_handlers import DefaultRequestHandler
from a2a.server.routes import create_agent_card_routes, create_jsonrpc_routes
from a2a.server.tasks import InMemoryTaskStore
from a2a.types import AgentInterface
from starlette.applications import Starlette

from tests.support.a2a_agents import ECHO_SKILL, EchoExecutor
from workbench.core.serving import serve_asgi
from workbench.demo.a2a_agents.common import make_card


@contextlib.asynccontextmanager
async def grpc_agent(*, auth_token: str | None = None) -> AsyncIterator[str]:
    """The echo agent over gRPC (card over HTTP); yields the HTTP base URL.

    Args:
        auth_token: When set, every gRPC call must carry ``authorization: Bearer <token>`` metadata
            (else UNAUTHENTICATED).
    """
    grpc = pytest.importorskip("grpc", reason="a2a-sdk[grpc] (grpcio) is not installed")
    from a2a.server.request_handlers import GrpcHandler
    from a2a.types import a2a_pb2_grpc

    server = grpc.aio.server(interceptors=[_BearerCheck(auth_token)] if auth_token else [])
    grpc_port = server.add_insecure_port("127.0.0.1:0")
    handlers: list[DefaultRequestHandler] = []

    def app(base_url: str) -> Starlette:
        card = make_card(base_url, name="gRPC echo", description="The echo agent over gRPC", skills=[ECHO_SKILL])
        grpc_iface = AgentInterface(protocol_binding="GRPC", protocol_version="1.0", url=f"127.0.0.1:{grpc_port}")
        interfaces = [grpc_iface, *card.supported_interfaces[:1]]
        del card.supported_interfaces[:]
        card.supported_interfaces.extend(interfaces)
        handler = DefaultRequestHandler(agent_executor=EchoExecutor(), task_store=InMemoryTaskStore(), agent_card=card)
        handlers.append(handler)
        a2a_pb2_grpc.add_A2AServiceServicer_to_server(GrpcHandler(handler), server)
        return Starlette(routes=[*create_agent_card_routes(card), *create_jsonrpc_routes(handler, rpc_url="/")])

    async with serve_asgi(app) as url:
        await server.start()
        try:
            yield url
        finally:
            await server.stop(grace=1)
            for handler in handlers:
                await handler.aclose()


class _BearerCheck:
    """A gRPC server interceptor refusing calls without the expected bearer token."""

    def __new__(cls, token: str) -> object:
        import grpc

        class Check(grpc.aio.ServerInterceptor):  # type: ignore[misc]
            async def intercept_service(self, continuation, details):  # type: ignore[no-untyped-def]
                metadata = dict(details.invocation_metadata or ())
                if metadata.get("authorization") == f"Bearer {token}":
                    return await continuation(details)

                async def deny(request, context):  # type: ignore[no-untyped-def]
                    await context.abort(grpc.StatusCode.UNAUTHENTICATED, "bearer token required")

                return grpc.unary_unary_rpc_method_handler(deny)

        return Check()


async def _main() -> None:
    async with grpc_agent() as url:
        print(url, flush=True)
        await asyncio.Event().wait()


if __name__ == "__main__":
    asyncio.run(_main())
