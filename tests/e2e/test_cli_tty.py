"""The command line on a terminal: a person answers the server's form field by field."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.support.demo_mcp import DEMO_STDIO
from tests.support.terminal import run_on_a_terminal

ANSWERS = {
    "Fill the form?": ["y"],
    "Name": ["Ada"],
    "Email": ["ada@example.org"],
    "Party Size": ["3"],
}


def test_a_person_on_a_tty_fills_the_elicitation_form_and_the_tool_uses_it() -> None:
    code, seen = run_on_a_terminal(["call", "--stdio", "book_table", "--", *DEMO_STDIO], ANSWERS)
    assert code == 0, seen
    assert seen.count("Booked a table for 3") == 1, seen
    assert "Ada" in seen


def travel_agent_send(answers: dict[str, list[str]]) -> tuple[int, str]:
    """``send`` the demo travel agent "Plan a trip to Porto" on a terminal, answering its form with ``answers``."""
    demo = subprocess.Popen(
        [sys.executable, "-m", "workbench", "demo", "--headless", "--json"], stdout=subprocess.PIPE, text=True
    )
    try:
        assert demo.stdout is not None
        agents = {}
        while len(agents) < 5:
            entry = json.loads(demo.stdout.readline())
            agents[entry["name"]] = entry["target"]
        return run_on_a_terminal(["send", "--a2a", agents["travel"], "Plan a trip to Porto"], answers)
    finally:
        demo.terminate()
        demo.wait(timeout=15)
        if demo.stdout is not None:
            demo.stdout.close()


def test_a_person_on_a_tty_answers_an_a2a_agents_question_with_json_asked_once() -> None:
    trip = {"departure_date": "2026-12-01", "return_date": "2026-12-03", "travellers": 1, "cabin_class": "economy"}
    code, seen = travel_agent_send({"Fill the form?": ["t"], "answer": [json.dumps(trip)]})
    assert code == 0, seen
    assert seen.count("answer with JSON matching") == 1, seen
    assert seen.count("which cabin class?") == 1, seen  # the question, printed once
    assert "That did not work" not in seen, seen  # the first answer was taken
    assert "Your trip to Porto is planned" in seen


def test_a_person_on_a_tty_fills_an_a2a_agents_form_field_by_field_with_its_titles_and_choices() -> None:
    # as an MCP form is filled: the agent's titles, its choices listed, a choice picked by its label
    answers = {
        "Fill the form?": ["y"],
        "Departure date": ["2026-12-01"],
        "Return date": ["2026-12-03"],
        "Travellers": ["2"],
        "Cabin class": ["business"],
    }
    code, seen = travel_agent_send(answers)
    assert code == 0, seen
    assert "answer with JSON matching" not in seen, seen  # no schema dump: the form was asked field by field
    for title in ("Departure date *: ", "Return date *: ", "Travellers *: ", "Cabin class *: "):
        assert seen.count(title) == 1, seen
    assert "business" in seen.split("Cabin class *: ")[0], seen  # the choices were listed before its prompt
    assert "business flights for 2 travellers" in seen, seen
    assert "Your trip to Porto is planned" in seen
