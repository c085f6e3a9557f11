"""Auth-required dialog: a masked token or the card's credential fields, Send / Cancel task, values gone once sent."""

from __future__ import annotations

import asyncio
import logging

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QLineEdit

from workbench.core.agent_factory import AgentHandlers, build_agent
from workbench.core.credentials import MemoryCredentialStore
from workbench.core.profiles import A2AProfile
from workbench.core.protocols.a2a.security_auth import credential_key
from workbench.core.protocols.base import InputRequest, InputResponse
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.a2a_agents import serve_agent
from workbench.ui.asyncutil import open_dialog
from workbench.ui.dialogs.auth_required import AuthRequiredDialog

TOKEN = "s3cr3t-token-value-42"


def _request(**kw) -> InputRequest:
    values = {"kind": "auth", "text": "Sign in to continue", "task_id": "t-1", "context_id": "c-1", "agent": "Bank"}
    values.update(kw)
    return InputRequest(**values)


def _dialog(qtbot, request: InputRequest | None = None) -> AuthRequiredDialog:
    dialog = AuthRequiredDialog(request or _request())
    qtbot.addWidget(dialog)
    dialog.open()
    return dialog


def test_the_token_field_is_masked_and_send_waits_for_a_token(qtbot):
    dialog = _dialog(qtbot)
    assert dialog.token_edit.echoMode() == QLineEdit.EchoMode.Password
    assert not dialog.send_button.isEnabled()
    qtbot.keyClicks(dialog.token_edit, "   ")
    assert not dialog.send_button.isEnabled()


def test_show_toggle_reveals_and_masks_the_token_while_typing(qtbot):
    dialog = _dialog(qtbot)
    dialog.show_check.setChecked(True)
    assert dialog.token_edit.echoMode() == QLineEdit.EchoMode.Normal
    dialog.show_check.setChecked(False)
    assert dialog.token_edit.echoMode() == QLineEdit.EchoMode.Password


def test_send_answers_with_the_token_as_text_and_wipes_the_field(qtbot, caplog):
    caplog.set_level(logging.DEBUG)
    dialog = _dialog(qtbot)
    qtbot.keyClicks(dialog.token_edit, TOKEN)
    dialog.show_check.setChecked(True)
    dialog.send_button.click()
    assert not dialog.isVisible()
    assert dialog.response() == InputResponse(text=TOKEN)
    assert dialog.token_edit.text() == ""  # never visible again, even if the dialog is shown again
    assert dialog.token_edit.echoMode() == QLineEdit.EchoMode.Password
    assert all(TOKEN not in record.getMessage() for record in caplog.records)


def test_enter_in_the_field_sends(qtbot):
    dialog = _dialog(qtbot)
    qtbot.keyClicks(dialog.token_edit, TOKEN)
    qtbot.keyClick(dialog.token_edit, Qt.Key.Key_Return)
    assert dialog.response() == InputResponse(text=TOKEN)


def test_a_pasted_bearer_prefix_and_whitespace_are_dropped(qtbot):
    dialog = _dialog(qtbot)
    dialog.token_edit.setText(f"  Bearer {TOKEN}\n")
    dialog.send_button.click()
    assert dialog.response() == InputResponse(text=TOKEN)


def test_cancel_task_answers_cancel(qtbot):
    dialog = _dialog(qtbot)
    qtbot.keyClicks(dialog.token_edit, TOKEN)
    assert dialog.cancel_button.text() == "Cancel task"
    dialog.cancel_button.click()
    assert dialog.response() == InputResponse(cancel=True)
    assert dialog.token_edit.text() == ""


def test_escape_leaves_the_answer_open(qtbot):
    dialog = _dialog(qtbot)
    qtbot.keyClicks(dialog.token_edit, TOKEN)
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    assert dialog.response() is None
    assert dialog.token_edit.text() == ""


def test_an_http_401_on_connect_is_described_and_has_no_task_to_cancel(qtbot):
    request = _request(
        text="The agent refused the request (HTTP 401).",
        task_id="",
        context_id="",
        data={"reason": "http", "http_status": 401, "url": "http://127.0.0.1:9/a2a"},
    )
    dialog = _dialog(qtbot, request)
    assert dialog.cancel_button.text() == "Cancel"
    assert "401" in dialog.details_label.text()
    assert "http://127.0.0.1:9/a2a" in dialog.details_label.text()


@pytest.mark.parametrize("label", ["intro_label", "message_label", "details_label"])
def test_agent_text_is_shown_as_plain_text(qtbot, label):
    probe = "<b style='color:red'>URGENT</b><img src='file:///etc/passwd'>"
    dialog = _dialog(qtbot, _request(text=probe, agent=probe, data={"note": probe}))
    widget = getattr(dialog, label)
    assert widget.textFormat() == Qt.TextFormat.PlainText
    assert probe in widget.text()


