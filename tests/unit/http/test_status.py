"""HTTP status → typed error: one mapping, and both adapters' error funnels give the same result."""

from __future__ import annotations

from typing import Any

import httpx
import httpx2
import pytest
from a2a.client.errors import A2AClientError
from mcp import MCPError

from workbench.core.errors import AuthRequiredError, RemoteError, WorkbenchError
from workbench.core.http.status import StatusSeen, http_status_error
from workbench.core.protocols.a2a import errors as a2a_errors
from workbench.core.protocols.mcp import errors as mcp_errors

URL = "http://peer.test/rpc"
CHALLENGE = 'Bearer realm="x", error="invalid_token"'


def describe(error: WorkbenchError) -> tuple[type, str, dict[str, Any]]:
    return type(error), error.code, error.details


@pytest.mark.parametrize("status", [401, 403])
def test_401_and_403_ask_for_credentials_with_the_challenge(status: int) -> None:
    error = http_status_error(status, url=f"{URL}?api_key=secret#frag", doing="connecting", challenge=CHALLENGE)
    assert isinstance(error, AuthRequiredError)
    assert error.details == {"http_status": status, "url": URL, "www_authenticate": CHALLENGE}
    assert "secret" not in error.message


@pytest.mark.parametrize("status", [400, 404, 500, 502, 503])
def test_other_error_statuses_are_remote_errors_carrying_the_status(status: int) -> None:
    error = http_status_error(status, url=URL, doing="sending the message")
    assert isinstance(error, RemoteError) and error.remote_code == status
    assert error.details == {"http_status": status, "url": URL, "remote_code": status}


@pytest.mark.parametrize("status", [401, 500])
def test_both_adapters_http_status_error_functions_agree(status: int) -> None:
    mcp = mcp_errors.http_status_error(status, CHALLENGE, URL, "calling tool 'x'")
    a2a = a2a_errors.http_status_error(status, action="sending the message", url=URL, challenge=CHALLENGE)
    assert describe(mcp) == describe(a2a)


async def status_errors(status: int) -> tuple[httpx.HTTPStatusError, httpx2.HTTPStatusError]:
    """A real HTTPStatusError from each client (through its in-process MockTransport)."""
    headers = {"www-authenticate": CHALLENGE} if status == 401 else {}
    caught: list[Any] = []
    for mod in (httpx, httpx2):
        transport = mod.MockTransport(lambda request, mod=mod: mod.Response(status, headers=headers, text="boom"))
        async with mod.AsyncClient(transport=transport) as http:
            response = await http.post(URL, content=b"{}")
        with pytest.raises(mod.HTTPStatusError) as info:
            response.raise_for_status()
        caught.append(info.value)
    return caught[0], caught[1]


@pytest.mark.asyncio
@pytest.mark.parametrize("status", [401, 500, 503])
async def test_the_same_http_failure_maps_to_the_same_error_in_both_adapters(status: int) -> None:
    a2a_cause, mcp_cause = await status_errors(status)
    wrapped = A2AClientError("HTTP error")
    wrapped.__cause__ = a2a_cause
    a2a = a2a_errors.map_error(wrapped, action="sending the message", url=URL)
    mcp = mcp_errors.to_workbench_error(ExceptionGroup("tg", [mcp_cause]), target=URL, doing="connecting")
    assert describe(a2a) == describe(mcp)
    # The MCP SDK usually hides the status behind a JSON-RPC error; the tap's note of it gives the same.
    seen = StatusSeen(status, CHALLENGE if status == 401 else None, URL)
    hidden = mcp_errors.to_workbench_error(MCPError(-32603, "HTTP error"), target=URL, doing="x", http_error=seen)
    assert describe(hidden) == describe(mcp)
