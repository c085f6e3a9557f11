"""ErrorPresenter: the one place where errors become words and widgets.

Emitters never import the widget that shows an error (house style §1.4): view-models call
``ErrorPresenter.report`` (or ``asyncutil.spawn`` does for them) and the window decides where it
appears — the status bar and an error banner for background failures, never a modal by itself.
"""

from __future__ import annotations

import logging
import traceback
from dataclasses import dataclass

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
    """

    title: str
    message: str
    hint: str
    code: str
    details: str


def describe_error(error: BaseException, doing: str = "") -> ErrorView:
    """Turn any exception into an ``ErrorView``; typed workbench errors keep their message and hint."""
    title = doing[:1].upper() + doing[1:] if doing else "Something failed"
    if isinstance(error, WorkbenchError):
        details = "\n".join(f"{k}: {v}" for k, v in error.details.items())
        return ErrorView(title, error.message, error.hint or "", error.code, details)
    details = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    message = f"{type(error).__name__}: {error}" if str(error) else type(error).__name__
    hint = "This is a bug in the workbench; the details help to report it."
    return ErrorView(title, message, hint, "internal", details)


class ErrorPresenter(QObject):
    """Collects errors from view-models and background tasks and announces them as ``ErrorView``."""

    error_reported = Signal(object)  # ErrorView

    def report(self, error: BaseException, doing: str = "") -> ErrorView:
        """Describe ``error`` and announce it; unexpected (non-workbench) errors are also logged."""
        view = describe_error(error, doing)
        if not isinstance(error, WorkbenchError):
            log.warning("unexpected error while %s: %r", doing or "working", error, exc_info=error)
        self.error_reported.emit(view)
        return view
