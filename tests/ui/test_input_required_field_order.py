"""The input-required form shows an A2A agent's fields, and the JSON beside them, in the agent's order.

The order is the agent's although the schema travels in a protobuf ``Struct``, which keeps none, so
a form comes out the same on every run. Checked against real agents served in process: a fasta2a
agent whose JSON has ten fields in no alphabetical order, and the demo travel agent, built on the A2A
Python SDK (whose JSON has no fixed order), which names its order with ``x-order``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from PySide6.QtWidgets import QFormLayout, QWidget

from tests.servers.a2a_ordered_form import FIELDS, form_agent_app
from tests.support.input_required import DialogAnswers
from workbench.core.protocols.a2a import A2AAgent
from workbench.core.serving import serve_asgi
from workbench.demo.a2a_agents import serve_agent, travel_app_factory
from workbench.ui.dialogs.input_required import InputRequiredDialog


def _rows(dialog: InputRequiredDialog) -> tuple[list[str], list[QWidget]]:
    """The form's field names and, top to bottom, the widgets its rows show."""
    assert dialog.form is not None
    root: Any = dialog.form.root
    layout: QFormLayout = root.form_layout
    shown = []
    for row in range(layout.rowCount()):
        item = layout.itemAt(row, QFormLayout.ItemRole.FieldRole)
        if item is not None and item.widget() is not None:
            shown.append(item.widget())
    return list(root.fields), shown


async def _asked(url: str, answers: DialogAnswers) -> InputRequiredDialog:
    async with A2AAgent(url, input_handler=answers) as agent:
        run = asyncio.ensure_future(agent.invoke_async("Plan a trip to Rome"))
        dialog = await asyncio.wait_for(answers.dialogs.get(), 15)
        dialog.close_button.click()  # answer later
        result = await asyncio.wait_for(run, 15)
    assert result.state == "input_required"
    return dialog


@pytest.mark.asyncio
async def test_a_ten_field_form_shows_its_fields_and_json_in_the_order_the_agent_sent(qtbot: Any) -> None:
    pytest.importorskip("fasta2a", reason="fasta2a is not installed")
    answers = DialogAnswers(qtbot)
    async with serve_asgi(form_agent_app, lifespan="on") as url:
        dialog = await _asked(url, answers)
    assert dialog.mode == "form" and dialog.form is not None
    assert dialog.request.schema is not None and list(dialog.request.schema["properties"]) == FIELDS
    names, widgets = _rows(dialog)
    assert names == FIELDS
    root: Any = dialog.form.root
    assert widgets == [root.fields[name] for name in FIELDS]  # laid out top to bottom in that order
    assert dialog.form.json_editor is not None
    shown = json.loads(dialog.form.json_text())
    assert list(shown) == FIELDS and shown["surname"] == "<surname>"  # the agent's prefilled values


@pytest.mark.asyncio
async def test_the_demo_travel_agents_form_is_in_its_named_order_on_every_run(qtbot: Any) -> None:
    answers = DialogAnswers(qtbot)
    async with serve_agent(travel_app_factory(chunk_delay=0)) as url:
        dialog = await _asked(url, answers)
    names, _ = _rows(dialog)
    assert names == ["departure_date", "return_date", "travellers", "cabin_class"]
    assert dialog.form is not None and dialog.form.json_editor is not None
    assert list(json.loads(dialog.form.json_text())) == ["travellers", "cabin_class"]  # its defaults
