"""The PySide6 window: imports ``workbench.core``; the core never imports this package."""
