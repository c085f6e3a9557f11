"""Talking to one agent for a hop: what goes with the message (by what the agent can do), pauses answered, a result.

The first message of a hop starts a fresh conversation where the agent keeps conversations
(``features.conversations``) and carries structured data only where the agent takes data beside its
text (``features.message_data``); an answer to a pause goes back on the paused task and context.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from workbench.core.errors import ProtocolError
from workbench.core.handoff.agent_tools import RegisteredAgent
from workbench.core.handoff.hops import Hop, acting
from workbench.core.handoff.lifecycle import as_error
from workbench.core.handoff.proxy import ProxyWatch
from workbench.core.protocols.base import (
    AgentResult,
    AuthRequired,
    Completed,
    Failed,
    InputRequest,
    InputRequired,
    InputResponse,
)
from workbench.core.protocols.contract import AgentFeatures

PAUSED_STATES = ("input_required", "auth_required")
"""Result states in which the agent waits for an answer on the same task."""

PauseAnswerer = Callable[[str, InputRequest, Hop], Awaitable[InputResponse]]
"""Answers a pause of the agent named first, during the hop given last."""


def opening_options(features: AgentFeatures, data: dict[str, Any] | None) -> dict[str, Any]:
    """The keywords of a hop's first ``stream_async``: a new conversation, and ``data``, where the agent takes them."""
    options: dict[str, Any] = {}
    if features.conversations:
        options["new_conversation"] = True
    if data is not None and features.message_data:
        options["data"] = data
    return options


def resume_options(result: AgentResult) -> dict[str, Any]:
    """The keywords that send an answer to the task ``result`` paused, in its context."""
    return {"task_id": result.task_id, "context_id": result.context_id}


async def converse(
    entry: RegisteredAgent,
    prompt: str,
    hop: Hop,
    answer_pause: PauseAnswerer,
    *,
    data: dict[str, Any] | None = None,
    watch: ProxyWatch | None = None,
) -> AgentResult:
    """Stream ``prompt`` to the agent, answering the pauses it leaves to the caller; its final result.

    A pause answered with ``cancel`` ends the task (cancelled on the agent where ``features.cancel``);
    one answered with nothing (deferred) returns the paused result.

    Raises:
        WorkbenchError: The stream failed, or ended without a result (``ProtocolError``).
    """
    agent = entry.agent
    options = opening_options(agent.features, data)
    sent: str | InputResponse = prompt
    with acting(hop):
        while True:
            result: AgentResult | None = None
            paused: InputRequest | None = None
            async for event in agent.stream_async(sent, **options):
                if watch is not None:
                    watch.saw(event)
                if isinstance(event, InputRequired | AuthRequired):
                    paused = event.request
                elif isinstance(event, Completed):
                    result = event.result
                elif isinstance(event, Failed):
                    error = as_error(event.error, f"asking {entry.name}")
                    if watch is not None:
                        watch.failed(error)
                    raise error
            if result is None:
                raise ProtocolError(f"{entry.name} ended its stream without a result.")
            if result.state in PAUSED_STATES and paused is not None:
                answer = await answer_pause(entry.name, paused, hop)
                if answer.cancel:
                    if agent.features.cancel and result.task_id:
                        await agent.cancel(result.task_id)
                    result = replace(result, state="canceled", is_error=True)
                elif answer.text is not None or answer.data is not None:
                    sent = answer
                    options = resume_options(result)
                    continue
            break
    if watch is not None:
        watch.finish(result)
    return result
