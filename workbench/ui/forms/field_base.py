"""The base of every form field: value get/set with "missing", change signals, inline help and errors."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QWheelEvent
from PySide6.QtWidgets import QComboBox, QLabel, QVBoxLayout, QWidget

from workbench.ui.forms.schema_tools import MISSING, Path, SchemaResolver, Shape
from workbench.ui.theme import set_tone
from workbench.ui.untrusted import plain_label


def pass_wheel_unless_focused(widget: QWidget, event: QWheelEvent) -> bool:
    """Leave a wheel turn to the scrolling form unless the user is editing ``widget``.

    Returns:
        True when the event was ignored (it goes on to the parent, which scrolls); the caller's
        ``wheelEvent`` handles it otherwise.
    """
    if widget.hasFocus():
        return False
    event.ignore()
    return True


class WheelSafeComboBox(QComboBox):
    """A combo box that a wheel turn changes only while it has the keyboard focus (else the form scrolls)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)

    def wheelEvent(self, event: QWheelEvent) -> None:  # noqa: N802
        """Scroll the form instead of changing the choice, unless focused."""
        if not pass_wheel_unless_focused(self, event):
            super().wheelEvent(event)


@dataclass
class FormContext:
    """State shared by all fields of one form.

    Attributes:
        resolver: Resolves ``$ref`` in the form's root schema.
        build: Builds the field for a sub-schema (set by the builder; compound fields call it).
        quiet: While > 0, programmatic changes do not emit ``changed``.
        recursive_fields: How many fields were built inside a ``$ref`` cycle (the builder's budget).
        built: How many fields ``make`` built (grows when an item or a branch is added after the form
            was made: the form then orders its Tab stops again).
    """

    resolver: SchemaResolver
    build: Callable[..., Field] | None = None
    quiet: int = 0
    recursive_fields: int = 0
    built: int = 0

    def make(self, schema: Any, refs: tuple[str, ...], *, required: bool, item: bool = False) -> Field:
        """Build the field for ``schema`` (a sub-schema reached through ``refs``)."""
        assert self.build is not None, "FormContext.build is set by the builder"
        self.built += 1
        return self.build(self, schema, refs, required=required, item=item)


class Field(QWidget):
    """One editor for one schema node.

    Subclasses implement ``_get`` / ``_accepts`` / ``_set`` / ``_clear`` over their widgets and call
    ``self._edited`` from every user edit. A value the widgets cannot show (typed into the JSON editor)
    is kept as-is ("foreign") so nothing is lost, until the user edits the field.
    """

    changed = Signal()

    def __init__(
        self, shape: Shape, ctx: FormContext, *, required: bool, item: bool = False, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.shape = shape
        self.schema: Mapping[str, Any] = shape.schema
        self.ctx = ctx
        self.required = required
        self.item = item  # an array element: always produces a value
        self._foreign: tuple[Any] | None = None
        self._explicit: tuple[Any] | None = None  # "", [], {} or null given as a value, shown as empty
        self.touched = False  # the user edited this field (or one inside it): its problems may show
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        self.body_layout = QVBoxLayout()
        self.body_layout.setContentsMargins(0, 0, 0, 0)
        outer.addLayout(self.body_layout)
        self.help_label: QLabel | None = None
        self.error_label = plain_label("", wrap=True)
        self.error_label.setObjectName("fieldError")
        set_tone(self.error_label, "error")
        self.error_label.hide()
        self._outer = outer

    # ---------------------------------------------------------------- layout helpers

    def _finish_layout(self, *, help_text: bool = True) -> None:
        """Add the help text (``description``) and the error label under the body."""
        desc = self.schema.get("description")
        if help_text and isinstance(desc, str) and desc.strip():
            self.help_label = plain_label(desc.strip(), wrap=True)
            self.help_label.setObjectName("fieldHelp")
            set_tone(self.help_label, "muted")
            self._outer.addWidget(self.help_label)
        self._outer.addWidget(self.error_label)

    # ---------------------------------------------------------------- value

    @property
    def is_nullable(self) -> bool:
        """``null`` is an allowed value (``anyOf [X, null]``)."""
        return self.shape.nullable

    def get(self) -> Any:
        """The field's JSON value, or ``MISSING`` when it is empty (left out of the object)."""
        if self._foreign is not None:
            return self._foreign[0]
        if self._explicit is not None:
            return self._explicit[0]
        value = self._get()
        if value is MISSING and (self.item or (self.required and self.is_nullable)):
            return None  # an array slot cannot be left out; a required nullable field means null
        return value

    def set(self, value: Any) -> None:
        """Show ``value`` (``MISSING`` clears the field); values the widgets cannot show are kept raw."""
        self.ctx.quiet += 1
        try:
            self._foreign = self._explicit = None
            if value is MISSING or (value is None and self.is_nullable):
                self._clear()
                if value is None:
                    self._explicit = (None,)
            elif self._accepts(value):
                self._set(value)
                if self._get() is MISSING:  # an empty value the widgets would leave out: keep it given
                    self._explicit = (value,)
            else:
                self._clear()
                self._foreign = (value,)
        finally:
            self.ctx.quiet -= 1

    def apply_default(self) -> None:
        """Prefill the schema's ``default`` (if any)."""
        if "default" in self.schema:
            self.set(self.schema["default"])
            self._explicit = None  # an empty default ("", [], null) is not worth sending

    @property
    def foreign(self) -> bool:
        """The field holds a value from the JSON editor that its widgets cannot show."""
        return self._foreign is not None

    def _edited(self, *_: Any) -> None:
        """Call from every user edit (and from children's ``changed``)."""
        if self.ctx.quiet:
            return
        self.touched = True
        self._foreign = self._explicit = None
        self.changed.emit()

    # ---------------------------------------------------------------- errors

    def local_errors(self) -> list[tuple[Path, str]]:
        """Problems jsonschema cannot see (unparsable raw JSON), with paths relative to this field."""
        return []

    def child(self, key: str | int) -> Field | None:
        """The sub-field for an object property or array index, if this field has one."""
        return None

    def show_errors(self, messages: list[str]) -> None:
        """Show ``messages`` under the field (empty hides the error label)."""
        if self._foreign is not None:
            shown = json.dumps(self._foreign[0], ensure_ascii=False)[:200]
            messages = [*messages, f"Value from the JSON editor kept as-is: {shown}"]
        text = "\n".join(messages)
        changed = text != self.error_label.text() or self.error_label.isVisibleTo(self) != bool(messages)
        self.error_label.setText(text)
        self.error_label.setVisible(bool(messages))
        if changed:
            # The field keeps its editor's height and the message goes below it: the form's row must grow.
            # Qt lays the parents out again before the label counts as shown, and a QFormLayout above keeps
            # the row's old height, squeezing the editor (an e-mail field shrank to 15 px); asking the
            # layouts above for this field's size again gives the row the room.
            self.updateGeometry()

    # ---------------------------------------------------------------- for subclasses

    def _get(self) -> Any:
        raise NotImplementedError

    def _accepts(self, value: Any) -> bool:
        raise NotImplementedError

    def _set(self, value: Any) -> None:
        raise NotImplementedError

    def _clear(self) -> None:
        raise NotImplementedError
