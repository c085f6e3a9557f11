"""The words of one login step for its detail pane: what it did, what it checked, its requests and answers."""

from __future__ import annotations

from workbench.core.auth_steps import AuthExchange, AuthStep

MARKS = {"passed": "✓", "failed": "✗", "skipped": "–"}
"""The mark before each check's outcome."""


def failure_text(number: int, step: AuthStep) -> str:
    """``✗ Step 2, Authorization-server metadata, failed [issuer-mismatch]: …`` and the change on its own line."""
    if step.status != "failed":
        return ""
    failure = step.failure
    code = f" [{failure.code.value}]" if failure is not None else ""
    reason = failure.reason if failure is not None else step.detail
    hint = failure.hint if failure is not None else "see the step's requests and answers in the wire log"
    return f"✗ Step {number}, {step.name}, failed{code}: {reason}\nWhat to change: {hint}"


def _exchange_text(index: int, exchange: AuthExchange) -> list[str]:
    where = " (in the browser)" if exchange.via == "browser" else ""
    seq = f" — wire #{exchange.request_seq}" if exchange.request_seq is not None else ""
    lines = [f"Request {index}{where}{seq}", f"  {exchange.method} {exchange.url}"]
    lines += [f"  {name}: {value}" for name, value in exchange.request_headers]
    if exchange.request_body:
        lines += ["", f"  {exchange.request_body}"]
    if exchange.status is None:
        if exchange.via == "http":
            lines.append("Response: none")
        return lines
    seq = f" — wire #{exchange.response_seq}" if exchange.response_seq is not None else ""
    lines.append(f"Response {index}{seq}")
    lines.append(f"  HTTP {exchange.status}")
    lines += [f"  {name}: {value}" for name, value in exchange.response_headers]
    if exchange.response_body:
        lines += ["", f"  {exchange.response_body}"]
    return lines


def step_text(number: int, step: AuthStep) -> str:
    """The detail pane's text for step ``number`` (plain text; tokens are already ``***``)."""
    lines = [f"{number}. {step.name} — {step.status}", step.detail, ""]
    if step.checks:
        lines.append("Checked")
        lines += [f"  {MARKS.get(c.outcome, '?')} {c.name}: {c.detail}" for c in step.checks]
        lines.append("")
    for index, exchange in enumerate(step.exchanges, start=1):
        lines += _exchange_text(index, exchange)
        lines.append("")
    if not step.exchanges:
        lines.append("No requests of its own (see the wire log for the connection's traffic).")
    return "\n".join(lines).rstrip() + "\n"
