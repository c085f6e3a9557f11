"""Errors, warnings, help text, banners and check boxes stay readable on the light and the dark palette.

WCAG 2.1 AA, measured with tests/support/colours.contrast on what the widgets draw under each theme's
stylesheet (as ``theme.apply_theme`` gives it to the application): text >= 4.5:1 on its ground, a
control's boundary or a meaningful graphic (a check box's frame, a banner's ✕) >= 3:1.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtGui import QImage, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QCheckBox,
    QListWidget,
    QListWidgetItem,
    QStyle,
    QStyleOptionButton,
    QVBoxLayout,
    QWidget,
)

from tests.support.colours import contrast, strongest, themed
from workbench.core.protocols.base import ToolResult
from workbench.ui import theme
from workbench.ui.banner import ErrorBanner
from workbench.ui.errors import ErrorView
from workbench.ui.forms.schema_form import SchemaForm
from workbench.ui.icons import icon_theme
from workbench.ui.panels.inspector.mcp.inline_error import InlineErrorWidget
from workbench.ui.panels.inspector.results import ToolResultView
from workbench.ui.semantic_colours import GRAPHIC, SWATCHES, TEXT

ROOT = Path(__file__).resolve().parents[2]
PALETTES = ["light", "dark"]
ERROR = ErrorView(
    title="Connecting to 'Broken server'",
    message="Cannot start the server: executable not found.",
    hint="Check the command and PATH.",
    code="connect",
    details="FileNotFoundError",
)


def crop(widget: QWidget, part: QWidget) -> QImage:
    """What ``widget`` draws where ``part`` (a descendant) is: ``part`` on its real ground."""
    return widget.grab(QRect(part.mapTo(widget, QPoint(0, 0)), part.size())).toImage()


def show(qtbot: Any, widget: QWidget, width: int = 520, height: int = 260) -> None:
    qtbot.addWidget(widget)
    widget.resize(width, height)
    widget.show()
    qtbot.waitExposed(widget)


@pytest.mark.parametrize("name", PALETTES)
def test_every_semantic_colour_keeps_its_contrast_on_the_grounds_it_is_drawn_on(qapp: QApplication, name: str) -> None:
    with themed(name, qapp) as palette:
        for key, swatch in SWATCHES.items():
            colour = theme.semantic_color(key, palette)
            assert colour.name() == (swatch.dark if name == "dark" else swatch.light)
            for ground_name in swatch.grounds:
                role = getattr(QPalette.ColorRole, ground_name, None)
                ground = palette.color(role) if role is not None else theme.semantic_color(ground_name, palette)
                assert contrast(colour, ground) >= swatch.minimum, (name, key, ground_name)


def test_the_stylesheets_fill_in_every_semantic_colour_and_the_marks_are_drawn_in_theirs(qapp: QApplication) -> None:
    for name in PALETTES:
        qss = theme.load_stylesheet(name)
        assert not re.findall(r"@[a-z-]+@", qss), name  # every placeholder has a value
    mark = SWATCHES["check-mark"]
    assert mark.light == mark.dark
    for svg in ("check-mark.svg", "partial-mark.svg"):
        strokes = set(re.findall(r'stroke="(#[0-9a-f]{6})"', (ROOT / "resources" / "icons" / svg).read_text()))
        assert strokes == {mark.light}, svg


def test_no_widget_names_a_colour_in_a_stylesheet_or_in_rich_text() -> None:
    # Colours with a meaning come from the theme (set_tone, the banner property, semantic_color); a
    # hex colour written into a widget's stylesheet stays the same on both palettes.
    inline = re.compile(r"(color|background|border)[-a-z]*\s*:\s*#[0-9a-fA-F]{3,6}\b")
    offenders = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "workbench" / "ui").rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if inline.search(line)
    ]
    assert offenders == []


@pytest.mark.parametrize("name", PALETTES)
def test_a_fields_error_the_forms_problem_list_and_help_text_are_readable(
    qtbot: Any, qapp: QApplication, name: str
) -> None:
    schema = {
        "type": "object",
        "properties": {"email": {"type": "string", "format": "email", "description": "Where to send it"}},
        "required": ["email"],
    }
    with themed(name, qapp):
        form = SchemaForm(schema, show_json=False)
        show(qtbot, form)
        field = form.field("email")
        assert field is not None and field.help_label is not None
        field.set_text("ada")
        form.reveal_errors()
        qtbot.waitUntil(lambda: field.error_label.isVisible() and form.errors_label.isVisible())
        for label, floor in ((field.error_label, TEXT), (form.errors_label, TEXT), (field.help_label, TEXT)):
            image = crop(form, label)
            ground = image.pixelColor(image.width() - 1, image.height() - 1)  # past the words' end
            words, ratio = strongest(image, ground)
            assert ratio >= floor, (name, label.objectName(), words.name(), ground.name(), round(ratio, 2))


def _indicator(box: QCheckBox) -> QRect:
    option = QStyleOptionButton()
    box.initStyleOption(option)
    return box.style().subElementRect(QStyle.SubElement.SE_CheckBoxIndicator, option, box)


def _ring(image: QImage, area: QRect) -> QImage:
    """The outermost two pixels of ``area`` (a check box's frame), the inside blanked to its corner's colour."""
    part = image.copy(area)
    inside = part.pixelColor(part.width() // 2, 2)
    for x in range(2, part.width() - 2):
        for y in range(2, part.height() - 2):
            part.setPixelColor(x, y, inside)
    return part


@pytest.mark.parametrize("name", PALETTES)
def test_a_check_boxs_frame_stands_out_from_the_window_and_a_list_rows_from_the_list(
    qtbot: Any, qapp: QApplication, name: str
) -> None:
    with themed(name, qapp) as palette:
        page = QWidget()
        layout = QVBoxLayout(page)
        boxes = [QCheckBox(text, page) for text in ("Outdoor", "Send even if invalid", "Show JSON")]
        for box in boxes:
            box.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # the frame at rest, not focused
            layout.addWidget(box)
        boxes[1].setChecked(True)
        boxes[2].setTristate(True)
        boxes[2].setCheckState(Qt.CheckState.PartiallyChecked)  # an optional boolean's "not set"
        options = QListWidget(page)
        for text in ("window", "aisle"):
            item = QListWidgetItem(text)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            options.addItem(item)
        layout.addWidget(options)
        show(qtbot, page)
        window = palette.color(QPalette.ColorRole.Window)
        for box in boxes:
            image = box.grab().toImage()
            frame, ratio = strongest(_ring(image, _indicator(box)), window)
            assert ratio >= GRAPHIC, (name, box.text(), frame.name(), round(ratio, 2))
        for box in boxes[1:]:  # ticked, "not set": a mark on the box's fill
            area = _indicator(box)
            image = box.grab().toImage().copy(area.adjusted(2, 2, -2, -2))
            fill = image.pixelColor(0, 0)
            mark, ratio = strongest(image, fill)
            assert ratio >= GRAPHIC, (name, box.checkState(), mark.name(), fill.name())
        base = palette.color(QPalette.ColorRole.Base)
        row = options.visualItemRect(options.item(0))
        side = qapp.style().pixelMetric(QStyle.PixelMetric.PM_IndicatorWidth)
        image = options.viewport().grab(QRect(row.left(), row.top(), side + 4, row.height())).toImage()
        frame, ratio = strongest(image, base)
        assert ratio >= GRAPHIC, (name, "list row", frame.name(), round(ratio, 2))


@pytest.mark.parametrize("name", PALETTES)
def test_the_error_banners_words_sign_and_dismiss_button_stand_out_from_the_banner(
    qtbot: Any, qapp: QApplication, name: str
) -> None:
    icon_theme().load()
    with themed(name, qapp):
        page = QWidget()
        layout = QVBoxLayout(page)
        banner = ErrorBanner(page)
        inline = InlineErrorWidget(page)
        layout.addWidget(banner)
        layout.addWidget(inline)
        layout.addStretch(1)
        show(qtbot, page, 700, 300)
        banner.show_error(ERROR)
        inline.show_error(ERROR)
        qtbot.waitUntil(lambda: banner.isVisible() and inline.isVisible())
        for owner, words in ((banner, banner.message), (inline, inline.label)):
            (close,) = [b for b in owner.findChildren(QAbstractButton) if b.toolTip() == "Dismiss"]
            image = crop(page, close)
            ground = crop(page, owner).pixelColor(owner.width() // 2, owner.height() - 3)  # the banner's fill
            mark, ratio = strongest(image, ground)
            assert ratio >= GRAPHIC, (name, type(owner).__name__, "✕", mark.name(), ground.name(), round(ratio, 2))
            _, ratio = strongest(crop(page, words), ground)
            assert ratio >= TEXT, (name, type(owner).__name__, "words", round(ratio, 2))
        sign = banner.layout().itemAt(0).widget()  # the error sign before the headline
        ground = crop(page, banner).pixelColor(banner.width() // 2, banner.height() - 3)
        mark, ratio = strongest(crop(page, sign), ground)
        assert ratio >= GRAPHIC, (name, "error sign", mark.name(), ground.name(), round(ratio, 2))


@pytest.mark.parametrize("name", PALETTES)
def test_a_tool_errors_banner_is_the_themes_error_banner(qtbot: Any, qapp: QApplication, name: str) -> None:
    with themed(name, qapp) as palette:
        view = ToolResultView()
        show(qtbot, view)
        view.show_result(ToolResult(content=[], is_error=True))
        label = view.error_banner
        qtbot.waitUntil(label.isVisible)
        image = label.grab().toImage()
        fill = image.pixelColor(label.width() - 3, label.height() // 2)
        assert fill == theme.semantic_color("error-banner", palette)
        _, ratio = strongest(image.copy(QRect(2, 2, label.width() - 4, label.height() - 4)), fill)
        assert ratio >= TEXT, (name, round(ratio, 2))
