"""URL-mode elicitation: show the full address with its host emphasised, open it only on request, then wait.

The MCP flow (2025-11-25 "URL mode"): the client answers ``accept`` once the user agreed to open the page;
the out-of-band interaction then happens in the browser and the server may later send
``notifications/elicitation/complete`` with the elicitation id. So this dialog *decides* (``decided`` is
emitted with the answer the handler sends) before it *closes*: after "Open in browser" it stays up saying
"Waiting for the server to confirm…" until ``mark_completed()`` or the user closes it.

The address is parsed with ``QUrl`` — the same parser that hands it to the system browser — and the
emphasised line is built from QUrl's components, HTML-escaped by the app; the server's text is never
rendered as HTML.
"""

from __future__ import annotations

import html
import ipaddress
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QDesktopServices, QFontDatabase, QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QDialog,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from workbench.core.http.origins import is_loopback_host
from workbench.core.protocols.base import ElicitationRequest, ElicitationResponse
from workbench.ui.dialog_rules import mark_destructive
from workbench.ui.text_sizes import text_pane_height
from workbench.ui.theme import semantic_color, set_tone
from workbench.ui.untrusted import plain_label, shown

UrlOpener = Callable[[QUrl], bool]
"""Opens a URL outside the app and says whether that worked (``QDesktopServices.openUrl``)."""

OPENABLE_SCHEMES = frozenset({"http", "https"})
_ELIDE_AT = 120


@dataclass(frozen=True, slots=True)
class UrlFacts:
    """What the user should know about an address before opening it.

    Attributes:
        raw: The address exactly as the server sent it.
        url: The parsed address (what would be opened).
        scheme: Lower-case scheme.
        host: The host as Qt reads it (Unicode for international names).
        ace_host: The host in ASCII (punycode) form; what the browser really connects to.
        can_open: Whether "Open in browser" is allowed at all.
        warnings: Plain sentences, in the order found.
        flags: Stable names of the findings (``malformed``, ``scheme``, ``no-host``, ``http``,
            ``http-loopback``, ``userinfo``, ``ip``, ``idn``, ``punycode``, ``unusual-host``, ``backslash``).
    """

    raw: str
    url: QUrl
    scheme: str
    host: str
    ace_host: str
    can_open: bool
    warnings: list[str] = field(default_factory=list)
    flags: frozenset[str] = frozenset()


def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _raw_host(raw: str) -> str | None:
    """The host as a plain textual parser reads it (to spot addresses written in unusual forms)."""
    try:
        return urlsplit(raw).hostname
    except ValueError:
        return None


def inspect_url(raw: str) -> UrlFacts:
    """Parse ``raw`` the way it would be opened and list what looks risky.

    Args:
        raw: The address as the server sent it (untrusted).

    Returns:
        The facts; ``can_open`` is False for anything but a well-formed http(s) address with a host.
    """
    url = QUrl(raw)
    scheme = url.scheme().lower()
    host = url.host()
    ace = (bytes(QUrl.toAce(host).data()).decode("ascii", "replace") if host else "") or host
    found: list[tuple[str, str]] = []
    if not raw.strip():
        return UrlFacts(raw, url, "", "", "", False, ["The server sent no address."], frozenset({"malformed"}))
    if not url.isValid() or any(ch.isspace() or ord(ch) < 32 for ch in raw):
        found.append(("malformed", "The address is malformed (spaces, control characters or bad syntax)."))
    if scheme not in OPENABLE_SCHEMES:
        found.append(("scheme", f"Only http and https addresses can be opened; this one's scheme is {scheme!r}."))
    elif not host:
        found.append(("no-host", "The address has no host."))
    loopback = is_loopback_host(ace.lower())
    if scheme == "http" and host:
        if loopback:
            found.append(("http-loopback", "Not encrypted (http), but the address is on this computer (loopback)."))
        else:
            found.append(("http", "Not encrypted (http): others on the network could read or change the page."))
    if url.userInfo():
        found.append(
            ("userinfo", f"The address has a user name before '@' ({url.userInfo()!r}); it can disguise the host.")
        )
    if _is_ip(ace) and not loopback:
        found.append(("ip", "The host is a bare IP address, not a name."))
    if host and host != ace:
        found.append(("idn", f"The host name contains non-ASCII characters ({host}); its real form is {ace}."))
    elif any(label.startswith("xn--") for label in ace.lower().split(".")):
        found.append(("punycode", "The host name is punycode (xn--…): it may imitate another name."))
    written = _raw_host(raw)
    if host and written is not None and written.lower() not in (host.lower(), ace.lower()):
        found.append(("unusual-host", f"The host is written in an unusual form ({written!r}); it opens as {ace!r}."))
    if "\\" in raw:
        found.append(("backslash", "The address contains a backslash; browsers may read its host differently."))
    flags = frozenset(flag for flag, _ in found)
    can_open = not flags & {"malformed", "scheme", "no-host"}
    return UrlFacts(raw, url, scheme, host, ace, can_open, [text for _, text in found], flags)


