"""Bundled deterministic demo agents (no LLM, loopback only) and scenarios."""
