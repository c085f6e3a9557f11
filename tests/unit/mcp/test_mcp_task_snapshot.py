"""An MCP task's details write its time to live and poll interval as every panel writes a duration."""

from __future__ import annotations

from workbench.core.protocols.mcp.task_facet import snapshot
from workbench.core.protocols.mcp.tasks import TaskInfo
from workbench.core.protocols.snapshot import NOT_GIVEN


def test_a_tasks_time_to_live_and_poll_interval_read_as_durations_not_raw_milliseconds() -> None:
    info = TaskInfo(task_id="t1", status="working", ttl=300_000, poll_interval=1500)
    rows = {row.label: row.value for section in snapshot(info, "research").sections for row in section.rows}
    assert rows["Time to live"] == "5 min 00 s"
    assert rows["Poll interval"] == "1.5 s"
    bare = {
        row.label: row.value for section in snapshot(TaskInfo("t2", "working"), None).sections for row in section.rows
    }
    assert bare["Time to live"] == bare["Poll interval"] == NOT_GIVEN
