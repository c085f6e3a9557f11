"""Fault server (HTTP, 127.0.0.1, ephemeral port): an A2A agent whose card is CARD_MB MiB (default 50).

Prints `LISTENING http://127.0.0.1:<port>` once bound. `GET /.well-known/agent-card.json` answers
a syntactically valid card whose `description` is the padding, streamed in 1 MiB writes, with its
Content-Length; under `/chunked/` (base URL `http://127.0.0.1:<port>/chunked`) the same card comes
without a Content-Length (ended by closing the connection), so a client cannot refuse it from its
headers. Each disconnect is logged on stderr as `gone after <n> MiB`.
"""

from __future__ import annotations

import os
import sys
from http.server import BaseHTTPRequestHandler
from typing import Any

from _padded import Framing, padded_parts, send_padded
from _threaded_http import serve_until_stopped

CARD_MB = int(os.environ.get("CARD_MB", "50"))


class Handler(BaseHTTPRequestHandler):
    """Serves the oversized card (with or without its length) and 404 elsewhere."""

    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        if not self.path.endswith("/.well-known/agent-card.json"):
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        base = f"http://127.0.0.1:{self.server.server_address[1]}"
        card = {
            "name": "Huge card",
            "description": "",
            "version": "1.0.0",
            "supportedInterfaces": [{"url": base, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
            "capabilities": {"streaming": True},
            "defaultInputModes": ["text/plain"],
            "defaultOutputModes": ["text/plain"],
            "skills": [],
        }
        prefix, suffix = padded_parts(card, "description")
        framing: Framing = "close" if self.path.startswith("/chunked/") else "length"
        if (sent := send_padded(self, prefix, suffix, CARD_MB, framing=framing)) is not None:
            sys.stderr.write(f"gone after {sent} MiB\n")
            sys.stderr.flush()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def main() -> int:
    return serve_until_stopped(Handler)


if __name__ == "__main__":
    sys.exit(main())
