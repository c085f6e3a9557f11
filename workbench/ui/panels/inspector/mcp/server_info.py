"""The Server sub-tab: identity, protocol, instructions, capabilities, log level, ping and the raw description."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QTabWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from workbench.core.timefmt import duration_text
from workbench.ui.errors import ErrorView
from workbench.ui.panels.inspector.mcp.inline_error import InlineErrorWidget
from workbench.ui.panels.inspector.mcp.viewmodel import LOG_LEVELS, MCPInspectorViewModel
from workbench.ui.panels.inspector.results.blobs import pretty_json
from workbench.ui.payload import PayloadView
from workbench.ui.untrusted import SafeTextBrowser, plain_label, set_plain_tooltip, shown

_FIELDS = (
    ("name", "Name"),
    ("title", "Title"),
    ("version", "Version"),
    ("protocol_version", "Protocol version"),
    ("era", "Era"),
    ("transport", "Transport"),
    ("target", "Target"),
    ("entry_point", "Agent entry point"),
)


NO_PING = "No ping: the 2026-07-28 protocol has none."
NO_LOGGING = "This server does not declare the 'logging' capability, so it sends no log messages to set a level for."
NO_LOGGING_SHORT = "Not offered: no 'logging' capability."
LOG_LEVEL_TIP = "The least severe log messages the server should send (its log lines show beside each call's result)."


def _fill_tree(parent: QTreeWidgetItem, value: Any) -> None:
    """Add ``value`` (dicts and lists become branches) under ``parent``; item views show text literally, ``shown``."""
    if isinstance(value, dict):
        for key, child in value.items():
            item = QTreeWidgetItem(parent, [shown(str(key)), "" if isinstance(child, dict | list) else _leaf(child)])
            _fill_tree(item, child)
    elif isinstance(value, list):
        for n, child in enumerate(value):
            item = QTreeWidgetItem(parent, [f"[{n}]", "" if isinstance(child, dict | list) else _leaf(child)])
            _fill_tree(item, child)


def _leaf(value: Any) -> str:
    return shown(json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value)


class ServerInfoWidget(QWidget):
    """What the server says about itself, plus log level and ping.

    Its content scrolls in a page shorter than it: the tallest page of the workspace would otherwise
    set the workspace's minimum, and with it how short the window lets the wire log be
    (``window_layout``'s space budget).
    """

    def __init__(self, vm: MCPInspectorViewModel, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.vm = vm
        self.fields: dict[str, QLabel] = {}
        form = QFormLayout()
        for key, title in _FIELDS:
            self.fields[key] = plain_label("", self, wrap=True)
            form.addRow(title, self.fields[key])

        self.log_level = QComboBox(self)
        self.log_level.addItems(LOG_LEVELS)
        self.log_level.activated.connect(self.on_log_level_activated)
        self.log_status = plain_label("", self)
        self.ping_button = QPushButton("Ping", self)
        self.ping_button.clicked.connect(self.on_ping_button_clicked)
        self.ping_result = plain_label("", self)
        controls = QHBoxLayout()
        controls.addWidget(QLabel("Log level", self))
        controls.addWidget(self.log_level)
        controls.addWidget(self.log_status)
        controls.addStretch(1)
        controls.addWidget(self.ping_button)
        controls.addWidget(self.ping_result)

        self.banner = InlineErrorWidget(self)
        self.instructions = SafeTextBrowser(self)
        self.instructions.link_clicked.connect(vm.ctx.links.offer)
        self.markdown = QCheckBox("Render as markdown", self)
        self.markdown.setChecked(True)
        self.markdown.toggled.connect(self.on_markdown_toggled)
        instructions_page = QWidget(self)
        box = QVBoxLayout(instructions_page)
        box.addWidget(self.markdown)
        box.addWidget(self.instructions, 1)
        self.capabilities = QTreeWidget(self)
        self.capabilities.setHeaderLabels(["Capability", "Value"])
        self.raw = PayloadView(self)
        self.tabs = QTabWidget(self)
        self.tabs.addTab(instructions_page, "Instructions")
        self.tabs.addTab(self.capabilities, "Capabilities")
        self.tabs.addTab(self.raw, "Raw JSON")

        content = QWidget(self)
        layout = QVBoxLayout(content)
        layout.addLayout(form)
        layout.addLayout(controls)
        layout.addWidget(self.banner)
        layout.addWidget(self.tabs, 1)
        scroll = QScrollArea(self)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setWidgetResizable(True)  # as tall as the page when it fits: the tabs take the rest
        scroll.setWidget(content)
        page = QVBoxLayout(self)
        page.setContentsMargins(0, 0, 0, 0)
        page.addWidget(scroll)

        vm.ping_finished.connect(self.on_vm_ping_finished)
        vm.log_level_set.connect(self.on_vm_log_level_set)
        vm.failed.connect(self.on_vm_failed)
        self._instructions_text = ""

    def refresh(self) -> None:
        """Re-read everything from the view-model."""
        self.banner.clear()
        self.ping_result.clear()
        self.log_status.clear()
        description = self.vm.describe() or {}
        caps = self.vm.capabilities
        info = description.get("server_info") or {}
        values = {
            "name": info.get("name") or "",
            "title": info.get("title") or "",
            "version": info.get("version") or "",
            "protocol_version": description.get("protocol_version") or "",
            "era": {"legacy": "handshake era (initialize)", "2026-07-28": "2026-07-28 (stateless)"}.get(
                description.get("era") or "", description.get("era") or ""
            ),
            "transport": description.get("transport") or "",
            "target": description.get("target") or "",
            "entry_point": (caps.agent_entry_point if caps else None) or "none",
        }
        for key, label in self.fields.items():
            label.setText(str(values[key]))
        self._instructions_text = (caps.instructions if caps else None) or ""
        self.on_markdown_toggled(self.markdown.isChecked())
        self._fill_capabilities(description)
        self.raw.set_text(pretty_json(description), suggested_name="server.json")
        self.ping_button.setEnabled(self.vm.can_ping)
        set_plain_tooltip(self.ping_button, "Round-trip a ping request." if self.vm.can_ping else NO_PING)
        # a greyed-out button says why beside it, not only in a tooltip nobody hovers over
        self.ping_result.setText("" if self.vm.can_ping else NO_PING)
        self.log_level.setEnabled(self.vm.can_set_log_level)
        set_plain_tooltip(self.log_level, LOG_LEVEL_TIP if self.vm.can_set_log_level else NO_LOGGING)
        self.log_status.setText("" if self.vm.can_set_log_level else NO_LOGGING_SHORT)
        level = self.vm.log_level
        if level in LOG_LEVELS:
            self.log_level.setCurrentIndex(LOG_LEVELS.index(level))

    def _fill_capabilities(self, description: dict[str, Any]) -> None:
        self.capabilities.clear()
        caps = description.get("capabilities") or {}
        sent = QTreeWidgetItem(self.capabilities, ["As sent by the server", ""])
        _fill_tree(sent, (caps.get("extra") or {}).get("server_capabilities") or {})
        neutral = QTreeWidgetItem(self.capabilities, ["What the workbench makes of it", ""])
        _fill_tree(neutral, {k: v for k, v in caps.items() if k.startswith("supports_") or k == "agent_entry_point"})
        sent.setExpanded(True)
        self.capabilities.resizeColumnToContents(0)

    def on_markdown_toggled(self, markdown: bool) -> None:
        """Show the instructions as markdown (no HTML, no images) or literally."""
        if markdown:
            self.instructions.set_untrusted_markdown(self._instructions_text)
        else:
            self.instructions.set_untrusted_text(self._instructions_text)

    def on_log_level_activated(self, index: int) -> None:
        """Ask the server for the picked level."""
        self.log_status.setText("setting…")
        self.vm.set_log_level(LOG_LEVELS[index])

    def on_ping_button_clicked(self) -> None:
        """Ping."""
        self.ping_result.setText("pinging…")
        self.vm.ping()

    def on_vm_ping_finished(self, ms: float) -> None:
        """Show the latency."""
        self.ping_result.setText(duration_text(ms / 1000))

    def on_vm_log_level_set(self, level: str) -> None:
        """Confirm the level."""
        self.log_status.setText(f"set to {level}")

    def on_vm_failed(self, area: str, view: ErrorView) -> None:
        """Show server-area failures inline."""
        if area == "server":
            self.ping_result.clear()
            self.log_status.clear()
            self.banner.show_error(view)
