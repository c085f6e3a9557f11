"""Fields for single values: strings (with formats), numbers, booleans, enums, constants and raw JSON."""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QFontDatabase, QValidator, QWheelEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QDoubleSpinBox,
    QHBoxLayout,
    QLineEdit,
    QPlainTextEdit,
    QSpinBox,
    QToolButton,
    QWidget,
)

from workbench.core.safe_text import escape_json_text
from workbench.ui.forms.field_base import Field, FormContext, WheelSafeComboBox, pass_wheel_unless_focused
from workbench.ui.forms.schema_tools import MISSING, Path, Shape, display
from workbench.ui.text_sizes import text_pane_height
from workbench.ui.untrusted import plain_label, plain_tooltip, set_plain_tooltip, shown

MULTILINE_OVER = 200
"""Strings whose ``maxLength`` exceeds this get a multi-line editor."""

UNSET_TEXT = "—"
_INT32 = 2**31 - 1
_FLOAT_LIMIT = 1e15

_PLACEHOLDERS = {
    "email": "name@example.com",
    "uri": "https://…",
    "url": "https://…",
    "date": "YYYY-MM-DD",
    "date-time": "YYYY-MM-DDTHH:MM:SSZ",
    "time": "HH:MM:SS",
}


def _same_json(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def _describe(widget: QWidget, shape: Shape) -> None:
    desc = shape.schema.get("description")
    if isinstance(desc, str) and desc.strip():
        set_plain_tooltip(widget, desc.strip())


class StringField(Field):
    """A line edit (multi-line for ``format: textarea`` or long ``maxLength``); date/time formats get a "now" button."""

    def __init__(self, shape: Shape, ctx: FormContext, *, required: bool, item: bool = False) -> None:
        super().__init__(shape, ctx, required=required, item=item)
        fmt = str(shape.schema.get("format") or "")
        max_len = shape.schema.get("maxLength")
        self.multiline = fmt == "textarea" or (isinstance(max_len, int) and max_len > MULTILINE_OVER)
        self.editor: QLineEdit | QPlainTextEdit
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        if self.multiline:
            text_edit = QPlainTextEdit()
            text_edit.setTabChangesFocus(True)
            text_edit.setFixedHeight(text_pane_height(text_edit, 5))
            text_edit.textChanged.connect(self._edited)
            self.editor = text_edit
        else:
            line = QLineEdit()
            line.setClearButtonEnabled(True)
            line.textChanged.connect(self._edited)
            self.editor = line
        placeholder = _PLACEHOLDERS.get(fmt, "")
        examples = shape.schema.get("examples")
        if isinstance(examples, list) and examples and isinstance(examples[0], str):
            placeholder = f"e.g. {examples[0]}"
        self.editor.setPlaceholderText(placeholder)
        _describe(self.editor, shape)
        row.addWidget(self.editor)
        self.now_button: QToolButton | None = None
        if fmt in ("date", "date-time", "time"):
            self.now_button = QToolButton()
            self.now_button.setText("Today" if fmt == "date" else "Now")
            self.now_button.clicked.connect(lambda: self._fill_now(fmt))
            row.addWidget(self.now_button)
        self.body_layout.addLayout(row)
        self._finish_layout()

    def text(self) -> str:
        """The editor's text."""
        if isinstance(self.editor, QPlainTextEdit):
            return self.editor.toPlainText()
        return self.editor.text()

    def set_text(self, text: str) -> None:
        """Replace the editor's text (as if typed: emits ``changed``)."""
        if isinstance(self.editor, QPlainTextEdit):
            self.editor.setPlainText(text)
        else:
            self.editor.setText(text)

    def _fill_now(self, fmt: str) -> None:
        now = dt.datetime.now(dt.UTC).replace(microsecond=0)
        text = {"date": now.date().isoformat(), "time": now.time().isoformat() + "Z"}.get(fmt)
        self.set_text(text or now.isoformat().replace("+00:00", "Z"))

    def _get(self) -> Any:
        text = self.text()
        if text == "" and not self.item:
            return MISSING
        return text

    def _accepts(self, value: Any) -> bool:
        return isinstance(value, str) and (self.multiline or "\n" not in value)

    def _set(self, value: Any) -> None:
        self.set_text(value)

    def _clear(self) -> None:
        self.set_text("")


def _without_unset(text: str, pos: int) -> tuple[str, int]:
    """Typing into an empty spin box (showing —) must not keep the dash in front of the digits."""
    if UNSET_TEXT in text and text.strip() != UNSET_TEXT:
        at = text.index(UNSET_TEXT)
        text = text.replace(UNSET_TEXT, "")
        pos = pos - len(UNSET_TEXT) if pos > at else pos
    return text, max(0, pos)


class _IntSpin(QSpinBox):
    """A spin box whose minimum is the "empty" value; clearing the text empties it."""

    start = 0  # where the arrows go from "empty"

    def __init__(self) -> None:
        super().__init__()
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # a wheel turn over it scrolls the form

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        if not pass_wheel_unless_focused(self, event):
            super().wheelEvent(event)

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        text, pos = _without_unset(text, pos)
        if text.strip() in ("", UNSET_TEXT):
            return QValidator.State.Acceptable, text, pos
        state, text, pos = super().validate(text, pos)
        return state, text, pos

    def valueFromText(self, text: str) -> int:  # noqa: N802
        text, _ = _without_unset(text, 0)
        if text.strip() in ("", UNSET_TEXT):
            return self.minimum()
        return super().valueFromText(text)

    def stepBy(self, steps: int) -> None:  # noqa: N802
        if self.value() == self.minimum():
            self.setValue(self.start)
            self.selectAll()
        else:
            super().stepBy(steps)


_PARTIAL_NUMBER = re.compile(r"[-+]?(\d+\.?\d*|\.\d*)?([eE][-+]?\d*)?")


class _FloatSpin(QDoubleSpinBox):
    """A spin box for JSON numbers: shortest text, ``.`` as decimal point, minimum means "empty"."""

    start = 0.0  # where the arrows go from "empty"

    def __init__(self) -> None:
        super().__init__()
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # a wheel turn over it scrolls the form

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        if not pass_wheel_unless_focused(self, event):
            super().wheelEvent(event)

    def textFromValue(self, value: float) -> str:  # noqa: N802
        text = f"{value:.10f}".rstrip("0").rstrip(".")
        return "0" if text in ("-0", "") else text

    def valueFromText(self, text: str) -> float:  # noqa: N802
        text, _ = _without_unset(text, 0)
        try:
            return float(text.strip())
        except ValueError:
            return self.minimum()

    def validate(self, text: str, pos: int) -> tuple[QValidator.State, str, int]:
        text, pos = _without_unset(text, pos)
        t = text.strip()
        if t in ("", UNSET_TEXT):
            return QValidator.State.Acceptable, text, pos
        try:
            value = float(t)
        except ValueError:
            state = QValidator.State.Intermediate if _PARTIAL_NUMBER.fullmatch(t) else QValidator.State.Invalid
            return state, text, pos
        if not math.isfinite(value):
            return QValidator.State.Invalid, text, pos
        ok = self.minimum() <= value <= self.maximum()
        return (QValidator.State.Acceptable if ok else QValidator.State.Intermediate), text, pos

    def fixup(self, text: str) -> str:
        return text

    def stepBy(self, steps: int) -> None:  # noqa: N802
        if self.value() == self.minimum():
            self.setValue(self.start)
            self.selectAll()
        else:
            super().stepBy(steps)


class NumberField(Field):
    """A spin box bounded by ``minimum``/``maximum`` (exclusive bounds too); it can be empty (—)."""

    def __init__(self, shape: Shape, ctx: FormContext, *, required: bool, item: bool = False) -> None:
        super().__init__(shape, ctx, required=required, item=item)
        s = shape.schema
        self.integer = s.get("type") == "integer" or (isinstance(s.get("type"), list) and "integer" in s["type"])
        lo, hi = self._bounds()
        self.spin: QSpinBox | QDoubleSpinBox
        if self.integer:
            ispin = _IntSpin()
            lo_i = max(math.ceil(lo) if lo is not None else -_INT32 + 1, -_INT32 + 1)
            hi_i = min(math.floor(hi) if hi is not None else _INT32, _INT32)
            ispin.setRange(lo_i - 1, max(hi_i, lo_i))
            ispin.start = min(max(0, lo_i), max(hi_i, lo_i))
            ispin.valueChanged.connect(self._edited)
            self.spin = ispin
        else:
            fspin = _FloatSpin()
            fspin.setDecimals(10)
            lo_f = max(lo, -_FLOAT_LIMIT) if lo is not None else -_FLOAT_LIMIT
            hi_f = min(hi, _FLOAT_LIMIT) if hi is not None else _FLOAT_LIMIT
            fspin.setRange(lo_f - 1, max(hi_f, lo_f))
            fspin.start = min(max(0.0, lo_f), max(hi_f, lo_f))
            step = s.get("multipleOf")
            fspin.setSingleStep(float(step) if isinstance(step, (int, float)) and step > 0 else 1.0)
            fspin.valueChanged.connect(self._edited)
            self.spin = fspin
        self.spin.setSpecialValueText(UNSET_TEXT)
        self.spin.setKeyboardTracking(True)
        self.spin.setCorrectionMode(QSpinBox.CorrectionMode.CorrectToNearestValue)
        self._clear()
        _describe(self.spin, shape)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.spin, 1)
        self.clear_button = QToolButton()
        self.clear_button.setText("×")
        self.clear_button.setToolTip("Clear (leave empty)")
        self.clear_button.clicked.connect(self._clear_by_user)
        row.addWidget(self.clear_button)
        self.body_layout.addLayout(row)
        self._finish_layout()

    def _bounds(self) -> tuple[float | None, float | None]:
        s = self.shape.schema
        step = 1 if s.get("type") == "integer" else 0

        def num(key: str) -> float | None:
            v = s.get(key)
            return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) else None

        lo, hi = num("minimum"), num("maximum")
        xlo, xhi = num("exclusiveMinimum"), num("exclusiveMaximum")
        if xlo is not None and (lo is None or xlo >= lo):
            lo = xlo + step
        if xhi is not None and (hi is None or xhi <= hi):
            hi = xhi - step
        return lo, hi

    def _clear_by_user(self) -> None:
        self._clear()

    @property
    def is_empty(self) -> bool:
        """The spin box shows — (no value)."""
        return self.spin.value() == self.spin.minimum()

    def _get(self) -> Any:
        if self.is_empty:
            return MISSING
        value = self.spin.value()
        return int(value) if self.integer else float(value)

    def _accepts(self, value: Any) -> bool:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return False
        if self.integer and not isinstance(value, int):
            return False
        if not (self.spin.minimum() < value <= self.spin.maximum()):
            return False
        return self.integer or round(float(value), 10) == value

    def _set(self, value: Any) -> None:
        if isinstance(self.spin, QSpinBox):
            self.spin.setValue(int(value))
        else:
            self.spin.setValue(float(value))

    def _clear(self) -> None:
        spin = self.spin
        if isinstance(spin, QSpinBox):  # the two branches differ in type only (int vs float)
            spin.setValue(spin.minimum())
        else:
            spin.setValue(spin.minimum())


