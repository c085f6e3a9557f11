"""A run's command for ``forkserver.py``: ``python -I -S forkserver_shim.py SOCKET PROGRAM ARGS...``.

Standard library only, started without ``site``: it hands its arguments, environment, working directory
and standard descriptors to the fork server, then exits with the run's status (1 when the server is gone).
"""

import json
import os
import socket
import struct
import sys


def main() -> int:
    """Hand this process's run to the server at ``sys.argv[1]``; the run's exit status."""
    payload = json.dumps({"argv": sys.argv[2:], "env": dict(os.environ), "cwd": os.getcwd()}).encode()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(sys.argv[1])
        socket.send_fds(conn, [struct.pack("!Q", len(payload))], [0, 1, 2])
        conn.sendall(payload)
        status = b""
        while len(status) < 4:
            chunk = conn.recv(4 - len(status))
            if not chunk:
                print("forkserver_shim: the fork server closed the connection", file=sys.stderr)
                return 1
            status += chunk
    return int(struct.unpack("!i", status)[0])


if __name__ == "__main__":
    sys.exit(main())
