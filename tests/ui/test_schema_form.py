"""SchemaForm: JSON Schema → widgets, value round-trips, validation, and the raw-JSON editor in sync."""

from __future__ import annotations

import json
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QGroupBox, QLineEdit, QPlainTextEdit

from workbench.core.protocols.mcp.agent import MCPAgent
from workbench.demo.mcp_server.app import build_server
from workbench.ui.forms.compound_fields import ArrayField, ChoiceField, MultiSelectField, ObjectField
from workbench.ui.forms.scalar_fields import (
    BooleanField,
    ConstField,
    EnumField,
    NumberField,
    RawJsonField,
    StringField,
)
from workbench.ui.forms.schema_form import SchemaForm

HTML = '<b style="color:red">BOLD</b> &amp; <img src="file:///etc/passwd"> <a href="file:///etc/passwd">x</a>'


def _form(qtbot: Any, schema: dict[str, Any], **kwargs: Any) -> SchemaForm:
    form = SchemaForm(schema, **kwargs)
    qtbot.addWidget(form)
    return form


async def _demo_schemas() -> dict[str, dict[str, Any]]:
    async with MCPAgent.in_process(build_server()) as agent:
        return {t.name: t.input_schema for t in await agent.server_features.list_tools()}


@pytest.fixture(scope="module")
def plan_trip_schema() -> dict[str, Any]:
    """The demo server's richest schema ($defs, nested objects, arrays, oneOf, anyOf-null, formats)."""
    import asyncio

    return asyncio.run(_demo_schemas())["plan_trip"]


def _fill_trip(form: SchemaForm) -> None:
    form.field("destination").set_text("Lisbon")
    form.field("dates", "start").set_text("2026-05-01")
    form.field("dates", "end").set_text("2026-05-08")
    form.field("travellers", 0, "name").set_text("Ada")
    form.field("travellers", 0, "age").spin.setValue(36)
    form.field("travellers", 0, "email").set_text("ada@example.com")


# --------------------------------------------------------------------------- a real server's schema


@pytest.mark.asyncio
async def test_form_from_a_real_servers_schema_fills_and_the_server_accepts_the_value(qtbot):
    async with MCPAgent.in_process(build_server()) as agent:
        tools = {t.name: t for t in await agent.server_features.list_tools()}
        form = _form(qtbot, tools["plan_trip"].input_schema)
        assert not form.is_valid()
        _fill_trip(form)
        traveller = form.field("travellers")
        assert isinstance(traveller, ArrayField)
        second = traveller.add_item()
        second.child("name").set_text("Bob")
        second.child("age").spin.setValue(7)
        second.child("email").set_text("bob@example.org")
        second.child("seat").select("window")
        shipping = form.field("shipping")
        assert isinstance(shipping, ChoiceField)
        delivery = shipping.choose(1)
        delivery.child("street").set_text("Rua Augusta 1")
        delivery.child("postcode").set_text("1100")
        delivery.child("express").check.setChecked(True)
        assert form.errors() == []
        value = form.value()
        assert value == {
            "destination": "Lisbon",
            "dates": {"start": "2026-05-01", "end": "2026-05-08"},
            "travellers": [
                {"name": "Ada", "age": 36, "email": "ada@example.com", "seat": "any"},
                {"name": "Bob", "age": 7, "email": "bob@example.org", "seat": "window"},
            ],
            "cabin": "economy",
            "shipping": {"kind": "delivery", "street": "Rua Augusta 1", "postcode": "1100", "express": True},
            "budget_eur": 2000.0,
        }
        result = await agent.call_tool("plan_trip", value)
        assert not result.is_error, result.content