def emphasised_html(facts: UrlFacts, palette: QPalette | None = None) -> str:
    """The address as ``scheme://user@<b>host</b>:port/path…``: built by the app, every piece escaped.

    A ``user@`` part (which may pose as the host) is in the error colour of ``palette``'s theme.
    """
    url = facts.url
    if not facts.host:
        return html.escape(shown(facts.raw[:_ELIDE_AT]) + ("…" if len(facts.raw) > _ELIDE_AT else ""))
    fully = QUrl.ComponentFormattingOption.FullyEncoded
    out = [html.escape(facts.scheme), "://"]
    if url.userInfo():
        colour = semantic_color("error-text", palette).name()
        out.append(f'<span style="color:{colour}">{html.escape(url.userInfo(fully))}@</span>')
    host = f"[{facts.ace_host}]" if ":" in facts.ace_host else facts.ace_host  # IPv6 literal
    out.append(f"<b>{html.escape(host)}</b>")
    if url.port() != -1:
        out.append(html.escape(f":{url.port()}"))
    rest = url.path(fully)
    if url.hasQuery():
        rest += "?" + url.query(fully)
    if url.hasFragment():
        rest += "#" + url.fragment(fully)
    if len(rest) > _ELIDE_AT:
        rest = rest[:_ELIDE_AT] + "…"
    out.append(html.escape(rest))
    return "".join(out)


