"""Fault server (stdio, hand-written, legacy era): what it does once its stdin closes is chosen by argv[1].

- ``idle``: ignores the end of stdin and sleeps until it is terminated (SIGTERM ends it).
- ``busy``: keeps computing for ``argv[2]`` seconds (default 0.8), then exits with code 0 by itself.
"""

from __future__ import annotations

import sys
import time

from _jsonrpc import METHOD_NOT_FOUND, handle_handshake, messages, send_error, send_result

NAME = "slow-to-exit"


def main() -> None:
    behaviour = sys.argv[1] if len(sys.argv) > 1 else "idle"
    for message in messages():
        if handle_handshake(message, NAME):
            continue
        request_id = message.get("id")
        if request_id is None:
            continue
        if message.get("method") == "tools/list":
            send_result(request_id, {"tools": []})
        else:
            send_error(request_id, METHOD_NOT_FOUND, "Method not found")
    if behaviour == "busy":
        until = time.monotonic() + (float(sys.argv[2]) if len(sys.argv) > 2 else 0.8)
        while time.monotonic() < until:
            sum(range(10_000))  # work, not sleep: CPU time is how the client sees it is busy
        return
    while True:
        time.sleep(3600)


if __name__ == "__main__":
    main()
