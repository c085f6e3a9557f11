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
from workbench.ui import theme
from workbench.ui.forms.schema_form import SchemaForm
from workbench.ui.semantic_colours import GRAPHIC, SWATCHES, TEXT

ROOT = Path(__file__).resolve().parents[2]
PALETTES = ["light", "dark"]


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
