"""The ``tasks`` subcommands of the command line: ``list``, ``get``, ``result`` and ``cancel`` (MCP tasks)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


def add_tasks_commands(
    sub: Any, common: argparse.ArgumentParser, add_target_options: Callable[[argparse.ArgumentParser], None]
) -> None:
    """Add ``tasks list|get|result|cancel`` to ``sub``, each with the target options and ``common``'s."""
    tasks = sub.add_parser("tasks", help="an MCP server's tasks (2026-07-28 Tasks extension or 2025-11-25 tasks)")
    tasks_sub = tasks.add_subparsers(dest="tasks_command", required=True)
    tasks_list = tasks_sub.add_parser("list", parents=[common], help="list the tasks (2025-11-25 servers list theirs)")
    add_target_options(tasks_list)
    for name, about in (
        ("get", "show a task's status, its pending input requests or its outcome"),
        ("result", "wait for a task to end and print its result (answering its questions)"),
        ("cancel", "ask the server to cancel a task, then show its status"),
    ):
        action = tasks_sub.add_parser(name, parents=[common], help=about)
        add_target_options(action)
        action.add_argument("task_id", metavar="TASK_ID")
        if name == "result":
            action.add_argument(
                "--wait", type=float, default=None, metavar="SECONDS", help="give up after this long (default 60)"
            )
            action.add_argument(
                "--answer", action="append", default=[], metavar="JSON|TEXT|decline|cancel", help="answers, in order"
            )
