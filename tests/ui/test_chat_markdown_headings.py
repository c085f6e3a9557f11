"""Markdown headings in the chat keep their level: ``#``, ``##`` and ``###`` are three visibly distinct levels.

Against the demo MCP server in process (the ``ask`` tool's ``help`` reply, drawn as an agent message)
and the demo A2A travel agent (its text/markdown destination brief, drawn as an artifact).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtGui import QTextDocument

from tests.support.chat_drawing import draw_all
from tests.support.panel_context import make_context
from workbench.core.conversation import AgentMessage, Artifact
from workbench.core.profiles import A2AProfile, MCPStdioProfile
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.mcp import MCPAgent
from workbench.demo.a2a_agents import run_demo_agents
from workbench.demo.mcp_server.app import build_server
from workbench.ui.asyncutil import wait_signal
from workbench.ui.panels.chat import ChatWidget
from workbench.ui.prompts import UserPrompts

TIMEOUT = 20.0


def heading_blocks(doc: QTextDocument) -> dict[str, tuple[int, float, float]]:
    """Each heading's text → (level, point size, space above) as laid out in the transcript."""
    found = {}
    block = doc.begin()
    while block.isValid():
        level = block.blockFormat().headingLevel()
        if level:
            it = block.begin()
            size = it.fragment().charFormat().font().pointSizeF() if not it.atEnd() else 0.0
            found[block.text()] = (level, size, block.blockFormat().topMargin())
        block = block.next()
    return found


def body_size(doc: QTextDocument, text: str) -> float:
    """The point size of the first block starting with ``text``."""
    block = doc.begin()
    while block.isValid():
        if block.text().startswith(text):
            return block.begin().fragment().charFormat().font().pointSizeF()
        block = block.next()
    raise AssertionError(f"no block starts with {text!r}")


def assert_three_levels(doc: QTextDocument, h1: str, h2: str, h3: str, body: str) -> None:
    headings = heading_blocks(doc)
    assert [headings.get(h, (0,))[0] for h in (h1, h2, h3)] == [1, 2, 3]  # every heading keeps its level
    sizes = [headings[h][1] for h in (h1, h2, h3)] + [body_size(doc, body)]
    assert sizes == sorted(sizes, reverse=True) and len(set(sizes)) == 4  # each level its own size
    spaces = [headings[h][2] for h in (h1, h2, h3)]
    assert spaces == sorted(spaces, reverse=True) and spaces[-1] > 0  # and more room above a higher level


@pytest.mark.asyncio
async def test_an_mcp_agents_markdown_reply_draws_h1_h2_h3_as_three_levels(qtbot: Any, tmp_path: Path) -> None:
    ctx = make_context(tmp_path / "config")
    widget = ChatWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(900, 700)
    widget.show()
    try:
        agent = MCPAgent.in_process(build_server(), name="demo", wire=ctx.services.wire)
        profile = MCPStdioProfile(id="demo", name="demo", command="unused")
        conn = await ctx.services.connections.connect(profile, agent=agent)
        ctx.selection.select(conn.id)
        finished = wait_signal(widget.viewmodel.turn_finished, TIMEOUT)
        widget.input.setPlainText("help")
        widget.send_button.click()
        _, state = await finished
        assert state == "completed"
        draw_all(widget)
        conv = widget.viewmodel.conversation()
        assert conv is not None
        assert any(isinstance(i, AgentMessage) and i.text.startswith("# Demo agent") for i in conv)
        text = widget.transcript.toPlainText()
        assert "# Demo agent" not in text and "## What it answers" not in text  # drawn, not shown raw
        assert_three_levels(widget.transcript.document(), "Demo agent", "What it answers", "Weather", "Fixed rules")
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_an_a2a_agents_markdown_artifact_draws_h1_h2_h3_as_three_levels(qtbot: Any, tmp_path: Path) -> None:
    ctx = make_context(tmp_path / "config")
    prompts = UserPrompts(ctx, lambda: None)
    widget = ChatWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(900, 700)
    widget.show()
    try:
        async with run_demo_agents(chunk_delay=0.0) as urls:
            agent = A2AAgent(urls["travel"], name="travel", input_handler=prompts.answer_input, wire=ctx.services.wire)
            conn = await ctx.services.connections.connect(A2AProfile(name="travel", url=urls["travel"]), agent=agent)
            ctx.selection.select(conn.id)
            shown = wait_signal(prompts.prompt_shown, TIMEOUT)
            widget.input.setPlainText("Plan a trip to Lisbon")
            widget.send_button.click()
            (dialog,) = await shown  # the brief came before the question
            draw_all(widget)
            conv = widget.viewmodel.conversation()
            assert conv is not None
            brief = next(i for i in conv if isinstance(i, Artifact) and i.title == "Destination brief")
            assert brief.parts[0].mime_type == "text/markdown"
            assert_three_levels(widget.transcript.document(), "Lisbon", "When to go", "Getting around", "Spring")
            finished = wait_signal(widget.viewmodel.turn_finished, TIMEOUT)
            dialog.reject()
            await finished
    finally:
        await ctx.services.connections.aclose()
