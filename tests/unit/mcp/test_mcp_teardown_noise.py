"""SDK teardown races are kept off ERROR; real failures on the same loggers are not; no deprecation noise."""

from __future__ import annotations

import logging
import warnings

import anyio
import pytest

from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.core.protocols.mcp.transports import TEARDOWN_RACE_LOGGERS
from workbench.demo.mcp_server.app import build_server


def logged_at(logger: str, exc: BaseException) -> int:
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    handler = Keep(level=logging.DEBUG)
    log = logging.getLogger(logger)
    log.addHandler(handler)
    try:
        try:
            raise exc
        except BaseException:
            log.exception("Error parsing SSE message")
    finally:
        log.removeHandler(handler)
    [record] = records
    return record.levelno


@pytest.mark.parametrize("logger", TEARDOWN_RACE_LOGGERS)
@pytest.mark.parametrize("race", [anyio.ClosedResourceError(), anyio.BrokenResourceError()])
def test_a_reader_failing_because_the_session_closed_is_logged_at_debug(logger: str, race: BaseException) -> None:
    assert logged_at(logger, race) == logging.DEBUG


@pytest.mark.expected_error_logs  # the point: it stays an ERROR record
@pytest.mark.parametrize("logger", TEARDOWN_RACE_LOGGERS)
def test_any_other_failure_on_those_loggers_stays_an_error(logger: str) -> None:
    assert logged_at(logger, ValueError("not valid JSON")) == logging.ERROR


@pytest.mark.asyncio
async def test_handshake_era_ping_subscriptions_and_roots_raise_no_deprecation_warning() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an MCPDeprecationWarning from the client side fails here
        async with MCPAgent.in_process(build_server(), mode="legacy", roots=[]) as agent:
            assert agent.capabilities.protocol_version == "2025-11-25"
            server = agent.server_features
            await server.ping()
            uri = server.resources[0].uri
            await server.subscribe_resource(uri)
            await server.unsubscribe_resource(uri)
            await server.set_roots([("file:///data", "data")])
