"""The private names of the standard library's asyncio the UI relies on, each behind one function.

``tests/ui/test_asyncio_compat.py`` fails loudly when a Python upgrade removes or changes them.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterator


@contextlib.contextmanager
def loop_marked_running(loop: asyncio.AbstractEventLoop) -> Iterator[None]:
    """While open, ``asyncio.get_running_loop()`` in this thread returns ``loop`` (then no loop again).

    For Qt events processed outside ``run_forever`` (qasync's last pass in ``run_until_complete``), so
    task steps due then find their loop. Relies on the private ``asyncio.events._set_running_loop``
    (CPython 3.12; also in 3.13).

    Args:
        loop: The loop to present as running; it must not be running in this thread already.
    """
    asyncio.events._set_running_loop(loop)
    try:
        yield
    finally:
        asyncio.events._set_running_loop(None)


def run_handle(handle: asyncio.Handle) -> None:
    """Run a scheduled callback now, as the loop would: in its context, a failure going to the handler.

    For a loop that decides itself when a callback may run (``AppEventLoop`` holds some back). Relies
    on the private ``asyncio.Handle._run`` (CPython 3.12; also in 3.13), which qasync calls as well.
    """
    handle._run()
