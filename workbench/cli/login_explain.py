"""``workbench login --explain``: each auth step as it happens, its requests and answers, its checks, and why it failed.

Everything from the peer (URLs, bodies, header values, the reasons built from them) is printed through
``neutralise_line``: one inert line each, control and invisible characters shown as escapes.
"""

from __future__ import annotations

import sys
from typing import TextIO

from workbench.cli.render import print_json
from workbench.core.auth_steps import AuthExchange, AuthStep
from workbench.core.safe_text import neutralise_line

SHOWN_BODY = 300
"""Characters of a body shown per line (the wire log and ``--json`` have more)."""

SHOWN_HEADERS = ("authorization", "content-type", "www-authenticate", "dpop", "location")
"""The headers worth a line: how the request authenticates and what the answer says about it."""

MARKS = {"ok": "✓", "failed": "✗", "skipped": "–", "passed": "✓"}


def _line(text: str, limit: int = SHOWN_BODY) -> str:
    text = neutralise_line(text)
    return text if len(text) <= limit else f"{text[:limit]}…"


def _headline(number: int, step: AuthStep) -> str:
    """``2. Authorization-server metadata  GET http://… → 200  ✗ issuer``; a browser leg says ``(browser)``."""
    first = step.exchanges[0] if step.exchanges else None
    last = step.exchanges[-1] if step.exchanges else None
    where = ""
    if first is not None and first.via == "browser":
        answered = f" → {first.status}" if first.status is not None else ""
        where = f"  {first.method} {_line(first.url.split('?', 1)[0], 200)} (browser){answered}"
    elif last is not None:
        answered = f" → {last.status}" if last.status is not None else ""
        where = f"  {last.method} {_line(last.url.split('?', 1)[0], 200)}{answered}"
    failed = [check.name for check in step.checks if check.outcome == "failed"]
    passed = [check.name for check in step.checks if check.outcome == "passed"]
    if step.status == "failed":
        verdict = "✗ " + (", ".join(dict.fromkeys(failed)) or "failed")
    elif step.status == "skipped":
        verdict = "– skipped"
    else:
        verdict = "✓ " + (", ".join(dict.fromkeys(passed)) or "ok")
    return f"{number}. {step.name}{where}  {verdict}"


def _exchange_lines(exchange: AuthExchange) -> list[str]:
    via = " (in the browser)" if exchange.via == "browser" else ""
    lines = [f"   > {exchange.method} {_line(exchange.url, 400)}{via}"]
    for name, value in exchange.request_headers:
        if name.lower() in SHOWN_HEADERS:
            lines.append(f"   >   {_line(name, 60)}: {_line(value)}")
    if exchange.request_body:
        lines.append(f"   >   {_line(exchange.request_body)}")
    if exchange.status is not None:
        lines.append(f"   < {exchange.status}")
    elif exchange.via == "http":
        lines.append("   < (no answer)")
    for name, value in exchange.response_headers:
        if name.lower() in SHOWN_HEADERS:
            lines.append(f"   <   {_line(name, 60)}: {_line(value)}")
    if exchange.response_body:
        lines.append(f"   <   {_line(exchange.response_body)}")
    return lines


def explained(number: int, step: AuthStep) -> list[str]:
    """The lines that explain step ``number``: headline, exchanges, checks, and its failure if any."""
    lines = [_headline(number, step), f"   {_line(step.detail, 400)}"]
    for exchange in step.exchanges:
        lines += _exchange_lines(exchange)
    for check in step.checks:
        lines.append(f"   {MARKS.get(check.outcome, '?')} {check.name}: {_line(check.detail)}")
    if step.status == "failed":
        reason = step.failure.reason if step.failure is not None else step.detail
        hint = step.failure.hint if step.failure is not None else "see the step's records in the wire log"
        code = f" [{step.failure.code.value}]" if step.failure is not None else ""
        lines.append(f"✗ step {number} {step.name.lower()}{code}: {_line(reason, 600)} — change: {_line(hint, 600)}")
    return lines


class StepPrinter:
    """Prints auth steps as they arrive: one line each, explained (``--explain``), or JSON lines (``--json``).

    Args:
        explain: Show requests, answers, checks and failures.
        as_json: One JSON object per step on ``out`` (with ``explain``: its exchanges too).
        out: Where JSON and explanations go.
        err: Where the one-line form goes.
    """

    def __init__(self, *, explain: bool, as_json: bool, out: TextIO | None = None, err: TextIO | None = None) -> None:
        self.explain = explain
        self.as_json = as_json
        self.out = out if out is not None else sys.stdout
        self.err = err if err is not None else sys.stderr
        self.count = 0

    def __call__(self, step: AuthStep) -> None:
        """Print one finished step."""
        self.count += 1
        if self.as_json:
            print_json({"n": self.count, **step.to_dict(exchanges=self.explain)}, self.out)
            return
        if self.explain:
            print("\n".join(explained(self.count, step)), file=self.out, flush=True)
            return
        seqs = " ".join(f"#{seq}" for seq in step.wire_seqs)
        line = f"[{step.stage.value}] {step.status}: {neutralise_line(step.detail)}" + (
            f" (wire {seqs})" if seqs else ""
        )
        print(line, file=self.err, flush=True)
