"""``SizeLimitsEditor``: the connection dialog's row for an HTTP profile's response size limits.

Two short text fields, "per message" and "per stream", taking what the command line's
``--max-message-bytes`` / ``--max-stream-bytes`` take (``64MiB``, ``128M``, ``500KB``, ``none``;
``workbench.core.sizes``). An empty field means the default.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLineEdit, QWidget

from workbench.core.http.limits import DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_STREAM_BYTES
from workbench.core.sizes import SIZE_EXAMPLES, format_size, parse_size
from workbench.ui.dialogs.credential_fields import InputError
from workbench.ui.untrusted import plain_label

FIELD = "limits"
"""The dialog's field name for this row (its errors show under it)."""


class SizeLimitsEditor(QWidget):
    """Edit ``max_message_bytes`` and ``max_stream_bytes`` as text.

    Signals:
        changed: Either field was edited.
    """

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.message_edit = QLineEdit()
        self.message_edit.setPlaceholderText(format_size(DEFAULT_MAX_MESSAGE_BYTES))
        self.message_edit.setToolTip(
            f"Most bytes of one response body or one event; more is refused naming the limit ({SIZE_EXAMPLES})"
        )
        self.stream_edit = QLineEdit()
        self.stream_edit.setPlaceholderText(format_size(DEFAULT_MAX_STREAM_BYTES))
        self.stream_edit.setToolTip(
            f"Most bytes of the event stream answering one request (a call's progress, logs and result; "
            f"an A2A task's stream) ({SIZE_EXAMPLES})"
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(plain_label("per message", self))
        layout.addWidget(self.message_edit, 1)
        layout.addWidget(plain_label("per stream", self))
        layout.addWidget(self.stream_edit, 1)
        self.message_edit.textChanged.connect(self.changed)
        self.stream_edit.textChanged.connect(self.changed)
        self.set_limits(DEFAULT_MAX_MESSAGE_BYTES, DEFAULT_MAX_STREAM_BYTES)

    def set_limits(self, max_message_bytes: int | None, max_stream_bytes: int | None) -> None:
        """Show a profile's limits."""
        self.message_edit.setText(format_size(max_message_bytes))
        self.stream_edit.setText(format_size(max_stream_bytes))

    def limits(self) -> dict[str, int | None]:
        """The profile fields, by name (an empty field: the default).

        Raises:
            InputError: A field holds no size (``field`` is ``FIELD``).
        """
        out: dict[str, int | None] = {}
        for name, edit, default in (
            ("max_message_bytes", self.message_edit, DEFAULT_MAX_MESSAGE_BYTES),
            ("max_stream_bytes", self.stream_edit, DEFAULT_MAX_STREAM_BYTES),
        ):
            text = edit.text().strip()
            try:
                out[name] = parse_size(text) if text else default
            except ValueError as exc:
                what = "per message" if name == "max_message_bytes" else "per stream"
                raise InputError(FIELD, f"{what}: {exc}") from None
        return out