class UrlElicitationDialog(QDialog):
    """Asks the user to open a page for a server (MCP URL-mode elicitation).

    Signals:
        decided(ElicitationResponse): The user chose (open → accept, decline, cancel, or closed → cancel).
            Emitted once; the answer can go to the server now even though the dialog may stay open.

    Args:
        request: The elicitation (``mode == "url"``).
        parent: Parent widget (the main window).
        opener: Opens the URL (default ``QDesktopServices.openUrl``); tests inject a recorder.
    """

    decided = Signal(object)  # ElicitationResponse

    def __init__(
        self, request: ElicitationRequest, parent: QWidget | None = None, *, opener: UrlOpener | None = None
    ) -> None:
        super().__init__(parent)
        self._request = request
        self._opener: UrlOpener = opener or QDesktopServices.openUrl
        self._facts = inspect_url(request.url or "")
        self._response: ElicitationResponse | None = None
        self._waiting = False
        self._completed = False
        self.setWindowTitle("Open a web page?")

        who = request.agent or "The server"
        self.intro_label = plain_label(f"{who} asks you to open a web page:", wrap=True)
        self.message_label = plain_label(request.message, wrap=True)
        self.address_label = QLabel(self)
        self.address_label.setTextFormat(Qt.TextFormat.RichText)  # app-built, every piece escaped
        self.address_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.address_label.setOpenExternalLinks(False)
        self.address_label.setWordWrap(True)
        self.address_label.setText(emphasised_html(self._facts, self.address_label.palette()))
        self.url_view = QPlainTextEdit(self)
        self.url_view.setReadOnly(True)
        self.url_view.setPlainText(shown(self._facts.raw))
        self.url_view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.url_view.setMaximumHeight(text_pane_height(self.url_view, 4))
        self.warning_label = plain_label("\n".join(f"⚠ {w}" for w in self._facts.warnings), wrap=True)
        set_tone(self.warning_label, "error")
        self.warning_label.setVisible(bool(self._facts.warnings))
        self.status_label = plain_label("", wrap=True)
        self.status_label.hide()

        self.open_button = QPushButton("Open in browser", self)
        self.open_button.setEnabled(self._facts.can_open)
        self.copy_button = QPushButton("Copy address", self)
        self.decline_button = QPushButton("Decline", self)
        self.cancel_button = QPushButton("Cancel", self)
        self.close_button = QPushButton("Stop waiting", self)
        self.close_button.hide()
        self.open_button.clicked.connect(self.on_open_clicked)
        self.copy_button.clicked.connect(self.on_copy_clicked)
        self.decline_button.clicked.connect(self.on_decline_clicked)
        self.cancel_button.clicked.connect(self.reject)
        self.close_button.clicked.connect(self.accept)
        for button in (self.open_button, self.copy_button, self.decline_button, self.close_button):
            button.setAutoDefault(False)  # Enter must never open the page or answer for the user
        mark_destructive(self.decline_button)
        self.cancel_button.setDefault(True)

        buttons = QHBoxLayout()
        buttons.addWidget(self.copy_button)
        buttons.addStretch(1)
        for button in (self.open_button, self.decline_button, self.cancel_button, self.close_button):
            buttons.addWidget(button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.intro_label)
        layout.addWidget(self.message_label)
        layout.addWidget(plain_label("Opens:"))
        layout.addWidget(self.address_label)
        layout.addWidget(plain_label("Full address as sent:"))
        layout.addWidget(self.url_view)
        layout.addWidget(self.warning_label)
        layout.addWidget(self.status_label)
        layout.addLayout(buttons)
        self.resize(560, self.sizeHint().height())

    # ------------------------------------------------------------------ state

    @property
    def request(self) -> ElicitationRequest:
        """The elicitation shown."""
        return self._request

    @property
    def facts(self) -> UrlFacts:
        """The parsed address and its warnings."""
        return self._facts

    @property
    def waiting(self) -> bool:
        """Whether the page was opened and the dialog waits for the server's confirmation."""
        return self._waiting

    @property
    def completed(self) -> bool:
        """Whether the server confirmed the out-of-band interaction finished."""
        return self._completed

    def response(self) -> ElicitationResponse:
        """The answer: ``accept`` after the page was opened, ``decline``, or ``cancel`` (also if undecided)."""
        return self._response or ElicitationResponse("cancel")

    def mark_completed(self) -> None:
        """The server sent ``notifications/elicitation/complete`` for this request: stop waiting and close."""
        self._completed = True
        if self._waiting and self.isVisible():
            self.status_label.setText("The server confirmed it is done.")
            self.accept()

    # ------------------------------------------------------------------ slots

    def on_open_clicked(self) -> None:
        """Open the address in the system browser; only a successful open counts as accepting."""
        if not self._facts.can_open or self._response is not None:
            return
        if not self._opener(self._facts.url):
            self.status_label.setText("The browser could not be opened. Copy the address and open it yourself.")
            self.status_label.show()
            return
        self._decide(ElicitationResponse("accept"))
        if not self._request.elicitation_id or self._completed:
            # Nothing will confirm it (2026-07-28 has no elicitation id) or it already did: done.
            self.accept()
            return
        self._waiting = True
        for button in (self.open_button, self.decline_button, self.cancel_button):
            button.hide()
        self.close_button.show()
        self.status_label.setText("Opened in your browser. Waiting for the server to confirm…")
        self.status_label.show()

    def on_copy_clicked(self) -> None:
        """Put the address (as it would be opened) on the clipboard."""
        url = self._facts.url
        text = url.toString(QUrl.ComponentFormattingOption.FullyEncoded) if url.isValid() else self._facts.raw
        QGuiApplication.clipboard().setText(text)

    def on_decline_clicked(self) -> None:
        """Refuse to open the page."""
        self._decide(ElicitationResponse("decline"))
        self.reject()

    def done(self, code: int) -> None:
        """Close; closing before deciding (Cancel, Esc, window close) answers ``cancel``."""
        self._decide(ElicitationResponse("cancel"))
        self._waiting = False
        super().done(code)

    def _decide(self, response: ElicitationResponse) -> None:
        if self._response is not None:
            return
        self._response = response
        self.decided.emit(response)
