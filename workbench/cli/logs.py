"""Where the command line's log records go: the debug log file, never the user's terminal.

What a command has to say it prints itself (results, notes, typed errors with hints). Log records are
for developers: an SDK's traceback about a race at close, a deprecation notice, a peer's odd message.
Without a handler Python prints WARNING and above on stderr (``logging.lastResort``), between the
result lines. ``route_to_debug_log`` gives the root logger one handler that writes them to
``<config dir>/logs/cli.log`` (rotated at 1 MB, three kept); the file is opened only when the first
record arrives, so a quiet run touches no file. ``WORKBENCH_DEBUG=1`` records DEBUG and up (the
SDKs' deprecation notices included); otherwise WARNING and up.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
from pathlib import Path

DEBUG_ENV = "WORKBENCH_DEBUG"
LOG_NAME = "cli.log"
LOG_BYTES = 1_000_000
LOG_BACKUPS = 3


class DebugLogHandler(logging.Handler):
    """Writes records to the debug log file, opened (and its folder created) on the first record.

    Args:
        path: The log file; ``None``: ``<config dir>/logs/cli.log``, resolved when first needed.
        config_dir: The configuration directory (``None``: the environment's or the platform's).
    """

    def __init__(self, path: Path | None = None, *, config_dir: str | None = None) -> None:
        super().__init__()
        self._path = path
        self._config_dir = config_dir
        self._file: logging.Handler | None = None
        self.records = 0
        """How many records were written (a failed command may point to the file)."""

    @property
    def path(self) -> Path:
        """The log file."""
        if self._path is None:
            from workbench.core.config_dir import resolve_config_dir  # lazy: platformdirs only when something is logged

            self._path = resolve_config_dir(self._config_dir) / "logs" / LOG_NAME
        return self._path

    def emit(self, record: logging.LogRecord) -> None:
        """Write ``record`` to the file (a file that cannot be written loses the record, silently)."""
        try:
            if self._file is None:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                handler = logging.handlers.RotatingFileHandler(
                    self.path, maxBytes=LOG_BYTES, backupCount=LOG_BACKUPS, encoding="utf-8"
                )
                handler.setFormatter(logging.Formatter("%(asctime)s %(process)d %(levelname)s %(name)s: %(message)s"))
                self._file = handler
            self._file.emit(record)
            self.records += 1
        except Exception:  # logging must never break the command, nor print
            pass

    def close(self) -> None:
        """Close the file."""
        if self._file is not None:
            self._file.close()
        super().close()


def route_to_debug_log(path: Path | None = None, *, config_dir: str | None = None) -> DebugLogHandler:
    """Send every log record of this process to the debug log and none to the terminal.

    Args:
        path: The log file (default: ``logs/cli.log`` in the configuration directory).
        config_dir: The configuration directory given on the command line (``--config-dir``).

    Returns:
        The handler (installed on the root logger).
    """
    handler = DebugLogHandler(path, config_dir=config_dir)
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, DebugLogHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(logging.DEBUG if os.environ.get(DEBUG_ENV) == "1" else logging.WARNING)
    logging.captureWarnings(False)  # warnings go through terminal.install's filter: deprecations to the log
    return handler
