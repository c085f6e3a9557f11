"""Answering an A2A agent's questions through the app's input-required dialog, as a person would."""

from __future__ import annotations

import asyncio
from typing import Any

from workbench.core.protocols.base import InputRequest, InputResponse
from workbench.ui.asyncutil import open_dialog
from workbench.ui.dialogs.input_required import InputRequiredDialog


class DialogAnswers:
    """An input handler that opens the app's dialog for each question; the test answers or closes it.

    Args:
        qtbot: pytest-qt's bot, which owns (and deletes) each dialog.
    """

    def __init__(self, qtbot: Any) -> None:
        self.qtbot = qtbot
        self.dialogs: asyncio.Queue[InputRequiredDialog] = asyncio.Queue()
        """The dialogs opened, in order: a test takes each to answer it."""

    async def __call__(self, request: InputRequest) -> InputResponse:
        """Open the dialog for ``request``; what it was answered with (an empty answer if closed)."""
        dialog = InputRequiredDialog(request)
        self.qtbot.addWidget(dialog)
        self.dialogs.put_nowait(dialog)
        await open_dialog(dialog)
        return dialog.response() or InputResponse()  # closed unanswered: the task keeps waiting
