"""Private names of the SDKs and of asyncio are used only in the compat modules that test them.

The compat modules (``core/protocols/mcp/_sdk_compat.py``, ``core/protocols/a2a/_sdk_compat.py``,
``ui/_asyncio_compat.py``) each have contract tests; anything else reaching an underscored SDK name
would break silently on an upgrade.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "workbench"
COMPAT = {
    "core/protocols/mcp/_sdk_compat.py",
    "core/protocols/a2a/_sdk_compat.py",
    "ui/_asyncio_compat.py",
}
SDKS = ("mcp", "mcp_types", "a2a", "httpx", "httpx2", "google.protobuf", "asyncio")
# Private (or patched) names of those packages that the workbench has used; a use anywhere but in a
# compat module is a finding. Workbench-internal underscored names are not in this list.
SDK_PRIVATE_NAMES = {
    "_dispatcher",
    "_stamp",
    "_log_level",
    "_session_read_timeout_seconds",
    "_initialize",
    "_initialized",
    "_auth_flow",
    "_perform_authorization",
    "_perform_authorization_code_grant",
    "_exchange_token_authorization_code",
    "_refresh_token",
    "_handle_token_response",
    "_handle_refresh_response",
    "_set_running_loop",
    "validate_tool_result",
    "_send_stream_request",
    "_check_jsonrpc_response",
    "_handle_sse_error",
    "_create_jsonrpc_error",
    "_build_session",
    "_build_capabilities",
    "_on_request",
}
# Known uses waiting to move (path → why); the test fails when one is gone, so the entry goes too.
PENDING: dict[str, str] = {}


def _findings(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            top = node.module
            if top.startswith(SDKS) and (
                any(part.startswith("_") for part in top.split("."))
                or any(alias.name.startswith("_") for alias in node.names)
            ):
                found.append(f"line {node.lineno}: from {top} import …")
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith(SDKS) and any(p.startswith("_") for p in alias.name.split(".")):
                    found.append(f"line {node.lineno}: import {alias.name}")
        elif isinstance(node, ast.Attribute) and node.attr in SDK_PRIVATE_NAMES:
            found.append(f"line {node.lineno}: .{node.attr}")
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name in SDK_PRIVATE_NAMES:
            found.append(f"line {node.lineno}: def {node.name}")
    return found


def test_private_sdk_names_are_used_only_in_the_compat_modules():
    problems, still_pending = [], set()
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel in COMPAT or rel.startswith("demo/"):
            continue
        found = _findings(path)
        if found and rel in PENDING:
            still_pending.add(rel)
        elif found:
            problems.extend(f"workbench/{rel} {f}" for f in found)
    assert problems == [], "private SDK names outside a _sdk_compat module:\n" + "\n".join(problems)
    assert still_pending == set(PENDING), f"no private names left in {set(PENDING) - still_pending}: drop from PENDING"
