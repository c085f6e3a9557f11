"""One HTTP layer for both protocol adapters, free of the MCP and A2A SDKs.

- ``sse``: incremental server-sent events framing on plain bytes.
- ``tap``: the wire tap (requests, responses, SSE events, transport failures → wire records) and
  what the MCP adapter reads back from it (last status, error response, session id).
- ``transport``: the transports themselves (credential guard, tapped and bounded exchange, body tee),
  free of any HTTP client; ``httpx_transport`` / ``httpx2_transport``: the two tiny shims that give
  them the classes of ``httpx`` (the A2A SDK's client) and ``httpx2`` (the MCP SDK's client); the only
  modules here that import an HTTP client at import time.
- ``status``: HTTP error status → typed error, the same for every protocol.
- ``loopback``: the OAuth loopback redirect receiver; ``browser``: the browser openers.

This package imports neither ``mcp`` nor ``a2a``; the names below import no HTTP client either.
"""

from workbench.core.http.browser import BrowserOpener, follow_redirects_opener, system_browser_opener
from workbench.core.http.loopback import CALLBACK_PATH, AuthorizationResponse, LoopbackReceiver, free_port, redirect_uri
from workbench.core.http.sse import SSEFrame, SSEFramer
from workbench.core.http.status import StatusSeen, http_status_error, public_url
from workbench.core.http.tap import Exchange, HTTPTap

__all__ = [
    "CALLBACK_PATH",
    "AuthorizationResponse",
    "BrowserOpener",
    "Exchange",
    "HTTPTap",
    "LoopbackReceiver",
    "SSEFrame",
    "SSEFramer",
    "StatusSeen",
    "follow_redirects_opener",
    "free_port",
    "http_status_error",
    "public_url",
    "redirect_uri",
    "system_browser_opener",
]
