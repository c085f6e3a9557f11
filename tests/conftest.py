"""Configuration shared by the whole test tree (plugins and fixtures every test package may use)."""

# --- server-everything fixtures (tests/support/fixtures.py) -------------------------------------
# everything_stdio, everything_http_url, everything_sse_url, everything_leak_check.
# Other helpers: add your plugin modules to this list (pytest_plugins is only honoured here, in the
# top-level conftest), keeping this entry.
pytest_plugins = ["tests.support.fixtures"]
# --- end server-everything fixtures -------------------------------------------------------------
