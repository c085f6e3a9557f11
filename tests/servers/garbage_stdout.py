"""Fault server (stdio, hand-written, legacy era): a non-JSON stdout line at startup and on every tools/call."""

from __future__ import annotations

from _jsonrpc import ECHO_TOOL, METHOD_NOT_FOUND, handle_handshake, messages, send_error, send_result, write_line

NAME = "garbage-stdout"
STARTUP_GARBAGE = "garbage_stdout: this line is not JSON-RPC (startup)"
CALL_GARBAGE = "garbage_stdout: this line is not JSON-RPC either (tools/call)"


def main() -> None:
    write_line(STARTUP_GARBAGE)
    for message in messages():
        if handle_handshake(message, NAME):
            continue
        method, request_id = message.get("method"), message.get("id")
        if request_id is None:
            continue  # other notifications
        if method == "tools/list":
            send_result(request_id, {"tools": [ECHO_TOOL]})
        elif method == "tools/call":
            write_line(CALL_GARBAGE)
            text = str((message.get("params") or {}).get("arguments", {}).get("text", ""))
            send_result(request_id, {"content": [{"type": "text", "text": text}], "isError": False})
        else:
            send_error(request_id, METHOD_NOT_FOUND, "Method not found")


if __name__ == "__main__":
    main()
