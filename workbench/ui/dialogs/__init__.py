"""Dialogs opened with ``open()`` and awaited through a future, never ``exec()``."""
