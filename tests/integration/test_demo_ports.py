"""The demo agents listen on fixed, documented ports run after run, and a taken port falls back to a free one."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from workbench.demo.launcher import DEMO_PORT_RANGE, DEMO_PORTS, EPHEMERAL_PORTS, run_demo

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 30.0


@contextlib.contextmanager
def held_port(port: int = 0) -> Iterator[int]:
    """A loopback port another program listens on while the context is open (no SO_REUSEADDR: exclusive)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        sock.bind(("127.0.0.1", port))
        sock.listen(1)
        yield sock.getsockname()[1]
    finally:
        sock.close()


def _free(port: int) -> bool:
    try:
        with held_port(port):
            return True
    except OSError:
        return False


async def _card_answers(base_url: str) -> int:
    async with httpx.AsyncClient(timeout=10) as client:
        return (await client.get(f"{base_url}/.well-known/agent-card.json")).status_code


@pytest.mark.asyncio
async def test_the_demo_agents_listen_on_the_same_documented_ports_run_after_run() -> None:
    taken = [port for port in DEMO_PORTS.values() if not _free(port)]
    if taken:  # another program (a demo someone left running) holds them: the fallback test covers that case
        pytest.skip(f"the demo's default ports {taken} are held by another program")
    runs: list[dict[str, str]] = []
    for _ in range(2):
        async with asyncio.timeout(WAIT_S), run_demo(chunk_delay=0.0) as agents:
            runs.append({agent.name: agent.target for agent in agents})
            assert not any(agent.fell_back for agent in agents)
            assert {a.name: a.port for a in agents if a.port is not None} == dict(DEMO_PORTS)
            assert all(agent.port in DEMO_PORT_RANGE for agent in agents if agent.port is not None)
            travel = next(a for a in agents if a.name == "travel")
            assert await _card_answers(travel.target) == 200
    assert runs[0] == runs[1]  # a connection saved to a demo agent reaches it again next time
    assert runs[0]["demo-mcp"] == "http://127.0.0.1:47801/mcp"


@pytest.mark.asyncio
async def test_a_taken_port_falls_back_to_a_free_one_and_the_agent_says_so() -> None:
    with held_port() as port:
        ports = {**EPHEMERAL_PORTS, "travel": port}
        async with asyncio.timeout(WAIT_S), run_demo(chunk_delay=0.0, ports=ports) as agents:
            travel = next(a for a in agents if a.name == "travel")
            assert travel.wanted_port == port and travel.port not in (None, port, 0)
            assert travel.fell_back
            assert str(port) in travel.fallback_note and travel.target in travel.fallback_note
            assert await _card_answers(travel.target) == 200  # it serves where it says it does
            others = [a for a in agents if a.name != "travel"]
            assert not any(a.fell_back or a.fallback_note for a in others)  # port 0 asked for nothing in particular


@pytest.mark.asyncio
async def test_workbench_demo_headless_prints_where_an_agent_went_when_its_port_was_taken() -> None:
    with held_port() as port:
        proc = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "workbench",
            "demo",
            "--headless",
            "--json",
            "--base-port",
            str(port),  # the first agent (demo-mcp) wants the held port
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        assert proc.stdout is not None and proc.stderr is not None
        try:
            async with asyncio.timeout(WAIT_S):
                first = json.loads(await proc.stdout.readline())
                note = (await proc.stderr.readline()).decode()
        finally:
            proc.terminate()
            await proc.communicate()
    assert first["name"] == "demo-mcp" and first["default_port"] == port
    assert f":{port}/" not in first["target"]
    assert note.startswith("note: demo-mcp: port") and first["target"] in note
