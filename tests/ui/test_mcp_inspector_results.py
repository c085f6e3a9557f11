"""ToolResultView, the template page and untrusted names on hand-made results (no server needed)."""

from __future__ import annotations

import base64

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFormLayout

from tests.support.panel_context import make_context
from workbench.core.protocols.base import ContentPart, ToolResult
from workbench.core.protocols.catalog import PromptArgumentSpec, PromptSpec, ResourceContents, ResourceTemplateSpec
from workbench.ui.panels.inspector.mcp import MCPInspectorWidget
from workbench.ui.panels.inspector.results import (
    AudioPartView,
    ImagePartView,
    JSONPartView,
    ResourceLinkView,
    ToolResultView,
    human_size,
    suggested_file_name,
)


def test_result_view_shows_errors_undecodable_images_unknown_parts_and_raw_json(qtbot):
    view = ToolResultView()
    qtbot.addWidget(view)
    result = ToolResult(
        content=[
            ContentPart("image", blob="%%% not base64", mime_type="image/png"),
            ContentPart("audio", blob=base64.b64encode(b"not a wav").decode(), mime_type="audio/ogg"),
            ContentPart("mystery", data={"x": 1}),
            ContentPart("data", data={"<b>k</b>": [1, 2]}),
        ],
        structured_content={"ok": True},
        is_error=True,
    )
    view.show_result(result, has_output_schema=False)
    assert view.error_banner.isVisibleTo(view)
    assert view.schema_label.text() == "The tool declares no outputSchema."
    image, audio, mystery, data = view.parts.part_views
    assert isinstance(image, ImagePartView) and image.image_size.isEmpty() and image.data is None
    assert not image.save_button.isVisibleTo(image)
    assert isinstance(audio, AudioPartView) and audio.duration_s is None and audio.data == b"not a wav"
    assert isinstance(mystery, JSONPartView) and '"type": "mystery"' in mystery.payload.text()
    assert '"<b>k</b>"' in data.payload.text()
    view.raw_button.click()
    assert '"is_error": true' in view.raw.text()
    view.clear()
    assert view.parts.part_views == [] and not view.error_banner.isVisibleTo(view)


def test_a_resource_link_asks_its_owner_to_read_and_shows_the_answer_or_the_error(qtbot):
    view = ToolResultView()
    qtbot.addWidget(view)
    view.show_result(ToolResult(content=[ContentPart("resource_link", uri="demo://x", name="x")]))
    (link,) = view.links()
    assert isinstance(link, ResourceLinkView)
    with qtbot.waitSignal(view.link_read_requested) as asked:
        link.read_button.click()
    assert asked.args == ["demo://x"]
    assert not link.read_button.isEnabled()
    view.show_link_error("demo://x", "gone")
    assert link.status.text() == "gone" and link.read_button.isEnabled()
    view.show_link_contents(
        "demo://x", ResourceContents("demo://x", [ContentPart("resource", text="hi", uri="demo://x")])
    )
    assert link.contents.part_views[0].payload.text() == "hi"


def test_file_names_and_sizes_for_saving_are_readable():
    assert suggested_file_name(ContentPart("image", mime_type="image/png"), "image") == "image.png"
    assert (
        suggested_file_name(ContentPart("resource", uri="demo://items/4 2", mime_type="text/plain"), "r") == "4_2.txt"
    )
    assert human_size(999) == "999 bytes"
    assert human_size(1_500_000) == "1.5 MB"


def test_server_sent_argument_and_variable_names_are_plain_labels(qtbot, tmp_path):
    widget = MCPInspectorWidget(make_context(tmp_path))
    qtbot.addWidget(widget)
    detail = widget.prompts.detail
    detail.show_prompt(PromptSpec(name="p", arguments=[PromptArgumentSpec(name="<b>who</b>", required=True)]))
    page = widget.resources.template_page
    page.show_template(ResourceTemplateSpec(uri_template="x://{v}{?q}", name="t"))
    for form in (detail._form, page._form):
        label = form.itemAt(0, QFormLayout.ItemRole.LabelRole).widget()
        assert label.textFormat() == Qt.TextFormat.PlainText
        assert label.text().startswith(("<b>who</b>", "v"))


def test_a_template_the_sdk_cannot_expand_shows_why_inline_and_offers_no_read(qtbot, tmp_path):
    widget = MCPInspectorWidget(make_context(tmp_path))
    qtbot.addWidget(widget)
    page = widget.resources.template_page
    page.show_template(ResourceTemplateSpec(uri_template="x://{<i>v</i>}/{w:3}", name="t"))
    assert page.fields == {}
    assert page.banner.isVisibleTo(page) and page.banner.error is not None
    assert page.banner.error.code == "protocol"
    assert page.banner.label.textFormat() == Qt.TextFormat.PlainText
    assert page.template_label.text() == "x://{<i>v</i>}/{w:3}"
    assert page.uri() == "" and not page.read_button.isEnabled()


def test_the_template_page_expands_like_rfc_6570_as_the_fields_are_filled(qtbot, tmp_path):
    widget = MCPInspectorWidget(make_context(tmp_path))
    qtbot.addWidget(widget)
    page = widget.resources.template_page
    page.show_template(ResourceTemplateSpec(uri_template="x://s/{id}{?q,page}", name="t"))
    assert list(page.fields) == ["id", "q", "page"]
    page.fields["id"].setText("a b")
    page.fields["q"].setText("cats")
    assert page.uri_label.text() == "x://s/a%20b?q=cats&page="
    assert not page.read_button.isEnabled()
    assert not page.banner.isVisibleTo(page)
