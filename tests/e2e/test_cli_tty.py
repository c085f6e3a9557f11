"""The command line on a terminal: a person answers the server's form field by field."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time

DEMO_STDIO = [sys.executable, "-m", "workbench.demo.mcp_server", "--stdio"]
# A prompt: "Fill the form? [y = …]: " or a field's title at the start of a line: "Party Size *: " / "Area: ".
PROMPT = re.compile(
    r"(?m)(?:answer \(JSON object, text, or 'cancel'\)"
    r"|Fill the form\? \[[^\]]*\]"
    r"|^[A-Z][A-Za-z ]*(?: \*)?): "
)
ANSWERS = {
    "Fill the form?": "y",
    "Name": "Ada",
    "Email": "ada@example.org",
    "Party Size": "3",
}


def run_on_a_terminal(argv: list[str], answers: dict[str, str]) -> tuple[int, str]:
    """Run ``python -m workbench ARGV`` on a pty, answering each prompt (by prefix) once, in order."""
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "workbench", *argv], stdin=slave, stdout=slave, stderr=slave, close_fds=True
    )
    os.close(slave)
    seen = ""
    answered_upto = 0
    deadline = time.monotonic() + 60
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            ready, _, _ = select.select([master], [], [], 0.5)
            if not ready:
                continue
            try:
                seen += os.read(master, 4096).decode(errors="replace")
            except OSError:  # the child closed the terminal
                break
            # A prompt waits for its answer, so it is the last thing on the terminal; a line of
            # output that merely looks like one ("Getting around: on foot") is followed by more.
            for match in PROMPT.finditer(seen, answered_upto):
                if seen[match.end() :].strip() == "":
                    reply = next((v for k, v in answers.items() if match.group(0).startswith(k)), "")
                    os.write(master, (reply + "\n").encode())
                    answered_upto = match.end()
                    break
        proc.wait(timeout=15)
        while select.select([master], [], [], 0.2)[0]:
            try:
                seen += os.read(master, 4096).decode(errors="replace")
            except OSError:
                break
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(master)
    return proc.returncode, seen


def test_a_person_on_a_tty_fills_the_elicitation_form_and_the_tool_uses_it() -> None:
    code, seen = run_on_a_terminal(["call", "--stdio", "book_table", "--", *DEMO_STDIO], ANSWERS)
    assert code == 0, seen
    assert seen.count("Booked a table for 3") == 1, seen
    assert "Ada" in seen


def travel_agent_send(answers: dict[str, str]) -> tuple[int, str]:
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
    code, seen = travel_agent_send({"Fill the form?": "t", "answer": json.dumps(trip)})
    assert code == 0, seen
    assert seen.count("answer with JSON matching") == 1, seen
    assert seen.count("which cabin class?") == 1, seen  # the question, printed once
    assert "That did not work" not in seen, seen  # the first answer was taken
    assert "Your trip to Porto is planned" in seen


def test_a_person_on_a_tty_fills_an_a2a_agents_form_field_by_field_with_its_titles_and_choices() -> None:
    # as an MCP form is filled: the agent's titles, its choices listed, a choice picked by its label
    answers = {
        "Fill the form?": "y",
        "Departure date": "2026-12-01",
        "Return date": "2026-12-03",
        "Travellers": "2",
        "Cabin class": "business",
    }
    code, seen = travel_agent_send(answers)
    assert code == 0, seen
    assert "answer with JSON matching" not in seen, seen  # no schema dump: the form was asked field by field
    for title in ("Departure date *: ", "Return date *: ", "Travellers *: ", "Cabin class *: "):
        assert seen.count(title) == 1, seen
    assert "business" in seen.split("Cabin class *: ")[0], seen  # the choices were listed before its prompt
    assert "business flights for 2 travellers" in seen, seen
    assert "Your trip to Porto is planned" in seen
