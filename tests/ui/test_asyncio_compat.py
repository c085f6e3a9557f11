"""The private asyncio names behind ``workbench.ui._asyncio_compat`` still exist and still work."""

from __future__ import annotations

import asyncio

import pytest

from workbench.ui._asyncio_compat import loop_marked_running, run_handle


def test_the_private_set_running_loop_still_exists():
    assert callable(getattr(asyncio.events, "_set_running_loop", None)), "asyncio.events._set_running_loop is gone"


def test_a_loop_marked_running_is_the_running_loop_only_while_the_block_is_open():
    loop = asyncio.new_event_loop()
    try:
        with pytest.raises(RuntimeError):
            asyncio.get_running_loop()
        with loop_marked_running(loop):
            assert asyncio.get_running_loop() is loop
        with pytest.raises(RuntimeError):
            asyncio.get_running_loop()
    finally:
        loop.close()


def test_run_handle_runs_the_callback_and_sends_its_failure_to_the_loops_handler():
    loop = asyncio.new_event_loop()
    ran: list[int] = []
    failures: list[dict[str, object]] = []
    loop.set_exception_handler(lambda _loop, context: failures.append(context))

    def fail() -> None:
        raise ValueError("boom")

    try:
        run_handle(asyncio.Handle(ran.append, (1,), loop))
        run_handle(asyncio.Handle(fail, (), loop))
    finally:
        loop.close()
    assert ran == [1]
    assert [type(f["exception"]) for f in failures] == [ValueError]
