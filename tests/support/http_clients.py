"""The two HTTP clients the workbench's tap transports serve, as test parameters, and a response body
served chunk by chunk."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterable

import httpx
import httpx2
import pytest

from workbench.core.http.httpx2_transport import Httpx2TapTransport
from workbench.core.http.httpx_transport import HttpxTapTransport

CLIENTS = [pytest.param(httpx, HttpxTapTransport, id="httpx"), pytest.param(httpx2, Httpx2TapTransport, id="httpx2")]
"""(client module, its tap transport) for ``pytest.mark.parametrize("mod, shim", CLIENTS)``."""


class Body:
    """A response body served chunk by chunk; counts how many chunks were pulled."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks = chunks
        self.pulled = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        for chunk in self._chunks:
            self.pulled += 1
            yield chunk
