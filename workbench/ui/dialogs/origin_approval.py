"""Ask before a profile's credentials go to an origin the user did not configure.

An agent card (or a redirect) may point the client to another host, port or scheme than the one the
profile names. The dialog names both origins — what the user configured and where the peer wants
the credentials sent — with the hosts emphasised, and defaults to "Don't send". Everything shown is
plain text: origins come from the peer.
"""

from __future__ import annotations

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QLabel, QVBoxLayout, QWidget

from workbench.core.http.origins import OriginApproval
from workbench.ui.untrusted import plain_label


class OriginApprovalDialog(QDialog):
    """Asks whether this profile's credentials may also go to another origin: allow (remembered) or refuse.

    Args:
        question: What the boundary asks (the new origin, the allowed ones, the profile).
        parent: Parent widget (the main window).
    """

    def __init__(self, question: OriginApproval, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.question = question
        name = question.profile_name or "this connection"
        self.setWindowTitle("Send credentials to another origin?")
        layout = QVBoxLayout(self)
        layout.addWidget(
            plain_label(
                f"The agent of “{name}” wants its credentials sent to an origin you did not configure.",
                wrap=True,
                selectable=False,
            )
        )
        layout.addWidget(plain_label("Configured:", selectable=False))
        for origin in question.allowed or ("(none)",):
            layout.addWidget(self._origin_label(origin))
        layout.addWidget(plain_label("Wants them sent to:", selectable=False))
        self.new_origin = self._origin_label(question.origin)
        layout.addWidget(self.new_origin)
        if question.url:
            layout.addWidget(plain_label(f"for the request to {question.url}", wrap=True))
        layout.addWidget(
            plain_label(
                "Allow only if you trust that origin with the API key, token or password of this profile. "
                "Allowing is remembered for this profile (Edit connection lists it under allowed origins).",
                wrap=True,
                selectable=False,
            )
        )
        buttons = QDialogButtonBox(self)
        self.allow_button = buttons.addButton("Allow and remember", QDialogButtonBox.ButtonRole.AcceptRole)
        self.refuse_button = buttons.addButton("Don't send", QDialogButtonBox.ButtonRole.RejectRole)
        self.refuse_button.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def _origin_label(self, origin: str) -> QLabel:
        label = plain_label(origin)
        font = QFont(label.font())
        font.setBold(True)
        label.setFont(font)
        label.setContentsMargins(16, 0, 0, 0)
        return label

    def first_focus(self) -> QWidget:
        """The refusal (dialog_rules, rule 2): a permission with nothing to type starts on “Don't send”."""
        return self.refuse_button

    def approved(self) -> bool:
        """Whether the user allowed the origin."""
        return self.result() == QDialog.DialogCode.Accepted
