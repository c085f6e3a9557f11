"""Demo prompts (`greet`, `summarize`) and the completion handler (prompt argument `style`, template `item_id`)."""

from __future__ import annotations

from typing import Annotated

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.prompts.base import AssistantMessage, Message, UserMessage
from mcp_types import Completion, CompletionArgument, CompletionContext, PromptReference, ResourceTemplateReference
from pydantic import Field

from workbench.demo.mcp_server.resources import ITEMS, ITEMS_TEMPLATE

STYLES = ("formal", "casual", "pirate")
_GREETINGS = {
    "formal": "Good day, {name}. It is a pleasure to make your acquaintance.",
    "casual": "Hey {name}! Good to see you.",
    "pirate": "Ahoy, {name}! Welcome aboard, ye landlubber.",
}


def register(server: MCPServer) -> None:
    """Register the prompts and the completion handler on `server`."""

    @server.prompt(title="Greet someone", description="Write a greeting in one of three styles.")
    def greet(
        name: Annotated[str, Field(description="Who to greet")],
        style: Annotated[str, Field(description="formal, casual or pirate")] = "formal",
    ) -> list[Message]:
        example = _GREETINGS.get(style, _GREETINGS["formal"]).format(name=name)
        return [
            UserMessage(f"Please greet {name} in a {style} style."),
            AssistantMessage(example),
        ]

    @server.prompt(title="Summarize a topic", description="Ask for a three-sentence summary of a topic.")
    def summarize(topic: Annotated[str, Field(description="What to summarize")]) -> str:
        return f"Summarize {topic} in three sentences for a newcomer."

    @server.completion()  # type: ignore[no-untyped-call, untyped-decorator]  # the SDK decorator is untyped
    async def complete(
        ref: PromptReference | ResourceTemplateReference,
        argument: CompletionArgument,
        context: CompletionContext | None,
    ) -> Completion | None:
        if isinstance(ref, PromptReference) and ref.name == "greet" and argument.name == "style":
            values = [s for s in STYLES if s.startswith(argument.value.lower())]
        elif isinstance(ref, ResourceTemplateReference) and ref.uri == ITEMS_TEMPLATE and argument.name == "item_id":
            values = [i for i in ITEMS if i.startswith(argument.value)]
        else:
            return None
        return Completion(values=values, total=len(values), has_more=False)