# --------------------------------------------------------------------------- credential needs (A2A security schemes)

BASIC_NEED = {
    "scheme": "basic",
    "type": "http-basic",
    "fields": [
        {"name": "username", "label": "User name", "secret": False, "optional": False},
        {"name": "password", "label": "Password", "secret": True, "optional": False},
    ],
}
CC_NEED = {
    "scheme": "oauth",
    "type": "oauth2-client-credentials",
    "fields": [
        {"name": "client_id", "label": "Client id", "secret": False, "optional": False},
        {"name": "client_secret", "label": "Client secret", "secret": True, "optional": False},
    ],
    "scopes": ["agent:use"],
}
API_KEY_NEED = {
    "scheme": "apikey",
    "type": "api-key",
    "fields": [{"name": "api_key", "label": "API key", "secret": True, "optional": False}],
    "location": "query",
    "param_name": "access",
}
PUBLIC_CLIENT_NEED = {
    "scheme": "code",
    "type": "oauth2-authorization-code",
    "fields": [
        {"name": "client_id", "label": "Client id", "secret": False, "optional": False},
        {"name": "client_secret", "label": "Client secret", "secret": True, "optional": True},
    ],
}


def _needs_request(*needs: dict, **data) -> InputRequest:
    return _request(data={"reason": "http", "http_status": 401, "credential_needs": list(needs), **data})


def test_http_basic_asks_for_a_plain_user_name_and_a_masked_password_and_answers_by_scheme(qtbot):
    dialog = _dialog(qtbot, _needs_request(BASIC_NEED, need=BASIC_NEED))
    user = dialog.field_edits[("basic", "username")]
    password = dialog.field_edits[("basic", "password")]
    assert dialog.token_edit.isHidden()
    assert user.echoMode() == QLineEdit.EchoMode.Normal
    assert password.echoMode() == QLineEdit.EchoMode.Password
    assert not dialog.send_button.isEnabled()
    qtbot.keyClicks(user, "ada")
    assert not dialog.send_button.isEnabled()  # the password is required too
    qtbot.keyClicks(password, TOKEN)
    assert dialog.send_button.isEnabled()
    dialog.show_check.setChecked(True)
    assert password.echoMode() == QLineEdit.EchoMode.Normal
    dialog.send_button.click()
    assert dialog.response() == InputResponse(data={"basic": {"username": "ada", "password": TOKEN}})
    assert password.text() == "" and user.text() == ""
    assert password.echoMode() == QLineEdit.EchoMode.Password
    assert "401" in dialog.details_label.text() and "credential_needs" not in dialog.details_label.text()


def test_an_api_key_field_is_named_after_its_query_parameter(qtbot):
    dialog = _dialog(qtbot, _needs_request(API_KEY_NEED))
    (key,) = dialog.field_edits
    assert key == ("apikey", "api_key")
    labels = [label.text() for label in dialog.findChildren(QLabel)]
    assert "access (query parameter):" in labels
    dialog.field_edits[key].setText(TOKEN)
    dialog.send_button.click()
    assert dialog.response() == InputResponse(data={"apikey": {"api_key": TOKEN}})


def test_several_needs_are_all_asked_for_and_an_optional_secret_may_stay_empty(qtbot):
    dialog = _dialog(qtbot, _needs_request(CC_NEED, PUBLIC_CLIENT_NEED))
    assert list(dialog.field_edits) == [
        ("oauth", "client_id"),
        ("oauth", "client_secret"),
        ("code", "client_id"),
        ("code", "client_secret"),
    ]
    dialog.field_edits[("oauth", "client_id")].setText("cid")
    dialog.field_edits[("oauth", "client_secret")].setText(TOKEN)
    assert not dialog.send_button.isEnabled()
    dialog.field_edits[("code", "client_id")].setText("public")
    assert dialog.send_button.isEnabled()
    qtbot.keyClick(dialog.field_edits[("code", "client_id")], Qt.Key.Key_Return)
    assert dialog.response() == InputResponse(
        data={"oauth": {"client_id": "cid", "client_secret": TOKEN}, "code": {"client_id": "public"}}
    )


