"""The CLI's event printer shows an A2A status message once on a terminal, and still pipes it to stdout."""

from __future__ import annotations

import io

import pytest

from workbench.cli.render import HumanPrinter
from workbench.core.protocols.base import StatusChanged, TextDelta


class _Stream(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


def _print(*, out_tty: bool, err_tty: bool) -> tuple[str, str]:
    out, err = _Stream(out_tty), _Stream(err_tty)
    printer = HumanPrinter(out, err)
    # what the A2A adapter emits for a status update carrying a message (the JS SDK agent's "thinking…")
    for event in (StatusChanged(state="working", message="thinking…"), TextDelta(text="thinking…")):
        printer.event(event)
    printer.event(StatusChanged(state="completed"))
    return out.getvalue(), err.getvalue()


def test_a_status_message_that_also_arrives_as_text_is_shown_once_on_a_terminal() -> None:
    out, err = _print(out_tty=True, err_tty=True)
    assert (out + err).count("thinking…") == 1
    assert "[status working] thinking…" in err and "[status completed]\n" in err  # no trailing blank


@pytest.mark.parametrize("err_tty", [True, False])
def test_a_pipe_still_gets_the_status_text_on_stdout(err_tty: bool) -> None:
    out, err = _print(out_tty=False, err_tty=err_tty)
    assert out == "thinking…\n"
    assert "[status working] thinking…" in err


def test_other_text_after_a_status_is_printed() -> None:
    out, err = _Stream(True), _Stream(True)
    printer = HumanPrinter(out, err)
    printer.event(StatusChanged(state="working", message="thinking…"))
    printer.event(TextDelta(text="the answer"))
    printer.event(TextDelta(text="thinking…"))  # the same words later are reply text, not an echo
    assert out.getvalue() == "the answerthinking…"
