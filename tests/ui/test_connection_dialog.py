"""ConnectionDialog: filled in by the test, validated by the profile classes, accepted or refused."""

from __future__ import annotations

import asyncio
import sys

import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtWidgets import QDialog

from workbench.core.profiles import (
    PLAINTEXT_SECRET,
    A2AProfile,
    MCPHTTPProfile,
    MCPSSEProfile,
    MCPStdioProfile,
    SecretRef,
)
from workbench.ui.asyncutil import open_dialog
from workbench.ui.dialogs.connection import ConnectionDialog
from workbench.ui.dialogs.connection_fields import format_args, parse_args


def _dialog(qtbot, profile=None) -> ConnectionDialog:
    dialog = ConnectionDialog(profile)
    qtbot.addWidget(dialog)
    return dialog


def _accept(qtbot, dialog: ConnectionDialog) -> None:
    assert dialog.ok_button().isEnabled(), dialog.field_errors()
    qtbot.mouseClick(dialog.ok_button(), Qt.MouseButton.LeftButton)
    assert dialog.result() == QDialog.DialogCode.Accepted


def test_a_stdio_profile_is_built_from_command_shell_quoted_args_env_and_cwd(qtbot, tmp_path):
    dialog = _dialog(qtbot)
    dialog.name_edit.setText("demo")
    dialog.set_kind("mcp-stdio")
    dialog.command_edit.setText(sys.executable)
    dialog.args_edit.setPlainText("-m workbench.demo.mcp_server --stdio 'two words'")
    dialog.env_edit.setPlainText("LOG_LEVEL=debug\n# comment\n\nPATHS=a=b")
    dialog.cwd_edit.setText(str(tmp_path))
    dialog.mode_combo.setCurrentText("legacy")
    _accept(qtbot, dialog)
    profile = dialog.profile()
    assert isinstance(profile, MCPStdioProfile)
    assert profile.name == "demo"
    assert profile.command == sys.executable
    assert profile.args == ["-m", "workbench.demo.mcp_server", "--stdio", "two words"]
    assert profile.env == {"LOG_LEVEL": "debug", "PATHS": "a=b"}
    assert profile.cwd == str(tmp_path)
    assert profile.mode == "legacy"


def test_args_on_several_lines_are_one_argument_per_line():
    assert parse_args("--name\nhello world\n\n--flag") == ["--name", "hello world", "--flag"]
    assert parse_args(format_args(["a b", "c'd", ""])) == ["a b", "c'd", ""]


def test_a_streamable_http_profile_keeps_mode_agent_tool_headers_and_timeouts(qtbot):
    dialog = _dialog(qtbot)
    dialog.set_kind("mcp-http")
    dialog.name_edit.setText("remote")
    dialog.url_edit.setText("http://127.0.0.1:8000/mcp")
    dialog.mode_combo.setCurrentText("2026-07-28")
    dialog.agent_tool_edit.setText("ask")
    dialog.headers_edit.setPlainText("X-Trace: on\nAccept-Language: en")
    dialog.connect_timeout_spin.setValue(12.5)
    dialog.request_timeout_spin.setValue(0)  # "no limit"
    _accept(qtbot, dialog)
    profile = dialog.profile()
    assert isinstance(profile, MCPHTTPProfile)
    assert (profile.url, profile.mode, profile.agent_tool) == ("http://127.0.0.1:8000/mcp", "2026-07-28", "ask")
    assert profile.headers == {"X-Trace": "on", "Accept-Language": "en"}
    assert profile.connect_timeout == 12.5
    assert profile.request_timeout is None


def test_a_legacy_sse_profile_is_built(qtbot):
    dialog = _dialog(qtbot)
    dialog.set_kind("mcp-sse")
    dialog.name_edit.setText("old")
    dialog.url_edit.setText("http://127.0.0.1:8000/sse")
    _accept(qtbot, dialog)
    profile = dialog.profile()
    assert isinstance(profile, MCPSSEProfile)
    assert profile.url == "http://127.0.0.1:8000/sse"


def test_an_a2a_profile_keeps_card_url_binding_and_streaming(qtbot):
    dialog = _dialog(qtbot)
    dialog.set_kind("a2a")
    assert dialog.connect_timeout_spin.value() == 30.0  # the same default for both protocols
    dialog.name_edit.setText("travel")
    dialog.url_edit.setText("http://127.0.0.1:9999/")
    dialog.card_url_edit.setText("http://127.0.0.1:9999/card.json")
    dialog.binding_combo.setCurrentText("HTTP+JSON")
    dialog.streaming_check.setChecked(False)
    _accept(qtbot, dialog)
    profile = dialog.profile()
    assert isinstance(profile, A2AProfile)
    assert profile.card_url == "http://127.0.0.1:9999/card.json"
    assert profile.binding == "HTTP+JSON"
    assert profile.streaming is False


def test_allowed_origins_are_shown_edited_and_checked(qtbot):
    saved = A2AProfile(name="a", url="https://agent.example/", allowed_origins=["https://api.agent.example"])
    dialog = _dialog(qtbot, saved)
    assert dialog.allowed_origins_edit.toPlainText() == "https://api.agent.example:443"
    dialog.allowed_origins_edit.setPlainText("https://api.agent.example\nftp://files.example")
    assert "allowed_origins" in dialog.field_errors() and not dialog.ok_button().isEnabled()
    dialog.allowed_origins_edit.setPlainText("")  # the user revokes the approval
    dialog.insecure_check.setChecked(True)
    _accept(qtbot, dialog)
    profile = dialog.profile()
    assert isinstance(profile, A2AProfile)
    assert (profile.allowed_origins, profile.allow_insecure_credentials) == ([], True)


