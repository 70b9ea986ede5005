"""Shared pytest fixtures for every test folder (kept small: helpers live next to tests)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from pg_server import PostgresServer, postgres_available

# Time never decides a test (the suite passes on a busy machine): no example has a
# deadline, and the health check that times data generation is off everywhere (it failed
# a text test at load 30: "only generated 9 valid inputs after 1.17 seconds").
settings.register_profile("any-machine", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("any-machine")

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "spec" / "examples"


@pytest.fixture(scope="session")
def examples_dir() -> Path:
    """The spec's example records (docs/spec/GAME-RECORD.md "Examples"), copied into the repo."""
    assert (EXAMPLES / "seed000-made-8.json").is_file(), f"missing examples in {EXAMPLES}"
    return EXAMPLES


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server for the session (tests/pg_server.py); skipped only
    when PostgreSQL is not installed (scripts/test.sh installs it)."""
    if not postgres_available():
        pytest.skip("PostgreSQL is not installed (scripts/test.sh installs it)")
    server = PostgresServer().start()
    yield server
    server.stop()


def grouped_by_folder(args: list[str]) -> list[str]:
    """``args`` with the paths of one folder next to each other, folders in the order they
    first appear and each folder's paths in the order given.

    pytest 9.1 binds a folder's conftest fixtures to the first collector of that folder:
    when the command line interleaves folders (``tests/rooms/a.py tests/b.py
    tests/rooms/c.py``) it collects ``tests/rooms`` twice and the second collector has no
    fixtures ("fixture 'make_server' not found"; pytest-dev/pytest#14964, #15071).
    Keeping each folder's arguments together collects it once."""
    groups: dict[Path, list[str]] = {}
    for arg in args:
        path = Path(arg.split("::", 1)[0])
        folder = path if path.is_dir() else path.parent
        groups.setdefault(folder.resolve(), []).append(arg)
    return [arg for group in groups.values() for arg in group]


def pytest_configure(config: pytest.Config) -> None:
    """Run a command line's test files grouped by folder (``grouped_by_folder``)."""
    config.args[:] = grouped_by_folder(list(config.args))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the browser tests last in a run on one process: the rest gives its verdict
    sooner (each browser file closes its Chromium when it ends, tests/e2e/conftest.py)."""
    items.sort(key=lambda item: "e2e" in item.path.parts)
