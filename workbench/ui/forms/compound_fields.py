"""Fields that hold other fields: objects, arrays, multi-select lists and oneOf/anyOf choices."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.field_labels import property_label
from workbench.core.schema_order import ordered_properties
from workbench.ui.forms.field_base import Field, FormContext, WheelSafeComboBox
from workbench.ui.forms.schema_tools import MISSING, Shape, display, make_validator
from workbench.ui.theme import set_tone
from workbench.ui.untrusted import plain_label, plain_tooltip, shown, shown_on_button

REQUIRED_MARK = " *"


def label_text(schema: Any, name: str, required: bool) -> str:
    """The label of property ``name`` (its schema as its parent declares it), ``*`` when required."""
    return property_label(schema, name) + (REQUIRED_MARK if required else "")


def _boxed(field: Field) -> bool:
    return isinstance(field, (ObjectField, ArrayField, ChoiceField, MultiSelectField))


class ObjectField(Field):
    """The properties of an object as labelled rows; nested objects sit in group boxes.

    Keys the schema does not declare (typed into the JSON editor) are kept and sent back unchanged.
    """

    def __init__(self, shape: Shape, ctx: FormContext, *, required: bool, item: bool = False) -> None:
        super().__init__(shape, ctx, required=required, item=item)
        props = dict(ordered_properties(shape.schema))
        req = shape.schema.get("required")
        self.required_names = {r for r in req if isinstance(r, str)} if isinstance(req, list) else set()
        self.fields: dict[str, Field] = {}
        self.labels: dict[str, str] = {}  # each property's label without the required mark
        self.row_labels: dict[str, QLabel] = {}
        self.boxes: dict[str, QGroupBox] = {}
        self._extra: dict[str, Any] = {}
        self.form_layout = QFormLayout()
        self.form_layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.body_layout.addLayout(self.form_layout)
        desc = shape.schema.get("description")
        if shape.schema is not ctx.resolver.root and isinstance(desc, str) and desc.strip():
            self.help_label = plain_label(desc.strip(), wrap=True)
            self.help_label.setObjectName("fieldHelp")
            set_tone(self.help_label, "muted")
            self.form_layout.addRow(self.help_label)
        for name, sub in props.items():
            is_req = name in self.required_names
            child = ctx.make(sub, shape.refs, required=is_req)
            self.fields[name] = child
            child.changed.connect(self._edited)
            self.labels[name] = property_label(sub, name)
            text = label_text(sub, name, is_req)
            if _boxed(child):
                box = QGroupBox(shown_on_button(text))  # never rich text, an "&" no mnemonic
                QVBoxLayout(box).addWidget(child)
                self.boxes[name] = box
                self.form_layout.addRow(box)
            else:
                label = plain_label(text, selectable=False)
                label.setBuddy(child)
                self.row_labels[name] = label
                self.form_layout.addRow(label, child)
        if not props:
            self.form_layout.addRow(plain_label("No fields.", selectable=False))
        self._finish_layout(help_text=False)

    def child(self, key: str | int) -> Field | None:
        """The field of property ``key``."""
        return self.fields.get(key) if isinstance(key, str) else None

    def _get(self) -> Any:
        out: dict[str, Any] = {}
        for name, child in self.fields.items():
            value = child.get()
            if value is not MISSING:
                out[name] = value
        out.update({k: v for k, v in self._extra.items() if k not in out})
        if not out and not self.item:
            return MISSING  # nothing filled in: absent (a required one is then reported as missing)
        return out

    def _accepts(self, value: Any) -> bool:
        return isinstance(value, Mapping)

    def _set(self, value: Any) -> None:
        for name, child in self.fields.items():
            child.set(value.get(name, MISSING))
        self._extra = {k: v for k, v in value.items() if k not in self.fields}

    def _clear(self) -> None:
        for child in self.fields.values():
            child.set(MISSING)
        self._extra = {}


class ArrayField(Field):
    """Rows of the item schema with add, remove and move up/down, bounded by ``minItems``/``maxItems``."""

    def __init__(self, shape: Shape, ctx: FormContext, *, required: bool, item: bool = False) -> None:
        super().__init__(shape, ctx, required=required, item=item)
        s = shape.schema
        self.item_schema = s.get("items", {})
        min_items, max_items = s.get("minItems"), s.get("maxItems")
        self.min_items: int = min_items if isinstance(min_items, int) else 0
        self.max_items: int | None = max_items if isinstance(max_items, int) else None
        self.items: list[Field] = []
        self._rows: list[QWidget] = []
        self._row_buttons: list[dict[str, QToolButton]] = []
        inner = self.body_layout
        self.rows_layout = QVBoxLayout()
        inner.addLayout(self.rows_layout)
        self.empty_label = plain_label("No items.", selectable=False)
        inner.addWidget(self.empty_label)
        self.add_button = QPushButton("Add item")
        self.add_button.clicked.connect(self._add_by_user)
        inner.addWidget(self.add_button, 0, Qt.AlignmentFlag.AlignLeft)
        self._finish_layout()
        if required:
            for _ in range(self.min_items):
                self._append()
        self._update_buttons()

    def child(self, key: str | int) -> Field | None:
        """The field of item ``key``."""
        return self.items[key] if isinstance(key, int) and 0 <= key < len(self.items) else None

    # ---------------------------------------------------------------- rows

    def add_item(self) -> Field:
        """Append an item row (as the Add button does) and return its field."""
        self._add_by_user()
        return self.items[-1]

    def remove_item(self, index: int) -> None:
        """Remove item ``index`` (as its remove button does)."""
        self._remove(index)
        self._edited()

    def move_item(self, index: int, delta: int) -> None:
        """Move item ``index`` up (-1) or down (+1) (as its arrow buttons do)."""
        target = index + delta
        if not (0 <= index < len(self.items) and 0 <= target < len(self.items)):
            return
        a, b = self.items[index].get(), self.items[target].get()
        self.ctx.quiet += 1
        try:
            self.items[index].set(b)
            self.items[target].set(a)
        finally:
            self.ctx.quiet -= 1
        self._edited()

    def _add_by_user(self) -> None:
        if self.max_items is not None and len(self.items) >= self.max_items:
            return
        self._append()
        self._update_buttons()
        self._edited()

    def _append(self) -> Field:
        self.ctx.quiet += 1
        try:
            field = self.ctx.make(self.item_schema, self.shape.refs, required=True, item=True)
        finally:
            self.ctx.quiet -= 1
        row = QFrame()
        row.setFrameShape(QFrame.Shape.StyledPanel)
        lay = QHBoxLayout(row)
        lay.setContentsMargins(4, 4, 4, 4)
        lay.addWidget(field, 1)
        buttons = QVBoxLayout()
        by_name: dict[str, QToolButton] = {}
        for name, text, tip, slot in (
            ("move_up", "↑", "Move up", lambda: self.move_item(self._index_of(field), -1)),
            ("move_down", "↓", "Move down", lambda: self.move_item(self._index_of(field), +1)),
            ("remove", "✕", "Remove", lambda: self.remove_item(self._index_of(field))),
        ):
            button = by_name[name] = QToolButton()
            button.setText(text)
            button.setToolTip(tip)
            button.setObjectName(name)
            button.clicked.connect(slot)
            buttons.addWidget(button)
        buttons.addStretch(1)
        lay.addLayout(buttons)
        field.changed.connect(self._edited)
        self.items.append(field)
        self._rows.append(row)
        self._row_buttons.append(by_name)
        self.rows_layout.addWidget(row)
        return field

    def row_buttons(self, index: int) -> dict[str, QToolButton]:
        """The ``move_up`` / ``move_down`` / ``remove`` buttons of row ``index``."""
        return dict(self._row_buttons[index])

    def _index_of(self, field: Field) -> int:
        return self.items.index(field)

    def _remove(self, index: int) -> None:
        if not 0 <= index < len(self.items):
            return
        self.items.pop(index)
        self._row_buttons.pop(index)
        row = self._rows.pop(index)
        row.hide()
        row.setParent(None)
        row.deleteLater()
        self._update_buttons()

    def _update_buttons(self) -> None:
        count = len(self.items)
        self.add_button.setEnabled(self.max_items is None or count < self.max_items)
        self.empty_label.setVisible(count == 0)
        for i, buttons in enumerate(self._row_buttons):
            buttons["remove"].setEnabled(count > self.min_items)
            buttons["move_up"].setEnabled(i > 0)
            buttons["move_down"].setEnabled(i < count - 1)

    # ---------------------------------------------------------------- value

    def _get(self) -> Any:
        values = [f.get() for f in self.items]
        if not values and not self.required and not self.item:
            return MISSING
        return values

    def _accepts(self, value: Any) -> bool:
        return isinstance(value, list)

    def _set(self, value: Any) -> None:
        while len(self.items) > len(value):
            self._remove(len(self.items) - 1)
        while len(self.items) < len(value):
            self._append()
        for field, v in zip(self.items, value, strict=True):
            field.set(v)
        self._update_buttons()

    def _clear(self) -> None:
        self._set([])


class MultiSelectField(Field):
    """An array of enum values as a list of check boxes (values sent in the schema's order)."""

    def __init__(self, shape: Shape, ctx: FormContext, *, required: bool, item: bool = False) -> None:
        super().__init__(shape, ctx, required=required, item=item)
        self.options = list(shape.options)
        self.list = QListWidget()
        for opt in self.options:
            entry = QListWidgetItem(shown(opt.title))
            entry.setFlags(entry.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            entry.setCheckState(Qt.CheckState.Unchecked)
            if opt.title != display(opt.value):
                entry.setToolTip(plain_tooltip(display(opt.value)))  # item tooltips render rich text too
            self.list.addItem(entry)
        rows = min(len(self.options), 8)
        self.list.setFixedHeight(self.list.sizeHintForRow(0) * rows + 2 * self.list.frameWidth() + 4)
        self.list.itemChanged.connect(self._edited)
        self.body_layout.addWidget(self.list)
        self._finish_layout()

    def set_checked(self, value: Any, checked: bool = True) -> None:
        """Check or uncheck the option ``value`` (as a user would)."""
        index = self._index_of(value)
        if index >= 0:
            self.list.item(index).setCheckState(Qt.CheckState.Checked if checked else Qt.CheckState.Unchecked)

    def _index_of(self, value: Any) -> int:
        key = json.dumps(value, sort_keys=True)
        for i, opt in enumerate(self.options):
            if json.dumps(opt.value, sort_keys=True) == key:
                return i
        return -1

    def _get(self) -> Any:
        values = [
            opt.value for i, opt in enumerate(self.options) if self.list.item(i).checkState() == Qt.CheckState.Checked
        ]
        if not values and not self.required and not self.item:
            return MISSING
        return values

    def _accepts(self, value: Any) -> bool:
        if not isinstance(value, list) or any(self._index_of(v) < 0 for v in value):
            return False
        # duplicates or an order other than the schema's cannot be shown by check boxes
        return [self._index_of(v) for v in value] == sorted({self._index_of(v) for v in value})

    def _set(self, value: Any) -> None:
        wanted = {self._index_of(v) for v in value}
        for i in range(self.list.count()):
            self.list.item(i).setCheckState(Qt.CheckState.Checked if i in wanted else Qt.CheckState.Unchecked)

    def _clear(self) -> None:
        self._set([])


class ChoiceField(Field):
    """``oneOf``/``anyOf``: a selector for the branch, then that branch's form (built when first chosen)."""

    def __init__(self, shape: Shape, ctx: FormContext, *, required: bool, item: bool = False) -> None:
        super().__init__(shape, ctx, required=required, item=item)
        self.branches = list(shape.branches)
        self._branch_fields: dict[int, Field] = {}
        self._validator = make_validator(ctx.resolver.root)
        self.has_blank = not required and not item
        inner = self.body_layout
        self.selector = WheelSafeComboBox()
        if self.has_blank:
            self.selector.addItem("— not set —")
        for i, branch in enumerate(self.branches):
            self.selector.addItem(shown(self._branch_title(i, branch)))
        self.stack = QStackedWidget()
        self._blank_page = QWidget()
        self.stack.addWidget(self._blank_page)
        self.selector.currentIndexChanged.connect(self._on_selector)
        inner.addWidget(self.selector)
        inner.addWidget(self.stack)
        self._finish_layout()
        self._show(0)

    def _branch_title(self, index: int, branch: Any) -> str:
        resolved, _ = self.ctx.resolver.resolve(branch, self.shape.refs)
        if isinstance(branch, Mapping) and isinstance(branch.get("title"), str):
            return str(branch["title"])
        if resolved is not None:
            if isinstance(resolved.get("title"), str) and resolved["title"].strip():
                return str(resolved["title"])
            if isinstance(branch, Mapping) and isinstance(branch.get("$ref"), str):
                return str(branch["$ref"]).rsplit("/", 1)[-1]
            kind = resolved.get("type")
            if isinstance(kind, str):
                return kind
        return f"Option {index + 1}"

    # ---------------------------------------------------------------- branches

    @property
    def selected(self) -> int | None:
        """Index of the chosen branch, None when "not set"."""
        i = self.selector.currentIndex() - (1 if self.has_blank else 0)
        return i if 0 <= i < len(self.branches) else None

    def current(self) -> Field | None:
        """The field of the chosen branch."""
        index = self.selected
        return None if index is None else self._branch(index)

    def choose(self, index: int) -> Field:
        """Select branch ``index`` (as the selector does) and return its field."""
        self.selector.setCurrentIndex(index + (1 if self.has_blank else 0))
        return self._branch(index)

    def _branch(self, index: int) -> Field:
        field = self._branch_fields.get(index)
        if field is None:
            self.ctx.quiet += 1
            try:
                field = self.ctx.make(self.branches[index], self.shape.refs, required=True, item=self.item)
            finally:
                self.ctx.quiet -= 1
            field.changed.connect(self._edited)
            self._branch_fields[index] = field
            self.stack.addWidget(field)
        return field

    def _show(self, selector_index: int) -> None:
        branch = selector_index - (1 if self.has_blank else 0)
        if 0 <= branch < len(self.branches):
            self.stack.setCurrentWidget(self._branch(branch))
        else:
            self.stack.setCurrentWidget(self._blank_page)

    def _on_selector(self, index: int) -> None:
        self._show(index)
        self._edited()

    def child(self, key: str | int) -> Field | None:
        """Paths go through the chosen branch."""
        current = self.current()
        return current.child(key) if current is not None else None

    # ---------------------------------------------------------------- value

    def _get(self) -> Any:
        current = self.current()
        return MISSING if current is None else current.get()

    def _fitting_branch(self, value: Any) -> int | None:
        for i, branch in enumerate(self.branches):
            try:
                if self._validator.evolve(schema=branch).is_valid(value):
                    return i
            except Exception:  # a broken branch schema simply does not fit
                continue
        disc = self.shape.schema.get("discriminator")
        if isinstance(disc, Mapping) and isinstance(value, Mapping):
            prop = disc.get("propertyName")
            target = (disc.get("mapping") or {}).get(value.get(prop)) if isinstance(prop, str) else None
            for i, branch in enumerate(self.branches):
                if isinstance(branch, Mapping) and target is not None and branch.get("$ref") == target:
                    return i
        for i, branch in enumerate(self.branches):
            resolved, _ = self.ctx.resolver.resolve(branch, self.shape.refs)
            if resolved is not None and _type_fits(resolved.get("type"), value):
                return i
        return None

    def _accepts(self, value: Any) -> bool:
        return self._fitting_branch(value) is not None

    def _set(self, value: Any) -> None:
        index = self._fitting_branch(value)
        assert index is not None
        field = self.choose(index)
        field.set(value)

    def _clear(self) -> None:
        if self.has_blank:
            self.selector.setCurrentIndex(0)
        else:
            current = self.current()
            if current is not None:
                current.set(MISSING)


_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "number": (int, float),
    "integer": (int,),
    "boolean": (bool,),
    "object": (dict,),
    "array": (list,),
}


def _type_fits(kind: Any, value: Any) -> bool:
    if not isinstance(kind, str) or kind not in _TYPES:
        return False
    if isinstance(value, bool) and kind != "boolean":
        return False
    return isinstance(value, _TYPES[kind])
