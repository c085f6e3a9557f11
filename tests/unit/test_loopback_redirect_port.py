"""The redirect port a login registers: free now, and below the ports outgoing connections are given."""

from __future__ import annotations

import socket

import pytest

from workbench.core.http import loopback


def test_a_redirect_port_is_free_and_below_the_ephemeral_ports() -> None:
    port = loopback.free_port()
    assert port in loopback.REDIRECT_PORTS
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", port))


def test_a_taken_port_is_never_chosen_and_the_system_picks_when_all_tried_are_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        taken = held.getsockname()[1]
        monkeypatch.setattr(loopback, "REDIRECT_PORTS", range(taken, taken + 1))
        port = loopback.free_port(tries=1)
    assert port != taken


@pytest.mark.asyncio
async def test_a_reserved_port_is_taken_for_others_until_this_processs_receiver_listens_on_it() -> None:
    port = loopback.reserve_port()
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as other, pytest.raises(OSError):
        other.bind(("127.0.0.1", port))  # what another process's check meets
    async with loopback.LoopbackReceiver(port) as receiver:
        assert receiver.port == port
    assert port not in loopback._RESERVED