def test_defaults_are_prefilled_and_empty_optional_fields_are_left_out(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    value = form.value()
    assert value["cabin"] == "economy"
    assert value["budget_eur"] == 2000.0
    assert value["shipping"] == {"kind": "pickup", "desk": "central-station"}
    assert value["travellers"] == [{"seat": "any"}]  # minItems 1: one row, its seat default filled
    assert "website" not in value and "notes" not in value and "destination" not in value
    assert isinstance(form.field("cabin"), EnumField)
    assert form.field("cabin").combo.currentText() == "economy"
    assert isinstance(form.field("shipping", "kind"), ConstField)


def test_required_fields_are_marked_and_enforced(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    root = form.root
    assert isinstance(root, ObjectField)
    assert root.row_labels["destination"].text() == "Destination *"
    assert root.row_labels["cabin"].text() == "Cabin"
    assert root.boxes["travellers"].title() == "Travellers *"
    assert "destination: required" in form.errors()
    assert "travellers/0/email: required" in form.errors()
    assert not form.is_valid()
    _fill_trip(form)
    assert form.is_valid(), form.errors()
    form.field("destination").set_text("")
    assert form.errors() == ["destination: required"]


def test_a_pristine_form_hides_errors_until_edited_or_revealed(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    destination = form.field("destination")
    assert destination.error_label.isHidden()
    assert form.errors_label.isHidden()
    form.reveal_errors()
    assert not destination.error_label.isHidden()
    assert destination.error_label.text() == "Required"
    assert form.errors_label.text().startswith(
        "5 fields to fix (marked above): Destination, Dates, Travellers › #1 › Name"
    )
    assert "required" not in form.errors_label.text()  # said once, under the field


def test_errors_appear_inline_beside_the_field_they_concern(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    _fill_trip(form)
    email = form.field("travellers", 0, "email")
    email.set_text("not-an-email")
    assert form.errors() == ["travellers/0/email: is not an e-mail address (name@example.com)"]  # not the pattern too
    assert not email.error_label.isHidden()
    assert email.error_label.text() == "Is not an e-mail address (name@example.com)"
    form.field("dates", "start").set_text("2026-13-01")
    assert "dates/start: is not a date (YYYY-MM-DD)" in form.errors()
    assert not form.field("dates", "start").error_label.isHidden()


def test_value_round_trips_through_set_value_and_keeps_unknown_keys(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    value = {
        "destination": "Rome",
        "dates": {"start": "2026-06-01", "end": "2026-06-03"},
        "travellers": [
            {"name": "A", "age": 1, "email": "a@b.cd", "seat": "aisle"},
            {"name": "B", "age": 120, "email": "b@b.cd", "seat": "any"},
        ],
        "cabin": "premium",
        "shipping": {"kind": "delivery", "street": "Via 2", "postcode": "00100", "express": False},
        "budget_eur": 99.25,
        "website": "https://rome.example",
        "notes": "line one\nline two",
        "x-extra": {"kept": [1, 2]},
    }
    form.set_value(value)
    assert form.value() == value
    assert form.is_valid(), form.errors()
    assert form.field("cabin").combo.currentText() == "premium"
    assert form.field("budget_eur").spin.value() == pytest.approx(99.25)
    assert isinstance(form.field("notes").editor, QPlainTextEdit)  # maxLength 500 → multi-line
    assert form.field("shipping").selected == 1
    assert json.loads(form.json_text()) == value


def test_a_value_passed_to_the_constructor_replaces_the_defaults(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema, value={"destination": "Oslo", "travellers": []})
    assert form.value() == {"destination": "Oslo", "travellers": []}
    assert form.errors_label.isHidden()


# --------------------------------------------------------------------------- JSON editor ↔ form


def test_editing_the_form_rewrites_the_json_text(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    with qtbot.waitSignal(form.changed, timeout=1000):
        form.field("destination").set_text("Kyoto")
    assert json.loads(form.json_text())["destination"] == "Kyoto"
    form.field("cabin").select("business")
    assert json.loads(form.json_text())["cabin"] == "business"


def test_valid_json_typed_in_the_editor_updates_the_widgets(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    typed = {
        "destination": "Bergen",
        "dates": {"start": "2026-07-01", "end": "2026-07-02"},
        "travellers": [{"name": "C", "age": 30, "email": "c@d.ef"}, {"name": "D", "age": 31, "email": "d@d.ef"}],
        "cabin": "business",
        "shipping": {"kind": "pickup", "desk": "harbour"},
        "budget_eur": 10,
    }
    with qtbot.waitSignal(form.changed, timeout=1000):
        form.json_editor.setPlainText(json.dumps(typed))
    assert form.field("destination").text() == "Bergen"
    assert form.field("cabin").combo.currentText() == "business"
    assert len(form.field("travellers").items) == 2
    assert form.field("travellers", 1, "name").text() == "D"
    assert form.field("shipping", "desk").combo.currentText() == "harbour"
    assert form.field("budget_eur").spin.value() == 10
    assert form.value() == typed
    assert form.is_valid(), form.errors()
    assert json.loads(form.json_text()) == typed  # the typed text is left alone


def test_invalid_json_shows_an_error_and_keeps_the_form(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    _fill_trip(form)
    before = form.value()
    form.json_editor.setPlainText('{"destination": "Half')
    assert form.value() == before
    assert form.field("destination").text() == "Lisbon"
    assert not form.json_error.isHidden()
    assert form.errors()[0].startswith("(json): invalid JSON")
    assert not form.is_valid()
    form.json_editor.setPlainText("[1, 2]")
    assert form.errors()[0].startswith("(json): ")
    form.field("destination").set_text("Lima")  # a form edit rewrites the text: the problem is gone
    assert form.json_error.isHidden()
    assert json.loads(form.json_text())["destination"] == "Lima"
    assert form.is_valid(), form.errors()


def test_empty_values_typed_as_json_are_kept_until_the_field_is_edited(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    _fill_trip(form)
    typed = {**form.value(), "website": None, "notes": ""}
    form.json_editor.setPlainText(json.dumps(typed))
    assert form.value() == typed
    assert form.field("notes").text() == ""
    form.field("notes").set_text("x")
    form.field("notes").set_text("")  # edited back to empty: left out again
    assert "notes" not in form.value() and form.value()["website"] is None
    small = _form(
        qtbot,
        {
            "type": "object",
            "properties": {
                "tags": {"type": "array", "items": {"type": "string"}},
                "o": {"type": "object", "properties": {"a": {"type": "string"}}},
            },
        },
    )
    small.json_editor.setPlainText('{"tags": [], "o": {}}')
    assert small.value() == {"tags": [], "o": {}}
    small.field("o", "a").set_text("y")
    assert small.value() == {"tags": [], "o": {"a": "y"}}


def test_json_values_the_widgets_cannot_show_are_kept_and_reported(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    _fill_trip(form)
    text = json.dumps({**form.value(), "budget_eur": "cheap"})
    form.json_editor.setPlainText(text)
    assert form.value()["budget_eur"] == "cheap"
    assert "budget_eur: must be a number" in form.errors()
    budget = form.field("budget_eur")
    assert budget.foreign and not budget.error_label.isHidden()
    budget.spin.setValue(300)
    assert form.value()["budget_eur"] == 300
    assert form.is_valid()


def test_without_show_json_there_is_no_editor(qtbot):
    form = _form(qtbot, {"type": "object", "properties": {"a": {"type": "string"}}}, show_json=False)
    assert form.json_editor is None
    form.field("a").set_text("x")
    assert form.value() == {"a": "x"}


# --------------------------------------------------------------------------- widgets per schema kind


def test_untrusted_titles_descriptions_and_enum_titles_are_shown_literally(qtbot):
    schema = {
        "type": "object",
        "properties": {
            "x": {"type": "string", "title": HTML, "description": HTML},
            "o": {"type": "object", "title": HTML, "description": HTML, "properties": {"y": {"type": "boolean"}}},
            "e": {"type": "string", "oneOf": [{"const": "a", "title": HTML}]},
        },
    }
    form = _form(qtbot, schema)
    root = form.root
    label = root.row_labels["x"]
    assert label.textFormat() == Qt.TextFormat.PlainText and label.text() == HTML
    field = form.field("x")
    assert field.help_label.textFormat() == Qt.TextFormat.PlainText and field.help_label.text() == HTML
    tooltip = field.editor.toolTip()
    assert "<b" not in tooltip and "&lt;b" in tooltip
    assert root.boxes["o"].title() == HTML.replace("&", "&&")  # "&&" shows "&", never a mnemonic
    nested_help = form.field("o").help_label
    assert nested_help.textFormat() == Qt.TextFormat.PlainText and nested_help.text() == HTML
    assert form.field("e").combo.itemText(1) == HTML


def test_string_formats_get_placeholders_and_are_checked(qtbot):
    schema = {
        "type": "object",
        "properties": {
            "mail": {"type": "string", "format": "email"},
            "link": {"type": "string", "format": "uri"},
            "day": {"type": "string", "format": "date"},
            "when": {"type": "string", "format": "date-time"},
            "at": {"type": "string", "format": "time"},
            "essay": {"type": "string", "format": "textarea"},
            "code": {"type": "string", "pattern": "^[A-Z]{3}$", "minLength": 3, "maxLength": 3},
        },
    }
    form = _form(qtbot, schema)
    assert isinstance(form.field("mail").editor, QLineEdit)
    assert form.field("day").editor.placeholderText() == "YYYY-MM-DD"
    assert isinstance(form.field("essay").editor, QPlainTextEdit)
    bad = {"mail": "nope", "link": "no scheme", "day": "2026-02-30", "when": "tomorrow", "at": "25:00:00", "code": "ab"}
    for key, text in bad.items():
        form.field(key).set_text(text)
    paths = {e.split(": ", 1)[0] for e in form.errors()}
    assert paths == {"mail", "link", "day", "when", "at", "code"}
    good = {"mail": "a@b.cd", "link": "https://x.example/a?b", "day": "2026-02-28", "code": "ABC"}
    for key, text in good.items():
        form.field(key).set_text(text)
    for key in ("when", "at"):
        form.field(key).now_button.click()  # "Now" fills a valid RFC 3339 value
    assert form.is_valid(), form.errors()


def test_numbers_follow_bounds_and_optional_ones_can_be_empty(qtbot):
    schema = {
        "type": "object",
        "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 12},
            "x": {"type": "number", "exclusiveMinimum": 0, "maximum": 5.5},
            "k": {"type": "integer", "exclusiveMaximum": 10},
        },
        "required": ["n"],
    }
    form = _form(qtbot, schema)
    n, x, k = form.field("n"), form.field("x"), form.field("k")
    assert all(isinstance(f, NumberField) for f in (n, x, k))
    assert n.spin.maximum() == 12 and n.spin.minimum() == 0  # 0 is the "empty" slot below 1
    assert k.spin.maximum() == 9
    assert x.spin.maximum() == 5.5
    assert form.value() == {}
    assert form.errors() == ["n: required"]
    n.spin.setValue(12)
    x.spin.setValue(2.25)
    assert form.value() == {"n": 12, "x": 2.25}
    x.spin.setValue(0)  # exclusive bound: the spin allows it, validation does not
    assert form.errors() == ["x: must be more than 0"]
    x.clear_button.click()
    assert form.value() == {"n": 12}
    n.spin.lineEdit().clear()  # clearing the text empties the field
    n.spin.interpretText()
    assert form.value() == {}


def test_booleans_are_tri_state_when_optional(qtbot):
    schema = {
        "type": "object",
        "properties": {
            "must": {"type": "boolean"},
            "maybe": {"type": "boolean"},
            "dflt": {"type": "boolean", "default": True},
        },
        "required": ["must"],
    }
    form = _form(qtbot, schema)
    must, maybe = form.field("must"), form.field("maybe")
    assert isinstance(must, BooleanField) and not must.tristate
    assert maybe.tristate and maybe.check.checkState() == Qt.CheckState.PartiallyChecked
    assert form.value() == {"must": False, "dflt": True}
    maybe.check.setCheckState(Qt.CheckState.Unchecked)
    must.check.setChecked(True)
    assert form.value() == {"must": True, "maybe": False, "dflt": True}


def test_enums_take_titles_from_one_of_and_enum_names(qtbot):
    schema = {
        "type": "object",
        "properties": {
            "size": {"type": "string", "enum": ["s", "m", "l"], "enumNames": ["Small", "Medium", "Large"]},
            "seat": {"type": "string", "oneOf": [{"const": "w", "title": "Window"}, {"const": "a", "title": "Aisle"}]},
            "level": {"type": "integer", "enum": [1, 2, 3], "default": 2},
        },
        "required": ["size"],
    }
    form = _form(qtbot, schema)
    size = form.field("size")
    assert [size.combo.itemText(i) for i in range(size.combo.count())] == ["— choose —", "Small", "Medium", "Large"]
    seat = form.field("seat")
    assert [seat.combo.itemText(i) for i in range(seat.combo.count())] == ["— not set —", "Window", "Aisle"]
    assert form.value() == {"level": 2}
    size.combo.setCurrentIndex(3)
    seat.combo.setCurrentIndex(1)
    assert form.value() == {"size": "l", "seat": "w", "level": 2}


def test_an_array_of_enums_is_a_checkable_list(qtbot):
    schema = {
        "type": "object",
        "properties": {
            "tags": {"type": "array", "items": {"type": "string", "enum": ["a", "b", "c"]}, "uniqueItems": True},
            "colours": {
                "type": "array",
                "items": {"anyOf": [{"const": "#f00", "title": "Red"}, {"const": "#0f0", "title": "Green"}]},
                "minItems": 1,
            },
        },
        "required": ["colours"],
    }
    form = _form(qtbot, schema)
    tags, colours = form.field("tags"), form.field("colours")
    assert isinstance(tags, MultiSelectField) and isinstance(colours, MultiSelectField)
    assert colours.list.item(0).text() == "Red"
    assert form.value() == {"colours": []}
    assert form.errors() == ["colours: needs at least 1 item"]
    tags.set_checked("c")
    tags.set_checked("a")
    colours.list.item(1).setCheckState(Qt.CheckState.Checked)
    assert form.value() == {"tags": ["a", "c"], "colours": ["#0f0"]}
    assert form.is_valid()


def test_arrays_add_remove_and_reorder_rows_within_min_and_max_items(qtbot):
    schema = {
        "type": "object",
        "properties": {"names": {"type": "array", "items": {"type": "string"}, "minItems": 1, "maxItems": 3}},
        "required": ["names"],
    }
    form = _form(qtbot, schema)
    names = form.field("names")
    assert len(names.items) == 1 and form.value() == {"names": [""]}
    names.items[0].set_text("one")
    names.add_item().set_text("two")
    names.add_item().set_text("three")
    assert not names.add_button.isEnabled()  # maxItems 3
    names.add_button.click()
    assert len(names.items) == 3
    names.move_item(2, -1)
    assert form.value() == {"names": ["one", "three", "two"]}
    names.remove_item(0)
    names.remove_item(0)
    assert form.value() == {"names": ["two"]}
    assert not names.row_buttons(0)["remove"].isEnabled()  # minItems 1
    assert names.add_button.isEnabled()


def test_one_of_objects_switch_branches_and_report_the_chosen_branchs_errors(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    _fill_trip(form)
    shipping = form.field("shipping")
    assert [shipping.selector.itemText(i) for i in range(shipping.selector.count())] == [
        "— not set —",
        "Pickup",
        "Delivery",
    ]
    delivery = shipping.choose(1)
    assert form.value()["shipping"] == {"kind": "delivery", "express": False}
    delivery.child("street").set_text("Main 1")
    delivery.child("postcode").set_text("12")
    assert form.errors() == ["shipping/postcode: does not have the expected form"]
    assert form.field("shipping", "postcode").error_label.text() == "Does not have the expected form"
    pickup = shipping.choose(0)  # the branch keeps what it held (here: the default)
    assert form.value()["shipping"] == {"kind": "pickup", "desk": "central-station"}
    assert form.is_valid()
    pickup.child("desk").combo.setCurrentIndex(0)
    assert form.errors() == ["shipping/desk: required"]
    assert form.field("shipping", "desk").error_label.text() == "Required"
    shipping.selector.setCurrentIndex(0)  # "not set": shipping is optional
    assert "shipping" not in form.value() and form.is_valid()


def test_nullable_any_of_is_an_optional_field_with_the_inner_checks(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    _fill_trip(form)
    website = form.field("website")
    assert isinstance(website, StringField) and website.is_nullable
    website.set_text("not a uri")
    assert form.errors() == ["website: is not a URI with a scheme (https://…)"]
    website.set_text("")
    assert "website" not in form.value()
    form.json_editor.setPlainText(json.dumps({**form.value(), "website": None}))
    assert website.text() == "" and form.is_valid()


def test_recursive_refs_stop_at_a_raw_json_field(qtbot):
    schema = {
        "$defs": {
            "Node": {
                "type": "object",
                "properties": {"label": {"type": "string"}, "next": {"$ref": "#/$defs/Node"}},
            }
        },
        "type": "object",
        "properties": {"head": {"$ref": "#/$defs/Node"}},
    }
    form = _form(qtbot, schema)
    node = form.field("head")
    depth = 0
    while isinstance(node, ObjectField):
        node = node.child("next")
        depth += 1
    assert isinstance(node, RawJsonField) and depth == 3
    form.field("head", "next", "label").set_text("second")
    assert form.value() == {"head": {"next": {"label": "second"}}}


def test_unsupported_subtrees_fall_back_to_raw_json_and_bad_json_there_is_an_error(qtbot):
    schema = {
        "type": "object",
        "properties": {
            "counts": {"type": "object", "additionalProperties": {"type": "integer"}},
            "pair": {"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}]},
            "anything": {},
            "broken": {"$ref": "#/$defs/Missing"},
        },
    }
    form = _form(qtbot, schema)
    for key in ("counts", "pair", "anything", "broken"):
        assert isinstance(form.field(key), RawJsonField), key
    form.field("counts").editor.setPlainText('{"a": 1, "b": "two"}')
    assert form.value() == {"counts": {"a": 1, "b": "two"}}
    assert form.errors() == ["counts/b: must be a whole number"]
    form.field("anything").editor.setPlainText("{oops")
    assert any(e.startswith("anything: invalid JSON") for e in form.errors())
    assert "anything" not in form.value()


TYPED = {"p": "x", "q": 1, "s": "abc", "t": [{}], "u": 5}


@pytest.mark.parametrize(
    "schema",
    [
        {},
        {"type": "object"},
        {"type": "object", "properties": {"q": {"type": ["string", "integer"]}, "r": {"type": "bogus"}}},
        {"type": "object", "properties": {"s": {"allOf": [{"type": "string"}, {"minLength": 2}]}}},
        {"type": "object", "properties": {"t": {"type": "array", "items": {"$ref": "#"}}}},
        {"type": "object", "properties": {"u": {"anyOf": [{"type": "string"}, {"type": "integer"}, {"type": "null"}]}}},
        {"$schema": 5, "type": "object", "properties": {"p": {"type": "string"}}},
        {
            "$schema": "http://json-schema.org/draft-07/schema#",
            "definitions": {"D": {"type": "integer"}},
            "type": "object",
            "properties": {"q": {"$ref": "#/definitions/D"}},
        },
    ],
)
def test_odd_schemas_never_crash_and_keep_what_is_typed(qtbot, schema):
    form = _form(qtbot, schema)
    assert isinstance(form.value(), dict)
    form.json_editor.setPlainText(json.dumps(TYPED))
    assert form.value() == TYPED


def test_a_free_form_object_is_edited_as_json(qtbot):
    form = _form(qtbot, {"type": "object"})
    assert isinstance(form.root, RawJsonField)
    form.root.editor.setPlainText('{"k": [1]}')
    assert form.value() == {"k": [1]}
    assert json.loads(form.json_text()) == {"k": [1]}


@pytest.mark.parametrize(
    "bad",
    [{"type": "string", "pattern": "(unclosed"}, {"type": "number", "minimum": "x"}],
)
def test_an_invalid_schema_is_reported_and_still_checked_where_it_can_be(qtbot, bad):
    form = _form(qtbot, {"type": "object", "properties": {"p": bad, "o": {"type": "integer"}}, "required": ["o"]})
    assert form.schema_problem is not None
    assert not form.schema_label.isHidden()
    assert form.schema_label.textFormat() == Qt.TextFormat.PlainText
    assert form.errors() == ["o: required"]
    form.field("o").spin.setValue(1)
    assert form.is_valid()


def test_all_of_parts_are_merged_into_one_field(qtbot):
    schema = {"type": "object", "properties": {"s": {"allOf": [{"type": "string"}, {"minLength": 2}]}}}
    form = _form(qtbot, schema)
    s = form.field("s")
    assert isinstance(s, StringField)
    s.set_text("a")
    assert form.errors() == ["s: needs at least 2 characters"]


def test_nested_objects_sit_in_group_boxes(qtbot, plan_trip_schema):
    form = _form(qtbot, plan_trip_schema)
    box = form.root.boxes["dates"]
    assert isinstance(box, QGroupBox) and box.title() == "Dates *"  # the property's name, not its $ref's class
    assert box.isAncestorOf(form.field("dates", "start"))


def test_typing_into_an_empty_spin_box_and_stepping_from_empty(qtbot):
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 3}, "x": {"type": "number"}}}
    form = _form(qtbot, schema)
    form.show()
    n, x = form.field("n").spin, form.field("x").spin
    line = x.lineEdit()
    line.deselect()
    line.setCursorPosition(len(line.text()))  # after the — shown for "empty"
    qtbot.keyClicks(line, "2.5")
    assert form.value() == {"x": 2.5}
    n.stepBy(1)  # from empty the arrows start at the nearest allowed value to 0
    form.field("x").clear_button.click()
    x.stepBy(-1)
    assert form.value() == {"n": 3, "x": 0.0}


def test_the_summary_names_the_marked_fields_capped_but_errors_has_them_all(qtbot):
    props = {f"f{i:02}": {"type": "string"} for i in range(20)}
    form = _form(qtbot, {"type": "object", "properties": props, "required": list(props)})
    form.reveal_errors()
    assert len(form.errors()) == 20
    (line,) = form.errors_label.text().splitlines()
    assert line == "20 fields to fix (marked above): " + ", ".join(f"F{i:02}" for i in range(12)) + " and 8 more"


def test_nested_arrays_keep_their_own_row_buttons_and_the_buttons_act(qtbot):
    schema = {
        "type": "object",
        "properties": {
            "groups": {
                "type": "array",
                "items": {"type": "array", "items": {"type": "integer"}, "minItems": 1},
                "minItems": 1,
            }
        },
        "required": ["groups"],
    }
    form = _form(qtbot, schema)
    groups = form.field("groups")
    inner = groups.items[0]
    assert isinstance(inner, ArrayField) and len(inner.items) == 1
    inner.items[0].spin.setValue(1)
    inner.add_item().spin.setValue(2)
    groups.add_item()
    assert groups.row_buttons(1)["remove"].isEnabled()
    assert inner.row_buttons(1)["remove"].isEnabled() and inner.row_buttons(0)["remove"].isEnabled()
    inner.row_buttons(1)["move_up"].click()
    assert form.value()["groups"][0] == [2, 1]
    groups.row_buttons(1)["remove"].click()
    assert form.value() == {"groups": [[2, 1]]}
    assert not groups.row_buttons(0)["remove"].isEnabled()
    assert inner.row_buttons(0)["remove"].isEnabled()  # the inner array has two rows over its minimum 1