def test_only_a_need_without_the_list_is_enough_and_an_unsupported_need_falls_back_to_the_token(qtbot):
    dialog = _dialog(qtbot, _request(data={"reason": "auth-required", "need": BASIC_NEED}))
    assert set(dialog.field_edits) == {("basic", "username"), ("basic", "password")}
    assert dialog.details_label.isHidden()
    unsupported = {"scheme": "mtls", "type": "unsupported", "fields": [], "detail": "mTLS"}
    fallback = _dialog(qtbot, _needs_request(unsupported))
    assert fallback.field_edits == {} and not fallback.token_edit.isHidden()
    fallback.token_edit.setText(TOKEN)
    fallback.send_button.click()
    assert fallback.response() == InputResponse(text=TOKEN)


def test_scheme_names_and_descriptions_from_the_card_are_plain_text(qtbot):
    probe = "<b style='color:red'>URGENT</b><img src='file:///etc/passwd'>"
    need = {**BASIC_NEED, "scheme": probe, "description": probe}
    dialog = _dialog(qtbot, _needs_request(need))
    shown = [label for label in dialog.findChildren(QLabel) if probe in label.text()]
    assert len(shown) == 2
    assert all(label.textFormat() == Qt.TextFormat.PlainText for label in shown)


# --------------------------------------------------------------------------- against real A2A agents

BOUND = 30.0


class _DialogHandler:
    """The input handler the window gives agents, reduced to this dialog: open it, await its answer."""

    def __init__(self, qtbot) -> None:
        self.qtbot = qtbot
        self.opened: asyncio.Queue[AuthRequiredDialog] = asyncio.Queue()

    async def __call__(self, request: InputRequest) -> InputResponse:
        dialog = AuthRequiredDialog(request)
        self.qtbot.addWidget(dialog)
        self.opened.put_nowait(dialog)
        await open_dialog(dialog)
        return dialog.response() or InputResponse()


async def _agent(url: str, store: MemoryCredentialStore, handler: _DialogHandler, wire: WireRecorder):
    profile = A2AProfile(id="secured", name="secured", url=url)
    return await build_agent(profile, credentials=store, handlers=AgentHandlers(input=handler), wire=wire)


@pytest.mark.asyncio
async def test_an_http_basic_agent_asks_for_two_fields_and_the_task_succeeds_with_them(qtbot):
    from tests.support.a2a_security_agents import BASIC_PASSWORD, BASIC_USER, basic_app

    store, wire = MemoryCredentialStore(), WireRecorder()
    handler = _DialogHandler(qtbot)
    async with serve_agent(basic_app) as url:
        agent = await _agent(url, store, handler, wire)
        async with agent:
            task = asyncio.ensure_future(agent.invoke_async("hello"))
            dialog = await asyncio.wait_for(handler.opened.get(), BOUND)
            assert set(dialog.field_edits) == {("basic", "username"), ("basic", "password")}
            dialog.field_edits[("basic", "username")].setText(BASIC_USER)
            dialog.field_edits[("basic", "password")].setText(BASIC_PASSWORD)
            dialog.send_button.click()
            result = await asyncio.wait_for(task, BOUND)
            assert result.state == "completed"
            assert result.artifacts["echo"][0].text == "hello"
            again = await asyncio.wait_for(agent.invoke_async("again"), BOUND)  # stored: no second prompt
            assert again.state == "completed" and handler.opened.empty()
    wire_text = "".join(r.payload + repr(r.http) for r in wire.records())
    assert BASIC_PASSWORD not in wire_text
    stored = await store.get(credential_key("secured", "basic", "password"))
    assert stored is not None and stored.get_secret_value() == BASIC_PASSWORD
    user = await store.get(credential_key("secured", "basic", "username"))
    assert user is not None and user.get_secret_value() == BASIC_USER


@pytest.mark.asyncio
async def test_an_oauth_client_credentials_agent_takes_client_id_and_secret_from_the_dialog(qtbot):
    from tests.support.a2a_security_agents import CLIENT_ID, CLIENT_SECRET, OAuthServer, oauth_agent

    server = OAuthServer()
    store = MemoryCredentialStore()
    handler = _DialogHandler(qtbot)
    async with serve_agent(oauth_agent("client-credentials", server)) as url:
        agent = await _agent(url, store, handler, WireRecorder())
        async with agent:
            task = asyncio.ensure_future(agent.invoke_async("hi"))
            dialog = await asyncio.wait_for(handler.opened.get(), BOUND)
            secret = dialog.field_edits[("oauth", "client_secret")]
            assert secret.echoMode() == QLineEdit.EchoMode.Password
            dialog.field_edits[("oauth", "client_id")].setText(CLIENT_ID)
            secret.setText(CLIENT_SECRET)
            dialog.send_button.click()
            result = await asyncio.wait_for(task, BOUND)
    assert result.state == "completed"
    assert server.grants == ["client_credentials"]
