"""Shared test support: helpers and fixtures for real servers used by the test suite."""
