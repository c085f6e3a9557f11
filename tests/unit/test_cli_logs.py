"""The command line's log records go to the debug log file, never to the terminal."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path

import pytest

from workbench.cli.logs import DebugLogHandler, route_to_debug_log


@pytest.fixture
def restore_root_logger() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        yield
    finally:
        for handler in root.handlers:
            if handler not in handlers:
                root.removeHandler(handler)
                handler.close()
        root.setLevel(level)


@pytest.mark.expected_error_logs
def test_an_sdk_traceback_goes_to_the_file_and_not_to_stderr(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], restore_root_logger: None
) -> None:
    path = tmp_path / "logs" / "cli.log"
    handler = route_to_debug_log(path)
    assert not path.exists()  # a quiet run touches no file
    try:
        raise RuntimeError("race at close")
    except RuntimeError:
        logging.getLogger("mcp.client.session").exception("Unhandled exception in receive loop")
    logging.getLogger("asyncio").debug("below the level: dropped")
    out, err = capfd.readouterr()
    assert (out, err) == ("", "")
    text = path.read_text(encoding="utf-8")
    assert "Traceback" in text and "race at close" in text and "mcp.client.session" in text
    assert "dropped" not in text
    assert handler.records == 1


def test_debug_mode_records_deprecations_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore_root_logger: None
) -> None:
    monkeypatch.setenv("WORKBENCH_DEBUG", "1")
    path = tmp_path / "cli.log"
    route_to_debug_log(path)
    logging.getLogger("workbench.deprecations").debug("MCPDeprecationWarning: logging capability")
    assert "MCPDeprecationWarning" in path.read_text(encoding="utf-8")


def test_installing_twice_keeps_one_handler(tmp_path: Path, restore_root_logger: None) -> None:
    route_to_debug_log(tmp_path / "a.log")
    route_to_debug_log(tmp_path / "b.log")
    assert sum(isinstance(h, DebugLogHandler) for h in logging.getLogger().handlers) == 1
