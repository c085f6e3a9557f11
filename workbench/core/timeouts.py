"""Default timeouts, defined once for the library, the window and the command line.

This module imports nothing, so that the command line's parser can show these values in its help
without loading the core.
"""

from __future__ import annotations

DEFAULT_CONNECT_TIMEOUT = 30.0
"""Seconds to connect and discover, in total (MCP: the handshake; A2A: the card's fetch and the client)."""
DEFAULT_REQUEST_TIMEOUT = 60.0
"""Seconds one request of a saved profile may take, unless the profile says otherwise."""
DEFAULT_LOGIN_TIMEOUT = 300.0
"""Seconds to wait for a browser sign-in to come back (MCP OAuth login, A2A security schemes)."""
