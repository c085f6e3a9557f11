"""The HTTP client a model endpoint's SDK is given, so that its exchanges land in the wire log, redacted.

Both official model SDKs (``openai``, ``anthropic``) send through ``httpx2`` and take an ``httpx2.AsyncClient``
(``http_client=``). The one built here sends through the wire tap's transport
(``httpx2_transport.Httpx2TapTransport``): each request,
response and streamed event becomes a record of the connection the model works for (protocol ``model``).
The endpoint's key is registered with the recorder's redactor before anything is sent, so neither the
``Authorization`` / ``x-api-key`` header nor an echo of the key in a body is ever shown.
"""

from __future__ import annotations

import httpx2

from workbench.core.http.httpx2_transport import Httpx2TapTransport
from workbench.core.http.tap import HTTPTap
from workbench.core.wire.recorder import WireRecorder

PROTOCOL = "model"
"""The wire records' protocol."""


def tapped_client(wire: WireRecorder, connection_id: str, *, timeout: float, secret: str | None) -> httpx2.AsyncClient:
    """An ``httpx2.AsyncClient`` whose every exchange is recorded on ``connection_id``.

    Args:
        wire: Where records go (its redactor learns ``secret``).
        connection_id: The connection the records carry (the one the model chats for).
        timeout: The client's timeout (seconds).
        secret: The endpoint's API key, if any: redacted wherever it appears.
    """
    if secret:
        wire.redactor.add_secret(secret)
    tap = HTTPTap(wire, connection_id, protocol=PROTOCOL)
    return httpx2.AsyncClient(transport=Httpx2TapTransport(tap), timeout=timeout)
