"""The MCP Apps extension (``io.modelcontextprotocol/ui``) as the client advertises it: identifier and MIME types.

The SDK 2.3.0 has the server side (``mcp.server.apps``) and, for the client, ``mcp.client.advertise``:
an advertise-only ``ClientExtension``. Apps need nothing from the session (an app's resource is read
and its tools called with the ordinary requests), so the advertisement is the whole client side here;
the host side of an app (its view and bridge) is ``workbench.core.apps`` and the window's.
"""

from __future__ import annotations

from mcp.client import ClientExtension, advertise

APPS_EXTENSION = "io.modelcontextprotocol/ui"
"""The extension's identifier under ``capabilities.extensions``."""
APP_MIME_TYPE = "text/html;profile=mcp-app"
"""The MIME type of an app's ``ui://`` resource; a server checks the client lists it."""


def apps_extension() -> ClientExtension:
    """The advertisement a new SDK ``Client`` gets when the host shows apps: ``{"mimeTypes": [APP_MIME_TYPE]}``."""
    return advertise(APPS_EXTENSION, {"mimeTypes": [APP_MIME_TYPE]})
