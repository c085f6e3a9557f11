"""PyInstaller runtime hook: let the frozen binary run ``workbench -m workbench.<module> ARGS`` like ``python -m``.

In a frozen app ``sys.executable`` is the ``workbench`` binary, so command lines built as
``[sys.executable, "-m", "workbench.demo.mcp_server", "--stdio"]`` (the demo's stdio MCP server) land here.
Only ``workbench.*`` modules are run: the binary is not a general Python launcher.
"""

import sys

if getattr(sys, "frozen", False) and len(sys.argv) >= 3 and sys.argv[1] == "-m":
    _module = sys.argv[2]
    if _module == "workbench" or _module.startswith("workbench."):
        import runpy

        sys.argv = [sys.argv[0], *sys.argv[3:]]
        runpy.run_module(_module, run_name="__main__", alter_sys=True)
        sys.exit(0)