class BooleanField(Field):
    """A check box; optional booleans are tri-state, the middle state meaning "not set"."""

    def __init__(self, shape: Shape, ctx: FormContext, *, required: bool, item: bool = False) -> None:
        super().__init__(shape, ctx, required=required, item=item)
        self.check = QCheckBox()
        self.tristate = not required and not item
        self.check.setTristate(self.tristate)
        if self.tristate:
            self.check.setCheckState(Qt.CheckState.PartiallyChecked)
        self.check.checkStateChanged.connect(self._on_state)
        _describe(self.check, shape)
        self._on_state()
        self.body_layout.addWidget(self.check)
        self._finish_layout()

    def _on_state(self, *_: Any) -> None:
        state = self.check.checkState()
        self.check.setText("not set" if state == Qt.CheckState.PartiallyChecked else "")
        self._edited()

    def _get(self) -> Any:
        state = self.check.checkState()
        if state == Qt.CheckState.PartiallyChecked:
            return MISSING
        return state == Qt.CheckState.Checked

    def _accepts(self, value: Any) -> bool:
        return isinstance(value, bool)

    def _set(self, value: Any) -> None:
        self.check.setCheckState(Qt.CheckState.Checked if value else Qt.CheckState.Unchecked)

    def _clear(self) -> None:
        self.check.setCheckState(Qt.CheckState.PartiallyChecked if self.tristate else Qt.CheckState.Unchecked)


