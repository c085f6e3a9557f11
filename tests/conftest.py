"""Configuration shared by the whole test tree (plugins and fixtures every test package may use)."""

# --- server-everything fixtures (tests/support/fixtures.py) -------------------------------------
# everything_stdio, everything_http_url, everything_sse_url, everything_leak_check.
# Other helpers: add your plugin modules to this list (pytest_plugins is only honoured here, in the
# top-level conftest), keeping this entry.
pytest_plugins = ["tests.support.fixtures"]
# --- end server-everything fixtures -------------------------------------------------------------

# --- Hypothesis: random exploration at a desk, the same examples in CI -------------------------------
import os  # noqa: E402

from hypothesis import settings as _hypothesis_settings  # noqa: E402

_hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    # CI must not fail on an example no earlier run tried: a failure found at a desk is fixed and
    # kept as an explicit case (tests/unit/a2a/test_a2a_stream_parse.py's lone surrogate, say).
    _hypothesis_settings.load_profile("ci")

# --- cheap garbage collections -------------------------------------------------------------------
import gc  # noqa: E402


def pytest_collection_finish(session: object) -> None:
    """Freeze what collection imported (both SDKs, Qt, pytest: ~125,000 objects) out of the collector.

    The window's tests collect garbage after every test (tests/ui/conftest.py) and every worker runs
    automatic full collections; each walked all of it again (~0.2 s a time). Frozen objects are
    never freed, which is what module-level objects are anyway.
    """
    gc.collect()
    gc.freeze()


# --- house rule: an unexpected ERROR log fails the test ------------------------------------------
import logging  # noqa: E402
from collections.abc import Iterator  # noqa: E402

import pytest  # noqa: E402


class _ErrorLogCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@pytest.fixture(autouse=True)
def fail_on_unexpected_error_logs(request: pytest.FixtureRequest) -> Iterator[None]:
    """ERROR (and worse) log records fail the test unless it is marked ``expected_error_logs``."""
    collector = _ErrorLogCollector()
    root = logging.getLogger()
    root.addHandler(collector)
    try:
        yield
    finally:
        root.removeHandler(collector)
    marker = request.node.get_closest_marker("expected_error_logs")
    if marker is None and collector.records:
        lines = "\n".join(f"{r.name}: {r.getMessage()}"[:300] for r in collector.records[:5])
        pytest.fail(f"unexpected ERROR log records:\n{lines}", pytrace=False)
