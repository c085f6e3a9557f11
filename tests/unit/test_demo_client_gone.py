"""A client leaving a demo A2A agent mid-request is logged at DEBUG, not as the agent's ERROR."""

from __future__ import annotations

import logging

import pytest
from starlette.requests import ClientDisconnect

import workbench.demo.a2a_agents.common  # noqa: F401  (installs the filter)


@pytest.mark.expected_error_logs
def test_a_client_that_went_away_mid_request_logs_no_error(caplog: pytest.LogCaptureFixture) -> None:
    logger = logging.getLogger("a2a.server.routes.jsonrpc_dispatcher")
    with caplog.at_level(logging.DEBUG, logger=logger.name):
        try:
            raise ClientDisconnect()
        except ClientDisconnect:
            logger.exception("Unhandled exception")
        logger.error("Request Error (ID: %s): Code=%s, Message='%s'%s", None, -32603, "", "")
        logger.error("Request Error (ID: %s): Code=%s, Message='%s'%s", 7, -32603, "boom", "")
    levels = [(r.levelname, r.getMessage()[:13]) for r in caplog.records]
    assert levels == [("DEBUG", "Unhandled exc"), ("DEBUG", "Request Error"), ("ERROR", "Request Error")]
