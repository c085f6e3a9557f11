"""ErrorPresenter: the one place where errors become words and widgets.

Emitters never import the widget that shows an error (house style §1.4): view-models call
``ErrorPresenter.report`` (or ``asyncutil.spawn`` does for them), and the presenter decides where
it appears. The rule: **an error is shown once, in one place.**

- Where the user acted, when the panel there shows it: a tool call's result area, a resource or
  prompt page, the Tasks tab's error line, the chat transcript, a dialog's status line. That panel
  reports with ``inline=True`` and shows the ``ErrorView`` it gets back; the window adds nothing.
- A connection that could not connect: the workspace of that connection, which shows why in place
  of its inspector for as long as it stays failed (``InspectorWidget``'s placeholder, with the hint,
  "Details…" and Connect). Connecting reports with ``inline=True``.
- Otherwise in the window's banner (background failures: saving, exporting, a crash), for the
  connection it belongs to.

Elsewhere a failure is a short state, never its sentence again: the sidebar row says ``failed``
(the reason in its tooltip), a tool call's status says ``Done in 24 ms · tool error``, the status
bar ``demo · failed``. No dialog opens by itself ("Details…" opens on request). The sidebar marks
the row of a connection the user is not looking at that had an error (it says where to look).

Hints from the core are lower-case fragments, written to be embeddable ("check the URL and that it
runs"). Wherever the window shows a hint — a line of its own, after a message, in a tooltip — it
goes through ``hint_sentence`` first (``describe_error`` does it for every ``ErrorView``), so that
every sentence starts with a capital letter, also one after a full stop inside the hint, and the
hint ends with a full stop.
"""

from __future__ import annotations

import logging
import re
import traceback
from collections.abc import Callable
from dataclasses import dataclass, replace

from PySide6.QtCore import QObject, Signal

from workbench.core.errors import WorkbenchError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class ErrorView:
    """An error in the words the user reads.

    Attributes:
        title: What was being done ("Calling tool add").
        message: What failed.
        hint: What the user can do (may be empty).
        code: The stable error code (``connect``, ``timeout`` ...; ``internal`` for bugs).
        details: Technical details (traceback for unexpected errors), shown under "Details".
        connection_id: The connection the failure belongs to (None: the window as a whole).
        inline: The panel where the user acted shows it (so the window shows it nowhere else).
    """

    title: str
    message: str
    hint: str
    code: str
    details: str
    connection_id: str | None = None
    inline: bool = False

    @property
    def headline(self) -> str:
        """The banner's first line: what was being done, and that it failed."""
        return self.title if self.title == "Something failed" else f"{self.title} failed"


_SENTENCE_START = re.compile(r"[.!?]\s+[a-z]")
_ABBREVIATIONS = ("e.g.", "i.e.", "etc.", "vs.", "cf.")
_SENTENCE_ENDS = (".", "!", "?", "…")
_CLOSERS = ")]\"'”’»"
"""Brackets and quotes that may close a sentence after its stop: "(… backend: x.)", "… said “done.”"."""


def ends_sentence(text: str) -> bool:
    """Whether ``text`` already ends in terminal punctuation, so no full stop is to be added.

    It does when it ends in ``.``, ``…``, ``!`` or ``?``, also inside closing brackets or quotes
    (``.)``, ``.”``); trailing white space is ignored.
    """
    return text.rstrip().rstrip(_CLOSERS).endswith(_SENTENCE_ENDS)


def full_stop(text: str) -> str:
    """``text`` ending with a full stop: one is appended unless it already ends a sentence ("" stays "")."""
    text = text.rstrip()
    return text if not text or ends_sentence(text) else f"{text}."


def sentence(text: str) -> str:
    """``text`` with each of its sentences starting with a capital letter (the module docstring's rule).

    Hints are written in lower case to be embeddable; a sentence starts the text and after ``.``,
    ``!`` or ``?`` and white space (not after an abbreviation such as "e.g."). Nothing else changes.
    """
    text = text.strip()

    def capital(match: re.Match[str]) -> str:
        if text[: match.start() + 1].lower().endswith(_ABBREVIATIONS):
            return match.group(0)
        return match.group(0)[:-1] + match.group(0)[-1].upper()

    return _SENTENCE_START.sub(capital, text[:1].upper() + text[1:])


def hint_sentence(text: str) -> str:
    """A hint as the window shows it: ``sentence`` of it, ending with a full stop ("" stays "").

    Args:
        text: A hint from the core, a lower-case fragment ("check the URL and that it runs").
    """
    return full_stop(sentence(text))


def describe_error(error: BaseException, doing: str = "", *, connection_id: str | None = None) -> ErrorView:
    """Turn any exception into an ``ErrorView``; typed workbench errors keep their message and hint.

    Args:
        error: What was raised.
        doing: What was being done, in lower case ("calling tool add").
        connection_id: The connection it happened on; by default the one the error's details name.
    """
    title = sentence(doing) if doing else "Something failed"
    if isinstance(error, WorkbenchError):
        details = "\n".join(f"{k}: {v}" for k, v in error.details.items())
        if connection_id is None and isinstance(error.details.get("connection_id"), str):
            connection_id = error.details["connection_id"]
        return ErrorView(title, error.message, hint_sentence(error.hint or ""), error.code, details, connection_id)
    details = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    message = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    hint = "This is a bug in the workbench; the details help to report it."
    return ErrorView(title, message, hint, "internal", details, connection_id)


def connection_state_text(name: str, state: str, reason: str = "") -> str:
    """A sentence saying why a connection cannot be used now ("demo could not connect: refused.").

    Args:
        name: The connection's display name.
        state: Its state (``ConnectionState`` value): disconnected, connecting, failed, closed.
        reason: Why it failed, when it did.
    """
    if state == "failed":
        return f"{name} could not connect" + (f": {reason.rstrip('.')}." if reason else ".")
    if state == "connecting":
        return f"Connecting to {name}…"
    return f"{name} is {state}."


class ErrorPresenter(QObject):
    """Collects errors from view-models and background tasks and announces them as ``ErrorView``."""

    error_reported = Signal(object)  # ErrorView

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._connection_source: Callable[[], str | None] | None = None

    def set_connection_source(self, source: Callable[[], str | None] | None) -> None:
        """Where an error that names no connection is attributed: the one the user is looking at."""
        self._connection_source = source

    def report(
        self, error: BaseException, doing: str = "", *, connection_id: str | None = None, inline: bool = False
    ) -> ErrorView:
        """Describe ``error`` and announce it; unexpected (non-workbench) errors are also logged.

        Args:
            error: What was raised.
            doing: What was being done ("calling tool add").
            connection_id: The connection it happened on; by default the one the error names, else
                the selected one (``set_connection_source``).
            inline: The caller shows the returned view where the user acted; the window then shows
                it nowhere else (the module docstring's rule).
        """
        view = replace(describe_error(error, doing, connection_id=connection_id), inline=inline)
        if view.connection_id is None and self._connection_source is not None:
            view = replace(view, connection_id=self._connection_source())
        if not isinstance(error, WorkbenchError):
            log.warning("unexpected error while %s: %r", doing or "working", error, exc_info=error)
        self.error_reported.emit(view)
        return view
