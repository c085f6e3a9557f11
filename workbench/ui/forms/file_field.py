"""A string field that takes a file: "Choose file…" opens the file dialog and fills a data: URL, base64 or text.

Which schemas ask for a file, how a file becomes the value and how big it may be are
``workbench.core.file_inputs``' decisions; the file is read in a worker thread. A value too long to
edit in a line (a file's content) is held by the field and summarised in the editor's place (name,
type, size) until it is cleared or replaced. The dialog is opened through ``FileField.chooser``, the
one seam a test replaces to pick a file without a dialog.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, ClassVar

import anyio
from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QPlainTextEdit, QPushButton, QToolButton, QWidget

from workbench.core.file_inputs import (
    FileInputError,
    FileInputSpec,
    FileInputValue,
    describe_value,
    file_input_spec,
    read_file_input,
)
from workbench.ui.asyncutil import spawn
from workbench.ui.dialog_rules import present
from workbench.ui.forms.compound_fields import ObjectField
from workbench.ui.forms.field_base import FormContext
from workbench.ui.forms.scalar_fields import StringField
from workbench.ui.forms.schema_tools import Shape
from workbench.ui.theme import set_tone
from workbench.ui.untrusted import plain_label

HOLD_OVER = 2_000
"""Values longer than this many characters are held and summarised instead of edited in the line."""
MEDIA_TYPE_SIBLINGS = ("mimeType", "mediaType", "contentType", "mime_type", "media_type", "content_type")
"""Sibling properties that get the chosen file's media type when they are empty (base64 and text values carry none)."""

FileChooser = Callable[[QWidget, FileInputSpec, Callable[[str], None]], None]


def open_file_dialog(parent: QWidget, spec: FileInputSpec, chosen: Callable[[str], None]) -> None:
    """Open a non-blocking file dialog filtered by ``spec``; ``chosen(path)`` when the user picks a file."""
    dialog = QFileDialog(parent, "Choose a file for this input")
    dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
    dialog.setNameFilters(spec.name_filters())
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.fileSelected.connect(chosen)
    present(dialog)


class FileField(StringField):
    """A string input that can be filled from a file (see the module docstring).

    Signals:
        file_read(): A chosen file was read into the field, or refused with the reason shown under it.
    """

    chooser: ClassVar[FileChooser] = staticmethod(open_file_dialog)
    file_read = Signal()

    def __init__(self, shape: Shape, ctx: FormContext, *, required: bool, item: bool = False) -> None:
        super().__init__(shape, ctx, required=required, item=item)
        spec = file_input_spec(shape.schema)
        assert spec is not None, "the builder makes a FileField only for a schema that asks for a file"
        self.spec = spec
        self.chosen: FileInputValue | None = None
        self._held: str | None = None
        self._placeholder = self.editor.placeholderText()
        self.choose_button = QPushButton("Choose file…")
        self.choose_button.clicked.connect(self.on_choose_button_clicked)
        self.clear_file_button = QToolButton()
        self.clear_file_button.setText("Clear")
        self.clear_file_button.setToolTip("Forget the chosen file")
        self.clear_file_button.clicked.connect(self.on_clear_file_button_clicked)
        self.clear_file_button.setVisible(False)
        self.file_note = plain_label(spec.describe(), wrap=True)
        self.file_note.setObjectName("fileNote")
        set_tone(self.file_note, "muted")
        self.file_note.setVisible(spec.explicit)  # a plain URI field: the button alone, the note once a file is in
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.choose_button, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.clear_file_button, 0, Qt.AlignmentFlag.AlignTop)
        row.addWidget(self.file_note, 1)
        self.body_layout.addLayout(row)

    @property
    def held(self) -> bool:
        """Whether the field holds a long value (a file's content) instead of the editor's text."""
        return self._held is not None

    # ---------------------------------------------------------------- choosing a file

    def on_choose_button_clicked(self) -> None:
        """Ask for a file (through ``chooser``)."""
        type(self).chooser(self, self.spec, self.load_file)

    def load_file(self, path: str) -> None:
        """Read ``path`` in the background into the field (``file_read`` when done, either way)."""
        self.choose_button.setEnabled(False)
        self.file_note.setVisible(True)
        self.file_note.setText("Reading…")
        spawn(self._load(path), doing="reading a file for a tool input")

    async def _load(self, path: str) -> None:
        try:
            chosen = await anyio.to_thread.run_sync(read_file_input, path, self.spec)
        except FileInputError as err:
            self.file_note.setText(f"{err.message} {err.hint or ''}".strip())
            set_tone(self.file_note, "error")
            return
        finally:
            self.choose_button.setEnabled(True)
            self.file_read.emit()
        self.chosen = chosen
        note = chosen.summary()
        if not chosen.type_matches and self.spec.media_type:
            note += f" — this input asks for {self.spec.media_type}; the file may not be one"
        self._hold(chosen.value, note)
        self._fill_media_type(chosen.media_type)
        self._edited()

    def on_clear_file_button_clicked(self) -> None:
        """Forget the chosen file (the field is empty again)."""
        self._release()
        self._edited()

    def _fill_media_type(self, media_type: str) -> None:
        """Give an empty sibling ``mimeType`` (or the like) the file's media type, for values that carry none."""
        if self.spec.encoding == "data-url":
            return
        widget = self.parentWidget()
        while widget is not None and not isinstance(widget, ObjectField):
            widget = widget.parentWidget()
        if widget is None or self not in widget.fields.values():
            return
        for name in MEDIA_TYPE_SIBLINGS:
            sibling = widget.fields.get(name)
            if isinstance(sibling, StringField) and sibling is not self and not sibling.text():
                sibling.set_text(media_type)
                return

    # ---------------------------------------------------------------- held values

    def _hold(self, value: str, summary: str) -> None:
        self._held = value
        editor = self.editor
        blocked = editor.blockSignals(True)
        try:
            if isinstance(editor, QPlainTextEdit):
                editor.setPlainText("")
            else:
                editor.setText("")
            editor.setReadOnly(True)
            editor.setPlaceholderText(summary)
        finally:
            editor.blockSignals(blocked)
        self.clear_file_button.setVisible(True)
        self.file_note.setVisible(True)
        self.file_note.setText(summary)
        set_tone(self.file_note, "muted")

    def _release(self) -> None:
        self._held = None
        self.chosen = None
        self.editor.setReadOnly(False)
        self.editor.setPlaceholderText(self._placeholder)
        self.clear_file_button.setVisible(False)
        self.file_note.setVisible(self.spec.explicit)
        self.file_note.setText(self.spec.describe())
        set_tone(self.file_note, "muted")

    # ---------------------------------------------------------------- value

    def _get(self) -> Any:
        return self._held if self._held is not None else super()._get()

    def _accepts(self, value: Any) -> bool:
        return isinstance(value, str) and (len(value) > HOLD_OVER or super()._accepts(value))

    def _set(self, value: Any) -> None:
        if isinstance(value, str) and len(value) > HOLD_OVER:
            self._hold(value, describe_value(value) or f"{len(value):,} characters (too long to edit here)")
            return
        if self._held is not None:
            self._release()
        super()._set(value)

    def _clear(self) -> None:
        if self._held is not None:
            self._release()
        super()._clear()


def is_file_input(schema: Any) -> bool:
    """Whether a string schema asks for a file (and so gets a ``FileField``)."""
    return isinstance(schema, Mapping) and file_input_spec(schema) is not None