def test_a_plaintext_secret_header_is_refused_next_to_the_field_and_ok_stays_disabled(qtbot):
    dialog = _dialog(qtbot)
    dialog.set_kind("mcp-http")
    dialog.name_edit.setText("remote")
    dialog.url_edit.setText("http://127.0.0.1:8000/mcp")
    assert dialog.ok_button().isEnabled()
    dialog.headers_edit.setPlainText("Authorization: Bearer abc")
    assert not dialog.ok_button().isEnabled()
    assert set(dialog.field_errors()) == {"headers"}
    error_label = dialog._fields["headers"].error
    assert not error_label.isHidden()
    assert error_label.textFormat() == Qt.TextFormat.PlainText
    assert "credentials" in error_label.text()
    dialog.accept()  # e.g. Enter pressed: still refused
    assert dialog.result() != QDialog.DialogCode.Accepted
    assert not dialog.is_valid()
    with pytest.raises(ValueError):
        dialog.profile()


def test_the_plaintext_secret_refusal_comes_from_the_profile_class(qtbot):
    from pydantic import ValidationError

    with pytest.raises(ValidationError) as caught:
        MCPHTTPProfile(name="x", url="http://h/mcp", headers={"Authorization": "Bearer abc"})
    assert caught.value.errors()[0]["type"] == PLAINTEXT_SECRET


@pytest.mark.parametrize(
    ("kind", "fill", "field"),
    [
        ("mcp-stdio", {"command_edit": ""}, "command"),
        ("mcp-stdio", {"command_edit": "x", "args_edit": "'unclosed"}, "args"),
        ("mcp-stdio", {"command_edit": "x", "env_edit": "NOEQUALS"}, "env"),
        ("mcp-stdio", {"command_edit": "x", "env_edit": "GITHUB_TOKEN=abc"}, "env"),
        ("mcp-http", {"url_edit": "ftp://example.org"}, "url"),
        ("mcp-http", {"url_edit": "http://u:pw@example.org/mcp"}, "url"),
        ("a2a", {"url_edit": "http://h/", "card_url_edit": "nonsense"}, "card_url"),
        ("a2a", {"url_edit": "http://h/", "headers_edit": "no colon here"}, "headers"),
    ],
)
def test_invalid_input_is_shown_at_its_field_and_ok_is_disabled(qtbot, kind, fill, field):
    dialog = _dialog(qtbot)
    dialog.set_kind(kind)
    dialog.name_edit.setText("n")
    for attr, text in fill.items():
        widget = getattr(dialog, attr)
        (widget.setPlainText if hasattr(widget, "setPlainText") else widget.setText)(text)
    assert not dialog.ok_button().isEnabled()
    assert field in dialog.field_errors()


def test_an_empty_name_is_refused(qtbot):
    dialog = _dialog(qtbot)
    dialog.command_edit.setText("python")
    assert not dialog.ok_button().isEnabled()
    assert "name" in dialog.field_errors()
    dialog.name_edit.setText("ok")
    assert dialog.ok_button().isEnabled()
    assert dialog.field_errors() == {}


def test_editing_keeps_the_id_and_secret_references(qtbot):
    original = MCPHTTPProfile(
        id="keep-me",
        name="remote",
        url="http://127.0.0.1:1/mcp",
        headers={"X-Trace": "1"},
        secrets=[SecretRef(kind="bearer", key="acct")],
        mode="legacy",
    )
    dialog = _dialog(qtbot, original)
    assert dialog.kind() == "mcp-http"
    assert dialog.url_edit.text() == original.url
    assert dialog.mode_combo.currentText() == "legacy"
    dialog.name_edit.setText("renamed")
    _accept(qtbot, dialog)
    edited = dialog.profile()
    assert edited.id == "keep-me"
    assert edited.name == "renamed"
    assert edited.secrets == original.secrets
    assert edited.headers == {"X-Trace": "1"}


def test_editing_a_stdio_profile_round_trips_its_fields(qtbot):
    original = MCPStdioProfile(
        name="s", command="python", args=["-m", "x y"], env={"A": "1"}, cwd="/tmp", connect_timeout=7
    )
    dialog = _dialog(qtbot, original)
    _accept(qtbot, dialog)
    assert dialog.profile() == original


@pytest.mark.asyncio
async def test_the_dialog_is_opened_with_open_and_awaited(qtbot):
    dialog = _dialog(qtbot)
    dialog.name_edit.setText("demo")
    dialog.command_edit.setText("python")
    seen_visible: list[bool] = []

    def click_ok() -> None:  # runs from the Qt loop once open_dialog has shown the dialog
        seen_visible.append(dialog.isVisible())
        dialog.ok_button().click()

    QTimer.singleShot(0, click_ok)
    assert await asyncio.wait_for(open_dialog(dialog), 5) == QDialog.DialogCode.Accepted
    assert seen_visible == [True]
    assert dialog.profile().name == "demo"


def test_a_new_dialog_shows_a_fields_problem_only_once_it_was_edited_or_ok_was_tried(qtbot):
    dialog = _dialog(qtbot)
    name_error = dialog._fields["name"].error
    assert "name" in dialog.field_errors()
    assert name_error.isHidden()  # not a wall of red text on opening
    dialog.name_edit.setText("x")
    dialog.name_edit.setText("")
    assert not name_error.isHidden()
    assert dialog._fields["command"].error.isHidden()
    dialog.accept()
    assert not dialog._fields["command"].error.isHidden()
    assert dialog.result() != QDialog.DialogCode.Accepted
