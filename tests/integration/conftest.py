"""Fixtures for tests that run real servers: no child process may outlive its test."""

from __future__ import annotations

from tests.support.processes import no_leaked_children

__all__ = ["no_leaked_children"]  # an autouse fixture
