"""The chat pane: talk to the selected MCP server (through its agent entry point) or A2A agent."""

from workbench.ui.panels.chat.viewmodel import ChatViewModel, InputState
from workbench.ui.panels.chat.widget import ChatWidget

__all__ = ["ChatViewModel", "ChatWidget", "InputState"]
