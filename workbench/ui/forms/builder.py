"""Chooses the field class for a schema node and prefills its default; anything odd becomes raw JSON."""

from __future__ import annotations

import logging
from typing import Any

from workbench.ui.forms.compound_fields import ArrayField, ChoiceField, MultiSelectField, ObjectField
from workbench.ui.forms.field_base import Field, FormContext
from workbench.ui.forms.file_field import FileField, is_file_input
from workbench.ui.forms.scalar_fields import (
    BooleanField,
    ConstField,
    EnumField,
    NumberField,
    RawJsonField,
    StringField,
)
from workbench.ui.forms.schema_tools import SchemaResolver, Shape

log = logging.getLogger(__name__)

MAX_RECURSIVE_FIELDS = 32
"""Most fields one form builds inside ``$ref`` cycles; past it each further subtree is one raw JSON field.

``MAX_REF_DEPTH`` cuts a cycle's depth, but a node that refers to itself from k properties still
unfolds into k**depth fields (k = 8: 38,000 widgets, 18 s, 460 MB); this bounds the breadth too.
"""

_CLASSES: dict[str, type[Field]] = {
    "string": StringField,
    "number": NumberField,
    "integer": NumberField,
    "boolean": BooleanField,
    "null": ConstField,
    "const": ConstField,
    "enum": EnumField,
    "multiselect": MultiSelectField,
    "array": ArrayField,
    "object": ObjectField,
    "choice": ChoiceField,
    "raw": RawJsonField,
}


def build_field(
    ctx: FormContext, schema: Any, refs: tuple[str, ...] = (), *, required: bool, item: bool = False
) -> Field:
    """The field editing ``schema``, with its ``default`` filled in.

    A schema the form cannot model, or one whose widgets fail to build, becomes a raw JSON field
    for that subtree only; so does every subtree inside a ``$ref`` cycle past
    ``MAX_RECURSIVE_FIELDS``.
    """
    shape = ctx.resolver.shape(schema, refs)
    if shape.kind != "raw" and len(set(shape.refs)) < len(shape.refs):  # inside a reference cycle
        ctx.recursive_fields += 1
        if ctx.recursive_fields > MAX_RECURSIVE_FIELDS:
            shape = Shape("raw", shape.schema, shape.nullable, refs=shape.refs)
    cls = FileField if shape.kind == "string" and is_file_input(shape.schema) else _CLASSES[shape.kind]
    try:
        field = cls(shape, ctx, required=required, item=item)
        field.apply_default()
    except Exception:  # a server's odd schema must never break the form
        log.warning("schema node %r shown as raw JSON", shape.kind, exc_info=True)
        field = RawJsonField(
            Shape("raw", shape.schema, shape.nullable, refs=shape.refs), ctx, required=required, item=item
        )
        field.apply_default()
    return field


def new_context(root: Any) -> FormContext:
    """A form context over ``root`` whose ``make`` builds with ``build_field``."""
    return FormContext(resolver=SchemaResolver(root), build=build_field)
