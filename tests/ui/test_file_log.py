"""The window's log file: what the Help menu opens; peer text in it is inert."""

from __future__ import annotations

import logging
from pathlib import Path

from workbench.ui.help import file_log, log_folder


def test_log_records_land_in_the_log_folder_with_escape_sequences_shown_not_kept(tmp_path: Path) -> None:
    folder = log_folder(tmp_path)
    level = logging.getLogger("workbench").level
    with file_log(folder) as handler:
        logging.getLogger("workbench.test").warning("server said %s", "\x1b]0;pwned\x07\x1b[2J hi")
    assert handler not in logging.getLogger("workbench").handlers
    assert logging.getLogger("workbench").level == level  # the process's logging is as it was
    text = (folder / "workbench.log").read_text(encoding="utf-8")
    assert "server said" in text and "hi" in text
    assert "\x1b" not in text and "\x07" not in text
    assert "\\x1b" in text
