"""Mapping of A2A SDK / httpx failures to the workbench's typed errors (codes, not messages)."""

from __future__ import annotations

import httpx
import pytest
from a2a.client.errors import A2AClientError, A2AClientTimeoutError
from a2a.utils.errors import (
    InternalError,
    PushNotificationNotSupportedError,
    TaskNotCancelableError,
    TaskNotFoundError,
)

from workbench.core.errors import WorkbenchError
from workbench.core.protocols.a2a.errors import map_error


def chained(outer: BaseException, cause: BaseException) -> BaseException:
    outer.__cause__ = cause
    return outer


def status_error(code: int) -> httpx.HTTPStatusError:
    request = httpx.Request("POST", "http://agent.test/")
    response = httpx.Response(code, request=request, text="nope")
    return httpx.HTTPStatusError("bad", request=request, response=response)


@pytest.mark.parametrize(
    ("exc", "code"),
    [
        (A2AClientTimeoutError("Client Request timed out"), "timeout"),
        (chained(A2AClientError("HTTP Error 401"), status_error(401)), "auth-required"),
        (chained(A2AClientError("HTTP Error 403"), status_error(403)), "auth-required"),
        (chained(A2AClientError("HTTP Error 502"), status_error(502)), "remote"),
        (chained(A2AClientError("net"), httpx.ConnectError("refused")), "unreachable"),
        (chained(A2AClientError("net"), httpx.RemoteProtocolError("peer closed")), "connection-lost"),
        (chained(A2AClientError("net"), httpx.ReadTimeout("slow")), "timeout"),
        (TaskNotFoundError("Task not found"), "not-found"),
        (PushNotificationNotSupportedError(), "unsupported"),
        (NotImplementedError("list is not in 0.3"), "unsupported"),
        (ValueError("no compatible transports found."), "unsupported"),
        (InternalError("executor exploded"), "remote"),
        (TaskNotCancelableError(), "remote"),
        (A2AClientError('{"error": {"code": 500, "status": "INTERNAL", "message": "x"}}'), "remote"),
        (A2AClientError("something odd"), "protocol"),
    ],
)
def test_failures_map_to_typed_errors(exc: BaseException, code: str) -> None:
    err = map_error(exc, action="testing", url="http://agent.test/")
    assert isinstance(err, WorkbenchError)
    assert err.code == code


def test_jsonrpc_errors_keep_their_remote_code_and_data() -> None:
    err = map_error(InternalError("boom", data={"reason": "x"}), action="testing")
    assert err.details["remote_code"] == -32603
    assert err.details["remote_data"] == {"reason": "x"}
    assert map_error(TaskNotCancelableError(), action="t").details["remote_code"] == -32002


def test_http_status_errors_name_the_status_and_url() -> None:
    err = map_error(chained(A2AClientError("x"), status_error(401)), action="testing")
    assert err.details["http_status"] == 401
    assert err.details["url"] == "http://agent.test/"


def test_workbench_errors_pass_through_unchanged() -> None:
    original = WorkbenchError("already typed")
    assert map_error(original, action="x") is original
