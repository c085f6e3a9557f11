"""The chat shows what the user answered in a dialog, ends a task with one final line, and renders
markdown artifacts safely, against the demo A2A travel agent."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QUrl
from PySide6.QtGui import QFont, QTextCharFormat, QTextDocument

from tests.support.chat_drawing import draw_all
from tests.support.panel_context import make_context
from workbench.core.conversation import Answer, Artifact, Completion, ItemKind, Question
from workbench.core.profiles import A2AProfile
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import AgentEvent, AgentResult, ArtifactUpdated, Completed, ContentPart
from workbench.demo.a2a_agents import run_demo_agents
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.input_required import InputRequiredDialog
from workbench.ui.panels.chat import ChatWidget
from workbench.ui.prompts import UserPrompts

TRIP = {"departure_date": "2026-12-01", "return_date": "2026-12-08", "travellers": 2, "cabin_class": "business"}
TIMEOUT = 20.0


def headings(doc: QTextDocument) -> list[str]:
    """Texts of the blocks drawn as headings (bold, in a larger font than the text around them)."""
    found = []
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        if not it.atEnd():
            fmt = it.fragment().charFormat()
            larger = fmt.property(QTextCharFormat.Property.FontSizeAdjustment)
            if isinstance(larger, int) and larger > 0 and fmt.fontWeight() >= QFont.Weight.Bold:
                found.append(block.text())
        block = block.next()
    return found


def image_fragments(doc: QTextDocument) -> int:
    found = 0
    block = doc.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            found += it.fragment().charFormat().isImageFormat()
            it += 1
        block = block.next()
    return found


@pytest.mark.asyncio
async def test_the_answer_given_in_the_input_required_dialog_shows_as_the_users_message_and_one_completed_line(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = make_context(tmp_path / "config")
    prompts = UserPrompts(ctx, lambda: None)
    widget = ChatWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(900, 700)
    widget.show()
    prompts.request_answered.connect(widget.viewmodel.on_prompts_request_answered)  # as the window wires it
    try:
        async with run_demo_agents(chunk_delay=0.0) as urls:
            agent = A2AAgent(urls["travel"], name="travel", input_handler=prompts.answer_input, wire=ctx.services.wire)
            conn = await ctx.services.connections.connect(A2AProfile(name="travel", url=urls["travel"]), agent=agent)
            ctx.selection.select(conn.id)
            shown = wait_signal(prompts.prompt_shown, TIMEOUT)
            finished = wait_signal(widget.viewmodel.turn_finished, TIMEOUT)
            widget.input.setPlainText("Plan a trip to Lisbon")
            widget.send_button.click()
            (dialog,) = await shown
            assert isinstance(dialog, InputRequiredDialog)
            dialog.form.set_value(TRIP)
            dialog.send_button.click()
            _, state = await finished
            assert state == "completed"
            draw_all(widget)
            conv = widget.viewmodel.conversation()
            assert conv is not None
            [request] = [i for i in conv if isinstance(i, Question)]
            [answer] = [i for i in conv if isinstance(i, Answer)]
            assert request.status == "answered" and answer.data == TRIP
            assert conv.items.index(answer) == conv.items.index(request) + 1  # right under the question
            assert ("user", answer.text) in conv.messages()
            text = widget.transcript.toPlainText()
            question, reply = text.index("The agent needs input"), text.index("Searching business flights")
            assert question < text.index("You", question) < text.index("Departure date: 2026-12-01") < reply
            assert "Travellers: 2" in text and "Cabin class: business" in text  # named as the form labels them
            fields = [line.split(":")[0] for line in answer.text.splitlines()]
            titles = [prop["title"] for prop in request.schema["properties"].values()]
            assert fields == titles  # in the order the form showed them
            # the task ends with one final line, not a status line and a completion line
            assert [i.state for i in conv if isinstance(i, Completion)] == ["completed"]
            assert "completed" not in [i.state for i in conv.items_of_kind(ItemKind.STATUS)]  # type: ignore[attr-defined]
            assert text.count("■ completed") == 1 and "● completed" not in text
            # the travel agent's artifacts are text/markdown: drawn as markdown, not as raw marks
            brief = next(i for i in conv if isinstance(i, Artifact) and i.title == "Destination brief")
            assert brief.parts[0].mime_type == "text/markdown"
            assert "Lisbon" in headings(widget.transcript.document()) and "# Lisbon" not in text
            assert "fly to Lisbon in business.\nDay 2: walking tour of Lisbon.\n" in text  # its lines stay lines
    finally:
        await ctx.services.connections.aclose()


@pytest.mark.asyncio
async def test_markdown_artifacts_render_without_html_images_or_links_that_open_by_themselves(
    qtbot: Any, tmp_path: Path
) -> None:
    ctx = make_context(tmp_path / "config")
    widget = ChatWidget(ctx)
    qtbot.addWidget(widget)
    widget.resize(900, 700)
    widget.show()
    ctx.selection.select("replay")
    offered: list[QUrl] = []
    ctx.links.link_requested.connect(offered.append)
    markdown = (
        "## Plan\n\n- **Day 1**: <b>arrive</b>\n- Day 2: [map](https://example.org/map)\n\n![x](file:///etc/hostname)\n"
    )

    async def artifacts() -> AsyncIterator[AgentEvent]:
        yield ArtifactUpdated(artifact_id="md", name="Plan", parts=[ContentPart(type="text", text=markdown)])
        yield ArtifactUpdated(
            artifact_id="plain",
            name="Notes",
            parts=[ContentPart(type="text", text="# not a heading", mime_type="text/plain")],
        )
        yield Completed(result=AgentResult(text="done"), protocol="a2a")

    widget.viewmodel.play("replay", "go", artifacts())
    await wait_signal(widget.viewmodel.turn_finished, timeout=TIMEOUT)
    draw_all(widget)
    doc = widget.transcript.document()
    text = widget.transcript.toPlainText()
    assert "Plan" in headings(doc) and "## Plan" not in text  # no media type, but markdown's marks
    assert "<b>arrive</b>" in text  # raw HTML stays text
    assert image_fragments(doc) == 0 and "[image: file:///etc/hostname]" in text
    assert "# not a heading" in text  # text/plain stays as sent
    position = text.index("map")
    cursor = widget.transcript.textCursor()
    cursor.setPosition(position + 1)
    href = cursor.charFormat().anchorHref()
    assert href == "https://example.org/map"
    widget.on_transcript_link_clicked(QUrl(href))
    assert offered == [QUrl("https://example.org/map")]  # to the window's consent gate, not opened
