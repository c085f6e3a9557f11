"""MCP Apps (``io.modelcontextprotocol/ui``): a tool's ``ui://`` app, read, checked and bridged, without Qt.

- ``resource``: which tool has an app, the app's HTML and its CSP and permission requests (``AppResource``),
  the Content-Security-Policy and the origins a host allows it;
- ``bridge``: the host side of the app's postMessage JSON-RPC (``AppBridge``): initialize, tool input and
  result, tools/call, resources/read, open-link, size changes, teardown; every message a wire record, bounded.

Import from the module that holds a name; this ``__init__`` imports nothing.
"""
