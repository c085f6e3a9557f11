"""The connection dialog's fields as a profile's data: which fields each kind shows, and the mapping both ways.

``fill_fields`` puts a profile into the editors; ``read_fields`` reads them back into the data the
profile class validates, with the secret values the credential store must keep. The editors are the
``ConnectionDialog``'s, typed by the ``ProfileFields`` protocol. The text boxes' formats are parsed
here (``parse_args``, ``parse_pairs``), and ``problem_message`` puts a pydantic problem into the words
shown under its field.
"""

from __future__ import annotations

import shlex
from typing import Any, Protocol

from pydantic import BaseModel, SecretStr
from PySide6.QtWidgets import QCheckBox, QComboBox, QDoubleSpinBox, QLineEdit, QPlainTextEdit

from workbench.core.profiles import (
    PLAINTEXT_SECRET,
    A2AProfile,
    ConnectionProfile,
    MCPHTTPProfile,
    MCPSSEProfile,
    MCPStdioProfile,
)
from workbench.ui.dialogs.a2a_oauth import A2A_FIELDS
from workbench.ui.dialogs.client_capabilities import ClientCapabilitiesWidget
from workbench.ui.dialogs.credential_fields import CredentialsSection, InputError
from workbench.ui.dialogs.oauth_section import OAuthSection
from workbench.ui.dialogs.size_limits import SizeLimitsEditor

KINDS: list[tuple[str, str]] = [
    ("mcp-stdio", "MCP stdio (local process)"),
    ("mcp-http", "MCP Streamable HTTP"),
    ("mcp-sse", "MCP legacy HTTP+SSE"),
    ("a2a", "A2A agent"),
]
"""The kind selector's entries: profile kind and label."""

PROFILE_CLASSES: dict[str, type[BaseModel]] = {
    "mcp-stdio": MCPStdioProfile,
    "mcp-http": MCPHTTPProfile,
    "mcp-sse": MCPSSEProfile,
    "a2a": A2AProfile,
}

URL_PLACEHOLDERS: dict[str, str] = {
    "mcp-http": "http://127.0.0.1:8000/mcp",
    "mcp-sse": "http://127.0.0.1:8000/sse",
    "a2a": "https://agent.example.com",
}
"""What a URL of each kind looks like (shown in the empty URL field)."""

MCP_MODES = ["auto", "legacy", "2026-07-28"]
A2A_BINDINGS = ["auto", "JSONRPC", "HTTP+JSON", "GRPC"]

SECRETS_LATER = (
    "Secrets (tokens, API keys, passwords) are never stored in a profile: "
    "enter them in the credentials section below; they go to the system keyring."
)
"""Added to a "plaintext secret" refusal so the user knows where secrets go."""

FIELDS_BY_KIND: dict[str, frozenset[str]] = {
    "mcp-stdio": frozenset({"command", "args", "env", "cwd", "mode", "agent_tool", "tool_approval"}),
    "mcp-http": frozenset(
        {"url", "mode", "agent_tool", "tool_approval", "headers", "auth", "allowed_origins", "insecure", "limits"}
    ),
    "mcp-sse": frozenset(
        {"url", "mode", "agent_tool", "tool_approval", "headers", "auth", "allowed_origins", "insecure", "limits"}
    ),
    "a2a": frozenset(
        {"url", "card_url", "binding", "streaming", "headers", "auth", "allowed_origins", "insecure", "limits"}
    ),
}
"""Which fields each kind shows (the rest are hidden)."""
MCP_CLIENT_FIELDS = frozenset({"client_capabilities"})
"""Fields every MCP kind shows besides those above: the client capabilities it advertises."""
FIELDS_BY_KIND.update({kind: shown | MCP_CLIENT_FIELDS for kind, shown in FIELDS_BY_KIND.items() if kind != "a2a"})

TOOL_APPROVAL_CHOICES: tuple[tuple[str, str], ...] = (
    ("destructive", "Ask before calling a destructive tool"),
    ("always", "Ask before every tool call"),
    ("never", "Never ask"),
)
"""The tool-call policies (``tool_approval``) and their labels, the default first."""

