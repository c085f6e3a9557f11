"""The command line's streams: everything written to the terminal passes ``neutralise`` first.

``install()`` wraps ``sys.stdout`` and ``sys.stderr`` once, so every path to the terminal is covered
at one place: renderers, prompts, progress lines, relayed server stderr, log records (logging's
last-resort handler writes to the current ``sys.stderr``) and tracebacks. ``STDOUT`` and ``STDERR``
are proxies for whatever ``sys.stdout``/``sys.stderr`` is at write time, for use as default
arguments (a default of ``sys.stdout`` would capture the stream before ``install``).
"""

from __future__ import annotations

import io
import logging
import sys
import warnings
from typing import Any, TextIO

from workbench.core.safe_text import neutralise


class NeutralisingStream(io.TextIOBase):
    """A text stream that writes ``neutralise(text)`` to the stream it wraps."""

    def __init__(self, inner: TextIO) -> None:
        super().__init__()
        self.inner = inner
        self.mid_line = False
        """Whether the last text written did not end its line (see ``end_line``)."""

    def write(self, text: str) -> int:
        """Write ``text`` with its control characters shown, not interpreted."""
        self.inner.write(neutralise(text))
        if text:
            self.mid_line = not text.endswith("\n")
        return len(text)

    def flush(self) -> None:
        """Flush the wrapped stream."""
        self.inner.flush()

    def isatty(self) -> bool:
        """Whether the wrapped stream is a terminal."""
        return self.inner.isatty()

    def fileno(self) -> int:
        """The wrapped stream's file descriptor."""
        return self.inner.fileno()

    def writable(self) -> bool:
        """Always."""
        return True

    @property
    def encoding(self) -> str:  # type: ignore[override]
        """The wrapped stream's encoding."""
        return str(getattr(self.inner, "encoding", "utf-8"))


class _Current(io.TextIOBase):
    """Writes to ``sys.<name>`` as it is at the time of each write."""

    def __init__(self, name: str) -> None:
        super().__init__()
        self._name = name

    def _stream(self) -> Any:
        return getattr(sys, self._name)

    def write(self, text: str) -> int:
        """Write to the current stream."""
        written: int = self._stream().write(text)
        return written

    def flush(self) -> None:
        """Flush the current stream."""
        self._stream().flush()

    def isatty(self) -> bool:
        """Whether the current stream is a terminal."""
        return bool(self._stream().isatty())

    def writable(self) -> bool:
        """Always."""
        return True


def end_line(stream: TextIO) -> None:
    """End the line ``stream`` left open (reply text streamed without a newline) before a note goes out.

    Notes go to stderr, reply text to stdout; on one terminal a question would otherwise continue the
    reply's last line. Only a ``NeutralisingStream`` (the command line's, after ``install``) knows.
    """
    inner = getattr(sys, stream._name) if isinstance(stream, _Current) else stream
    if isinstance(inner, NeutralisingStream) and inner.mid_line:
        inner.write("\n")
        inner.flush()


STDOUT: TextIO = _Current("stdout")  # type: ignore[assignment]
"""``sys.stdout`` at write time."""
STDERR: TextIO = _Current("stderr")  # type: ignore[assignment]
"""``sys.stderr`` at write time."""


def install() -> None:
    """Wrap ``sys.stdout`` and ``sys.stderr`` in ``NeutralisingStream``; deprecations to the debug log.

    Idempotent.
    """
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not isinstance(stream, NeutralisingStream):
            setattr(sys, name, NeutralisingStream(stream))
    if warnings.showwarning is not _show_warning:
        _previous[0] = warnings.showwarning
        warnings.showwarning = _show_warning


_previous: list[Any] = [warnings.showwarning]
_deprecations = logging.getLogger("workbench.deprecations")
_warnings = logging.getLogger("workbench.warnings")


def _show_warning(
    message: Warning | str,
    category: type[Warning],
    filename: str,
    lineno: int,
    file: TextIO | None = None,
    line: str | None = None,
) -> None:
    """Warnings are for developers: they go to the log, not the terminal (``cli.logs`` routes it to a file).

    Deprecations (the SDKs' ``MCPDeprecationWarning`` included) at debug level, the others at warning.
    """
    if category.__name__.endswith("DeprecationWarning"):
        _deprecations.debug("%s:%s: %s: %s", filename, lineno, category.__name__, message)
        return
    if file is not None:  # written somewhere on purpose (warnings.showwarning(file=…)): leave it be
        _previous[0](message, category, filename, lineno, file, line)
        return
    _warnings.warning("%s:%s: %s: %s", filename, lineno, category.__name__, message)
