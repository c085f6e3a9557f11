"""The TLS context every HTTP client of the process verifies servers with: built once, shared.

Building one (``create_ssl_context``: the CA bundle read and parsed) costs 20-30 ms of CPU, and each of
``httpx``'s and ``httpx2``'s transports built its own: every connection, login, card fetch and model call
paid it again, on the window's event loop. A ``ssl.SSLContext`` is made to be shared by many connections;
this one is built as ``httpx.create_ssl_context()`` builds the default (certifi's bundle, or
``SSL_CERT_FILE`` / ``SSL_CERT_DIR`` when set), when a client first needs it.
"""

from __future__ import annotations

import functools
import ssl


@functools.cache
def verifying_context() -> ssl.SSLContext:
    """The shared context that verifies servers' certificates (hostname checked), as httpx's default does."""
    import httpx  # the default's rules, and only when a client is built

    return httpx.create_ssl_context()
