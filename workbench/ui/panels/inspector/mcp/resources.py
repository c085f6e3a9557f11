"""The Resources sub-tab: resources (read, subscribe, updates) and templates (fill variables with completions, read)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QSplitter,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from workbench.core.errors import WorkbenchError
from workbench.core.protocols.catalog import ResourceContents, ResourceSpec, ResourceTemplateSpec
from workbench.ui.errors import ErrorView, describe_error
from workbench.ui.panels.inspector.mcp.catalog_list import CatalogListWidget, lay_out_list_and_detail
from workbench.ui.panels.inspector.mcp.completing import CompletingLineEdit
from workbench.ui.panels.inspector.mcp.inline_error import InlineErrorWidget
from workbench.ui.panels.inspector.mcp.itemmodel import ListRow
from workbench.ui.panels.inspector.mcp.viewmodel import CompletionKey, MCPInspectorViewModel
from workbench.ui.panels.inspector.results import ContentPartsView, human_size
from workbench.ui.theme import set_tone
from workbench.ui.untrusted import plain_label


def content_items(count: int) -> str:
    """``1 content item``, ``2 content items``: how many parts a read resource has."""
    return f"{count} content item{'' if count == 1 else 's'}"


def _scrolled(widget: QWidget, parent: QWidget) -> QScrollArea:
    """``widget`` (a resource's contents) in a scroll area that fills the rest of the page.

    The contents sit at the top, at their own height; the space under short contents stays empty
    (the parts were stretched to the pane and their text centred between wide gaps); long contents
    scroll.
    """
    holder = QWidget()
    column = QVBoxLayout(holder)
    column.setContentsMargins(0, 0, 0, 0)
    column.addWidget(widget)
    column.addStretch(1)
    scroll = QScrollArea(parent)
    scroll.setWidgetResizable(True)
    scroll.setFrameShape(QFrame.Shape.NoFrame)
    scroll.setWidget(holder)
    return scroll


PICK_HINT = "Pick a resource or a template."
NO_RESOURCES_HINT = (
    "This server lists no resources and no templates. It may add some later (the lists refresh when it says so)."
)


class ResourcePage(QWidget):
    """One resource: what it is, Read, Subscribe, automatic re-read, and what reading returned."""

    def __init__(self, vm: MCPInspectorViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.spec: ResourceSpec | None = None
        self._shown: tuple[str | None, str | None] = (None, None)  # connection, URI
        self.uri_label = plain_label("", self, wrap=True)
        self.about = plain_label("", self, wrap=True)
        self.read_button = QPushButton("Read", self)
        self.read_button.clicked.connect(self.on_read_button_clicked)
        self.subscribe_box = QCheckBox("Subscribe to updates", self)
        self.subscribe_box.clicked.connect(self.on_subscribe_box_clicked)
        self.auto_box = QCheckBox("Re-read automatically", self)
        self.auto_box.toggled.connect(self.on_auto_box_toggled)
        self.updated_label = plain_label("● updated on the server — Read to see it", self)
        set_tone(self.updated_label, "warning")
        self.updated_label.setVisible(False)
        row = QHBoxLayout()
        row.addWidget(self.read_button)
        row.addWidget(self.subscribe_box)
        row.addWidget(self.auto_box)
        row.addWidget(self.updated_label)
        row.addStretch(1)
        self.banner = InlineErrorWidget(self)
        self.status = plain_label("", self)
        self.contents = ContentPartsView(self, resource_header="contents")
        self.contents.link_clicked.connect(vm.ctx.links.offer)
        self.contents.link_read_requested.connect(self.on_contents_link_read_requested)
        layout = QVBoxLayout(self)
        layout.addWidget(self.uri_label)
        layout.addWidget(self.about)
        layout.addLayout(row)
        layout.addWidget(self.banner)
        layout.addWidget(self.status)
        layout.addWidget(_scrolled(self.contents, self), 1)

    def show_resource(self, spec: ResourceSpec | None, *, restore: bool = False) -> None:
        """Show ``spec`` and read it at once (Read reads it again; a refreshed list re-reads nothing).

        With ``restore`` (the connection is shown again) the connection's last read of ``spec`` is shown
        as it was, and read only if there is none.
        """
        cid = self.vm.connection_id
        if spec is not None and self.spec is not None and self._shown == (cid, spec.uri):
            self.spec = spec
            self._sync()
            return
        self.spec = spec
        self._shown = (cid, spec.uri if spec is not None else None)
        self.contents.clear()
        self.banner.clear()
        self.status.clear()
        self._sync()
        if spec is None:
            return
        state = self.vm.state
        last = state.reads.get("resources") if state is not None else None
        if restore and last is not None and last.uri == spec.uri:
            if last.contents is not None:
                self.on_resource_read(last.uri, last.contents)
            elif last.error is not None:
                self.on_resource_read_failed(last.uri, last.error)
            return
        self.on_read_button_clicked()

    def _sync(self) -> None:
        spec = self.spec
        self.uri_label.setText(spec.uri if spec else "")
        bits = []
        if spec is not None:
            bits.append(spec.name + (f" — {spec.title}" if spec.title and spec.title != spec.name else ""))
            bits.append(spec.mime_type or "unknown type")
            if spec.size is not None:
                bits.append(human_size(spec.size))
            if spec.description:
                bits.append(spec.description)
        self.about.setText("\n".join(bits))
        caps = self.vm.capabilities
        can_subscribe = caps is not None and caps.supports_resource_subscribe
        for widget in (self.read_button, self.subscribe_box, self.auto_box):
            widget.setEnabled(spec is not None)
        self.subscribe_box.setEnabled(spec is not None and can_subscribe)
        self.subscribe_box.setChecked(spec is not None and self.vm.is_subscribed(spec.uri))
        self.auto_box.blockSignals(True)
        self.auto_box.setChecked(spec is not None and self.vm.auto_reread(spec.uri))
        self.auto_box.blockSignals(False)
        self.updated_label.setVisible(spec is not None and self.vm.is_updated(spec.uri))

    def on_read_button_clicked(self) -> None:
        """Read the resource."""
        if self.spec is not None:
            self.banner.clear()
            self.status.setText("Reading…")
            self.updated_label.setVisible(False)
            self.vm.read_resource(self.spec.uri)

    def on_subscribe_box_clicked(self, checked: bool) -> None:
        """Subscribe or unsubscribe (the box follows the server's answer)."""
        if self.spec is not None:
            self.subscribe_box.setEnabled(False)
            self.vm.set_subscribed(self.spec.uri, checked)

    def on_auto_box_toggled(self, checked: bool) -> None:
        """Re-read on every update, or only on Read."""
        if self.spec is not None:
            self.vm.set_auto_reread(self.spec.uri, checked)

    def on_contents_link_read_requested(self, uri: str) -> None:
        """A link inside the contents: read it in place."""
        self.vm.read_resource(uri, "link")

    def on_resource_read(self, uri: str, contents: ResourceContents) -> None:
        """Show contents read for this resource."""
        if self.spec is not None and uri == self.spec.uri:
            self.updated_label.setVisible(self.vm.is_updated(uri))
            self.status.setText(f"{content_items(len(contents.parts))}.")
            self.contents.show_parts(contents.parts)

    def on_resource_read_failed(self, uri: str, view: ErrorView) -> None:
        """Show why reading failed."""
        if self.spec is not None and uri == self.spec.uri:
            self.status.clear()
            self.banner.show_error(view)

    def on_subscription_changed(self, uri: str, subscribed: bool) -> None:
        """Follow the server's answer."""
        if self.spec is not None and uri == self.spec.uri:
            self._sync()

    def on_resource_updated(self, uri: str) -> None:
        """Mark the resource as changed."""
        if self.spec is not None and uri == self.spec.uri:
            self.updated_label.setVisible(True)


class TemplatePage(QWidget):
    """One URI template: a field per variable (server completions as you type), the URI, Read, contents."""

    def __init__(self, vm: MCPInspectorViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.spec: ResourceTemplateSpec | None = None
        self._shown: tuple[str | None, str | None] = (None, None)  # connection, template
        self._values: dict[str, str] | None = None  # where the fields' text is kept (the connection's)
        self.expandable = False
        self.fields: dict[str, CompletingLineEdit] = {}
        self.template_label = plain_label("", self, wrap=True)
        self.about = plain_label("", self, wrap=True)
        self._form_holder = QWidget(self)
        self._form = QFormLayout(self._form_holder)
        self.uri_label = plain_label("", self, wrap=True)
        self.read_button = QPushButton("Read", self)
        self.read_button.clicked.connect(self.on_read_button_clicked)
        row = QHBoxLayout()
        row.addWidget(QLabel("URI", self))
        row.addWidget(self.uri_label, 1)
        row.addWidget(self.read_button)
        self.banner = InlineErrorWidget(self)
        self.status = plain_label("", self)
        self.contents = ContentPartsView(self, resource_header="contents")
        self.contents.link_clicked.connect(vm.ctx.links.offer)
        self.contents.link_read_requested.connect(self.on_contents_link_read_requested)
        layout = QVBoxLayout(self)
        layout.addWidget(self.template_label)
        layout.addWidget(self.about)
        layout.addWidget(self._form_holder)
        layout.addLayout(row)
        layout.addWidget(self.banner)
        layout.addWidget(self.status)
        layout.addWidget(_scrolled(self.contents, self), 1)

    def show_template(self, spec: ResourceTemplateSpec | None, *, restore: bool = False) -> None:
        """Show ``spec`` with one field per variable, filled as the connection left them (empty at first).

        Enter in a field reads the URI. With ``restore`` (the connection is shown again) the
        connection's last read of this URI is shown as it was.
        """
        cid = self.vm.connection_id
        if spec is not None and self.spec is not None and self._shown == (cid, spec.uri_template):
            self.spec = spec
            return
        self.spec = spec
        self._shown = (cid, spec.uri_template if spec is not None else None)
        state = self.vm.state
        self._values = None
        for field in self.fields.values():
            self._form.removeRow(field)
        self.fields = {}
        self.contents.clear()
        self.banner.clear()
        self.status.clear()
        self.template_label.setText(spec.uri_template if spec else "")
        about = []
        if spec is not None:
            about.append(spec.name + (f" — {spec.title}" if spec.title and spec.title != spec.name else ""))
            about.append(spec.mime_type or "unknown type")
            if spec.description:
                about.append(spec.description)
        self.about.setText("\n".join(about))
        names: list[str] = []
        self.expandable = False
        if spec is not None:
            try:
                names = self.vm.template_variables(spec.uri_template)
                self.expandable = True
            except WorkbenchError as error:
                self.banner.show_error(describe_error(error, "reading the URI template"))
        kept = state.template_values.get(spec.uri_template, {}) if state is not None and spec is not None else {}
        for name in names:
            field = CompletingLineEdit(self, enabled=self.vm.supports_completions)
            field.setPlaceholderText("suggestions from the server as you type" if self.vm.supports_completions else "")
            field.setText(kept.get(name, ""))
            field.textChanged.connect(self.on_field_text_changed)
            field.completion_requested.connect(lambda text, name=name: self.on_field_completion_requested(name, text))
            field.submitted.connect(self.on_field_submitted)
            self._form.addRow(plain_label(name, self), field)  # server-sent: plain, never AutoText
            self.fields[name] = field
        if state is not None and spec is not None:
            self._values = state.template_values.setdefault(spec.uri_template, {})
        self.on_field_text_changed()
        last = state.reads.get("template") if state is not None else None
        if restore and last is not None and names and last.uri == self.uri():
            if last.contents is not None:
                self.on_resource_read(last.uri, last.contents)
            elif last.error is not None:
                self.on_resource_read_failed(last.uri, last.error)

    def values(self) -> dict[str, str]:
        """The variables as filled in."""
        return {name: field.text() for name, field in self.fields.items()}

    def uri(self) -> str:
        """The URI the template expands to ("" when the template cannot be expanded)."""
        return self.vm.expand_template(self.spec.uri_template, self.values()) if self.spec and self.expandable else ""

    def on_field_text_changed(self, text: str = "") -> None:
        """Keep the expanded URI up to date (and the values, for the connection)."""
        if self._values is not None:
            self._values.update(self.values())
        self.uri_label.setText(self.uri())
        self.read_button.setEnabled(self.spec is not None and self.expandable and all(self.values().values()))

    def on_field_completion_requested(self, name: str, text: str) -> None:
        """Ask the server to complete variable ``name`` (the other variables are the context)."""
        if self.spec is not None:
            context = {k: v for k, v in self.values().items() if k != name and v}
            self.vm.request_completion("resource", self.spec.uri_template, name, text, context)

    def on_completions_ready(self, key: CompletionKey, values: list[str]) -> None:
        """Offer the server's suggestions in the matching field."""
        ref_type, ref, argument = key
        if ref_type == "resource" and self.spec is not None and ref == self.spec.uri_template:
            field = self.fields.get(argument)
            if field is not None:
                field.offer(values)

    def on_read_button_clicked(self) -> None:
        """Read the expanded URI."""
        if self.spec is not None:
            self.banner.clear()
            self.status.setText("Reading…")
            self.vm.read_resource(self.uri(), "template")

    def on_field_submitted(self) -> None:
        """Enter in a field reads the URI, once every variable has a value."""
        if self.read_button.isEnabled():
            self.on_read_button_clicked()

    def on_contents_link_read_requested(self, uri: str) -> None:
        """A link inside the contents: read it in place."""
        self.vm.read_resource(uri, "link")

    def on_resource_read(self, uri: str, contents: ResourceContents) -> None:
        """Show what the expanded URI returned."""
        self.status.setText(f"{uri}: {content_items(len(contents.parts))}.")
        self.contents.show_parts(contents.parts)

    def on_resource_read_failed(self, uri: str, view: ErrorView) -> None:
        """Show why reading failed."""
        self.status.clear()
        self.contents.clear()
        self.banner.show_error(view)


class ResourcesWidget(QWidget):
    """Resource and template lists on the left; the selected one on the right.

    The lists' filters and selection are the shown connection's (``vm.state``): written as the user
    picks, restored by ``refresh``.
    """

    def __init__(self, vm: MCPInspectorViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.resource_list = CatalogListWidget("Filter resources", self)
        self.template_list = CatalogListWidget("Filter templates", self)
        lists = QSplitter(Qt.Orientation.Vertical, self)
        for title, widget in (("Resources", self.resource_list), ("Templates", self.template_list)):
            box = QWidget(lists)
            column = QVBoxLayout(box)
            column.setContentsMargins(0, 0, 0, 0)
            column.addWidget(QLabel(title, box))
            column.addWidget(widget, 1)
            lists.addWidget(box)
        self.resource_page = ResourcePage(vm, self)
        self.template_page = TemplatePage(vm, self)
        self.empty_page = plain_label(PICK_HINT, self, wrap=True)
        self.empty_page.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.pages = QStackedWidget(self)
        for page in (self.empty_page, self.resource_page, self.template_page):
            self.pages.addWidget(page)
        lay_out_list_and_detail(self, lists, self.pages)
        self.resource_list.selected.connect(self.on_resource_list_selected)
        self.template_list.selected.connect(self.on_template_list_selected)
        self.resource_list.filter_edit.textChanged.connect(lambda text: self._keep_filter("resources", text))
        self.template_list.filter_edit.textChanged.connect(lambda text: self._keep_filter("templates", text))
        vm.resource_read.connect(self.on_vm_resource_read)
        vm.resource_read_failed.connect(self.on_vm_resource_read_failed)
        vm.subscription_changed.connect(self.resource_page.on_subscription_changed)
        vm.resource_updated.connect(self.resource_page.on_resource_updated)
        vm.completions_ready.connect(self.template_page.on_completions_ready)
        vm.failed.connect(self.on_vm_failed)

    def refresh(self) -> None:
        """Show the shown connection's lists, with its own filters and selection (kept while still listed)."""
        state = self.vm.state
        filters = state.filters if state is not None else {}
        self.resource_list.restore(
            [
                ListRow(r.uri, r.name if r.name == r.uri else f"{r.name}  ({r.uri})", r.description or "")
                for r in self.vm.resources()
            ],
            filters.get("resources", ""),
            state.resource if state is not None else None,
        )
        self.template_list.restore(
            [
                ListRow(t.uri_template, f"{t.name}  ({t.uri_template})", t.description or "")
                for t in self.vm.templates()
            ],
            filters.get("templates", ""),
            state.template if state is not None else None,
        )
        uri, template = self.resource_list.current_key, self.template_list.current_key
        resource = next((r for r in self.vm.resources() if r.uri == uri), None)
        template_spec = next((t for t in self.vm.templates() if t.uri_template == template), None)
        if state is not None:
            state.resource = resource.uri if resource is not None else None
            state.template = template_spec.uri_template if template_spec is not None and resource is None else None
        if resource is not None:
            self.resource_page.show_resource(resource, restore=True)
            self.pages.setCurrentWidget(self.resource_page)
        elif template_spec is not None:
            self.template_page.show_template(template_spec, restore=True)
            self.pages.setCurrentWidget(self.template_page)
        else:
            self.pages.setCurrentWidget(self.empty_page)
        listed = bool(self.vm.resources() or self.vm.templates())
        self.empty_page.setText(PICK_HINT if listed else NO_RESOURCES_HINT)

    def _keep_filter(self, which: str, text: str) -> None:
        state = self.vm.state
        if state is not None:
            state.filters[which] = text

    def select_resource(self, uri: str) -> bool:
        """Select resource ``uri`` (as if clicked)."""
        return self.resource_list.select(uri)

    def select_template(self, uri_template: str) -> bool:
        """Select template ``uri_template`` (as if clicked)."""
        return self.template_list.select(uri_template)

    def on_resource_list_selected(self, uri: str | None) -> None:
        """Show the picked resource (and remember it for the connection)."""
        spec = next((r for r in self.vm.resources() if r.uri == uri), None)
        state = self.vm.state
        if state is not None:
            state.resource = spec.uri if spec is not None else None
        if spec is None:
            self.pages.setCurrentWidget(self.empty_page)
            return
        self.template_list.select(None)
        self.resource_page.show_resource(spec)
        self.pages.setCurrentWidget(self.resource_page)

    def on_template_list_selected(self, uri_template: str | None) -> None:
        """Show the picked template (and remember it for the connection)."""
        spec = next((t for t in self.vm.templates() if t.uri_template == uri_template), None)
        state = self.vm.state
        if state is not None:
            state.template = spec.uri_template if spec is not None else None
        if spec is None:
            self.pages.setCurrentWidget(self.empty_page)
            return
        self.resource_list.select(None)
        self.template_page.show_template(spec)
        self.pages.setCurrentWidget(self.template_page)

    def on_vm_resource_read(self, purpose: str, uri: str, contents: ResourceContents) -> None:
        """Route contents to the page that asked."""
        if purpose == "resources":
            self.resource_page.on_resource_read(uri, contents)
        elif purpose == "template":
            self.template_page.on_resource_read(uri, contents)
        elif purpose == "link":
            for page in (self.resource_page, self.template_page):
                for link in page.contents.links(uri):
                    link.show_contents(contents)

    def on_vm_resource_read_failed(self, purpose: str, uri: str, view: ErrorView) -> None:
        """Route a read failure to the page that asked."""
        if purpose == "resources":
            self.resource_page.on_resource_read_failed(uri, view)
        elif purpose == "template":
            self.template_page.on_resource_read_failed(uri, view)

    def on_vm_failed(self, area: str, view: ErrorView) -> None:
        """Resource failures (subscribe, complete, read) show on the page on show."""
        page = self.pages.currentWidget()
        if area == "resources" and isinstance(page, ResourcePage | TemplatePage):
            page.banner.show_error(view)
