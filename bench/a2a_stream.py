"""A2A streaming benchmark: events/s through ``A2AAgent.stream_async`` vs the bare SDK client.

Two agents run in a child process (so their CPU does not share this process's core), each
streaming N artifact chunks per request:

* ``replay``   serves a pre-rendered SSE stream (the exact JSON-RPC frames an A2A 1.0 agent sends for
  a task with N chunks) as fast as the socket takes it. The client is the bottleneck, so this
  measures what the benchmark is about: the client side's cost per event. The target applies here.
* ``firehose`` the SDK server with the demo firehose agent (``workbench.demo.a2a_agents.firehose``).
  End to end; the SDK server is slower than either client and its cost grows with N, so the
  events/s ratio there says little (noisy, server-bound); client CPU per event is still meaningful.

Each agent is read three ways, interleaved over several rounds:
``bare`` (the SDK's ``client.send_message``), ``agent`` (``A2AAgent.stream_async``: reducer +
neutral events) and ``agent+wire`` (the same with a ``WireRecorder`` passed in). Both agent rows
record every HTTP, SSE and JSON-RPC record: ``A2AAgent(wire=None)`` makes its own recorder. The
agent reads artifact chunks with its own parse (``core/protocols/a2a/stream_parse.py``), not the
SDK's ``json_format``; everything else it reads as the SDK does. Printed: best-of-rounds events/s,
client CPU µs per event, ratio to ``bare``. Targets on ``replay``: agent/bare events/s
>= 0.95, agent+wire/bare >= 0.85.
Run: .venv/bin/python bench/a2a_stream.py [N] [ROUNDS]
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable

import httpx
from a2a.client import A2ACardResolver, ClientConfig, ClientFactory
from a2a.helpers import new_text_message
from a2a.types import Role, SendMessageRequest
from google.protobuf.json_format import MessageToDict
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route

from workbench.core.protocols.a2a import A2AAgent
from workbench.core.protocols.base import Completed
from workbench.core.wire.recorder import WireRecorder
from workbench.demo.a2a_agents.common import make_card, serve_agent
from workbench.demo.a2a_agents.firehose import SKILL, build_firehose_app

N = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else 5000
ROUNDS = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[2].isdigit() else 5
EXPECTED = N + 3  # task, working, N chunks, completed
FRAMES_PER_WRITE = 8


# ---------------------------------------------------------------------------------- child side


def replay_frames(n: int) -> list[bytes]:
    """The SSE frames of one task streaming ``n`` artifact chunks (as the SDK server renders them)."""
    task_id, ctx = "bench-task", "bench-context"

    def frame(result: dict[str, object]) -> bytes:
        body = json.dumps({"result": result, "id": "bench", "jsonrpc": "2.0"})
        return f"data: {body}\r\n\r\n".encode()

    status = {"taskId": task_id, "contextId": ctx}
    frames = [
        frame({"task": {"id": task_id, "contextId": ctx, "status": {"state": "TASK_STATE_SUBMITTED"}}}),
        frame({"statusUpdate": {**status, "status": {"state": "TASK_STATE_WORKING"}}}),
    ]
    for i in range(n):
        update: dict[str, object] = {
            **status,
            "artifact": {"artifactId": "stream", "name": "stream", "parts": [{"text": f"chunk {i}\n"}]},
        }
        if i > 0:
            update["append"] = True
        if i == n - 1:
            update["lastChunk"] = True
        frames.append(frame({"artifactUpdate": update}))
    frames.append(frame({"statusUpdate": {**status, "status": {"state": "TASK_STATE_COMPLETED"}}}))
    return frames


def build_replay_app(base_url: str, n: int) -> Starlette:
    """An agent that answers every message with the pre-rendered stream of ``n`` chunks."""
    card = make_card(base_url, name="Replay (bench)", description="pre-rendered stream", skills=[SKILL], rest=False)
    frames = replay_frames(n)
    card_json = MessageToDict(card)

    async def get_card(request: Request) -> JSONResponse:
        return JSONResponse(card_json)

    async def rpc(request: Request) -> StreamingResponse:
        await request.body()

        async def body() -> AsyncIterator[bytes]:
            for i in range(0, len(frames), FRAMES_PER_WRITE):
                yield b"".join(frames[i : i + FRAMES_PER_WRITE])

        return StreamingResponse(body(), media_type="text/event-stream")

    return Starlette(
        routes=[Route("/.well-known/agent-card.json", get_card), Route("/", rpc, methods=["POST"])],
    )


async def serve_children(n: int) -> None:
    async with (
        serve_agent(lambda base: build_replay_app(base, n)) as replay,
        serve_agent(build_firehose_app) as firehose,
    ):
        print(f"LISTENING {replay} {firehose}", flush=True)
        await asyncio.Event().wait()


# ---------------------------------------------------------------------------------- client side


async def start_agents() -> tuple[asyncio.subprocess.Process, str, str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    proc = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--serve", str(N), stdout=asyncio.subprocess.PIPE, env=env
    )
    assert proc.stdout is not None
    line = (await asyncio.wait_for(proc.stdout.readline(), 30)).decode().split()
    assert line and line[0] == "LISTENING", line
    return proc, line[1], line[2]


async def bare_run(url: str) -> int:
    async with httpx.AsyncClient(timeout=httpx.Timeout(30.0, read=None)) as http:
        card = await A2ACardResolver(http, url).get_agent_card()
        client = ClientFactory(ClientConfig(httpx_client=http)).create(card)
        request = SendMessageRequest(message=new_text_message(str(N), role=Role.ROLE_USER))
        count = 0
        async for _ in client.send_message(request):
            count += 1
        await client.close()
    return count


async def agent_run(url: str, wire: bool) -> int:
    recorder = WireRecorder() if wire else None
    async with A2AAgent(url, wire=recorder) as agent:
        chunks = 0
        async for ev in agent.stream_async(str(N)):
            if ev.kind.value == "artifact":
                chunks += 1
            elif isinstance(ev, Completed):
                assert len(ev.result.artifacts["stream"]) == N
    return chunks + 3  # the same SSE events the bare client counted


async def timed(fn: Callable[[], Awaitable[int]]) -> tuple[float, float, int]:
    gc.collect()
    wall0, cpu0 = time.perf_counter(), time.process_time()
    count = await fn()
    return time.perf_counter() - wall0, time.process_time() - cpu0, count


async def measure(label: str, url: str) -> tuple[float, float]:
    ways: dict[str, Callable[[], Awaitable[int]]] = {
        "bare": lambda: bare_run(url),
        "agent": lambda: agent_run(url, wire=False),
        "agent+wire": lambda: agent_run(url, wire=True),
    }
    await bare_run(url)  # warm-up
    best: dict[str, tuple[float, float]] = {}
    for _ in range(ROUNDS):
        for name, fn in ways.items():
            wall, cpu, count = await timed(fn)
            assert count == EXPECTED, (name, count)
            old = best.get(name)
            best[name] = (min(wall, old[0]) if old else wall, min(cpu, old[1]) if old else cpu)
    print(f"\n[{label}] {N} artifact chunks per request ({EXPECTED} SSE events), best of {ROUNDS} rounds")
    print(f"{'way':<12}{'events/s':>12}{'client CPU µs/event':>22}{'ratio events/s':>17}{'ratio CPU':>11}")
    base_rate, base_cpu = EXPECTED / best["bare"][0], best["bare"][1]
    for name, (wall, cpu) in best.items():
        rate = EXPECTED / wall
        print(f"{name:<12}{rate:>12,.0f}{cpu / EXPECTED * 1e6:>22.1f}{rate / base_rate:>17.2f}{base_cpu / cpu:>11.2f}")
    return (EXPECTED / best["agent"][0]) / base_rate, (EXPECTED / best["agent+wire"][0]) / base_rate


async def main() -> None:
    proc, replay, firehose = await start_agents()
    try:
        agent, wired = await measure("replay: client-bound, the target applies", replay)
        await measure("firehose: SDK server end to end, server-bound", firehose)
        for name, ratio, target in (("A2AAgent.stream_async", agent, 0.95), ("the same + wire", wired, 0.85)):
            verdict = "OK" if ratio >= target else "BELOW"
            print(f"{name} / bare SDK (replay, events/s): {ratio:.2f} (target >= {target}) -> {verdict}")
    finally:
        proc.terminate()
        await proc.wait()


if __name__ == "__main__":
    if len(sys.argv) > 2 and sys.argv[1] == "--serve":
        N = int(sys.argv[2])
        asyncio.run(serve_children(N))
    else:
        asyncio.run(main())