class EnumField(Field):
    """A combo box of the allowed values, titled by ``oneOf`` const/title or ``enumNames``."""

    def __init__(self, shape: Shape, ctx: FormContext, *, required: bool, item: bool = False) -> None:
        super().__init__(shape, ctx, required=required, item=item)
        self.options = list(shape.options)
        self.combo = WheelSafeComboBox()
        self.has_blank = not required or "default" not in shape.schema
        if self.has_blank:
            self.combo.addItem("— not set —" if not required else "— choose —")
        for opt in self.options:
            self.combo.addItem(shown(opt.title))
            if opt.title != display(opt.value):
                index = self.combo.count() - 1
                self.combo.setItemData(index, plain_tooltip(display(opt.value)), Qt.ItemDataRole.ToolTipRole)
        self.combo.currentIndexChanged.connect(self._edited)
        _describe(self.combo, shape)
        self.body_layout.addWidget(self.combo)
        self._finish_layout()

    def select(self, value: Any) -> None:
        """Select the option whose value is ``value`` (as a user would)."""
        self.combo.setCurrentIndex(self._index_of(value))

    def _index_of(self, value: Any) -> int:
        for i, opt in enumerate(self.options):
            if _same_json(opt.value, value):
                return i + (1 if self.has_blank else 0)
        return -1

    def _get(self) -> Any:
        i = self.combo.currentIndex() - (1 if self.has_blank else 0)
        return self.options[i].value if 0 <= i < len(self.options) else MISSING

    def _accepts(self, value: Any) -> bool:
        return self._index_of(value) >= 0

    def _set(self, value: Any) -> None:
        self.combo.setCurrentIndex(self._index_of(value))

    def _clear(self) -> None:
        self.combo.setCurrentIndex(0)


