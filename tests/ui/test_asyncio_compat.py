"""The private asyncio name behind ``workbench.ui._asyncio_compat`` still exists and still works."""

from __future__ import annotations

import asyncio

import pytest

from workbench.ui._asyncio_compat import loop_marked_running


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
