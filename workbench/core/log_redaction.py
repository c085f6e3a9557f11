"""Keep secret values out of every log record, whoever logs them (the SDKs log URLs and headers).

``protect_logs(redactor)`` registers a redactor; the first call installs a log-record factory that
masks every registered redactor's known secret values in each record's formatted message (and its
exception text) before any handler sees it. Secrets are registered when an agent is built from a
profile (``agent_factory.build_agent``), so an API key in a URL that an SDK logs at DEBUG shows as
``***`` like it does in the wire log.
"""

from __future__ import annotations

import logging
import threading
import weakref
from typing import Any

from workbench.core.wire.redaction import Redactor

_redactors: weakref.WeakSet[Redactor] = weakref.WeakSet()
_lock = threading.Lock()
_installed = False


def protect_logs(redactor: Redactor) -> None:
    """Mask ``redactor``'s secrets in every log record from now on (idempotent; held weakly)."""
    global _installed
    with _lock:
        _redactors.add(redactor)
        if _installed:
            return
        previous = logging.getLogRecordFactory()

        def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
            record = previous(*args, **kwargs)
            active = [r for r in list(_redactors) if r.has_secrets]
            if not active:
                return record
            try:
                message = record.getMessage()
            except Exception:  # a broken format string: leave it to logging's own error path
                return record
            masked = message
            for redactor_ in active:
                masked = redactor_.text(masked)
            if masked != message:
                record.msg, record.args = masked, None
            return record

        logging.setLogRecordFactory(factory)
        _installed = True
