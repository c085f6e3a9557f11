"""Demo tools returning non-text content: an image, an audio clip, a resource link and an embedded resource."""

from __future__ import annotations

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.utilities.types import Audio, Image
from mcp_types import ContentBlock, EmbeddedResource, ResourceLink, TextContent, TextResourceContents

from workbench.demo.mcp_server.media import make_png, make_wav


def register(server: MCPServer) -> None:
    """Register the media tools on `server`."""

    @server.tool(description="Return a 16x16 PNG gradient (image content).")
    def tiny_image() -> Image:
        return Image(data=make_png(16), format="png")

    @server.tool(description="Return a quarter-second 440 Hz beep (audio content, WAV).")
    def audio_clip() -> Audio:
        return Audio(data=make_wav(), format="wav")

    @server.tool(description="Return a resource link to demo://readme and an embedded demo://items/42.")
    def resource_link_tool() -> list[ContentBlock]:
        return [
            TextContent(text="Here is a link and an embedded resource."),
            ResourceLink(
                uri="demo://readme",
                name="readme",
                title="Demo README",
                mime_type="text/markdown",
                description="What this demo server offers",
            ),
            EmbeddedResource(
                resource=TextResourceContents(uri="demo://items/42", mime_type="text/plain", text="Item 42: Towel")
            ),
        ]
