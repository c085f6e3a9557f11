"""Demo firehose agent: streams N artifact chunks as fast as it can (for benchmarks and stress tests).

Send the number of chunks as text (default 1000). ``python -m workbench.demo.a2a_agents.firehose``
serves it and prints ``LISTENING <url>``.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from a2a.helpers import new_task_from_user_message, new_text_part
from a2a.server.agent_execution import AgentExecutor, RequestContext
from a2a.server.events import EventQueue
from a2a.server.tasks import TaskUpdater
from a2a.types import AgentSkill
from starlette.applications import Starlette

from workbench.demo.a2a_agents.common import make_app, make_card, serve_agent

SKILL = AgentSkill(
    id="firehose",
    name="Firehose",
    description="Streams the given number of artifact chunks as fast as possible.",
    tags=["benchmark", "demo"],
    examples=["5000"],
)


class FirehoseExecutor(AgentExecutor):
    """Streams ``int(text)`` artifact chunks, then completes."""

    async def execute(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Stream the chunks."""
        assert context.message is not None
        task = new_task_from_user_message(context.message)
        await event_queue.enqueue_event(task)
        up = TaskUpdater(event_queue, task.id, task.context_id)
        text = context.get_user_input().strip()
        n = int(text) if text.isdigit() else 1000
        await up.start_work()
        for i in range(n):
            await up.add_artifact(
                [new_text_part(f"chunk {i}\n")],
                artifact_id="stream",
                name="stream",
                append=i > 0,
                last_chunk=i == n - 1,
            )
        await up.complete()

    async def cancel(self, context: RequestContext, event_queue: EventQueue) -> None:
        """Cancel the stream."""
        task = context.current_task
        assert task is not None
        await TaskUpdater(event_queue, task.id, task.context_id).cancel()


def build_firehose_app(base_url: str) -> Starlette:
    """The firehose agent's app for ``base_url``."""
    card = make_card(base_url, name="Firehose (demo)", description="Streams many chunks fast.", skills=[SKILL])
    return make_app(card, FirehoseExecutor())


async def _main(port: int) -> None:
    async with serve_agent(build_firehose_app, port=port) as url:
        print(f"LISTENING {url}", flush=True)
        await asyncio.Event().wait()


def main(argv: list[str] | None = None) -> int:
    """Serve the firehose agent until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m workbench.demo.a2a_agents.firehose")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    try:
        asyncio.run(_main(args.port))
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