COMMON_FIELDS = ("name", "connect_timeout", "request_timeout", "secrets")
"""Fields every kind shows."""

OAUTH_KINDS = frozenset({"mcp-http", "mcp-sse"})
"""Kinds that may log in with OAuth 2.1."""


def parse_args(text: str) -> list[str]:
    """Arguments from the args box: one per line, or (a single line) split like a POSIX shell.

    Raises:
        InputError: A single line with unbalanced quotes.
    """
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) > 1:
        return [line.strip() for line in lines]
    if not lines:
        return []
    try:
        return shlex.split(lines[0])
    except ValueError as exc:
        raise InputError("args", f"cannot split the arguments: {exc}") from exc


def format_args(args: list[str]) -> str:
    """The args box text for ``args`` (one shell-quoted line; one per line if an argument spans lines)."""
    if any("\n" in a for a in args):
        return "\n".join(args)
    return shlex.join(args)


def parse_pairs(text: str, separator: str, field: str, what: str) -> dict[str, str]:
    """``KEY<sep>VALUE`` lines into a dict (blank lines and ``#`` comments skipped; values keep ``sep``).

    Raises:
        InputError: A line without the separator or with an empty key.
    """
    out: dict[str, str] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        key, sep, value = line.partition(separator)
        if not sep or not key.strip():
            raise InputError(field, f"line {number}: expected {what}")
        out[key.strip()] = value.strip() if separator == ":" else value
    return out


class ProfileFields(Protocol):
    """The editors a profile is shown in and read from (the ``ConnectionDialog``'s)."""

    name_edit: QLineEdit
    command_edit: QLineEdit
    args_edit: QPlainTextEdit
    env_edit: QPlainTextEdit
    cwd_edit: QLineEdit
    url_edit: QLineEdit
    card_url_edit: QLineEdit
    mode_combo: QComboBox
    agent_tool_edit: QLineEdit
    client_capabilities: ClientCapabilitiesWidget
    tool_approval_combo: QComboBox
    binding_combo: QComboBox
    streaming_check: QCheckBox
    headers_edit: QPlainTextEdit
    allowed_origins_edit: QPlainTextEdit
    insecure_check: QCheckBox
    size_limits: SizeLimitsEditor
    connect_timeout_spin: QDoubleSpinBox
    request_timeout_spin: QDoubleSpinBox
    credentials: CredentialsSection
    oauth: OAuthSection


def fill_fields(fields: ProfileFields, profile: ConnectionProfile) -> None:
    """Put ``profile``'s name, timeouts and the fields of its kind into the editors (the kind selector aside)."""
    fields.name_edit.setText(profile.name)
    fields.connect_timeout_spin.setValue(profile.connect_timeout)
    fields.request_timeout_spin.setValue(profile.request_timeout or 0.0)
    if isinstance(profile, MCPStdioProfile):
        fields.command_edit.setText(profile.command)
        fields.args_edit.setPlainText(format_args(profile.args))
        fields.env_edit.setPlainText("\n".join(f"{k}={v}" for k, v in profile.env.items()))
        fields.cwd_edit.setText(profile.cwd or "")
    else:
        fields.url_edit.setText(profile.url)
        fields.headers_edit.setPlainText("\n".join(f"{k}: {v}" for k, v in profile.headers.items()))
        fields.allowed_origins_edit.setPlainText("\n".join(profile.allowed_origins))
        fields.insecure_check.setChecked(profile.allow_insecure_credentials)
        fields.size_limits.set_limits(profile.max_message_bytes, profile.max_stream_bytes)
    if isinstance(profile, (MCPStdioProfile, MCPHTTPProfile, MCPSSEProfile)):
        fields.mode_combo.setCurrentText(profile.mode)
        fields.agent_tool_edit.setText(profile.agent_tool or "")
        fields.client_capabilities.set_switches(profile.client_capabilities)
        fields.tool_approval_combo.setCurrentIndex(max(0, fields.tool_approval_combo.findData(profile.tool_approval)))
    if isinstance(profile, A2AProfile):
        fields.card_url_edit.setText(profile.card_url or "")
        fields.binding_combo.setCurrentText(profile.binding)
        fields.streaming_check.setChecked(profile.streaming)


