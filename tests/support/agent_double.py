"""Defaults for in-memory agents in unit tests: the parts of ``RemoteAgent`` a test does not script.

A test double subclasses ``ContractDefaults`` and writes only what its test is about (its stream,
its tools); everything else answers as a connected agent with no optional features would.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator, Mapping
from dataclasses import dataclass, field
from typing import Any

from workbench.core.errors import UnsupportedCapabilityError
from workbench.core.protocols.base import AgentEvent, AgentResult, ToolResult
from workbench.core.protocols.catalog import ToolSpec
from workbench.core.protocols.contract import AgentFeatures, LossHandler
from workbench.core.protocols.snapshot import AgentSnapshot
from workbench.core.wire.recorder import WireRecorder


@dataclass(frozen=True)
class DoubleConfig:
    """The contract's ``AgentConfig`` of a double."""

    connection_id: str
    url: str | None
    target_label: str
    connect_timeout: float = 30.0
    request_timeout: float | None = None
    wire: WireRecorder = field(default_factory=WireRecorder)


class ContractDefaults:
    """The contract's members with neutral answers (subclasses set ``name`` and ``protocol``)."""

    name: str = "double"
    connection_id: str = "double"
    protocol: Any = "mcp"
    url: str | None = None
    features: AgentFeatures = AgentFeatures()
    server_features: None = None
    tasks: None = None
    loss_handler: LossHandler | None = None

    @property
    def target_label(self) -> str:
        return f"in-memory {self.name}"

    @property
    def config(self) -> DoubleConfig:
        return DoubleConfig(connection_id=self.connection_id, url=self.url, target_label=self.target_label)

    @property
    def connected(self) -> bool:
        return True

    async def connect(self) -> None:
        return None

    async def aclose(self) -> None:
        return None

    def set_loss_handler(self, handler: LossHandler | None) -> None:
        self.loss_handler = handler

    @property
    def tools(self) -> Mapping[str, Any]:
        return {}

    def tool_specs(self) -> list[ToolSpec]:
        return [ToolSpec(name=name) for name in self.tools]

    def describe(self) -> AgentSnapshot:
        caps = self.capabilities  # type: ignore[attr-defined]
        return AgentSnapshot(protocol=self.protocol, name=self.name, target=self.target_label, capabilities=caps)

    async def call_tool(self, name: str, arguments: Mapping[str, Any] | None = None, **_: Any) -> ToolResult:
        raise UnsupportedCapabilityError(f"{self.name} has no tools.")

    def call_tool_stream(self, name: str, arguments: Mapping[str, Any] | None = None, **_: Any) -> Any:
        raise UnsupportedCapabilityError(f"{self.name} has no tools.")

    def stream_async(self, prompt: Any = None, **kwargs: Any) -> AsyncGenerator[AgentEvent, None]:
        raise UnsupportedCapabilityError(f"{self.name} does not chat.")

    async def invoke_async(self, prompt: Any = None, **kwargs: Any) -> AgentResult:
        raise NotImplementedError

    def __call__(self, prompt: Any = None, **kwargs: Any) -> AgentResult:
        raise NotImplementedError

    def new_conversation(self) -> None:
        return None

    async def cancel(self, task_id: str) -> None:
        return None
