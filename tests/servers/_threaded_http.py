"""Serve one ``BaseHTTPRequestHandler`` class on 127.0.0.1 until SIGTERM or SIGINT (the fault servers' main).

Prints ``LISTENING http://127.0.0.1:<port>`` once bound (what ``tests.servers.start_listening_process``
waits for); each request runs in a daemon thread, so a handler that never finishes does not hold up
the stop.
"""

from __future__ import annotations

import contextlib
import signal
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def _stop(signum: int, frame: object) -> None:
    raise SystemExit(0)


def serve_until_stopped(handler: type[BaseHTTPRequestHandler], *, path: str = "") -> int:
    """Serve ``handler`` on an ephemeral loopback port until a signal stops it; returns the exit code.

    ``path`` is appended to the printed URL (``/mcp``: the endpoint a client should use).
    """
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    with ThreadingHTTPServer(("127.0.0.1", 0), handler) as httpd:
        httpd.daemon_threads = True
        print(f"LISTENING http://127.0.0.1:{httpd.server_address[1]}{path}", flush=True)
        with contextlib.suppress(SystemExit):
            httpd.serve_forever(poll_interval=0.1)
    return 0
