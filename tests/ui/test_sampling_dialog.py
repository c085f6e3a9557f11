"""Sampling dialog: the whole request shown as plain text, a reply written (or routed) and approved or rejected."""

from __future__ import annotations

import asyncio
import base64

import pytest
from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
from PySide6.QtGui import QColor, QImage
from PySide6.QtWidgets import QLabel, QPlainTextEdit

from workbench.core.errors import UnreachableError
from workbench.core.protocols.base import ContentPart, SamplingMessage, SamplingRequest, SamplingResponse
from workbench.core.protocols.catalog import ToolSpec
from workbench.ui.asyncutil import wait_signal
from workbench.ui.dialogs.sampling import SamplingDialog, request_text

PROBE = "<b style='color:red'>URGENT</b><img src='file:///etc/passwd'>"


def _png(width: int = 40, height: int = 30) -> str:
    image = QImage(width, height, QImage.Format.Format_RGB32)
    image.fill(QColor(0, 128, 255))
    array = QByteArray()
    buffer = QBuffer(array)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")
    return base64.b64encode(bytes(array)).decode()


def _full_request() -> SamplingRequest:
    return SamplingRequest(
        messages=[
            SamplingMessage("user", [ContentPart("text", text="Relay hello to the weather agent")]),
            SamplingMessage("assistant", [ContentPart("text", text=PROBE)]),
            SamplingMessage(
                "user",
                [
                    ContentPart("image", blob=_png(), mime_type="image/png"),
                    ContentPart("image", blob=base64.b64encode(b"not an image").decode(), mime_type="image/png"),
                    ContentPart("audio", blob=base64.b64encode(b"RIFF....WAVE").decode(), mime_type="audio/wav"),
                ],
            ),
        ],
        max_tokens=321,
        system_prompt="Relay this message to the agent at http://127.0.0.1:9/a2a and return its reply.",
        temperature=0.25,
        stop_sequences=["STOP", "\n\n"],
        metadata={"agent_uri": "http://127.0.0.1:9/a2a"},
        model_preferences={"hints": [{"name": "claude-3-sonnet"}], "costPriority": 0.3, "speedPriority": 0.8},
        include_context="thisServer",
        tools=[
            ToolSpec(
                name="get_weather",
                description="Weather for a city",
                input_schema={"type": "object", "properties": {"city": {"type": "string"}}},
            )
        ],
        agent="Demo server",
    )


def _dialog(qtbot, request: SamplingRequest | None = None, **kw) -> SamplingDialog:
    dialog = SamplingDialog(request or _full_request(), **kw)
    qtbot.addWidget(dialog)
    dialog.open()
    return dialog


def _texts(dialog: SamplingDialog) -> str:
    labels = [w.text() for w in dialog.findChildren(QLabel)]
    edits = [w.toPlainText() for w in dialog.findChildren(QPlainTextEdit)]
    return "\n".join(labels + edits)


def test_every_part_of_the_request_is_shown(qtbot):
    dialog = _dialog(qtbot)
    shown = _texts(dialog)
    for expected in (
        "Demo server",
        "Relay hello to the weather agent",
        PROBE,
        "Relay this message to the agent at http://127.0.0.1:9/a2a",
        "321",
        "0.25",
        '"STOP", "\\n\\n"',
        "claude-3-sonnet",
        "cost 0.3, speed 0.8",
        "thisServer",
        "get_weather — Weather for a city",
        '"agent_uri": "http://127.0.0.1:9/a2a"',
        "image (image/png, 12 bytes) — not shown",
        "audio (audio/wav, 12 bytes) — not played",
    ):
        assert expected in shown or expected in _tool_titles(dialog), expected
    assert "user" in shown and "assistant" in shown


def _tool_titles(dialog: SamplingDialog) -> str:
    from PySide6.QtWidgets import QToolButton

    return "\n".join(b.text() for b in dialog.findChildren(QToolButton))


def test_an_image_gets_a_thumbnail_only_if_it_decodes(qtbot):
    dialog = _dialog(qtbot)
    thumbnails = dialog.findChildren(QLabel, "thumbnail")
    assert len(thumbnails) == 1
    pixmap = thumbnails[0].pixmap()
    assert not pixmap.isNull() and pixmap.width() <= 160 and pixmap.height() <= 120


def test_tool_schemas_start_collapsed_and_expand_on_click(qtbot):
    from PySide6.QtWidgets import QToolButton

    dialog = _dialog(qtbot)
    (toggle,) = [b for b in dialog.findChildren(QToolButton) if b.text().startswith("get_weather")]
    body = toggle.parent().body
    assert not body.isVisibleTo(dialog)
    toggle.click()
    assert body.isVisibleTo(dialog)
    assert '"city"' in body.toPlainText()


def test_request_text_is_plain_and_complete():
    text = request_text(_full_request())
    assert PROBE in text
    assert "Metadata:" in text and "agent_uri" in text
    assert "Tool get_weather: Weather for a city" in text


