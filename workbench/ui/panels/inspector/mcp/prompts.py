"""The Prompts sub-tab: prompts with their arguments (server completions as you type), Get, and the messages."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QFormLayout,
    QFrame,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from workbench.core.field_labels import humanise
from workbench.core.protocols.catalog import PromptResult, PromptSpec, ResourceContents
from workbench.ui.errors import ErrorView
from workbench.ui.forms.compound_fields import REQUIRED_MARK
from workbench.ui.panels.inspector.mcp.catalog_list import CatalogListWidget, lay_out_list_and_detail
from workbench.ui.panels.inspector.mcp.completing import CompletingLineEdit
from workbench.ui.panels.inspector.mcp.inline_error import InlineErrorWidget
from workbench.ui.panels.inspector.mcp.itemmodel import ListRow
from workbench.ui.panels.inspector.mcp.viewmodel import CompletionKey, MCPInspectorViewModel
from workbench.ui.panels.inspector.results import ContentPartsView
from workbench.ui.untrusted import plain_label, set_plain_tooltip

NO_PROMPTS_HINT = "This server lists no prompts. It may add some later (the list refreshes when it says so)."


class PromptMessageView(QFrame):
    """One message of a rendered prompt: its role, then its content parts."""

    def __init__(self, role: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.role_label = plain_label(role, self)
        font = self.role_label.font()
        font.setBold(True)
        self.role_label.setFont(font)
        self.parts = ContentPartsView(self)
        layout = QVBoxLayout(self)
        layout.addWidget(self.role_label)
        layout.addWidget(self.parts)


class PromptDetailWidget(QWidget):
    """One prompt: description, a field per argument, Get (or Enter in a field), and the rendered messages.

    The arguments typed and the last rendered prompt are the shown connection's (``vm.state``).
    """

    def __init__(self, vm: MCPInspectorViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.spec: PromptSpec | None = None
        self._shown: tuple[str | None, object] = (None, None)  # connection, the prompt as listed
        self._values: dict[str, str] | None = None  # where the arguments typed are kept (the connection's)
        self.fields: dict[str, CompletingLineEdit] = {}
        self.name_label = plain_label("Pick a prompt", self)
        font = self.name_label.font()
        font.setBold(True)
        self.name_label.setFont(font)
        self.description = plain_label("", self, wrap=True)
        self._form_holder = QWidget(self)
        self._form = QFormLayout(self._form_holder)
        self.get_button = QPushButton("Get prompt", self)
        self.get_button.clicked.connect(self.on_get_button_clicked)
        self.banner = InlineErrorWidget(self)
        self.result_description = plain_label("", self, wrap=True)
        self.messages: list[PromptMessageView] = []
        self._messages_holder = QWidget(self)
        self._messages_layout = QVBoxLayout(self._messages_holder)
        self._messages_layout.addStretch(1)
        scroll = QScrollArea(self)
        scroll.setWidgetResizable(True)
        scroll.setFrameShape(QFrame.Shape.NoFrame)
        scroll.setWidget(self._messages_holder)
        layout = QVBoxLayout(self)
        layout.addWidget(self.name_label)
        layout.addWidget(self.description)
        layout.addWidget(self._form_holder)
        layout.addWidget(self.get_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.banner)
        layout.addWidget(self.result_description)
        layout.addWidget(scroll, 1)
        vm.prompt_received.connect(self.on_vm_prompt_received)
        vm.completions_ready.connect(self.on_vm_completions_ready)
        vm.failed.connect(self.on_vm_failed)
        self.show_prompt(None)

    def show_prompt(self, spec: PromptSpec | None) -> None:
        """Show ``spec`` with one field per argument (required ones marked with *), as the connection left it."""
        cid = self.vm.connection_id
        shown = (cid, spec.to_dict() if spec is not None else None)
        if self.spec is not None and spec is not None and self._shown == shown:
            return
        self.spec = spec
        self._shown = shown
        state = self.vm.state
        self._values = None
        for field in self.fields.values():
            self._form.removeRow(field)
        self.fields = {}
        self._clear_messages()
        self.banner.clear()
        self.result_description.clear()
        none_listed = spec is None and not self.vm.prompts()
        picked = "No prompts" if none_listed else "Pick a prompt"
        self.name_label.setText(spec.name + (f" — {spec.title}" if spec.title else "") if spec else picked)
        self.description.setText(spec.description or "" if spec else (NO_PROMPTS_HINT if none_listed else ""))
        kept = state.prompt_arguments.get(spec.name, {}) if state is not None and spec is not None else {}
        for argument in spec.arguments if spec else []:
            field = CompletingLineEdit(self, enabled=self.vm.supports_completions)
            set_plain_tooltip(field, argument.description or "")
            field.setPlaceholderText(argument.description or "")
            field.setText(kept.get(argument.name, ""))
            field.textChanged.connect(self.on_field_text_changed)
            field.submitted.connect(self.on_field_submitted)
            field.completion_requested.connect(
                lambda text, name=argument.name: self.on_field_completion_requested(name, text)
            )
            # a server-sent name: never let QFormLayout make an AutoText label of it
            label = plain_label(humanise(argument.name) + (REQUIRED_MARK if argument.required else ""), self)
            set_plain_tooltip(label, argument.name)  # the name the server knows it by
            self._form.addRow(label, field)
            self.fields[argument.name] = field
        if self.fields:  # fields made after the button would otherwise Tab past it
            QWidget.setTabOrder(list(self.fields.values())[-1], self.get_button)
        if state is not None and spec is not None:
            self._values = state.prompt_arguments.setdefault(spec.name, {})
        self.on_field_text_changed()
        outcome = state.prompt_outcome if state is not None else None
        if spec is not None and outcome is not None and outcome.name == spec.name:
            if outcome.result is not None:
                self.on_vm_prompt_received(outcome.name, outcome.result)
            elif outcome.error is not None:
                self.banner.show_error(outcome.error)

    def arguments(self) -> dict[str, str]:
        """The filled-in arguments (empty ones left out)."""
        return {name: field.text() for name, field in self.fields.items() if field.text()}

    def on_field_text_changed(self, text: str = "") -> None:
        """Get is possible once every required argument has a value (the values are kept for the connection)."""
        if self._values is not None:
            self._values.clear()
            self._values.update(self.arguments())
        required = [a.name for a in self.spec.arguments if a.required] if self.spec else []
        filled = self.arguments()
        self.get_button.setEnabled(self.spec is not None and all(name in filled for name in required))

    def on_field_completion_requested(self, name: str, text: str) -> None:
        """Ask the server to complete argument ``name`` (the other arguments are the context)."""
        if self.spec is not None:
            context = {k: v for k, v in self.arguments().items() if k != name}
            self.vm.request_completion("prompt", self.spec.name, name, text, context)

    def on_vm_completions_ready(self, key: CompletionKey, values: list[str]) -> None:
        """Offer the server's suggestions in the matching field."""
        ref_type, ref, argument = key
        if ref_type == "prompt" and self.spec is not None and ref == self.spec.name and argument in self.fields:
            self.fields[argument].offer(values)

    def on_get_button_clicked(self) -> None:
        """Render the prompt."""
        if self.spec is not None:
            self.banner.clear()
            self.vm.get_prompt(self.spec.name, self.arguments())

    def on_field_submitted(self) -> None:
        """Enter in a field gets the prompt, once every required argument has a value."""
        if self.get_button.isEnabled():
            self.on_get_button_clicked()

    def _clear_messages(self) -> None:
        for view in self.messages:
            view.setParent(None)
            view.deleteLater()
        self.messages = []

    def on_vm_prompt_received(self, name: str, result: PromptResult) -> None:
        """Show the rendered messages."""
        if self.spec is None or name != self.spec.name:
            return
        self._clear_messages()
        self.result_description.setText(result.description or "")
        for message in result.messages:
            view = PromptMessageView(message.role, self._messages_holder)
            view.parts.show_parts(message.content)
            view.parts.link_read_requested.connect(self.on_message_link_read_requested)
            self._messages_layout.insertWidget(len(self.messages), view)
            self.messages.append(view)

    def on_message_link_read_requested(self, uri: str) -> None:
        """A resource link inside a message: read it in place."""
        self.vm.read_resource(uri, "link")

    def on_vm_failed(self, area: str, view: ErrorView) -> None:
        """Prompt failures show inline."""
        if area == "prompts":
            self.banner.show_error(view)


