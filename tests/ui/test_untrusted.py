"""Untrusted text stays text: labels, tooltips and markdown never render a server's HTML."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QImage

from workbench.ui.untrusted import SafeTextBrowser, plain_label, plain_tooltip

PROBE = '<b style="font-size:22px;color:red">URGENT</b> <img src="file://{img}"> <a href="file:///etc/passwd">docs</a>'


def _red_png(tmp_path: Path) -> Path:
    img = QImage(64, 64, QImage.Format.Format_RGB32)
    img.fill(QColor(255, 0, 0))
    path = tmp_path / "local.png"
    img.save(str(path))
    return path


def _red_pixels(widget) -> int:
    image = widget.grab().toImage()
    return sum(
        1
        for y in range(0, image.height(), 2)
        for x in range(0, image.width(), 2)
        if QColor(image.pixel(x, y)).red() > 200 and QColor(image.pixel(x, y)).green() < 60
    )


def test_html_tool_description_renders_as_literal_text_in_a_label(qtbot, tmp_path):
    probe = PROBE.format(img=_red_png(tmp_path))
    label = plain_label(probe)
    qtbot.addWidget(label)
    label.resize(900, 120)
    label.show()
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert label.text() == probe
    assert _red_pixels(label) == 0  # neither the red <b> nor the local image was drawn


def test_tooltip_of_untrusted_text_is_escaped(tmp_path):
    probe = PROBE.format(img=_red_png(tmp_path))
    tip = plain_tooltip(probe)
    assert "<img" not in tip
    assert "&lt;img" in tip


def test_markdown_with_html_and_a_local_image_shows_text_and_loads_nothing(qtbot, tmp_path):
    img = _red_png(tmp_path)
    browser = SafeTextBrowser()
    qtbot.addWidget(browser)
    browser.resize(900, 300)
    browser.set_untrusted_markdown(f"# Title\n\n{PROBE.format(img=img)}\n\n![x](file://{img})")
    browser.show()
    assert "<b style" in browser.toPlainText()
    assert _red_pixels(browser) == 0


def test_clicking_a_link_in_untrusted_markdown_never_navigates(qtbot):
    browser = SafeTextBrowser()
    qtbot.addWidget(browser)
    assert not browser.openLinks()
    assert not browser.openExternalLinks()
