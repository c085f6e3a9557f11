"""MCP Apps in the window: ``view`` (an app beside its tool's result) and ``page`` (the sandboxed web page)."""
