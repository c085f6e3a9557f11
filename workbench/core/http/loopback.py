"""The loopback redirect receiver of an OAuth login (RFC 8252 §7.3): one ``GET /callback`` on 127.0.0.1.

It listens on the port registered in the client's redirect URI (or a free one), answers the browser
with a small page and hands the authorization response (``code``, ``state``, ``iss``) to whoever
waits for it; a redirect with ``error=`` becomes an ``AuthRequiredError``. Anything but a ``GET`` of
the callback path gets a 404 and is otherwise ignored. It is a tiny asyncio server rather than a web
framework: it serves one redirect. Both protocol adapters use it.
"""

from __future__ import annotations

import asyncio
import atexit
import contextlib
import secrets
import socket
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from workbench.core.errors import AuthRequiredError, RequestTimeoutError

CALLBACK_PATH = "/callback"
_MAX_HEAD = 16 * 1024
_HEAD_TIMEOUT = 10.0
_PAGE_OK = (
    "<!doctype html><title>Signed in</title><p>Signed in. You can close this window and return to Agent Workbench."
)
_PAGE_ERROR = "<!doctype html><title>Sign-in failed</title><p>Sign-in failed. Return to Agent Workbench for details."
_PAGE_NOT_FOUND = "<!doctype html><title>Not found</title>"
_REASONS = {200: "OK", 400: "Bad Request", 404: "Not Found"}


@dataclass(frozen=True, slots=True)
class AuthorizationResponse:
    """The query of the redirect: a code (with state and issuer) on success."""

    code: str
    state: str | None
    iss: str | None


def redirect_uri(port: int) -> str:
    """The loopback redirect URI registered for ``port``."""
    return f"http://127.0.0.1:{port}{CALLBACK_PATH}"


REDIRECT_PORTS = range(20000, 32768)
"""Where a redirect port is chosen: below the ports systems hand out for outgoing connections (Linux from
32768, Windows and macOS from 49152), so none of this machine's connections takes it between the
registration that names it and a login that listens on it (which may be days later)."""


_RESERVED: dict[int, socket.socket] = {}
"""Ports ``reserve_port`` chose, each held bound (not listening) until a receiver in this process listens on it."""


def free_port(*, tries: int = 32) -> int:
    """A TCP port on 127.0.0.1 that is free now, held by nothing (for a port another process will listen on).

    A random free one of ``REDIRECT_PORTS``, or the system's pick when ``tries`` of them are taken.
    """
    sock = _bound_free_socket(tries)
    with sock:
        port: int = sock.getsockname()[1]
        return port


def reserve_port(*, tries: int = 32) -> int:
    """A port as ``free_port`` chooses it, held for this process until ``LoopbackReceiver`` listens on it here.

    The socket that found it free stays bound, so a check by another process (several logins at once, each
    registering a redirect port) finds it taken instead of choosing it too.
    """
    sock = _bound_free_socket(tries)
    port: int = sock.getsockname()[1]
    if not _RESERVED:
        atexit.register(_release_all)
    _RESERVED[port] = sock
    return port


def _release_all() -> None:
    for port in list(_RESERVED):
        _release(port)


def _bound_free_socket(tries: int) -> socket.socket:
    for port in secrets.SystemRandom().sample(REDIRECT_PORTS, tries):
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            sock.close()
            continue
        return sock
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    return sock


def _release(port: int) -> None:
    """Let go of this process's reservation of ``port`` (its receiver is about to listen there)."""
    reserved = _RESERVED.pop(port, None)
    if reserved is not None:
        reserved.close()


