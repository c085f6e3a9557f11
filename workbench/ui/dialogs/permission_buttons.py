"""The button row of a permission question (call this tool? hand this over?): allow and refuse, refusal focused.

Enter presses the focused button (both are auto-default); elsewhere it presses the allowing one, the default
(dialog_rules, rule 3). The refusal is never the default: the dialog opens focused on it (rule 2, the
dialog's ``first_focus``).
"""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPushButton


def permission_buttons(dialog: QDialog, allow: str, refuse: str) -> tuple[QDialogButtonBox, QPushButton, QPushButton]:
    """The row with ``allow`` (accepts ``dialog``) and ``refuse`` (rejects it): the box and the two buttons."""
    box = QDialogButtonBox()
    allow_button, refuse_button = QPushButton(allow), QPushButton(refuse)
    box.addButton(allow_button, QDialogButtonBox.ButtonRole.AcceptRole)
    box.addButton(refuse_button, QDialogButtonBox.ButtonRole.RejectRole)
    box.accepted.connect(dialog.accept)
    box.rejected.connect(dialog.reject)
    return box, allow_button, refuse_button


def settle_permission_defaults(allow_button: QPushButton, refuse_button: QPushButton) -> None:
    """Make ``allow_button`` the default and never ``refuse_button``.

    Call it once both are in the dialog's layout: only then does the dialog keep the default.
    """
    allow_button.setAutoDefault(True)
    refuse_button.setAutoDefault(True)
    refuse_button.setDefault(False)
    allow_button.setDefault(True)
