"""A real third-party A2A peer: a pydantic-ai agent on an offline ``FunctionModel``, served by fasta2a.

fasta2a (2.1.1) stamps task statuses with ``datetime.now().isoformat()`` — no time zone — which the
A2A SDK's protobuf parser refuses; the workbench repairs them before the SDK reads them. The model
answers ``echo: <the user's text>`` with no network and no API key. pydantic-ai 2 removed
``Agent.to_a2a()``; ``fasta2a.pydantic_ai.agent_to_a2a`` is its replacement.

``python -m tests.servers.fasta2a_agent [--port N]`` serves it on 127.0.0.1 for trying by hand.
"""

from __future__ import annotations

import argparse
import asyncio
from typing import Any

from starlette.types import ASGIApp

NAME = "fasta2a-echo"


def echo_reply(messages: list[Any], info: Any) -> Any:
    """The model: ``echo: `` and the text of the last user prompt."""
    from pydantic_ai.messages import ModelResponse, TextPart, UserPromptPart

    prompt = ""
    for message in messages:
        for part in getattr(message, "parts", ()):
            if isinstance(part, UserPromptPart):
                content = part.content
                prompt = content if isinstance(content, str) else " ".join(str(c) for c in content)
    return ModelResponse(parts=[TextPart(f"echo: {prompt}")])


def fasta2a_app(base_url: str) -> ASGIApp:
    """The fasta2a app of the echo agent, its card naming ``base_url`` (needs its lifespan to run)."""
    from fasta2a.pydantic_ai import agent_to_a2a
    from pydantic_ai import Agent
    from pydantic_ai.models.function import FunctionModel

    agent = Agent(FunctionModel(echo_reply), name=NAME)
    return agent_to_a2a(agent, name=NAME, url=base_url, description="Echoes what it is sent (offline model).")


async def _serve(port: int) -> None:
    from workbench.core.serving import serve_asgi

    async with serve_asgi(fasta2a_app, port=port, lifespan="on") as url:
        print(url, flush=True)
        await asyncio.Event().wait()


def main() -> None:
    """Serve the agent until interrupted."""
    parser = argparse.ArgumentParser(prog="python -m tests.servers.fasta2a_agent")
    parser.add_argument("--port", type=int, default=0)
    asyncio.run(_serve(parser.parse_args().port))


if __name__ == "__main__":
    main()