class PromptsWidget(QWidget):
    """Prompt list on the left, the selected prompt on the right.

    The list's filter and selection are the shown connection's (``vm.state``): written as the user
    picks, restored by ``refresh``.
    """

    def __init__(self, vm: MCPInspectorViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.list = CatalogListWidget("Filter prompts", self)
        self.detail = PromptDetailWidget(vm, self)
        lay_out_list_and_detail(self, self.list, self.detail)
        self.list.selected.connect(self.on_list_selected)
        self.list.filter_edit.textChanged.connect(self.on_filter_edit_text_changed)
        vm.resource_read.connect(self.on_vm_resource_read)

    def refresh(self) -> None:
        """Show the shown connection's prompts, with its own filter and selection (kept while still listed)."""
        rows = []
        for p in self.vm.prompts():
            args = ", ".join(a.name + ("" if a.required else "?") for a in p.arguments)
            rows.append(ListRow(p.name, f"{p.name}({args})", p.description or ""))
        state = self.vm.state
        self.list.restore(
            rows,
            state.filters.get("prompts", "") if state is not None else "",
            state.prompt if state is not None else None,
        )
        self.on_list_selected(self.list.current_key)

    def on_filter_edit_text_changed(self, text: str) -> None:
        """Remember the filter for the connection."""
        state = self.vm.state
        if state is not None:
            state.filters["prompts"] = text

    def select_prompt(self, name: str) -> bool:
        """Select prompt ``name`` (as if clicked)."""
        return self.list.select(name)

    def on_list_selected(self, name: str | None) -> None:
        """Show the picked prompt (and remember it for the connection)."""
        state = self.vm.state
        if state is not None:
            state.prompt = name
        self.detail.show_prompt(self.vm.prompt(name) if name else None)

    def on_vm_resource_read(self, purpose: str, uri: str, contents: ResourceContents) -> None:
        """Contents for a link inside a prompt message."""
        if purpose == "link":
            for message in self.detail.messages:
                for link in message.parts.links(uri):
                    link.show_contents(contents)
