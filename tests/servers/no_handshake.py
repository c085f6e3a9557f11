"""Fault server (stdio, hand-written): reads every message and answers none, so the handshake never ends.

Each message read is logged on stderr as `got <method>`; it exits when stdin closes.
"""

from __future__ import annotations

from _jsonrpc import log, messages


def main() -> None:
    for message in messages():
        log(f"got {message.get('method')}")


if __name__ == "__main__":
    main()
