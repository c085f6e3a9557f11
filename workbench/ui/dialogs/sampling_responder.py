"""Choose who answers a connection's sampling requests (a person, a script, a model) and under which policy.

Shows the connection's counters (requests, tokens, cost) and its recent log, from the core's
``SamplingService``; the choice is saved there (``sampling.json``). Model endpoints are added, edited and
removed in the Endpoints… dialog (``model_endpoints``; their keys in the keyring); scripts are picked as files.
"""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.errors import WorkbenchError
from workbench.core.sampling.responders import SamplingLogEntry, SamplingPolicy
from workbench.core.sampling.service import SamplingChoice, SamplingService
from workbench.core.timefmt import duration_text
from workbench.ui.dialog_rules import present
from workbench.ui.dialogs.model_endpoints import ModelEndpointsDialog
from workbench.ui.errors import describe_error
from workbench.ui.untrusted import plain_label, shown

POLICY_LABELS = {
    SamplingPolicy.ASK: "Ask me first (a script's or model's reply is a draft I approve)",
    SamplingPolicy.AUTO: "Answer automatically, and log each answer",
    SamplingPolicy.DENY: "Refuse every request",
}
LOG_LINES = 20


def describe_entry(entry: SamplingLogEntry) -> str:
    """One line of the log: the outcome, the responder, tool calls or length, tokens and cost."""
    if entry.error is not None:
        return f"{entry.outcome} by {entry.responder}: {entry.error.message}"
    response = entry.response
    calls = ", ".join(str((p.data or {}).get("name")) for p in response.tool_uses) if response else ""
    what = f"tool call {calls}" if calls else f"{len(response.text) if response else 0} characters"
    line = f"answered by {entry.responder}: {what} in {duration_text(entry.seconds)}"
    usage = response.usage if response else None
    if usage is not None and usage.output_tokens is not None:
        line += f", tokens {usage.input_tokens or 0} in / {usage.output_tokens} out"
    return line


class SamplingResponderDialog(QDialog):
    """The responder and policy of one connection's sampling, its counters and log.

    Args:
        connection: The connection's name (what its requests carry as ``agent``).
        service: The window's sampling service.
        parent: The main window.
    """

    def __init__(self, connection: str, service: SamplingService, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._connection = connection
        self._service = service
        self.setWindowTitle(shown(f"Sampling for {connection}"))
        current = service.choice(connection)
        self.responder_combo = QComboBox(self)
        self.endpoints_dialog: ModelEndpointsDialog | None = None
        """The Endpoints… dialog while it is open."""
        self._fill_responders(current.responder)
        self.script_button = QPushButton("Script file…", self)
        self.script_button.setAutoDefault(False)
        self.script_button.clicked.connect(self.on_script_button_clicked)
        self.endpoints_button = QPushButton("Endpoints…", self)
        self.endpoints_button.setAutoDefault(False)
        self.endpoints_button.setToolTip("Add, edit or remove model endpoints (their API keys go to the keyring)")
        self.endpoints_button.clicked.connect(self.on_endpoints_button_clicked)
        self.policy_combo = QComboBox(self)
        for policy, label in POLICY_LABELS.items():
            self.policy_combo.addItem(label, policy.value)
        self.policy_combo.setCurrentIndex(self.policy_combo.findData(current.policy.value))
        ledger = service.ledger(connection)
        cost = f", cost {ledger.cost:.6f}" if ledger.cost else ""
        self.counters_label = plain_label(
            f"{ledger.requests} requests; tokens {ledger.input_tokens} in / {ledger.output_tokens} out{cost}"
        )
        self.log_view = QPlainTextEdit(self)
        self.log_view.setReadOnly(True)
        self.log_view.setPlainText(shown("\n".join(describe_entry(e) for e in ledger.entries[-LOG_LINES:])))
        self.status_label = plain_label("", wrap=True)
        self.status_label.hide()
        row = QHBoxLayout()
        row.addWidget(self.responder_combo, 1)
        row.addWidget(self.script_button)
        row.addWidget(self.endpoints_button)
        form = QFormLayout()
        form.addRow("Answered by:", row)
        form.addRow("Policy:", self.policy_combo)
        form.addRow("So far:", self.counters_label)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self)
        buttons.accepted.connect(self.on_buttons_accepted)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(plain_label("Recent answers:"))
        layout.addWidget(self.log_view, 1)
        layout.addWidget(self.status_label)
        layout.addWidget(buttons)
        self.resize(560, 420)

    def _fill_responders(self, chosen: str) -> None:
        """List a person, every saved model endpoint and a chosen script; select ``chosen`` (else a person)."""
        listed = [str(self.responder_combo.itemData(i)) for i in range(self.responder_combo.count())]
        script = next((d for d in listed if d.startswith("script:")), chosen if chosen.startswith("script:") else None)
        self.responder_combo.clear()
        self.responder_combo.addItem("A person (the sampling dialog)", "person")
        try:
            endpoints = self._service.endpoints.load()
        except WorkbenchError:
            endpoints = []
        for endpoint in endpoints:
            label = f"Model {endpoint.name} ({endpoint.api}: {endpoint.model})"
            self.responder_combo.addItem(shown(label), f"model:{endpoint.name}")
        if script is not None:
            self.responder_combo.addItem(shown(f"Script {script.removeprefix('script:')}"), script)
        self.responder_combo.setCurrentIndex(max(self.responder_combo.findData(chosen), 0))

    def open_endpoints(self) -> ModelEndpointsDialog:
        """Open the Endpoints… dialog (or raise the open one); the responder list follows its changes."""
        if self.endpoints_dialog is None:
            dialog = ModelEndpointsDialog(self._service.endpoints, self)
            dialog.changed.connect(lambda: self._fill_responders(str(self.responder_combo.currentData())))
            dialog.finished.connect(lambda _code: self._forget_endpoints_dialog(dialog))
            self.endpoints_dialog = dialog
            present(dialog)
        self.endpoints_dialog.raise_()
        return self.endpoints_dialog

    def on_endpoints_button_clicked(self) -> None:
        """Manage the model endpoints."""
        self.open_endpoints()

    def _forget_endpoints_dialog(self, dialog: ModelEndpointsDialog) -> None:
        if self.endpoints_dialog is dialog:
            self.endpoints_dialog = None
        dialog.deleteLater()

    def _add_script(self, path: str) -> None:
        data = f"script:{path}"
        if self.responder_combo.findData(data) < 0:
            self.responder_combo.addItem(shown(f"Script {path}"), data)
        self.responder_combo.setCurrentIndex(self.responder_combo.findData(data))

    def choice(self) -> SamplingChoice:
        """The choice shown."""
        return SamplingChoice(str(self.responder_combo.currentData()), SamplingPolicy(self.policy_combo.currentData()))

    def on_script_button_clicked(self) -> None:
        """Pick a script file (JSON or YAML) without blocking the loop."""
        picker = QFileDialog(self, "Sampling script", "", "Sampling scripts (*.json *.yaml *.yml)")
        picker.setFileMode(QFileDialog.FileMode.ExistingFile)
        picker.fileSelected.connect(self._add_script)
        picker.open()

    def on_buttons_accepted(self) -> None:
        """Save the choice; a problem keeps the dialog open with the reason."""
        try:
            self._service.set_choice(self._connection, self.choice())
        except WorkbenchError as exc:
            view = describe_error(exc, "saving the sampling choice")
            self.status_label.setText(view.message + (f" ({view.hint})" if view.hint else ""))
            self.status_label.show()
            return
        self.accept()
