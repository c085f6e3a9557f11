"""Fixtures of the sampling tests: the loopback model endpoint (``tests/servers/model_api.py``)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_asyncio

from tests.servers.model_api import ModelAPI, serve_model_api


@pytest_asyncio.fixture
async def model_api() -> AsyncIterator[ModelAPI]:
    """The loopback model endpoint (OpenAI chat completions and Anthropic messages), running for one test."""
    async with serve_model_api() as api:
        yield api
