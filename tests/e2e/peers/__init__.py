"""The command line against the MCP reference servers from npm and PyPI (tests/support/peers.py)."""