class ConstField(Field):
    """A fixed value (``const``), shown read-only and always sent."""

    def __init__(self, shape: Shape, ctx: FormContext, *, required: bool, item: bool = False) -> None:
        super().__init__(shape, ctx, required=required, item=item)
        self.const = shape.schema.get("const") if shape.kind == "const" else None
        self.label = plain_label(display(self.const))
        _describe(self.label, shape)
        self.body_layout.addWidget(self.label)
        self._finish_layout()

    def _get(self) -> Any:
        return self.const

    def _accepts(self, value: Any) -> bool:
        return _same_json(value, self.const)

    def _set(self, value: Any) -> None:
        pass

    def _clear(self) -> None:
        pass


class RawJsonField(Field):
    """A JSON text editor for a subtree the form cannot model (or that asks for any value)."""

    def __init__(self, shape: Shape, ctx: FormContext, *, required: bool, item: bool = False) -> None:
        super().__init__(shape, ctx, required=required, item=item)
        self.editor = QPlainTextEdit()
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setPlaceholderText("JSON value")
        self.editor.setTabChangesFocus(True)
        self.editor.setFixedHeight(text_pane_height(self.editor, 4))
        self.editor.textChanged.connect(self._edited)
        _describe(self.editor, shape)
        self.body_layout.addWidget(self.editor)
        self._finish_layout()

    def _parse(self) -> tuple[Any, str | None]:
        text = self.editor.toPlainText()
        if not text.strip():
            return MISSING, None
        try:
            return json.loads(text), None
        except ValueError as exc:
            return MISSING, f"invalid JSON: {exc}"

    def local_errors(self) -> list[tuple[Path, str]]:
        """An unparsable text is an error of this field."""
        _, problem = self._parse()
        return [((), problem)] if problem and self._foreign is None else []

    def _get(self) -> Any:
        return self._parse()[0]

    def _accepts(self, value: Any) -> bool:
        return True

    def _set(self, value: Any) -> None:
        self.editor.setPlainText(escape_json_text(json.dumps(value, indent=2, ensure_ascii=False)))

    def _clear(self) -> None:
        self.editor.setPlainText("")
