"""SchemaForm: widgets generated from a JSON Schema, a raw-JSON editor kept in sync, jsonschema validation."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QFontDatabase, QTextOption
from PySide6.QtWidgets import (
    QFormLayout,
    QLabel,
    QLayout,
    QPlainTextEdit,
    QScrollArea,
    QSplitter,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.safe_text import escape_json_text
from workbench.ui.dialog_rules import SECONDARY_INPUT
from workbench.ui.forms.builder import build_field, new_context
from workbench.ui.forms.compound_fields import ArrayField, ChoiceField, ObjectField
from workbench.ui.forms.field_base import Field
from workbench.ui.forms.messages import without_redundant
from workbench.ui.forms.schema_tools import (
    Path,
    format_path,
    leaf_errors,
    make_validator,
    schema_problem,
    sorted_pairs,
)
from workbench.ui.payload import WHOLE_WORDS_UP_TO, WholeWordsEditor, keep_words_whole, without_joiners
from workbench.ui.theme import set_tone
from workbench.ui.untrusted import plain_label

if TYPE_CHECKING:
    from jsonschema import ValidationError

MAX_LISTED = 12
"""How many entries the summary under the form lists (all of them stay inline and in ``errors()``)."""

MAX_TAB_STOPS = 2000
"""The form orders this many fields for Tab at most (a huge schema's fields beyond keep their order)."""

JSON_PATH = "(json)"
"""Path shown for a problem in the raw-JSON editor itself."""
JSON_EDITOR_MAX_STRING = 10_000
"""Longest string the raw-JSON editor shows whole (a file's content is shortened there and sent whole).

A text editor lays out one unbreakable line of n characters in time growing with n² (a 400,000
character data: URL took 19 s to show); shortened strings keep the editor quick, and read-only."""


def shortened_for_editor(value: Any) -> tuple[Any, bool]:
    """``value`` with every string longer than ``JSON_EDITOR_MAX_STRING`` shortened, and whether one was."""
    if isinstance(value, str) and len(value) > JSON_EDITOR_MAX_STRING:
        return f"{value[:200]}… ({len(value):,} characters, sent whole; edit them in the form)", True
    if isinstance(value, dict):
        pairs = [(key, shortened_for_editor(item)) for key, item in value.items()]
        return {key: item for key, (item, _) in pairs}, any(cut for _, (_, cut) in pairs)
    if isinstance(value, list):
        items = [shortened_for_editor(item) for item in value]
        return [item for item, _ in items], any(cut for _, cut in items)
    return value, False


def as_shown(message: str) -> str:
    """A problem as the form shows it on a line of its own: in sentence case ("required" → "Required").

    Problems are kept in lower case (``errors()``, ``fields_to_fix()`` compare and embed them); only
    the line that starts with one gets the capital. One after a path ("[0].name: required") stays.
    """
    return message[:1].upper() + message[1:]


class SchemaForm(QWidget):
    """Form widgets for a JSON Schema plus a raw-JSON editor beside them, kept in sync both ways.

    Editing the form rewrites the JSON text; valid JSON typed in the editor updates the form, invalid
    JSON is reported under the editor and leaves the form as it was. Every change is validated with
    jsonschema (the schema's dialect, else Draft 2020-12, formats checked); each problem is said once,
    in plain words, under the field it concerns. The summary under the form names the fields with
    problems (they may be scrolled out of view) and spells out only what has no field to sit under.

    A field's problems show (inline and in the list) once the user has edited that field, or for every
    field once ``reveal_errors()`` is called (a submit attempt) or the JSON is edited by hand: typing into
    one field never marks another, untouched one. ``errors()`` always has them all; the list names fields
    as their labels do, and ``fields_to_fix()`` names them for a caller's own hint.
    Beyond the contract in docs/GUI.md: ``field(*path)`` reaches a field's widgets (tests, callers
    that prefill one field), ``set_json_visible()`` hides the JSON pane, ``schema_problem`` says why
    the schema itself is not valid (values are then checked only as far as possible).

    Args:
        schema: The JSON Schema of the object to edit (untrusted: every text in it is shown plainly).
        value: Initial value; replaces the schema's defaults (None: the defaults).
        show_json: Show the raw-JSON editor beside the form.
        lists_fields_to_fix: Under the fields, say how many are marked and name them; off for an owner that
            names them beside its own greyed action ("Fill in: …; Fix: …", ``fix_hint``), so that a problem is
            said once beside its field and once where the user acts, not a third time.
        parent: Parent widget.

    Tab goes through the fields in the order they are drawn (an array's items before its "Add item", an
    item added later where it is drawn), then the fields' small tool buttons (clear, today, move and
    remove an item), which would otherwise come between one field and the next; ``tab_stops()`` lists
    both for an owner that puts its own buttons between them.

    Signals:
        changed: The value (or the JSON text's validity) changed.
        tab_stops_changed: Fields were added (an item, a branch) and the form ordered its Tab stops again.
    """

    changed = Signal()
    tab_stops_changed = Signal()

    def __init__(
        self,
        schema: dict[str, Any],
        *,
        value: dict[str, Any] | None = None,
        show_json: bool = True,
        lists_fields_to_fix: bool = True,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self._lists_fields_to_fix = lists_fields_to_fix
        self.schema: Mapping[str, Any] = schema if isinstance(schema, Mapping) else {}
        self._ctx = new_context(self.schema)
        self.schema_problem = schema_problem(self.schema)
        self._validator = make_validator(self.schema)
        self._json_problem: str | None = None
        self._errors: list[tuple[Path, str]] = []
        self._revealed = False  # every field's problems show (a submit was tried); else only touched ones
        self._note = ""

        self._ctx.quiet += 1
        try:
            self.root: Field = build_field(self._ctx, self.schema, required=True)
        finally:
            self._ctx.quiet -= 1

        form_page = QWidget()
        form_layout = QVBoxLayout(form_page)
        form_layout.addWidget(self.root)
        form_layout.addStretch(1)
        self.form_area = QScrollArea()
        self.form_area.setWidgetResizable(True)
        self.form_area.setWidget(form_page)

        self.json_editor: QPlainTextEdit | None = None
        self.json_error: QLabel | None = None
        self.json_pane: QWidget | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        if show_json:
            self.json_editor = WholeWordsEditor()
            self.json_editor.setObjectName("jsonEditor")
            self.json_editor.setProperty(SECONDARY_INPUT, True)  # the fields come first (dialog_rules)
            self.json_editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
            # wrapped like the results: beside a form and a result (1920×1080) the pane is narrower
            # than a line with an e-mail address, which would be cut or need sideways scrolling to read
            self.json_editor.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
            # and like the results, a line breaks only at white space, never inside a value (see _write_json)
            self.json_editor.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
            self.json_editor.setTabChangesFocus(True)
            self.json_error = plain_label("", wrap=True)
            self.json_error.setObjectName("jsonError")
            set_tone(self.json_error, "error")
            self.json_error.hide()
            json_page = self.json_pane = QWidget()
            json_layout = QVBoxLayout(json_page)
            json_layout.setContentsMargins(0, 0, 0, 0)
            json_layout.addWidget(plain_label("JSON", selectable=False))
            json_layout.addWidget(self.json_editor, 1)
            json_layout.addWidget(self.json_error)
            self.splitter = QSplitter(Qt.Orientation.Horizontal)
            self.splitter.addWidget(self.form_area)
            self.splitter.addWidget(json_page)
            self.splitter.setStretchFactor(0, 3)
            self.splitter.setStretchFactor(1, 2)
            outer.addWidget(self.splitter, 1)
        else:
            outer.addWidget(self.form_area, 1)
        self.errors_label = plain_label("", wrap=True)
        self.errors_label.setObjectName("formErrors")
        set_tone(self.errors_label, "error")
        self.errors_label.hide()
        outer.addWidget(self.errors_label)
        self.schema_label = plain_label("", wrap=True)
        self.schema_label.setObjectName("schemaProblem")
        outer.addWidget(self.schema_label)
        self._show_schema_problem()

        if value is not None:
            self.root.set(dict(value))
        self._write_json()
        self._refresh()
        self.root.changed.connect(self._on_form_changed)
        if self.json_editor is not None:
            self.json_editor.textChanged.connect(self._on_json_edited)
        self._ordered_at = -1  # ctx.built when the Tab stops were last ordered
        self._keep_tab_order()

    # ---------------------------------------------------------------- public API

    def value(self) -> dict[str, Any]:
        """The current arguments: defaults filled in, empty optional fields left out."""
        value = self.root.get()
        return dict(value) if isinstance(value, Mapping) else {}

    def set_value(self, value: dict[str, Any]) -> None:
        """Show ``value`` in the form and the JSON editor (keys the schema lacks are kept)."""
        self.root.set(dict(value))
        self._json_problem = None
        self._write_json()
        self._refresh()
        self._keep_tab_order()
        self.changed.emit()

    def tab_stops(self) -> tuple[list[QWidget], list[QWidget]]:
        """The fields' widgets that take Tab, in the order they are drawn, and the fields' small tool buttons.

        Read from the layouts top to bottom (never from creation order: "Add item" is made before the items
        it adds); popups of the form's (a combo's list, a completer's) and widgets reached through a focus
        proxy are left out. At most ``MAX_TAB_STOPS`` fields. Never found by walking the focus chain:
        PySide6 records each widget ``nextInFocusChain()`` returns as a child of the widget asked, so a walk
        round the window would make other panels "belong" to the form, and deleting the form would
        invalidate their Qt-made parts while they are still on screen.
        """
        fields: list[QWidget] = []
        buttons: list[QWidget] = []
        window = self.window()
        for widget in _drawn_order(self.root):
            if len(fields) >= MAX_TAB_STOPS:
                break
            if (
                widget.focusPolicy().value & Qt.FocusPolicy.TabFocus.value
                and widget.window() is window
                and widget.focusProxy() is None
                and not isinstance(widget, QScrollArea)
            ):
                (buttons if isinstance(widget, QToolButton) else fields).append(widget)
        return fields, buttons

    def _keep_tab_order(self) -> None:
        """Order the Tab stops again when fields were built since they were last ordered."""
        if self._ctx.built == self._ordered_at:
            return
        first_time = self._ordered_at < 0
        self._ordered_at = self._ctx.built
        fields, buttons = self.tab_stops()
        chain = [*fields, *buttons]
        for first, second in itertools.pairwise(chain):
            QWidget.setTabOrder(first, second)
        if not first_time:
            self.tab_stops_changed.emit()

    def errors(self) -> list[str]:
        """Validation problems as ``"path: message"`` (``[]`` when valid)."""
        return [f"{format_path(path)}: {msg}" for path, msg in self._errors]

    def is_valid(self) -> bool:
        """True when the value satisfies the schema and the JSON editor holds valid JSON."""
        return not self._errors

    def set_json_visible(self, visible: bool) -> None:
        """Show or hide the raw-JSON pane (it stays in sync while hidden)."""
        if self.json_pane is not None:
            self.json_pane.setVisible(visible)

    def reveal_errors(self) -> None:
        """Show every field's problems inline and in the list, touched or not (on a submit attempt)."""
        self._revealed = True
        self._show_errors()

    def set_summary_note(self, note: str) -> None:
        """Add ``note`` as the last line of the problem list while it shows problems ("" removes it).

        A caller that refused to submit says so here, beside the problems, instead of in a second message.
        """
        self._note = note
        self._show_errors()

    def fields_to_fix(self) -> list[tuple[str, bool]]:
        """Every field with a problem, shown or not: ``(label path, only "required")`` in the form's order."""
        out: dict[str, bool] = {}
        for path, msg in self._errors:
            node, rest = self._deepest(path) if path != (JSON_PATH,) else (None, ())
            if node is None or node is self.root:
                continue
            where = self._label_path(path[: len(path) - len(rest)])
            out[where] = out.get(where, True) and msg == "required" and not rest
        return list(out.items())

    def fix_hint(self) -> str:
        """Why the form cannot be sent yet, by field label ("Fill in: Party size; Fix: Email"); "" when it can."""
        if self.is_valid():
            return ""
        fields = self.fields_to_fix()
        empty = [name for name, missing in fields if missing]
        wrong = [name for name, missing in fields if not missing]
        parts = ([f"Fill in: {', '.join(empty)}"] if empty else []) + ([f"Fix: {', '.join(wrong)}"] if wrong else [])
        return "; ".join(parts) or "Some answers are not valid yet"

    def field(self, *path: str | int) -> Field | None:
        """The field at ``path`` (property names and array indexes; choices pass through)."""
        node: Field | None = self.root
        for key in path:
            node = node.child(key) if node is not None else None
        return node

    # ---------------------------------------------------------------- sync

    def _on_form_changed(self) -> None:
        self._json_problem = None
        self._write_json()
        self._refresh()
        self._keep_tab_order()
        self.changed.emit()

    def _write_json(self) -> None:
        if self.json_editor is None:
            return
        value, shortened = shortened_for_editor(self.value())
        text = escape_json_text(json.dumps(value, indent=2, ensure_ascii=False))  # invisible ones as \uXXXX
        self.json_editor.setReadOnly(shortened)  # text that is not the value must not be typed back into it
        if text != self.json_text():
            self.json_editor.blockSignals(True)
            try:
                # The JSON the form writes keeps its values whole when wrapped (``keep_words_whole``, the
                # results' rule); the joiners are only on screen: ``json_text``, copying and what is sent
                # leave them out. What the user types is left as typed (re-gluing would move the cursor).
                glued = keep_words_whole(text) if len(text) <= WHOLE_WORDS_UP_TO else text
                self.json_editor.setPlainText(glued)
            finally:
                self.json_editor.blockSignals(False)
        self._show_json_problem()

    def json_text(self) -> str:
        """The raw-JSON editor's text, exactly (without the word joiners that keep values whole on screen)."""
        return without_joiners(self.json_editor.toPlainText()) if self.json_editor is not None else ""

    def _on_json_edited(self) -> None:
        assert self.json_editor is not None
        text = self.json_text()
        self._revealed = True
        try:
            parsed = json.loads(text)
        except json.JSONDecodeError as exc:
            self._json_problem = f"invalid JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        else:
            if isinstance(parsed, dict):
                self._json_problem = None
                self.root.set(parsed)  # quiet: the text the user is typing stays as typed
            else:
                self._json_problem = "the arguments must be a JSON object ({…})"
        self._show_json_problem()
        self._refresh()
        self._keep_tab_order()
        self.changed.emit()

    def _show_json_problem(self) -> None:
        if self.json_error is not None:
            self.json_error.setText(as_shown(self._json_problem or ""))
            self.json_error.setVisible(self._json_problem is not None)

    # ---------------------------------------------------------------- validation

    def _refresh(self) -> None:
        pairs: list[tuple[Path, str]] = []
        for path, field in self._walk():
            pairs.extend(((*path, *sub), msg) for sub, msg in field.local_errors())
        try:
            for error in without_redundant(self._validator.iter_errors(self.value())):
                pairs.extend(leaf_errors(error, self._branch_for))
        except Exception as exc:  # e.g. a pattern Python's re cannot compile: keep what was found
            if self.schema_problem is None:
                self.schema_problem = f"it cannot be checked: {exc}"
                self._show_schema_problem()
        self._errors = sorted_pairs(pairs, self._order_of)
        if self._json_problem is not None:
            self._errors.insert(0, ((JSON_PATH,), self._json_problem))
        self._show_errors()

    def _show_schema_problem(self) -> None:
        text = f"The schema is not valid, so not every value can be checked: {self.schema_problem}"
        self.schema_label.setText(text if self.schema_problem else "")
        self.schema_label.setVisible(self.schema_problem is not None)

    def _branch_for(self, path: Path, error: ValidationError) -> int | None:
        field = self.field(*path)
        if isinstance(field, ChoiceField):
            return field.selected
        if field is not None and field.is_nullable and isinstance(error.validator_value, list):
            for i, branch in enumerate(error.validator_value):
                resolved, _ = self._ctx.resolver.resolve(branch)
                if resolved is not None and resolved.get("type") != "null":
                    return i
        return None

    def _order_of(self, path: Path) -> tuple[int, ...]:
        """Where ``path`` sits in the form (fields in the schema's order, items by index)."""
        order: list[int] = []
        node: Field | None = self.root
        for key in path:
            if isinstance(node, ChoiceField):
                node = node.current()
            if isinstance(node, ObjectField) and isinstance(key, str):
                names = list(node.fields)
                order.append(names.index(key) if key in names else len(names))
            elif isinstance(key, int):
                order.append(key)
            else:
                order.append(1 << 30)
            node = node.child(key) if node is not None else None
        return tuple(order)

    def _walk(self) -> Iterator[tuple[Path, Field]]:
        stack: list[tuple[Path, Field]] = [((), self.root)]
        while stack:
            path, field = stack.pop()
            yield path, field
            if isinstance(field, ObjectField):
                stack.extend(((*path, name), child) for name, child in field.fields.items())
            elif isinstance(field, ArrayField):
                stack.extend(((*path, i), child) for i, child in enumerate(field.items))
            elif isinstance(field, ChoiceField):
                current = field.current()
                if current is not None:
                    stack.append((path, current))

    def _show_errors(self) -> None:
        per_field: dict[int, list[str]] = {}
        marked: list[str] = []  # fields that show a problem under themselves, by label
        loose: list[str] = []  # problems with no field to sit under (the root object's)
        for path, msg in self._errors:
            if path == (JSON_PATH,):
                if self.json_error is None and self._revealed:
                    loose.append(as_shown(msg))  # no JSON pane to show it under
                continue
            node, rest = self._deepest(path)
            if not (self._revealed or node.touched):
                continue  # not the user's concern yet: they have not been to this field
            line = f"{format_path(rest)}: {msg}" if rest else as_shown(msg)
            if node is self.root:
                loose.append(line)
                continue
            per_field.setdefault(id(node), []).append(line)
            where = self._label_path(path[: len(path) - len(rest)])
            if where not in marked:
                marked.append(where)
        for _, field in self._walk():
            field.show_errors(per_field.get(id(field), []))
        lines = list(loose)
        if marked and self._lists_fields_to_fix:
            names = ", ".join(marked[:MAX_LISTED]) + (
                f" and {len(marked) - MAX_LISTED} more" if len(marked) > MAX_LISTED else ""
            )
            count = len(marked)
            lines.append(f"{count} field{'s' if count != 1 else ''} to fix (marked above): {names}")
        if self._note and (lines or self._errors):
            lines.append(self._note)
        self.errors_label.setText("\n".join(lines))
        self.errors_label.setVisible(bool(lines))

    def _label_path(self, path: Path) -> str:
        """``("travellers", 0, "email")`` as the form labels it: "Travellers › #1 › Email"."""
        parts: list[str] = []
        node: Field | None = self.root
        for key in path:
            while isinstance(node, ChoiceField):
                node = node.current()
            if isinstance(node, ObjectField) and isinstance(key, str):
                parts.append(node.labels.get(key, key))
            elif isinstance(key, int):
                parts.append(f"#{key + 1}")
            else:
                parts.append(str(key))
            node = node.child(key) if node is not None else None
        return " › ".join(parts) if parts else format_path(path)

    def _deepest(self, path: Path) -> tuple[Field, Path]:
        node = self.root
        for i, key in enumerate(path):
            nxt = node.child(key)
            if nxt is None:
                return self._innermost(node), path[i:]
            node = nxt
        return self._innermost(node), ()

    @staticmethod
    def _innermost(field: Field) -> Field:
        while isinstance(field, ChoiceField) and field.current() is not None:
            current = field.current()
            assert current is not None
            if isinstance(current, ChoiceField):
                field = current
                continue
            return field  # errors of a chosen branch show under the selector
        return field


def _drawn_order(widget: QWidget) -> Iterator[QWidget]:
    """``widget`` and every widget inside it, in the order its layouts draw them (top to bottom, left to right).

    A form layout is read row by row (label, then field); children in no layout come after the laid-out ones.
    """
    yield widget
    seen: set[int] = set()
    layout = widget.layout()
    for child in _layout_widgets(layout) if layout is not None else ():
        seen.add(id(child))
        yield from _drawn_order(child)
    for child in widget.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly):
        if id(child) not in seen:
            yield from _drawn_order(child)


def _layout_widgets(layout: QLayout) -> Iterator[QWidget]:
    """The widgets of ``layout`` and of the layouts inside it, in the order they are drawn."""
    if isinstance(layout, QFormLayout):
        roles = (QFormLayout.ItemRole.LabelRole, QFormLayout.ItemRole.FieldRole, QFormLayout.ItemRole.SpanningRole)
        items = [layout.itemAt(row, role) for row in range(layout.rowCount()) for role in roles]
    else:
        items = [layout.itemAt(index) for index in range(layout.count())]
    for item in items:
        if item is None:
            continue
        child, inner = item.widget(), item.layout()
        if child is not None:
            yield child
        elif inner is not None:
            yield from _layout_widgets(inner)