class LoopbackReceiver:
    """Receives the authorization redirect on ``127.0.0.1:port``.

    Use ``start()`` / ``close()``, or ``async with LoopbackReceiver(port) as rx``; ``rx.uri`` goes into
    the authorization request, ``await rx.wait(timeout)`` returns the authorization response.

    Args:
        port: The registered redirect port; 0 picks a free one when listening starts.
    """

    def __init__(self, port: int = 0) -> None:
        self.port = port
        self._server: asyncio.Server | None = None
        self._result: asyncio.Future[AuthorizationResponse] | None = None

    @property
    def uri(self) -> str:
        """The redirect URI this receiver answers (with port 0: known once started)."""
        return redirect_uri(self.port)

    async def start(self) -> None:
        """Start listening (before the browser is sent to the authorization endpoint).

        Raises:
            AuthRequiredError: The port is taken by another program.
        """
        self._result = asyncio.get_running_loop().create_future()
        _release(self.port)
        try:
            self._server = await asyncio.start_server(self._handle, "127.0.0.1", self.port)
        except OSError as exc:
            raise AuthRequiredError(
                f"Cannot receive the OAuth login on 127.0.0.1:{self.port}: {exc.strerror or exc}.",
                hint="another program uses the registered redirect port; logging out forgets the "
                "registration, and the next login registers a new port",
                details={"oauth": "redirect-port-busy", "port": self.port},
            ) from None
        self.port = self._server.sockets[0].getsockname()[1]

    async def __aenter__(self) -> LoopbackReceiver:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def wait(self, timeout: float) -> AuthorizationResponse:
        """The authorization response, once the browser arrives.

        Raises:
            AuthRequiredError: The authorization server redirected back with an error (e.g. the
                user denied access) or without a code; ``details["oauth_error"]`` holds its code.
            RequestTimeoutError: Nothing arrived within ``timeout`` seconds.
        """
        assert self._result is not None, "start() first"
        try:
            return await asyncio.wait_for(asyncio.shield(self._result), timeout)
        except TimeoutError:
            raise RequestTimeoutError(
                f"No OAuth login arrived on {self.uri} within {timeout:.0f} s.",
                hint="finish the login in the browser, or try again",
                details={"oauth": "login-timeout"},
            ) from None

    async def close(self) -> None:
        """Stop listening (idempotent)."""
        server, self._server = self._server, None
        if server is not None:
            server.close()
            with contextlib.suppress(OSError):
                await server.wait_closed()
        if self._result is not None and not self._result.done():
            self._result.cancel()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            try:
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), _HEAD_TIMEOUT)
            except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, TimeoutError, ConnectionError):
                return
            if len(head) > _MAX_HEAD:
                return
            request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
            method, _, rest = request_line.partition(" ")
            target = rest.rpartition(" ")[0] or rest
            parts = urlsplit(target)
            if method != "GET" or parts.path != CALLBACK_PATH:
                await self._respond(writer, 404, _PAGE_NOT_FOUND)
                return
            outcome = self._outcome(parse_qs(parts.query))
            ok = isinstance(outcome, AuthorizationResponse)
            await self._respond(writer, 200 if ok else 400, _PAGE_OK if ok else _PAGE_ERROR)
            result = self._result
            if result is not None and not result.done():
                if isinstance(outcome, AuthorizationResponse):
                    result.set_result(outcome)
                else:
                    result.set_exception(outcome)
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()

    @staticmethod
    def _outcome(query: dict[str, list[str]]) -> AuthorizationResponse | AuthRequiredError:
        def one(name: str) -> str | None:
            values = query.get(name)
            return values[0] if values else None

        code = one("code")
        if code:
            return AuthorizationResponse(code=code, state=one("state"), iss=one("iss"))
        error = one("error") or "invalid_response"
        description = one("error_description")
        return AuthRequiredError(
            f"The authorization server refused the login: {error}" + (f" ({description})" if description else "") + ".",
            hint="try again; if access was denied, ask for the right permissions",
            details={"oauth": "authorization-refused", "oauth_error": error},
        )

    @staticmethod
    async def _respond(writer: asyncio.StreamWriter, status: int, html: str) -> None:
        body = html.encode()
        writer.write(
            f"HTTP/1.1 {status} {_REASONS[status]}\r\nContent-Type: text/html; charset=utf-8\r\n"
            f"Content-Length: {len(body)}\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n".encode()
            + body
        )
        with contextlib.suppress(ConnectionError):
            await writer.drain()
