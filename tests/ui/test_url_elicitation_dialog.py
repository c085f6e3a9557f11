"""URL-mode elicitation dialog: the full address with its host emphasised, open only on request, then wait."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QGuiApplication

from workbench.core.protocols.base import ElicitationRequest, ElicitationResponse
from workbench.ui.dialogs.elicitation_url import UrlElicitationDialog, inspect_url

URL = "https://example.com/agent-workbench/connect-account?demo=1"


class Opener:
    """Records what the dialog asked to open; answers ``ok``."""

    def __init__(self, ok: bool = True) -> None:
        self.ok = ok
        self.opened: list[str] = []

    def __call__(self, url: QUrl) -> bool:
        self.opened.append(url.toString())
        return self.ok


def _request(url: str = URL, elicitation_id: str | None = "connect-7", message: str = "Connect your account") -> Any:
    return ElicitationRequest(mode="url", message=message, url=url, elicitation_id=elicitation_id, agent="demo")


def _dialog(qtbot: Any, request: ElicitationRequest, opener: Opener) -> tuple[UrlElicitationDialog, list[Any]]:
    dialog = UrlElicitationDialog(request, opener=opener)
    qtbot.addWidget(dialog)
    decided: list[Any] = []
    dialog.decided.connect(decided.append)
    dialog.open()
    return dialog, decided


def test_https_address_is_shown_in_full_with_the_host_in_bold_and_no_warnings(qtbot):
    dialog, _ = _dialog(qtbot, _request(), Opener())
    assert dialog.url_view.toPlainText() == URL
    assert dialog.address_label.textFormat() == Qt.TextFormat.RichText
    assert "<b>example.com</b>" in dialog.address_label.text()
    assert dialog.facts.flags == frozenset()
    assert not dialog.warning_label.isVisibleTo(dialog)
    assert dialog.open_button.isEnabled()
    assert dialog.message_label.textFormat() == Qt.TextFormat.PlainText


def test_open_in_browser_opens_exactly_that_url_answers_accept_and_waits_until_completed(qtbot):
    opener = Opener()
    dialog, decided = _dialog(qtbot, _request(), opener)
    assert opener.opened == []  # nothing opens by itself
    finished: list[int] = []
    dialog.finished.connect(finished.append)
    dialog.open_button.click()
    assert finished == []
    assert opener.opened == [URL]
    assert decided == [ElicitationResponse("accept")]
    assert dialog.waiting and dialog.isVisible()
    assert dialog.close_button.isVisible() and not dialog.open_button.isVisible()
    dialog.mark_completed()
    assert len(finished) == 1
    assert not dialog.isVisible()
    assert dialog.completed
    assert dialog.response() == ElicitationResponse("accept")
    assert decided == [ElicitationResponse("accept")]  # decided once


def test_stop_waiting_closes_and_keeps_the_accept_already_sent(qtbot):
    dialog, decided = _dialog(qtbot, _request(), Opener())
    dialog.open_button.click()
    dialog.close_button.click()
    assert not dialog.isVisible()
    assert dialog.response() == ElicitationResponse("accept")
    assert decided == [ElicitationResponse("accept")]


def test_decline_answers_decline_and_never_opens(qtbot):
    opener = Opener()
    dialog, decided = _dialog(qtbot, _request(), opener)
    dialog.decline_button.click()
    assert not dialog.isVisible()
    assert opener.opened == []
    assert dialog.response() == ElicitationResponse("decline")
    assert decided == [ElicitationResponse("decline")]


@pytest.mark.parametrize("how", ["button", "escape"])
def test_cancel_or_escape_answers_cancel_without_opening(qtbot, how):
    opener = Opener()
    dialog, decided = _dialog(qtbot, _request(), opener)
    if how == "button":
        dialog.cancel_button.click()
    else:
        qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()
    assert opener.opened == []
    assert dialog.response() == ElicitationResponse("cancel")
    assert decided == [ElicitationResponse("cancel")]


def test_without_an_elicitation_id_opening_accepts_and_closes_at_once(qtbot):
    # 2026-07-28 URL elicitations carry no id, so no completion can ever arrive.
    opener = Opener()
    dialog, decided = _dialog(qtbot, _request(elicitation_id=None), opener)
    dialog.open_button.click()
    assert opener.opened == [URL]
    assert not dialog.isVisible()
    assert decided == [ElicitationResponse("accept")]


def test_a_browser_that_fails_to_open_leaves_the_request_undecided(qtbot):
    opener = Opener(ok=False)
    dialog, decided = _dialog(qtbot, _request(), opener)
    dialog.open_button.click()
    assert opener.opened == [URL]
    assert decided == []
    assert dialog.isVisible() and not dialog.waiting
    assert dialog.status_label.isVisibleTo(dialog)
    dialog.copy_button.click()
    assert QGuiApplication.clipboard().text() == URL


def test_completion_before_the_user_decides_does_not_close_the_dialog(qtbot):
    dialog, decided = _dialog(qtbot, _request(), Opener())
    dialog.mark_completed()
    assert dialog.isVisible()
    assert decided == []


@pytest.mark.parametrize(
    ("url", "flags"),
    [
        ("http://127.0.0.1:8080/callback", {"http-loopback"}),
        ("http://localhost:3000/", {"http-loopback"}),
        ("http://example.com/", {"http"}),
        ("https://8.8.8.8/login", {"ip"}),
        ("https://xn--pple-43d.com/", {"idn"}),
        ("https://аpple.com/", {"idn"}),
        ("https://google.com@evil.example/", {"userinfo"}),
        ("https://good.example%2eevil.example/", {"unusual-host"}),
    ],
)
def test_risky_but_openable_addresses_are_flagged(qtbot, url, flags):
    facts = inspect_url(url)
    assert facts.can_open
    assert flags <= facts.flags
    dialog, _ = _dialog(qtbot, _request(url=url), Opener())
    assert dialog.warning_label.isVisibleTo(dialog)
    assert dialog.open_button.isEnabled()


def test_userinfo_cannot_hide_the_real_host(qtbot):
    dialog, _ = _dialog(qtbot, _request(url="https://google.com@evil.example/x"), Opener())
    assert dialog.facts.ace_host == "evil.example"
    assert "<b>evil.example</b>" in dialog.address_label.text()


def test_homograph_host_is_emphasised_in_its_ascii_form(qtbot):
    dialog, _ = _dialog(qtbot, _request(url="https://аpple.com/"), Opener())
    assert "<b>xn--pple-43d.com</b>" in dialog.address_label.text()


@pytest.mark.parametrize("url", ["javascript:alert(1)", "file:///etc/passwd", "https://a b.com/", "", "https:///x"])
def test_addresses_that_are_not_plain_http_cannot_be_opened(qtbot, url):
    opener = Opener()
    dialog, decided = _dialog(qtbot, _request(url=url), opener)
    assert not dialog.open_button.isEnabled()
    dialog.on_open_clicked()  # even a direct call refuses
    assert opener.opened == []
    assert decided == []


def test_server_html_is_shown_literally_and_escaped_in_the_address_line(qtbot):
    probe = '<b style="color:red">URGENT</b><img src="file:///etc/passwd">'
    url = 'https://example.com/"><img src="file:///x">'
    dialog, _ = _dialog(qtbot, _request(url=url, message=probe), Opener())
    assert dialog.message_label.text() == probe
    assert dialog.message_label.textFormat() == Qt.TextFormat.PlainText
    assert "<img" not in dialog.address_label.text()
    assert dialog.url_view.toPlainText() == url
