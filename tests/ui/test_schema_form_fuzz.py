"""Fuzzing the schema → form builder with random JSON Schemas (Hypothesis, bounded, offscreen Qt).

A server's ``inputSchema`` is untrusted: nesting, enums, ``oneOf``/``anyOf``/``allOf``, ``$ref``
(dangling, remote, self-referencing, in cycles), odd types and invalid keywords. Whatever arrives,
``SchemaForm`` builds (odd subtrees become raw JSON fields), stays bounded in size, keeps its JSON
pane in sync, and reports problems as data (``errors()``, ``schema_problem``), never by raising.
Values round-trip through the form for simple schemas.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication, QWidget

from workbench.ui.forms.schema_form import SchemaForm

FUZZ = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
MAX_WIDGETS = 20_000
"""A form with more widgets than this has unfolded a cycle it should have cut."""

names = st.text(alphabet="abcxyz_$~/ é", min_size=1, max_size=6)
scalars = (
    st.none() | st.booleans() | st.integers(-1000, 1000) | st.floats(allow_nan=False, width=32) | st.text(max_size=8)
)
types = st.sampled_from(["string", "number", "integer", "boolean", "null", "object", "array", "foo", 7]) | st.lists(
    st.sampled_from(["string", "number", "integer", "boolean", "null", "object", "array"]), max_size=3
)
refs = st.sampled_from(
    ["#", "#/$defs/A", "#/$defs/B", "#/definitions/C", "#/$defs/missing", "#/properties", "x.json", 5]
)
formats = st.sampled_from(["date", "date-time", "time", "email", "uri", "uuid", "nonsense"])


def leaf() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.fixed_dictionaries({"type": types}),
        st.fixed_dictionaries(
            {"type": st.just("string")},
            optional={
                "format": formats,
                "pattern": st.sampled_from(["^a+$", "(", "[", "\\p{L}"]),
                "minLength": st.integers(-1, 5),
                "maxLength": st.integers(-1, 5),
                "default": scalars,
            },
        ),
        st.fixed_dictionaries(
            {"type": st.sampled_from(["number", "integer"])},
            optional={
                "minimum": scalars,
                "maximum": scalars,
                "exclusiveMinimum": scalars,
                "multipleOf": scalars,
                "default": scalars,
            },
        ),
        st.fixed_dictionaries({"enum": st.lists(scalars, max_size=5)}, optional={"type": types, "default": scalars}),
        st.fixed_dictionaries({"const": scalars}),
        st.fixed_dictionaries({"$ref": refs}, optional={"description": st.text(max_size=10)}),
        st.just({}),
        st.booleans(),
        scalars,  # not a schema at all
    )


def extend(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(
        st.fixed_dictionaries(
            {"type": st.just("object"), "properties": st.dictionaries(names, children, max_size=4)},
            optional={
                "required": st.lists(names, max_size=3) | scalars,
                "additionalProperties": st.booleans() | children,
            },
        ),
        st.fixed_dictionaries(
            {"type": st.just("array")},
            optional={
                "items": children | st.lists(children, max_size=2),
                "minItems": st.integers(-1, 3),
                "uniqueItems": st.booleans(),
            },
        ),
        st.fixed_dictionaries(
            {
                "type": st.just("array"),
                "items": st.fixed_dictionaries({"enum": st.lists(scalars, min_size=1, max_size=4)}),
            }
        ),
        st.fixed_dictionaries({st.sampled_from(["oneOf", "anyOf", "allOf"]): st.lists(children, max_size=3)}),  # type: ignore[dict-item]
        st.fixed_dictionaries({"anyOf": st.tuples(children, st.just({"type": "null"})).map(list)}),
        st.fixed_dictionaries({"not": children}),
        st.fixed_dictionaries({"$ref": refs, "properties": st.dictionaries(names, children, max_size=2)}),
    )


schemas = st.recursive(leaf(), extend, max_leaves=12)


@st.composite
def root_schemas(draw: Any) -> Any:
    """A root object schema whose ``$defs``/``definitions`` may point at each other and at the root."""
    root: dict[str, Any] = {"type": "object", "properties": draw(st.dictionaries(names, schemas, max_size=5))}
    defs = draw(
        st.fixed_dictionaries(
            {},
            optional={
                "A": schemas | st.just({"type": "object", "properties": {"next": {"$ref": "#/$defs/A"}}}),
                "B": schemas | st.just({"$ref": "#/$defs/A"}) | st.just({"$ref": "#/$defs/B"}),
            },
        )
    )
    if defs:
        root["$defs"] = defs
    if draw(st.booleans()):
        root["definitions"] = {"C": draw(schemas | st.just({"type": "array", "items": {"$ref": "#"}}))}
    if draw(st.booleans()):
        root["required"] = draw(st.lists(names, max_size=3))
    if draw(st.booleans()):
        root["$schema"] = draw(st.sampled_from(["http://json-schema.org/draft-07/schema#", "urn:nonsense", 3]))
    return draw(st.just(root) | schemas)  # sometimes the root itself is odd (a list, a string, a bare $ref)


def dispose(form: QWidget) -> None:
    form.deleteLater()
    QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)


@FUZZ
@given(root_schemas(), st.dictionaries(names, scalars | st.lists(scalars, max_size=2), max_size=3))
@example({"type": "object", "properties": {"_": {"const": "\xa0"}}}, {})  # the JSON pane keeps a no-break space
@example({"type": "object", "properties": {"a": {}, "b": {}}, "required": True}, {})
def test_any_schema_builds_a_bounded_form_that_reports_problems_as_data(
    qapp: QApplication, schema: Any, typed: dict[str, Any]
) -> None:
    form = SchemaForm(schema)
    try:
        assert len(form.findChildren(QWidget)) < MAX_WIDGETS
        value = form.value()
        assert isinstance(value, dict)
        assert form.json_editor is not None
        assert json.loads(form.json_text()) == value  # the JSON pane shows the value
        assert all(isinstance(e, str) for e in form.errors())
        assert form.is_valid() == (not form.errors())
        assert form.schema_problem is None or isinstance(form.schema_problem, str)
        form.json_editor.setPlainText(json.dumps(typed))  # whatever the user types
        assert all(isinstance(e, str) for e in form.errors())
        form.json_editor.setPlainText("{not json")
        assert any(e.startswith("(json)") for e in form.errors())
        form.set_value({})
        form.reveal_errors()
    finally:
        dispose(form)


def test_a_node_referring_to_itself_from_many_properties_does_not_unfold_exponentially(qapp: QApplication) -> None:
    """Eight self-references: cut at depth 3 alone they would unfold into ~38,000 widgets (18 s, 460 MB)."""
    schema = {"type": "object", "properties": {f"p{i}": {"$ref": "#"} for i in range(8)}}
    form = SchemaForm(schema)
    try:
        assert len(form.findChildren(QWidget)) < 5_000
        form.field("p0", "p1").set({"p2": {"p3": {"x": 1}}})  # the cut subtrees still take any JSON
        assert form.value()["p0"]["p1"] == {"p2": {"p3": {"x": 1}}}
    finally:
        dispose(form)


@st.composite
def simple_schema_and_value(draw: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """A flat object schema of scalars and enums, and a value that satisfies it."""
    props: dict[str, Any] = {}
    value: dict[str, Any] = {}
    for name in draw(st.lists(st.text(alphabet="abcdefgh", min_size=1, max_size=6), unique=True, max_size=6)):
        kind = draw(st.sampled_from(["string", "integer", "number", "boolean", "enum", "array"]))
        if kind == "string":
            props[name], v = {"type": "string"}, draw(st.text(min_size=1, max_size=20).filter(lambda s: s.strip() == s))
        elif kind == "integer":
            props[name], v = {"type": "integer"}, draw(st.integers(-(10**6), 10**6))
        elif kind == "number":
            props[name] = {"type": "number"}
            v = draw(st.floats(-1e6, 1e6, allow_nan=False).map(lambda f: round(f, 4)).filter(math.isfinite))
        elif kind == "boolean":
            props[name], v = {"type": "boolean"}, draw(st.booleans())
        elif kind == "enum":
            options = draw(
                st.lists(st.text(alphabet="xyz", min_size=1, max_size=3), min_size=1, max_size=4, unique=True)
            )
            props[name], v = {"enum": options}, draw(st.sampled_from(options))
        else:
            props[name] = {"type": "array", "items": {"type": "integer"}}
            v = draw(st.lists(st.integers(-100, 100), max_size=4))
        if draw(st.booleans()):
            value[name] = v
    required = [n for n in value if draw(st.booleans())]
    schema: dict[str, Any] = {"type": "object", "properties": props}
    if required:
        schema["required"] = required
    return schema, value


@FUZZ
@given(simple_schema_and_value())
def test_a_value_of_a_simple_schema_round_trips_through_the_form(
    qapp: QApplication, case: tuple[dict[str, Any], dict[str, Any]]
) -> None:
    schema, value = case
    form = SchemaForm(schema, value=value)
    try:
        assert form.value() == value
        assert form.errors() == [], form.errors()
        form.set_value({})
        form.set_value(value)
        assert form.value() == value
    finally:
        dispose(form)


@pytest.mark.parametrize(
    "schema",
    [
        {"type": "object", "properties": {"a": {"$ref": "#"}}},
        {"$ref": "#"},
        {"$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}, "properties": {"x": {"$ref": "#/$defs/A"}}},
        {"properties": {"x": {"anyOf": [{"$ref": "#"}, {"$ref": "#/properties/x"}]}}},
        {
            "type": "object",
            "properties": {"l": {"$ref": "#/properties/r"}, "r": {"type": "array", "items": {"$ref": "#"}}},
        },
    ],
)
def test_reference_cycles_build_a_finite_form(qapp: QApplication, schema: dict[str, Any]) -> None:
    form = SchemaForm(schema)
    try:
        assert len(form.findChildren(QWidget)) < MAX_WIDGETS
        assert isinstance(form.value(), dict)
    finally:
        dispose(form)
