"""Fast constructors build the same objects as the dataclasses' own constructors."""

from __future__ import annotations

import dataclasses

import pytest

from workbench.core.fastinit import fast_constructor
from workbench.core.protocols.base import ArtifactUpdated, ContentPart


def test_fast_artifact_updated_equals_the_regular_one_field_by_field() -> None:
    make = fast_constructor(ArtifactUpdated)
    parts = [ContentPart("text", text="x")]
    fast = make(artifact_id="a", parts=parts, agent="A", task_id="t")
    slow = ArtifactUpdated(artifact_id="a", parts=parts, agent="A", task_id="t", at=fast.at)
    assert fast == slow
    for f in dataclasses.fields(ArtifactUpdated):
        assert getattr(fast, f.name) == getattr(slow, f.name)
    assert fast.kind is slow.kind
    assert fast.to_dict() == slow.to_dict()


def test_fast_content_part_uses_defaults_and_is_still_frozen() -> None:
    part = fast_constructor(ContentPart)(type="text", text="hi")
    assert part == ContentPart("text", text="hi")
    with pytest.raises(dataclasses.FrozenInstanceError):
        part.text = "changed"  # type: ignore[misc]


def test_fast_constructor_refuses_what_it_cannot_build() -> None:
    @dataclasses.dataclass
    class NoSlots:
        x: int

    with pytest.raises(TypeError):
        fast_constructor(NoSlots)
    with pytest.raises(TypeError):
        fast_constructor(ArtifactUpdated)(parts=[])  # artifact_id is required


def test_positional_constructor_builds_the_same_wire_record() -> None:
    from workbench.core.wire.records import Direction, WireKind, WireRecord
    from workbench.core.wire.store import make_record

    args = (1, "c", Direction.OUT, WireKind.JSONRPC, 1.0, 2.0, "m", "1", None, 3, "{}", None, "mcp", "s")
    assert make_record(*args) == WireRecord(*args)
