"""Watching an A2A → MCP proxy at work: its own MCP call shown as a ``PROXY`` hop, seen from its status and result.

A message is a proxy request when it is a JSON object naming ``target_mcp_server_id`` and
``tool_name`` (``tool_calls.proxy_request``), whoever receives it. The hop starts when the agent
says it is working and ends with what it answered: its ``mcp-result`` data, or its failure.
"""

from __future__ import annotations

import json
from typing import Any

from workbench.core.errors import WorkbenchError
from workbench.core.handoff.agent_tools import RegisteredAgent
from workbench.core.handoff.events import HopKind, HopState
from workbench.core.handoff.hops import Hop
from workbench.core.handoff.lifecycle import HopLifecycle, jsonable
from workbench.core.handoff.tool_calls import proxy_outcome, proxy_request
from workbench.core.protocols.base import AgentEvent, AgentResult, StatusChanged, parts_text

PROXY_PROTOCOL = "mcp"
"""The label of a proxy hop: the call it shows is the proxy's MCP call (the pattern's definition)."""


class ProxyWatch:
    """One message to a proxy agent, whose MCP call is drawn as a hop under the message's hop.

    Args:
        lifecycle: Starts and ends the proxy hop.
        entry: The agent the request went to.
        parent: The hop that carried the request.
        request: The proxy request (``target_mcp_server_id``, ``tool_name``, ``arguments``).
    """

    def __init__(self, lifecycle: HopLifecycle, entry: RegisteredAgent, parent: Hop, request: dict[str, Any]) -> None:
        self._lifecycle = lifecycle
        self._entry = entry
        self._parent = parent
        self._request = request
        self.hop: Hop | None = None
        """The proxy hop, once the agent said it is working."""

    @classmethod
    def of(cls, lifecycle: HopLifecycle, entry: RegisteredAgent, parent: Hop, message: str) -> ProxyWatch | None:
        """A watch for ``message`` if it is a proxy request, else ``None``."""
        request = proxy_request(message)
        return cls(lifecycle, entry, parent, request) if request is not None else None

    def saw(self, event: AgentEvent) -> None:
        """An event of the agent's stream: the first ``working`` status starts the proxy hop."""
        if self.hop is None and isinstance(event, StatusChanged) and event.state == "working":
            self.hop = self._start()

    def failed(self, error: WorkbenchError) -> None:
        """The agent's stream failed: so did the proxy hop, if it started."""
        if self.hop is not None:
            self._lifecycle.fail(self.hop, error)

    def finish(self, result: AgentResult) -> None:
        """The agent answered: end the proxy hop (started now if the agent never said it was working)."""
        hop = self.hop if self.hop is not None else self._start()
        outcome = proxy_outcome(result.structured) or {}
        error = outcome.get("error")
        book = self._lifecycle.book
        if result.state == "completed" and not outcome.get("is_error") and error is None:
            mcp_result = outcome.get("result") if isinstance(outcome.get("result"), dict) else {}
            book.emit(hop, HopState.DONE, parts_text(result.parts), {"result": jsonable(mcp_result)})
            return
        body = error if isinstance(error, dict) else {"code": "tool-error", "message": result.text}
        book.emit(hop, HopState.FAILED, str(body.get("message", result.text)), {"error": jsonable(body)})

    def _start(self) -> Hop:
        request = self._request
        server_id = str(request["target_mcp_server_id"])
        target = (self._entry.proxy_targets or {}).get(server_id, f"mcp:{server_id}")
        book = self._lifecycle.book
        hop = book.start(
            parent=self._parent,
            source=self._entry.name,
            target=target,
            protocol=PROXY_PROTOCOL,
            kind=HopKind.PROXY,
            connection_id=None,
        )
        arguments = request.get("arguments") if isinstance(request.get("arguments"), dict) else {}
        book.emit(
            hop,
            HopState.WORKING,
            f"{request['tool_name']} {json.dumps(arguments, ensure_ascii=False)}",
            {"tool": request["tool_name"], "server_id": server_id, "arguments": jsonable(arguments), "observed": True},
        )
        return hop
