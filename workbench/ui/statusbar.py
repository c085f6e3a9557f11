"""Status bar: the selected connection, its state (mark and words), protocol version and latest round trip."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, QSize, Qt, QTimer
from PySide6.QtGui import QAction
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtWidgets import QLabel, QStatusBar, QToolButton, QWidget

from workbench.core.errors import WorkbenchError
from workbench.core.events import ConnectionState, ConnectionStateChanged
from workbench.core.timefmt import duration_text
from workbench.core.wire.records import WireKind, WireRecord
from workbench.ui.context import PanelContext
from workbench.ui.errors import ErrorView
from workbench.ui.icons import follow, icon_theme
from workbench.ui.untrusted import shown

ERROR_MESSAGE_MS = 8000
"""How long an error stays in the status bar (the banner keeps it)."""
NOTE_MS = 30_000
"""How long a note (``show_note``) stays in the status bar."""
TOOLTIP_CHARS = 4000
"""Characters of an error the status bar's tooltip shows."""
MARK = QSize(16, 16)
"""The connection state's mark and the toggles' icons."""


class StatusBarController(QObject):
    """Keeps the status bar's labels current; remote names are shown as plain text, through ``shown``.

    Latency is the request→response time of the connection's latest JSON-RPC response, as the wire
    recorder measured it (updated at most every 250 ms so a fast stream costs nothing here).
    """

    def __init__(self, ctx: PanelContext, bar: QStatusBar) -> None:
        super().__init__(bar)
        self._ctx = ctx
        self._bar = bar
        self._latency: dict[str, float] = {}
        self.connection_label = QLabel(bar)
        self.latency_label = QLabel(bar)
        self.prompts_label = QLabel(bar)
        for label in (self.connection_label, self.latency_label, self.prompts_label):
            label.setTextFormat(Qt.TextFormat.PlainText)
        self.state_mark = QLabel(bar)  # the state's glyph beside its words (shape and colour per state)
        self.state_mark.setObjectName("connectionStateMark")
        self.state_mark.setFixedSize(MARK)
        self._state: str | None = None
        bar.addPermanentWidget(self.prompts_label)
        bar.addPermanentWidget(self.state_mark)
        bar.addPermanentWidget(self.connection_label)
        bar.addPermanentWidget(self.latency_label)
        self._fitted: tuple[str, float] | None = None  # an error's or note's one line, when it goes (monotonic s)
        self._fitted_line = ""  # that line as shown (elided)
        bar.messageChanged.connect(self._on_message_changed)
        bar.installEventFilter(self)
        self._unsubscribe = ctx.services.wire.subscribe(self._on_record)
        self._timer = QTimer(self)
        self._timer.setInterval(250)
        self._timer.timeout.connect(self._show_latency)
        self._timer.start()
        ctx.selection.changed.connect(self.refresh)
        ctx.bridge.connection_state_changed.connect(self._on_state)
        self.refresh()
        follow(bar, self._show_state_mark)

    def add_toggle(self, action: QAction, name: str, glyph: str) -> QToolButton:
        """A checkable button at the bar's right end for ``action`` (a dock's show/hide), icon and words.

        It is drawn as a button whether it is on or off (never flat: off, a flat button read as text);
        the stylesheets give it a frame both ways and fill it while it is on.
        """
        button = QToolButton(self._bar)
        button.setObjectName(name)
        button.setProperty("statusToggle", True)  # the stylesheets' frame and fill
        button.setAutoRaise(False)
        button.setCheckable(True)
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        button.setIconSize(MARK)
        button.setDefaultAction(action)
        self._bar.addPermanentWidget(button)

        def set_icon() -> None:
            action.setIcon(icon_theme().icon(glyph, button.palette()))

        follow(button, set_icon)
        return button

    def _on_record(self, record: WireRecord) -> None:
        if record.latency_ms is not None and record.kind is WireKind.JSONRPC:
            self._latency[record.connection_id] = record.latency_ms

    def _on_state(self, event: ConnectionStateChanged) -> None:
        if event.connection_id == self._ctx.selection.current:
            self.refresh()

    def show_error(self, view: ErrorView) -> str:
        """Say in the status bar, on one line that fits, what failed; the whole text is its tooltip.

        Returns:
            The line shown (elided with "…" when the bar is too narrow for it).
        """
        whole = shown(f"{view.headline}: {view.message}")
        tip = whole if not view.hint else f"{whole}\n{shown(view.hint)}"
        if len(tip) > TOOLTIP_CHARS:
            tip = tip[:TOOLTIP_CHARS] + "… (the banner's Details… has the rest)"
        return self._show_fitted(whole, tip, ERROR_MESSAGE_MS)

    def show_note(self, text: str, details: str = "", ms: int = NOTE_MS) -> str:
        """Say something in the status bar for ``ms``, on one line that fits; ``details`` (or the text) is its tooltip.

        Args:
            text: The note (one line is shown: runs of white space read as one space).
            details: The whole story, one sentence per line, for the tooltip (default: ``text``).
            ms: How long the note stays.

        Returns:
            The line shown (elided with "…" when the bar is too narrow for it).
        """
        return self._show_fitted(text, details or text, ms)

    def _show_fitted(self, text: str, tip: str, ms: int) -> str:
        """Show ``text`` on one line, elided to the room there is (again on every resize), ``tip`` as the tooltip."""
        first = " ".join(text.split())  # one line: a traceback or a long remote message must not spill
        self._fitted = (first, time.monotonic() + ms / 1000)
        line = self._show_fitted_line()
        # escaped like every tooltip of remote text; normal white space so a long message wraps
        self._bar.setToolTip(GuiQt.convertFromPlainText(tip, Qt.WhiteSpaceMode.WhiteSpaceNormal))
        return line

    def _message_room(self) -> int:
        """Pixels left for the message beside the bar's widgets (their new text counts before the next layout)."""
        bar = self._bar
        widgets = bar.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
        taken = sum(max(w.width(), w.sizeHint().width()) + 8 for w in widgets if w.isVisibleTo(bar))
        return bar.width() - taken - 40

    def _show_fitted_line(self) -> str:
        """Show the error's or note's line elided to the room there is now, for the rest of its time."""
        if self._fitted is None:
            return ""
        first, until = self._fitted
        line = self._bar.fontMetrics().elidedText(first, Qt.TextElideMode.ElideRight, max(self._message_room(), 120))
        self._fitted_line = line
        self._bar.showMessage(line, max(int((until - time.monotonic()) * 1000), 1))
        return line

    def _refit_message(self) -> None:
        """The bar or its labels changed size: elide the shown error or note again so it is not cut off."""
        if self._fitted is None:
            return
        if self._bar.currentMessage() != self._fitted_line or time.monotonic() >= self._fitted[1]:
            self._fitted = None  # gone, or replaced by another message
            return
        self._show_fitted_line()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        """Re-fit the error's or note's line when the bar is resized."""
        if watched is self._bar and event.type() == QEvent.Type.Resize:
            self._refit_message()
        return False

    def _on_message_changed(self, text: str) -> None:
        if not text:
            self._bar.setToolTip("")  # an error's or note's tooltip goes with its message

    def set_pending_prompts(self, count: int) -> None:
        """Show how many requests from peers wait for the user."""
        self.prompts_label.setText(f"{count} waiting for you" if count else "")

    def refresh(self) -> None:
        """Re-read the selected connection's state and latency."""
        self._show_connection()
        self._refit_message()

    def _show_connection(self) -> None:
        cid = self._ctx.selection.current
        if cid is None:
            self.connection_label.setText("No connection selected")
            self.latency_label.setText("")
            self._set_state(None)
            return
        conn = self._ctx.services.connections.get(cid)
        name = conn.profile.name if conn is not None else self._saved_name(cid)
        if conn is None:
            self.connection_label.setText(shown(f"{name} · disconnected"))
            self.latency_label.setText("")
            self._set_state(ConnectionState.DISCONNECTED.value)
            return
        state = conn.state
        self._set_state(state.value)
        text = f"{name} · {state.value}"
        if state is ConnectionState.CONNECTED and conn.protocol_version:
            text += f" · {conn.profile.kind} {conn.protocol_version}"
        self.connection_label.setText(shown(text))
        self._show_latency()

    def _set_state(self, state: str | None) -> None:
        if state != self._state:
            self._state = state
            self._show_state_mark()

    def _show_state_mark(self) -> None:
        """The selected connection's state mark, in its colour for the bar's palette (none: no selection)."""
        state = self._state
        self.state_mark.setVisible(state is not None)
        if state is None:
            return
        icon = icon_theme().state_icon(state, self._bar.palette())
        self.state_mark.setPixmap(icon.pixmap(MARK, self._bar.devicePixelRatioF()))
        self.state_mark.setToolTip(state)

    def _show_latency(self) -> None:
        cid = self._ctx.selection.current
        latency = self._latency.get(cid) if cid is not None else None
        text = f"last round trip {duration_text(latency / 1000)}" if latency is not None else ""
        if text != self.latency_label.text():
            self.latency_label.setText(text)
            self._refit_message()

    def _saved_name(self, cid: str) -> str:
        try:
            return self._ctx.services.profiles.get(cid).name
        except WorkbenchError:
            return cid

    def detach(self) -> None:
        """Stop listening (window shutdown)."""
        self._timer.stop()
        self._unsubscribe()
