"""``workbench tasks list|get|result|cancel``: an MCP server's tasks, in whichever shape it negotiated.

A server speaking the 2026-07-28 Tasks extension keeps no list a client can ask for (no
``tasks/list``): a new connection knows no tasks, so ``list`` says so and ``get``, ``result`` and
``cancel`` take the id a call reported. A 2025-11-25 server lists its tasks.
Every text the server sent is printed inert (``neutralise``); ``--json`` prints one object a line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from workbench.cli.options import TasksOptions
from workbench.cli.render import print_json
from workbench.cli.terminal import STDERR, STDOUT
from workbench.core.protocols.contract import RemoteAgent
from workbench.core.protocols.snapshot import Row, TaskSnapshot, TaskSummary
from workbench.core.safe_text import neutralise, neutralise_line

if TYPE_CHECKING:
    from workbench.core.protocols.mcp.task_facet import MCPTaskOperations

EXIT_OK, EXIT_FAILED = 0, 1
DEFAULT_WAIT_S = 60.0


async def run_tasks(agent: RemoteAgent, options: TasksOptions) -> int:
    """Run one ``tasks`` subcommand against a connected MCP agent; returns the exit code.

    Raises:
        WorkbenchError: The server offers no tasks (``UnsupportedCapabilityError``), the task is not
            known (``NotFoundError``), the wait ran out (``RequestTimeoutError``) or the task failed.
    """
    from workbench.core.protocols.mcp.task_facet import MCPTaskOperations

    ops = agent.tasks
    assert isinstance(ops, MCPTaskOperations)  # _check_usage let only MCP targets through
    shape = await ops.shape()
    as_json = options.output.json
    if options.action == "list":
        rows = await ops.list_tasks()
        for row in rows:
            if as_json:
                print_json({**_summary_dict(row), "shape": shape})
            else:
                print(neutralise_line(_summary_line(row)), file=STDOUT)
        if not rows and not as_json:
            why = " (the 2026-07-28 Tasks extension has no tasks/list; use a task id)" if shape == "2026-07-28" else ""
            print(neutralise_line(f"[workbench] {agent.name!r} lists no tasks{why}"), file=STDERR)
        return EXIT_OK
    assert options.task_id is not None
    if options.action == "get":
        _print_snapshot(await ops.get_task(options.task_id), as_json=as_json)
        return EXIT_OK
    if options.action == "cancel":
        snapshot = await ops.cancel_task(options.task_id)
        _print_snapshot(snapshot, as_json=as_json)
        return EXIT_OK
    return await _result(ops, options, as_json=as_json)


async def _result(ops: MCPTaskOperations, options: TasksOptions, *, as_json: bool) -> int:
    assert options.task_id is not None
    wait = options.wait if options.wait is not None else DEFAULT_WAIT_S
    result = await ops.result(options.task_id, timeout=wait)
    if as_json:
        print_json({"task_id": options.task_id, "result": result.to_dict()})
    else:
        text = result.text or ""
        print(neutralise(text), end="" if text.endswith("\n") or not text else "\n", file=STDOUT)
        if result.is_error:
            print(f"[workbench] task {neutralise_line(options.task_id)} ended with a tool error", file=STDERR)
    return EXIT_FAILED if result.is_error else EXIT_OK


def _summary_dict(row: TaskSummary) -> dict[str, Any]:
    return {"task_id": row.task_id, "tool": row.tool or None, "state": row.state, "terminal": row.terminal}


def _summary_line(row: TaskSummary) -> str:
    return f"{row.task_id}  {row.state}  {row.tool or '-'}"


def _print_snapshot(snapshot: TaskSnapshot, *, as_json: bool) -> None:
    if as_json:
        import json

        print_json({**_summary_dict(snapshot.summary), "task": json.loads(snapshot.json)})
        return
    for section in snapshot.sections:
        print(neutralise_line(section.title), file=STDOUT)
        for row in section.rows:
            _print_row(row, "  ")


def _print_row(row: Row, indent: str) -> None:
    print(neutralise_line(f"{indent}{row.label}: {row.value}"), file=STDOUT)
    for child in row.children:
        _print_row(child, indent + "  ")
