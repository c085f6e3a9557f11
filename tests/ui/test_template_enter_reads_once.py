"""Enter in a resource template field reads the resource once, with or without the suggestion popup open."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt

from tests.support.mcp_inspector import focused_template_field, inspector
from tests.support.signals import SignalLog


@pytest.mark.asyncio
async def test_one_enter_in_the_open_suggestion_popup_reads_the_resource_once(qtbot: Any, tmp_path: Any) -> None:
    async with inspector(tmp_path, qtbot) as it:
        field = await focused_template_field(qtbot, it)
        asked: list[str] = []
        read = it.widget.vm.read_resource

        def counting(uri: str, purpose: str, *args: Any, **kwargs: Any) -> Any:
            asked.append(uri)
            return read(uri, purpose, *args, **kwargs)

        it.widget.vm.read_resource = counting  # type: ignore[method-assign]
        completions = SignalLog(it.widget.vm.completions_ready)
        reads = SignalLog(it.widget.vm.resource_read)
        qtbot.keyClicks(field, "42")
        await completions.wait_for(lambda key, values: values == ["42"] and field.text() == "42")
        popup = field.completer().popup()
        assert popup.isVisible()
        qtbot.keyClick(popup, Qt.Key.Key_Return)  # the key goes to the open popup, as for a user
        await reads.wait_for()
        assert asked == ["demo://items/42"]
        # and with no popup open, one Enter is one read as well
        assert not popup.isVisible()
        qtbot.keyClick(field, Qt.Key.Key_Return)
        await reads.wait_for(lambda *args: len(reads.events) > 1)
        assert asked == ["demo://items/42", "demo://items/42"]
