"""A2A event parse with large text: protobuf's surrogate check as shipped vs the workbench's ``SurrogateCheck``.

Status updates, tasks and messages take the SDK's parse (``json_format``), which searches every string
field with a character-by-character regex for unpaired surrogates. ``a2a/_sdk_compat.SurrogateCheck``
asks the regex only about strings UTF-8 cannot encode. Each side runs in its own child process
(``baseline``: protobuf as shipped; ``workbench``: with the check in place), parsing the same status
updates with one text part of 1 MiB (ASCII, and non-ASCII); printed: ms per event and the ratio
workbench/baseline (lower is better). Run: .venv/bin/python bench/a2a_text_parse.py [EVENTS]
"""

from __future__ import annotations

import json
import subprocess
import sys
import time

SIZE = 1 << 20


def _event(text: str) -> dict[str, object]:
    message = {"messageId": "m", "role": "ROLE_AGENT", "parts": [{"text": text}]}
    status = {"state": "TASK_STATE_WORKING", "message": message}
    return {"statusUpdate": {"taskId": "t", "contextId": "c", "status": status}}


def measure(side: str, events: int) -> dict[str, float]:
    """Milliseconds per parsed event, by text kind, in this process."""
    from a2a.types import StreamResponse
    from a2a.utils.proto_utils import parse_lenient

    if side == "workbench":
        from workbench.core.protocols.a2a import _sdk_compat  # noqa: F401  (puts the check in place)
    texts = {"ASCII": "x" * SIZE, "non-ASCII": ("Grüße " * (SIZE // 6 + 1))[:SIZE]}
    out = {}
    for kind, text in texts.items():
        event = _event(text)
        parse_lenient(event, StreamResponse())  # warm
        started = time.perf_counter()
        for _ in range(events):
            parse_lenient(event, StreamResponse())
        out[kind] = (time.perf_counter() - started) / events * 1000
    return out


def main() -> None:
    """Run both sides in child processes, interleaved, and print the figures."""
    if len(sys.argv) > 2 and sys.argv[1] == "--side":
        print(json.dumps(measure(sys.argv[2], int(sys.argv[3]))))
        return
    events = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    results: dict[str, dict[str, float]] = {}
    for side in ("baseline", "workbench"):
        done = subprocess.run(
            [sys.executable, __file__, "--side", side, str(events)], capture_output=True, text=True, check=True
        )
        results[side] = json.loads(done.stdout)
    print(f"status update with one 1 MiB text part, {events} events a side (ms per event; ratio workbench/baseline)")
    for kind in results["baseline"]:
        base, ours = results["baseline"][kind], results["workbench"][kind]
        print(f"  {kind:10s} baseline {base:8.2f}  workbench {ours:8.2f}  ratio {ours / base:6.3f}")


if __name__ == "__main__":
    main()
