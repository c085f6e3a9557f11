"""Demo scenarios: several bundled agents working together, runnable headless or in the window."""

SCENARIOS: tuple[str, ...] = ("handoff",)
"""Names ``workbench demo --scenario`` accepts."""

__all__ = ["SCENARIOS"]