def read_fields(
    fields: ProfileFields, kind: str, profile_id: str, original: ConnectionProfile | None
) -> tuple[dict[str, Any], dict[str, SecretStr]]:
    """The editors' contents as the data a profile of ``kind`` is validated from.

    Args:
        fields: The editors.
        kind: The selected profile kind.
        profile_id: The id the profile keeps (the edited one's, or a new one).
        original: The profile being edited: the fields the dialog does not show (roots, an A2A
            agent's stream idle timeout and protocol version, …) carry over (``carried_fields``).

    Returns:
        The data, and the secret values the credential store must keep, by key.

    Raises:
        InputError: A text box that cannot be parsed (the arguments, the environment, the headers).
    """
    data: dict[str, Any] = {"kind": kind, "id": profile_id, "name": fields.name_edit.text().strip()}
    refs, store = fields.credentials.refs(profile_id)
    data["secrets"] = [ref.model_dump() for ref in refs]
    data["connect_timeout"] = fields.connect_timeout_spin.value()
    request_timeout = fields.request_timeout_spin.value()
    data["request_timeout"] = request_timeout if request_timeout > 0 else None
    if kind == "mcp-stdio":
        data["command"] = fields.command_edit.text().strip()
        data["args"] = parse_args(fields.args_edit.toPlainText())
        data["env"] = parse_pairs(fields.env_edit.toPlainText(), "=", "env", "KEY=VALUE")
        data["cwd"] = fields.cwd_edit.text().strip() or None
    else:
        data["url"] = fields.url_edit.text().strip()
        data["headers"] = parse_pairs(fields.headers_edit.toPlainText(), ":", "headers", "Name: value")
        data["allowed_origins"] = [
            o.strip() for o in fields.allowed_origins_edit.toPlainText().splitlines() if o.strip()
        ]
        data["allow_insecure_credentials"] = fields.insecure_check.isChecked()
        data.update(fields.size_limits.limits())
    if kind in OAUTH_KINDS:
        data["auth"] = fields.oauth.auth()
        if data["auth"] == "oauth":
            data["oauth_scopes"] = fields.oauth.scopes()
            data["oauth_client_name"] = fields.oauth.client_name()
            data.update(fields.oauth.client_fields())
        store.update(fields.oauth.client_secret_store(profile_id, data["auth"] == "oauth"))
    elif kind == "a2a":  # the OAuth client for the agent card's OAuth schemes
        data.update(fields.oauth.client_fields())
        store.update(fields.oauth.client_secret_store(profile_id, True))
    if kind != "a2a":
        data["mode"] = fields.mode_combo.currentText()
        data["agent_tool"] = fields.agent_tool_edit.text().strip() or None
        data["client_capabilities"] = fields.client_capabilities.switches()
        data["tool_approval"] = fields.tool_approval_combo.currentData() or "destructive"
    else:
        data["card_url"] = fields.card_url_edit.text().strip() or None
        data["binding"] = fields.binding_combo.currentText()
        data["streaming"] = fields.streaming_check.isChecked()
    if original is not None:
        edited = set(data) | (fields.oauth.FIELDS if kind in OAUTH_KINDS else A2A_FIELDS)
        data.update(carried_fields(original, kind, edited))
    return data, store


def carried_fields(original: ConnectionProfile, kind: str, edited: set[str]) -> dict[str, Any]:
    """The fields of ``original`` the dialog has no editor for, which a profile of ``kind`` also has.

    They go into the saved profile unchanged, so saving from the window never drops a setting made
    elsewhere (the command line, the library, a newer workbench): only what the dialog shows is
    rebuilt from its editors.
    """
    target = PROFILE_CLASSES[kind].model_fields
    return {key: value for key, value in original.model_dump().items() if key in target and key not in edited}


def problem_message(problem: Any) -> str:
    """A pydantic problem in the words shown under the field."""
    message = str(problem["msg"])
    if message.startswith("Value error, "):
        message = message.removeprefix("Value error, ")
    if problem["type"] == PLAINTEXT_SECRET:
        message = f"{message} {SECRETS_LATER}"
    return message
