"""The command line on a terminal against real peers: server-everything's form and the JS SDK's agent.

A person's typo at "Fill the form?" is asked again (it does not decline the server's request), a choice's
default reads as its label, and an agent's question starts its own line after streamed reply text.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.servers.a2a_js_agents import js_agent
from tests.support.terminal import run_on_a_terminal


@pytest.mark.everything
def test_a_typo_at_fill_the_form_asks_again_and_choices_show_their_labels(everything_stdio: Any) -> None:
    env = [f"--env={k}={v}" for k, v in (everything_stdio.env or {}).items()]
    argv = ["call", "--stdio", *env, "trigger-elicitation-request", "--", everything_stdio.command]
    code, seen = run_on_a_terminal(
        [*argv, *everything_stdio.args],
        {"Fill the form?": ["Ada", "y"], "String *": ["Ada"]},  # the name typed too early, then "y"
    )
    assert code == 0, seen
    assert seen.count("Fill the form?") == 2, seen
    assert '"action": "accept"' in seen and '"name": "Ada"' in seen, seen
    assert "default: Superman" in seen and "default: Tuna" in seen and "default: Cats" in seen, seen
    assert "hero-1" not in seen.split("Raw result")[0], seen  # the form shows labels, the result the values


@pytest.mark.asyncio
async def test_an_agents_question_on_a_terminal_starts_its_own_line_after_streamed_text() -> None:
    async with js_agent("1.0") as url:
        code, seen = await asyncio.to_thread(
            run_on_a_terminal, ["send", "--a2a", url, "hello"], {"answer (JSON object": ["Ada"]}
        )
    assert code == 0, seen
    assert "Nice to meet you, Ada." in seen, seen
    assert "\n[JS Steps Agent asks] What is your name?" in seen, seen  # not "step 3[JS Steps Agent asks] …"
    assert "\n\n[status working]" not in seen, seen  # and no blank line where the line was ended twice
