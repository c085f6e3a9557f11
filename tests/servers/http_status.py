"""Fault server (HTTP, 127.0.0.1, ephemeral port): `/401` -> 401 + `WWW-Authenticate: Bearer`, `/500` -> HTML 500.

Prints `LISTENING http://127.0.0.1:<port>` once bound; any method works on both paths; others get 404.
Stops on SIGTERM/SIGINT with exit code 0.
"""

from __future__ import annotations

import sys
from http.server import BaseHTTPRequestHandler
from typing import Any

from _threaded_http import serve_until_stopped

ERROR_PAGE = b"<!DOCTYPE html><html><head><title>500</title></head><body><h1>Internal Server Error</h1></body></html>"


class Handler(BaseHTTPRequestHandler):
    """Answers every method the same way, by path."""

    def _answer(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        if length:
            self.rfile.read(length)
        if self.path.startswith("/401"):
            body = b'{"error": "unauthorized"}'
            self.send_response(401)
            self.send_header("WWW-Authenticate", 'Bearer realm="fault-test", error="invalid_token"')
            self.send_header("Content-Type", "application/json")
        elif self.path.startswith("/500"):
            body = ERROR_PAGE
            self.send_response(500)
            self.send_header("Content-Type", "text/html; charset=utf-8")
        else:
            body = b"not found"
            self.send_response(404)
            self.send_header("Content-Type", "text/plain")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = do_POST = do_DELETE = _answer  # noqa: N815 - http.server's naming

    def log_message(self, format: str, *args: Any) -> None:
        sys.stderr.write("http_status: " + format % args + "\n")


def main() -> int:
    return serve_until_stopped(Handler)


if __name__ == "__main__":
    sys.exit(main())