def test_untrusted_text_is_never_rendered_as_html(qtbot):
    request = SamplingRequest(messages=[SamplingMessage("user", [ContentPart("text", text=PROBE)])], max_tokens=5)
    dialog = _dialog(qtbot, SamplingRequest(**{**_asdict(request), "agent": PROBE, "system_prompt": PROBE}))
    carrying = [label for label in dialog.findChildren(QLabel) if PROBE in label.text()]
    assert len(carrying) >= 2  # the intro line and the "From:" row
    assert all(label.textFormat() == Qt.TextFormat.PlainText for label in carrying)
    edits = [e for e in dialog.findChildren(QPlainTextEdit) if e.toPlainText() == PROBE]
    assert len(edits) == 2  # system prompt and the message, literally


def _asdict(request: SamplingRequest) -> dict:
    return {name: getattr(request, name) for name in request.__dataclass_fields__}


def test_approve_sends_the_written_reply_with_the_default_model(qtbot):
    dialog = _dialog(qtbot)
    assert not dialog.approve_button.isEnabled()
    assert dialog.model_edit.text() == "workbench-human"
    qtbot.keyClicks(dialog.reply_edit, "Hello from a person")
    assert dialog.approve_button.isEnabled()
    dialog.approve_button.click()
    assert not dialog.isVisible()
    assert dialog.response() == SamplingResponse(text="Hello from a person", model="workbench-human")


def test_model_name_and_stop_reason_are_sent_as_chosen(qtbot):
    dialog = _dialog(qtbot, suggestion="prefilled")
    assert dialog.reply_edit.toPlainText() == "prefilled"
    dialog.model_edit.setText("my-model")
    dialog.stop_combo.setCurrentText("maxTokens")
    dialog.approve_button.click()
    assert dialog.response() == SamplingResponse(text="prefilled", model="my-model", stop_reason="maxTokens")


def test_an_empty_model_name_cannot_be_approved(qtbot):
    dialog = _dialog(qtbot, suggestion="x")
    dialog.model_edit.setText("  ")
    assert not dialog.approve_button.isEnabled()


@pytest.mark.parametrize("how", ["button", "escape"])
def test_reject_or_escape_gives_no_response(qtbot, how):
    dialog = _dialog(qtbot, suggestion="would be sent")
    if how == "button":
        dialog.reject_button.click()
    else:
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    assert dialog.response() is None


def test_route_button_is_hidden_without_a_router(qtbot):
    dialog = _dialog(qtbot)
    assert not dialog.route_button.isVisibleTo(dialog)


@pytest.mark.asyncio
async def test_routing_puts_the_other_agents_reply_in_the_editor_for_review(qtbot):
    seen: list[SamplingRequest] = []

    async def router(request: SamplingRequest) -> SamplingResponse:
        seen.append(request)
        await asyncio.sleep(0)
        return SamplingResponse(text="Sunny in Oslo", model="weather-agent")

    request = _full_request()
    dialog = _dialog(qtbot, request, router=router)
    assert dialog.route_button.isVisibleTo(dialog)
    dialog.route_button.click()
    (reply,) = await wait_signal(dialog.routed, timeout=5)
    assert seen == [request]
    assert reply == SamplingResponse(text="Sunny in Oslo", model="weather-agent")
    assert dialog.isVisible() and dialog.response() is None  # the user still decides
    assert dialog.reply_edit.toPlainText() == "Sunny in Oslo"
    dialog.approve_button.click()
    assert dialog.response() == SamplingResponse(text="Sunny in Oslo", model="weather-agent")


@pytest.mark.asyncio
async def test_a_failed_routing_is_reported_and_the_dialog_stays_usable(qtbot):
    async def router(request: SamplingRequest) -> SamplingResponse:
        raise UnreachableError("The agent at http://127.0.0.1:9 is not reachable.")

    dialog = _dialog(qtbot, router=router)
    dialog.route_button.click()
    (error,) = await wait_signal(dialog.route_failed, timeout=5)
    assert error.code == "unreachable"
    assert dialog.route_button.isEnabled()
    assert dialog.status_label.isVisibleTo(dialog)
    dialog.reject_button.click()
    assert dialog.response() is None


@pytest.mark.asyncio
async def test_closing_the_dialog_cancels_a_routing_in_flight(qtbot):
    started = asyncio.Event()
    cancelled = asyncio.Event()

    async def router(request: SamplingRequest) -> SamplingResponse:
        started.set()
        try:
            await asyncio.Event().wait()
        except asyncio.CancelledError:
            cancelled.set()
            raise
        raise AssertionError("unreachable")

    dialog = _dialog(qtbot, router=router)
    dialog.route_button.click()
    await asyncio.wait_for(started.wait(), 5)
    assert not dialog.approve_button.isEnabled() and not dialog.route_button.isEnabled()
    dialog.reject_button.click()
    await asyncio.wait_for(cancelled.wait(), 5)
    assert dialog.response() is None
